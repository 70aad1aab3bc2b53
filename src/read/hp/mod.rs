//! The streaming `.hp` reader (§2 of `docs/reference/hp2ps-behaviour.md`): any `io::Read` in, statements out to a [`Sink`].
//!
//! It accepts everything hp2ps accepts and reads it the same way, and on top of that:
//! real GHC data lines that hp2ps's tokens cannot read (names with spaces, TABs or keyword
//! spellings), and profiles cut off by a program that is still running or was killed.

pub(crate) mod chunk;
mod data_line;
mod error;
mod parser;
mod pipeline;
mod segments;
mod tokens;

pub use chunk::{ChunkScan, Statements};
pub use error::{Pos, ReadError, Warning};
pub use pipeline::{read_chunked, read_into_parallel, read_slice_chunked, read_slice_parallel};
pub use segments::SEGMENT_CAP;
pub use tokens::MAX_NUMBER_LEN;

use super::Sink;

use std::io::Read;

/// Limits of the reader. hp2ps splits identifiers after 4,999 bytes and misreads them; we
/// accept far longer ones, but keep a limit so hostile input cannot exhaust memory.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Longest identifier accepted, in bytes. Default: 65,536.
    pub max_name_len: usize,
    /// Longest header string accepted, in bytes. Default: 1,048,576.
    pub max_string_len: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_name_len: 64 * 1024,
            max_string_len: 1024 * 1024,
        }
    }
}

/// Reads a whole `.hp` input into `sink`, streaming: memory does not grow with the input
/// (only with what the sink keeps). Returns the warnings about tolerated damage (a
/// truncated end).
pub fn read_into<R: Read, S: Sink>(
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
fn drive<R: Read, S: Sink + ?Sized>(
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

#[cfg(test)]
mod tests;
