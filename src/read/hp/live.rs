//! Reading a `.hp` file as the program writes it (`--serve`): bytes are pushed in as
//! they arrive, and each sample is read, once its `END_SAMPLE` line has come, by the
//! ordinary reader ([`super::read_into`]) from the header and that sample's lines alone,
//! so that the work per sample is that sample's and a sample the reader refuses costs
//! that sample only (announced, with its line).

use std::collections::HashMap;

use super::{read_into, ReadOptions};
use crate::seam::{Follow, HeaderField, Sink};

/// The most bytes of a line, or of the header, kept while they are not complete: far
/// more than a real profile's (names up to 64 KiB, header strings up to 1 MiB), so that
/// an input that is no profile cannot fill the memory.
const LONGEST: usize = 16 << 20;

/// A `.hp` file read as its bytes arrive.
pub(crate) struct LiveHp<'o> {
    opts: &'o ReadOptions,
    /// The bytes of a line not complete yet.
    partial: Vec<u8>,
    /// The header's lines (everything before the first sample or mark).
    header: Vec<u8>,
    header_lines: u64,
    in_header: bool,
    header_told: bool,
    /// The lines since the last sample ended, and the number of the first of them.
    block: Vec<u8>,
    block_line: u64,
    /// Lines read so far.
    lines: u64,
    bands: HashMap<Vec<u8>, u32>,
    names: Vec<Vec<u8>>,
    /// The last sample's time: a sample earlier than it is refused, as the reader
    /// refuses it in a whole file.
    last_time: f64,
}

impl<'o> LiveHp<'o> {
    pub(crate) fn new(opts: &'o ReadOptions) -> Self {
        LiveHp {
            opts,
            partial: Vec::new(),
            header: Vec::new(),
            header_lines: 0,
            in_header: true,
            header_told: false,
            block: Vec::new(),
            block_line: 1,
            lines: 0,
            bands: HashMap::new(),
            names: Vec::new(),
            last_time: f64::NEG_INFINITY,
        }
    }

    /// Reads `bytes`, the next of the file, telling `to` each sample they complete.
    pub(crate) fn feed(&mut self, bytes: &[u8], to: &mut dyn Follow) {
        let mut rest = bytes;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(end + 1);
            rest = after;
            if self.partial.is_empty() {
                self.line(line, to);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(line);
                self.line(&whole, to);
            }
        }
        self.partial.extend_from_slice(rest);
        if self.partial.len() > LONGEST {
            self.partial.clear();
            to.lost(format!(
                "line {} of the profile is longer than {} MiB: not a .hp profile? (left out)",
                self.lines + 1,
                LONGEST >> 20
            ));
        }
    }

    fn line(&mut self, line: &[u8], to: &mut dyn Follow) {
        self.lines += 1;
        let word = line.trim_ascii_start();
        let starts = |k: &[u8]| word.starts_with(k);
        if self.in_header && !(starts(b"BEGIN_SAMPLE") || starts(b"MARK")) {
            if self.header.len() + line.len() > LONGEST {
                to.lost(format!(
                    "no sample in the first {} MiB: not a .hp profile? (line {} left out)",
                    LONGEST >> 20,
                    self.lines
                ));
                return;
            }
            self.header.extend_from_slice(line);
            self.header_lines += 1;
            return;
        }
        self.in_header = false;
        if self.block.is_empty() {
            self.block_line = self.lines;
        }
        self.block.extend_from_slice(line);
        if starts(b"END_SAMPLE") {
            self.sample(to);
            self.block.clear();
        }
    }

    /// Reads the header and the block of lines that ends with a sample's END.
    fn sample(&mut self, to: &mut dyn Follow) {
        let mut text = Vec::with_capacity(self.header.len() + self.block.len());
        text.extend_from_slice(&self.header);
        text.extend_from_slice(&self.block);
        let mut got = Got::default();
        if let Err(mut e) = read_into(&text[..], self.opts, &mut got) {
            // Positions are the text's: the header's lines, then the block's, which
            // stand further on in the profile.
            if let Some(pos) = e.pos_mut().filter(|p| p.line > self.header_lines) {
                pos.line = pos.line - self.header_lines + self.block_line - 1;
            }
            to.lost(format!("{e}: that sample is lost"));
            return;
        }
        let Some(time) = got.time.filter(|&t| t >= self.last_time) else {
            to.lost(format!(
                "the sample at line {} goes back in time: it is lost",
                self.block_line
            ));
            return;
        };
        self.last_time = time;
        if !self.header_told {
            self.header_told = true;
            for (field, text) in &got.header {
                to.header(*field, text);
            }
        }
        for &t in &got.marks {
            to.mark(t, b"");
        }
        let known = self.names.len();
        let points: Vec<(u32, f64)> = (got.points.iter())
            .map(|(name, value)| {
                let next = self.names.len() as u32;
                let band = *self.bands.entry(name.clone()).or_insert(next);
                if band == next {
                    self.names.push(name.clone());
                }
                (band, *value)
            })
            .collect();
        if self.names.len() > known {
            to.names(&self.names);
        }
        to.census(time, &points);
    }
}

/// What the reader said of one sample.
#[derive(Default)]
struct Got {
    header: Vec<(HeaderField, Vec<u8>)>,
    marks: Vec<f64>,
    time: Option<f64>,
    points: Vec<(Vec<u8>, f64)>,
}

impl Sink for Got {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.header.retain(|(f, _)| *f != field);
        self.header.push((field, text.to_vec()));
    }
    fn mark(&mut self, time: f64) {
        self.marks.push(time);
    }
    fn begin_sample(&mut self, time: f64) {
        self.time = Some(time);
    }
    fn end_sample(&mut self) {}
    fn data(&mut self, name: &[u8], value: f64) {
        self.points.push((name.to_vec(), value));
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seam::Line;

    /// What a follower was told to say.
    #[derive(Default)]
    struct Lost(Vec<String>);

    impl Follow for Lost {
        fn header(&mut self, _: HeaderField, _: &[u8]) {}
        fn names(&mut self, _: &[Vec<u8>]) {}
        fn census(&mut self, _: f64, _: &[(u32, f64)]) {}
        fn mark(&mut self, _: f64, _: &[u8]) {}
        fn line(&mut self, _: Line, _: f64, _: f64) {}
        fn lost(&mut self, what: String) {
            self.0.push(what);
        }
    }

    /// A sample the reader refuses is announced once, at its line and column in the
    /// whole profile (not in the text of the header and that sample read together).
    #[test]
    fn a_refused_sample_is_announced_at_its_place_in_the_profile() {
        let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
                   BEGIN_SAMPLE 0.0\nmain 10\nEND_SAMPLE 0.0\n\
                   MARK 0.5\nBEGIN_SAMPLE 1.0\nmain x\nEND_SAMPLE 1.0\n";
        let opts = ReadOptions::default();
        let mut reader = LiveHp::new(&opts);
        let mut lost = Lost::default();
        reader.feed(hp, &mut lost);
        assert_eq!(
            lost.0,
            [
                "10:6: identifier \"x\", expected an integer value after identifier \"main\": \
              that sample is lost"
            ]
        );
    }
}
