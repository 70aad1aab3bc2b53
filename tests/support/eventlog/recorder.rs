//! Helpers of the eventlog tests: a sink that records everything, and the corpus pairs.
//! (Synthetic logs come from `writer/`: `EventlogWriter`, or `RawLog` byte by byte.)

use std::path::{Path, PathBuf};

use hp2ps::internals::{HeaderField, Sink};

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
    names_in(&dir())
}

/// The names (without extension) of the eventlogs in `folder`, sorted.
pub fn names_in(folder: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "eventlog").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    v.sort();
    v
}

/// Samples as the eventlog reader's sinks see them, in a form that does not depend on
/// the order of points within a sample: each point's band replaced by the band's index in
/// order of first appearance (`keys` gives each point's band, in the samples' order), the
/// points of each sample sorted by it; and the bands in that order. The reader hands a
/// census's points over in band order, not in the file's (which means nothing to the
/// chart), while the order in which bands first appear is kept exactly.
pub fn by_first_appearance<K: Clone + Eq + std::hash::Hash>(
    samples: &[Vec<(K, f64)>],
) -> (Vec<K>, Vec<Vec<(usize, f64)>>) {
    let mut index = std::collections::HashMap::new();
    let mut bands = Vec::new();
    let samples = samples
        .iter()
        .map(|points| {
            let mut s: Vec<(usize, f64)> = points
                .iter()
                .map(|(k, v)| {
                    let i = *index.entry(k.clone()).or_insert_with(|| {
                        bands.push(k.clone());
                        bands.len() - 1
                    });
                    (i, *v)
                })
                .collect();
            s.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            s
        })
        .collect();
    (bands, samples)
}
