//! Helpers of the eventlog tests: a sink that records everything, the corpus pairs, and
//! a writer of synthetic eventlogs.

use std::path::{Path, PathBuf};

use hp2ps::read::{HeaderField, Sink};

/// A sample: its time and its (name, value) points in order.
pub type Sample = (f64, Vec<(Vec<u8>, f64)>);

/// Everything a reader said, in order.
#[derive(Default, Debug)]
pub struct Recorder {
    pub header: [Vec<u8>; 4],
    pub marks: Vec<f64>,
    pub samples: Vec<Sample>,
    open: Option<Sample>,
}

impl Sink for Recorder {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        let i = HeaderField::ALL.iter().position(|&f| f == field).unwrap();
        self.header[i] = text.to_vec();
    }
    fn mark(&mut self, time: f64) {
        self.marks.push(time);
    }
    fn begin_sample(&mut self, time: f64) {
        match &mut self.open {
            Some((t, _)) => *t = time,
            None => self.open = Some((time, Vec::new())),
        }
    }
    fn end_sample(&mut self) {
        if let Some(s) = self.open.take() {
            self.samples.push(s);
        }
    }
    fn data(&mut self, name: &[u8], value: f64) {
        self.open
            .get_or_insert((f64::NAN, Vec::new()))
            .1
            .push((name.to_vec(), value));
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        self.open.take().is_some()
    }
}

/// The corpus folder.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/eventlog")
}

/// The corpus pairs' names (without extension), sorted.
pub fn names() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "eventlog").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    v.sort();
    v
}

/// Writes synthetic eventlogs: a header declaring the given types, then events.
pub struct Writer {
    pub bytes: Vec<u8>,
}

/// The types a synthetic log declares: (id, size; 0xFFFF = variable).
pub const TYPES: &[(u16, u16)] = &[
    (9, 0),
    (10, 0),
    (18, 14),
    (22, 0),
    (29, 0xFFFF),
    (30, 0xFFFF),
    (43, 16),
    (50, 12),
    (51, 12),
    (58, 0xFFFF),
    (160, 0xFFFF),
    (161, 0xFFFF),
    (162, 8),
    (163, 0xFFFF),
    (164, 0xFFFF),
    (165, 8),
    (166, 16),
    (169, 0xFFFF),
];

impl Writer {
    /// A header declaring `types`, up to and including `datb`.
    pub fn new(types: &[(u16, u16)]) -> Writer {
        let mut v = b"hdrbhetb".to_vec();
        for &(id, size) in types {
            v.extend_from_slice(b"etb\0");
            v.extend_from_slice(&id.to_be_bytes());
            v.extend_from_slice(&size.to_be_bytes());
            v.extend_from_slice(&4u32.to_be_bytes());
            v.extend_from_slice(b"desc");
            v.extend_from_slice(&0u32.to_be_bytes());
            v.extend_from_slice(b"ete\0");
        }
        v.extend_from_slice(b"hetehdredatb");
        Writer { bytes: v }
    }

    /// A fixed-size event.
    pub fn fixed(&mut self, id: u16, time: u64, payload: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(&id.to_be_bytes());
        self.bytes.extend_from_slice(&time.to_be_bytes());
        self.bytes.extend_from_slice(payload);
        self
    }

    /// A variable-size event.
    pub fn var(&mut self, id: u16, time: u64, payload: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(&id.to_be_bytes());
        self.bytes.extend_from_slice(&time.to_be_bytes());
        self.bytes
            .extend_from_slice(&(payload.len() as u16).to_be_bytes());
        self.bytes.extend_from_slice(payload);
        self
    }

    /// HEAP_PROF_BEGIN with a breakdown code and a sampling period in ns.
    pub fn prof_begin(&mut self, time: u64, breakdown: u32, period: u64) -> &mut Self {
        let mut p = vec![0u8];
        p.extend_from_slice(&period.to_be_bytes());
        p.extend_from_slice(&breakdown.to_be_bytes());
        p.extend_from_slice(&[0; 7]);
        self.var(160, time, &p)
    }

    /// A string band of the open census.
    pub fn string(&mut self, time: u64, label: &[u8], bytes: u64) -> &mut Self {
        let mut p = vec![0u8];
        p.extend_from_slice(&bytes.to_be_bytes());
        p.extend_from_slice(label);
        p.push(0);
        self.var(164, time, &p)
    }

    /// A cost-centre-stack band of the open census (ccids innermost first).
    pub fn stack(&mut self, time: u64, ccids: &[u32], bytes: u64) -> &mut Self {
        let mut p = vec![0u8];
        p.extend_from_slice(&bytes.to_be_bytes());
        p.push(ccids.len() as u8);
        for c in ccids {
            p.extend_from_slice(&c.to_be_bytes());
        }
        self.var(163, time, &p)
    }

    /// A cost-centre definition.
    pub fn cost_centre(&mut self, ccid: u32, label: &[u8], module: &[u8], caf: bool) -> &mut Self {
        let mut p = ccid.to_be_bytes().to_vec();
        for s in [label, module, b"src.hs:1:1".as_slice()] {
            p.extend_from_slice(s);
            p.push(0);
        }
        p.push(if caf { b'c' } else { 0 });
        self.var(161, 0, &p)
    }

    /// The end marker.
    pub fn end(&mut self) -> &mut Self {
        self.bytes.extend_from_slice(&[0xFF, 0xFF]);
        self
    }
}
