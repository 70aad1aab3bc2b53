//! Output gathered in memory and passed on in large pieces.

use std::io::{self, Write};

/// The painters write many short pieces (hp2ps's PostScript is a number or two per
/// line); gathering them makes few large writes, and keeps a failing writer's error to
/// the moment a piece is passed on.
pub(crate) struct Buffered<'a, W> {
    /// What has not been passed on yet.
    pub(crate) buf: Vec<u8>,
    out: &'a mut W,
}

/// How much is gathered before it is passed on.
const LARGE: usize = 1 << 16;

impl<'a, W: Write> Buffered<'a, W> {
    pub(crate) fn new(out: &'a mut W) -> Self {
        Buffered {
            buf: Vec::with_capacity(LARGE),
            out,
        }
    }

    /// Passes on what is gathered if it is large.
    pub(crate) fn flush_if_large(&mut self) -> io::Result<()> {
        if self.buf.len() >= LARGE {
            self.pass_on()?;
        }
        Ok(())
    }

    /// Passes on everything gathered.
    pub(crate) fn pass_on(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}
