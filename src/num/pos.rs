//! Where a token stands in a text file: the `.hp` reader and the `.aux` reader report
//! their errors at one.

use std::fmt;

/// A 1-based position in the input: line (counting every LF) and byte column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// The line, from 1.
    pub line: u64,
    /// The byte column, from 1.
    pub col: u64,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}
