//! Typed, positioned errors of the `.hp` reader (and of the `.aux` file's, hp2ps's other
//! text format, whose errors are syntax errors too).

use std::fmt;

pub use crate::num::Pos;

/// Why a `.hp` file could not be read, or an `.aux` file ([`crate::Aux::read`]: always
/// a [`ReadError::Syntax`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// A token that does not fit the grammar at this point.
    #[error("{pos}: {found}, expected {expected}")]
    Syntax {
        /// Where the token starts.
        pos: Pos,
        /// What was there, quoted.
        found: String,
        /// What the grammar allows there.
        expected: String,
    },
    /// A header field that never appeared (reported at the end of the input).
    #[error("{pos}: end of file, expected a {field} line (the profile has none)")]
    MissingHeader {
        /// The end of the input.
        pos: Pos,
        /// The keyword of the missing field (`JOB`, `DATE`, …).
        field: &'static str,
    },
    /// The input holds no complete sample.
    #[error(
        "{pos}: end of file, expected at least one complete sample (BEGIN_SAMPLE … END_SAMPLE)"
    )]
    NoSamples {
        /// The end of the input.
        pos: Pos,
    },
    /// The input could not be read.
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
}

impl ReadError {
    pub(crate) fn syntax(pos: Pos, found: impl Into<String>, expected: impl Into<String>) -> Self {
        ReadError::Syntax {
            pos,
            found: found.into(),
            expected: expected.into(),
        }
    }

    /// Where the error is, if it has a position.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            ReadError::Syntax { pos, .. }
            | ReadError::MissingHeader { pos, .. }
            | ReadError::NoSamples { pos } => Some(*pos),
            ReadError::Io(_) => None,
        }
    }

    /// Its position, to be moved (when the text read was part of a longer one).
    pub(crate) fn pos_mut(&mut self) -> Option<&mut Pos> {
        match self {
            ReadError::Syntax { pos, .. }
            | ReadError::MissingHeader { pos, .. }
            | ReadError::NoSamples { pos } => Some(pos),
            ReadError::Io(_) => None,
        }
    }
}

/// Something the reader tolerated but the user should know about.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Warning {
    /// The input ended inside a sample (the profiled program is still running or was
    /// killed): that sample was dropped.
    IncompleteLastSample {
        /// The end of the input.
        pos: Pos,
        /// How many complete samples were kept.
        samples_kept: usize,
    },
    /// The input ended in the middle of a statement or line: it was dropped.
    TruncatedLastLine {
        /// Where the half-written statement starts.
        pos: Pos,
        /// What was half-written.
        detail: String,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::IncompleteLastSample { pos, samples_kept } => write!(
                f,
                "{pos}: the profile ends inside a sample (still being written?); \
                 dropped it and rendered the {samples_kept} complete sample(s)"
            ),
            Warning::TruncatedLastLine { pos, detail } => write!(
                f,
                "{pos}: the profile ends in a half-written line ({detail}); dropped it"
            ),
        }
    }
}

/// Quotes a byte string for an error message: printable ASCII as is, the rest escaped,
/// cut to a readable length.
pub(crate) fn quote(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let mut s = String::from("\"");
    for &b in bytes.iter().take(MAX) {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            b'\t' => s.push_str("\\t"),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    if bytes.len() > MAX {
        s.push_str(&format!("…\" ({} bytes)", bytes.len()));
    } else {
        s.push('"');
    }
    s
}
