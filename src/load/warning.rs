//! [`Warning`]: what did not stop a profile, but its user should know, each a line.

use std::fmt;

use crate::read::eventlog::EventlogWarning;
use crate::read::hp::{self, Pos};
use crate::symbolize::Agreement;

/// Something that did not stop the profile, but that its user should know.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Warning {
    /// A `.hp` that ends inside a sample (the profiled program is still running or was
    /// killed): that sample was dropped.
    IncompleteLastSample {
        /// The end of the input.
        pos: Pos,
        /// How many complete samples were kept.
        samples_kept: usize,
    },
    /// A `.hp` that ends in the middle of a statement or line: it was dropped.
    TruncatedLastLine {
        /// Where the half-written statement starts.
        pos: Pos,
        /// What was half-written.
        detail: String,
    },
    /// Damage or a limitation the eventlog reader worked around.
    Eventlog(EventlogWarning),
    /// Heap-size lines were asked for, but a `.hp` has no heap size.
    HeapSizeNeedsEventlog,
    /// A binary was given, but the bands are not info-table addresses.
    BinaryNamesNothing {
        /// The binary's name.
        binary: String,
    },
    /// The binary given is not one whose symbols can be read.
    BinaryUnusable {
        /// The binary's name.
        binary: String,
        /// Why, in words.
        why: String,
    },
    /// The binary's symbols do not fit the profile's addresses: another program's.
    BinaryRefused {
        /// The binary's name.
        binary: String,
        /// What its symbols say about the addresses, in words.
        why: String,
    },
    /// Some bands' code lies outside the binary (in the shared libraries of a
    /// dynamically linked program): they keep their addresses.
    BandsOutsideBinary {
        /// The binary's name.
        binary: String,
        /// How many bands.
        outside: usize,
        /// Of how many.
        bands: usize,
    },
}

impl Warning {
    /// The warning as one line about the input `file`: `FILE:LINE:COL: …` when it has a
    /// position in a `.hp` file, else `FILE: …`.
    pub fn line(&self, file: &str) -> String {
        match self {
            Warning::IncompleteLastSample { .. } | Warning::TruncatedLastLine { .. } => {
                format!("{file}:{self}")
            }
            _ => format!("{file}: {self}"),
        }
    }

    /// Whether it is said only to a user who asked for what it is about: heap-size lines of
    /// a `.hp` (`--heap-size`). The page and the exports ask for those lines themselves
    /// wherever a log has them, so neither their stderr nor the page's header says it
    /// unasked. Every other warning is about the input, and always said.
    pub(crate) fn only_when_asked(&self) -> bool {
        matches!(self, Warning::HeapSizeNeedsEventlog)
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::IncompleteLastSample { pos, samples_kept } => {
                let (pos, samples_kept) = (*pos, *samples_kept);
                write!(f, "{}", hp::Warning::IncompleteLastSample { pos, samples_kept })
            }
            Warning::TruncatedLastLine { pos, detail } => {
                let (pos, detail) = (*pos, detail.clone());
                write!(f, "{}", hp::Warning::TruncatedLastLine { pos, detail })
            }
            Warning::Eventlog(w) => write!(f, "{w}"),
            Warning::HeapSizeNeedsEventlog => f.write_str(
                "--heap-size needs an eventlog (prog +RTS -h -l); a .hp has no heap size",
            ),
            Warning::BinaryNamesNothing { binary } => write!(
                f,
                "its bands are not info-table addresses (a -hi profile): --binary {binary} names nothing"
            ),
            Warning::BinaryUnusable { binary, why } => write!(f, "{binary} is not used: {why}"),
            Warning::BinaryRefused { binary, why } => write!(
                f,
                "{binary} is not the program that wrote it ({why}): its symbols are not used"
            ),
            Warning::BandsOutsideBinary {
                binary,
                outside,
                bands,
            } => write!(
                f,
                "{outside} of {bands} band addresses lie outside {binary} (in shared libraries, if the program is linked dynamically): they keep their addresses"
            ),
        }
    }
}

impl From<hp::Warning> for Warning {
    fn from(w: hp::Warning) -> Warning {
        match w {
            hp::Warning::IncompleteLastSample { pos, samples_kept } => {
                Warning::IncompleteLastSample { pos, samples_kept }
            }
            hp::Warning::TruncatedLastLine { pos, detail } => {
                Warning::TruncatedLastLine { pos, detail }
            }
        }
    }
}

/// Why a binary was refused, in words.
pub(crate) fn disagreement(a: &Agreement) -> String {
    let mut why = format!(
        "{} of {} band addresses fall on its symbols",
        a.band_hits, a.in_binary
    );
    if a.ipe_disagree > a.ipe_agree {
        why.push_str(&format!(
            ", and {} of {} IPE entries on a symbol of another name",
            a.ipe_disagree,
            a.ipe_agree + a.ipe_disagree
        ));
    }
    why
}
