//! The streaming `.hp` reader (§2 of `docs/reference/hp2ps-behaviour.md`): any `io::Read`
//! in, statements out to the seam's `Sink`.
//!
//! It accepts everything hp2ps accepts and reads it the same way, and on top of that:
//! real GHC data lines that hp2ps's tokens cannot read (names with spaces, TABs or keyword
//! spellings), and profiles cut off by a program that is still running or was killed.
//!
//! Its ways in (`serial.rs`: one thread; `pipeline.rs`: on every core, the same result)
//! are the crate's: library users read through [`crate::load::load`].
//!
//! Files: buffered segments of lines (`segments.rs`), the `name<TAB>digits` fast path
//! (`data_line.rs`; a line read from the masks of its first 64 bytes, SSE2's on x86-64,
//! in `byte_masks.rs`), the words of the language (`tokens.rs`), the statement machine
//! (`parser/`: heads and the segment loop, arguments and the sample structure, header
//! strings), the one-thread reader (`serial.rs`), the reader on every core
//! (`pipeline.rs`, its workers' chunk scan in `chunk/`, names to local ids in
//! `chunk/names.rs`, handed over as a `StatementRun`), positioned errors (`error.rs`).

mod byte_masks;
mod chunk;
mod data_line;
mod error;
mod parser;
pub(crate) mod pipeline;
pub(crate) mod recording;
mod segments;
pub(crate) mod serial;
mod tokens;

pub use error::{Pos, ReadError, Warning};
pub(crate) use pipeline::{read_into_parallel, read_slice_parallel};
pub(crate) use serial::read_into;

/// Limits of the reader. hp2ps splits identifiers after 4,999 bytes and misreads them; we
/// accept far longer ones, but keep a limit so hostile input cannot exhaust memory.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Longest identifier accepted, in bytes. Default: 65,536.
    pub max_name_len: usize,
    /// Longest header string accepted, in bytes. Default: 1,048,576.
    pub max_string_len: usize,
    /// Where the first reading of a long mapped `.hp` writes its scans down and the
    /// second takes them from (`recording.rs`). Default: `None`, every reading scans.
    pub(crate) recording: Option<std::sync::Arc<recording::Recording>>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_name_len: crate::defaults::MAX_NAME_LEN,
            max_string_len: 1024 * 1024,
            recording: None,
        }
    }
}

/// The unit tests of every stage read their `.hp` texts into a profile this way, on every
/// core as the command does (library users read through [`crate::load::load`]).
#[cfg(test)]
impl crate::profile::Profile {
    pub(crate) fn read<R: std::io::Read>(
        input: R,
        opts: &ReadOptions,
    ) -> Result<(Self, Vec<Warning>), ReadError> {
        let mut builder = crate::seam::ProfileBuilder::default();
        let warnings = read_into_parallel(input, opts, &mut builder)?;
        Ok((builder.finish(), warnings))
    }
}

#[cfg(test)]
mod tests;
