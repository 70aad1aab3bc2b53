//! Why a time profile could not be read ([`TimeProfileError`]), and what was tolerated
//! while reading one ([`TimeProfileWarning`]). Each is one line; a position is
//! `LINE:COLUMN` (from 1, columns in characters), the command puts the file's name
//! before it.

use std::fmt;

use crate::read::eventlog::{EventlogError, EventlogWarning};

/// Why an input gave no time profile.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TimeProfileError {
    /// The input could not be read.
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
    /// The input is not a time profile: what was found where one was expected.
    #[error("{line}:{column}: found {found}, expected {expected}")]
    NotAProfile {
        /// The line (from 1).
        line: usize,
        /// The column (from 1, in characters).
        column: usize,
        /// What was there, quoted and cut.
        found: String,
        /// What a time profile has there.
        expected: &'static str,
    },
    /// An eventlog that could not be read, or holds no time profile.
    #[error("{0}")]
    Eventlog(#[from] EventlogError),
}

/// Something a time profile's reader tolerated. A text report's and a JSON file's carry
/// the line (and column) where it was first met, and how often it was.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TimeProfileWarning {
    /// Lines of the tree (or of its other tables) that could not be read: left out, the
    /// rows after them read on.
    Damaged {
        /// The first such line.
        line: usize,
        /// How many.
        count: usize,
        /// What was wrong with the first.
        why: String,
    },
    /// The report ends before its end: what it holds is read, the rest is missing.
    Cut {
        /// The line where it ends.
        line: usize,
        /// What is missing.
        what: &'static str,
    },
    /// Columns glued by a long name (no space between a module and the `no.` after it):
    /// told apart (the module named, then the number).
    Glued {
        /// The first such line.
        line: usize,
        /// How many.
        count: usize,
        /// How the first was read (`Language.PureScript.Parser.Declarations` and
        /// `104975`).
        module: String,
        /// See `module`.
        number: String,
    },
    /// Rows whose columns are not where the header puts them: read by the spaces
    /// between them instead.
    Misaligned {
        /// The first such line.
        line: usize,
        /// How many.
        count: usize,
    },
    /// JSON that is not valid as GHC 9.0.2's `-pj` writes it (a `"` or a TAB in a
    /// label, unescaped): read as meant.
    InvalidJson {
        /// Where it was first met.
        line: usize,
        /// See `line`.
        column: usize,
        /// What was there (`an unescaped '"' in a string`).
        what: &'static str,
        /// How many.
        count: usize,
    },
    /// Stacks of a cost centre the file does not declare (`-pj`): named `?id`.
    UnknownCostCentre {
        /// Where the first was met.
        line: usize,
        /// See `line`.
        column: usize,
        /// Its id.
        id: u64,
        /// How many stacks.
        count: usize,
    },
    /// Names longer than the limit, cut to it (and `...`).
    NamesCut {
        /// The first such line (0 in an eventlog, which has none).
        line: usize,
        /// How many.
        count: usize,
        /// The limit, in bytes.
        to: usize,
    },
    /// What an eventlog's reader tolerated.
    Eventlog(EventlogWarning),
}

impl TimeProfileWarning {
    /// The warning as one line about the input `file`: `FILE:LINE:COLUMN: …` (or
    /// `FILE:LINE: …`) when it has a position, else `FILE: …`.
    pub fn line(&self, file: &str) -> String {
        match self {
            TimeProfileWarning::Eventlog(_) | TimeProfileWarning::NamesCut { line: 0, .. } => {
                format!("{file}: {self}")
            }
            _ => format!("{file}:{self}"),
        }
    }
}

fn times(count: usize) -> String {
    match count {
        1 => String::new(),
        n => format!(" ({n} lines)"),
    }
}

impl fmt::Display for TimeProfileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeProfileWarning::Damaged { line, count, why } => write!(
                f,
                "{line}: {why}: the line is left out{}",
                match count {
                    1 => String::new(),
                    n => format!(", and {} more like it", n - 1),
                }
            ),
            TimeProfileWarning::Cut { line, what } => {
                write!(
                    f,
                    "{line}: the report ends here, {what}: what it holds is read"
                )
            }
            TimeProfileWarning::Glued {
                line,
                count,
                module,
                number,
            } => write!(
                f,
                "{line}: columns glued by a long name, read as the module {module:?} and the \
                 number {number}{}",
                times(*count)
            ),
            TimeProfileWarning::Misaligned { line, count } => write!(
                f,
                "{line}: columns not where the header puts them, read by the spaces between \
                 them{}",
                times(*count)
            ),
            TimeProfileWarning::InvalidJson {
                line,
                column,
                what,
                count,
            } => write!(
                f,
                "{line}:{column}: not valid JSON: {what} (as GHC 9.0.2's -pj writes a label \
                 holding it), read as the label's own{}",
                match count {
                    1 => String::new(),
                    n => format!(" ({n} such places in all)"),
                }
            ),
            TimeProfileWarning::UnknownCostCentre {
                line,
                column,
                id,
                count,
            } => write!(
                f,
                "{line}:{column}: a stack of the cost centre {id}, which the file does not \
                 declare: named ?{id}{}",
                match count {
                    1 => String::new(),
                    n => format!(" ({n} stacks)"),
                }
            ),
            TimeProfileWarning::NamesCut { line, count, to } => write!(
                f,
                "{}a name longer than {to} bytes, cut to them{}",
                match line {
                    0 => String::new(),
                    n => format!("{n}: "),
                },
                match count {
                    1 => String::new(),
                    n => format!(" ({n} names)"),
                }
            ),
            TimeProfileWarning::Eventlog(w) => write!(f, "{w}"),
        }
    }
}

/// Counts warnings of one kind: the first one's details, and how many there were.
#[derive(Debug, Default)]
pub(crate) struct Tally<T> {
    pub(crate) first: Option<T>,
    pub(crate) count: usize,
}

impl<T> Tally<T> {
    /// Counts one; keeps `first()`'s details if it is the first.
    pub(crate) fn add(&mut self, first: impl FnOnce() -> T) {
        if self.first.is_none() {
            self.first = Some(first());
        }
        self.count += 1;
    }
}
