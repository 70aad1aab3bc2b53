//! The one-thread reader: segments of the input through the statement machine, straight
//! into the sink. The time window reads this way; the parallel reader
//! ([`super::pipeline`]) reads the lines its workers could not with [`drive`], and gives
//! the same result.

use std::io::Read;

use super::{parser, segments, Pos, ReadError, ReadOptions, Warning};
use crate::seam::Sink;

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
