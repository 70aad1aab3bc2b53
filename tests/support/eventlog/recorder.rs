//! Helpers of the eventlog tests: a sink that records everything, and the corpus pairs.
//! (Synthetic logs come from `writer.rs`: `EventlogWriter`, or `RawLog` byte by byte.)

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
