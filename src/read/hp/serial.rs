//! The one-thread reader: segments of the input through the statement machine, straight
//! into the sink. The time window reads this way; the parallel reader
//! ([`super::pipeline`]) reads the lines its workers could not with [`drive`], and gives
//! the same result; and a `.hp` followed as it is written ([`Followed`]) is read sample
//! by sample this way as its samples complete.

use std::io::Read;

use super::{parser, segments, Pos, ReadError, ReadOptions, Warning};
use crate::seam::{HeaderField, Sink};

/// Reads a whole `.hp` input into `sink`, streaming: memory does not grow with the input
/// (only with what the sink keeps). Returns the warnings about tolerated damage (a
/// truncated end).
pub fn read_into<R: Read, S: Sink + ?Sized>(
    input: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Vec<Warning>, ReadError> {
    let mut segments = segments::Segmenter::new(input);
    let mut parser = parser::Parser::new(opts);
    drive(&mut segments, &mut parser, opts, sink)?;
    let (line, col) = segments.end_pos();
    parser.finish(Pos { line, col }, sink)
}

/// Feeds every segment of `segments` to `parser`, taking plain data lines straight from
/// the buffer.
pub(super) fn drive<R: Read, S: Sink + ?Sized>(
    segments: &mut segments::Segmenter<R>,
    parser: &mut parser::Parser<'_>,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<(), ReadError> {
    loop {
        if parser.at_statement_start() {
            if let Some((name, value)) = segments.data_line(opts.max_name_len) {
                sink.data(segments.bytes(name), value);
                continue;
            }
        }
        match segments.next_segment()? {
            Some((info, range)) => parser.feed(segments.bytes(range), info, sink)?,
            None => return Ok(()),
        }
    }
}

/// The most bytes of a line, or of the header, kept while they are not complete: far
/// more than a real profile's (names up to 64 KiB, header strings up to 1 MiB), so that
/// an input that is no profile cannot fill the memory.
const LONGEST: usize = 16 << 20;

/// A `.hp` file read as the program writes it (`--serve`): bytes are pushed in as they
/// arrive ([`Followed::feed`]), and each sample is read, once its `END_SAMPLE` line has
/// come, by the ordinary reader ([`read_into`]) from the header and that sample's lines
/// alone, then told to the seam: the work per sample is that sample's, and a sample the
/// reader refuses costs that sample only (told as lost, with its line).
pub(crate) struct Followed<'o> {
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
    /// The last sample's time: a sample earlier than it is refused, as the reader
    /// refuses it in a whole file.
    last_time: f64,
}

impl<'o> Followed<'o> {
    pub(crate) fn new(opts: &'o ReadOptions) -> Self {
        Followed {
            opts,
            partial: Vec::new(),
            header: Vec::new(),
            header_lines: 0,
            in_header: true,
            header_told: false,
            block: Vec::new(),
            block_line: 1,
            lines: 0,
            last_time: f64::NEG_INFINITY,
        }
    }

    /// Reads `bytes`, the next of the file, telling `to` each sample they complete.
    pub(crate) fn feed(&mut self, bytes: &[u8], to: &mut dyn Sink) {
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

    fn line(&mut self, line: &[u8], to: &mut dyn Sink) {
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
    fn sample(&mut self, to: &mut dyn Sink) {
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
            to.mark(t);
        }
        to.begin_sample(time);
        for (name, value) in &got.points {
            to.data(name, *value);
        }
        to.end_sample();
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

    /// What a follower was told to say.
    #[derive(Default)]
    struct Lost(Vec<String>);

    impl Sink for Lost {
        fn header(&mut self, _: HeaderField, _: &[u8]) {}
        fn mark(&mut self, _: f64) {}
        fn begin_sample(&mut self, _: f64) {}
        fn end_sample(&mut self) {}
        fn data(&mut self, _: &[u8], _: f64) {}
        fn discard_incomplete_sample(&mut self) -> bool {
            false
        }
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
        let mut reader = Followed::new(&opts);
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
