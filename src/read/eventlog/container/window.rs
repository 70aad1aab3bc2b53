//! The part of the input the framer looks at, and how it asks for more.

/// The bytes the framer sees: part of the input, from file offset `base` on.
#[derive(Clone, Copy)]
pub(crate) struct Window<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) base: u64,
    /// Whether `bytes` run to the end of the input.
    pub(crate) eof: bool,
}

/// A decision needs the window to reach this index (asked only before the input's end).
#[derive(Debug)]
pub(crate) struct More(pub(crate) usize);

/// A result that may first need more of the input.
pub(crate) type Need<T> = Result<T, More>;

impl<'a> Window<'a> {
    /// The whole input in memory.
    pub(crate) fn whole(bytes: &'a [u8]) -> Self {
        Window {
            bytes,
            base: 0,
            eof: true,
        }
    }

    /// `n` bytes at `at`; `None` if the input ends first.
    #[inline(always)]
    pub(super) fn get(&self, at: usize, n: usize) -> Need<Option<&'a [u8]>> {
        match self.bytes.get(at..at.saturating_add(n)) {
            Some(b) => Ok(Some(b)),
            None if self.eof => Ok(None),
            None => Err(More(at.saturating_add(n))),
        }
    }

    /// The file offset of `at`.
    #[inline(always)]
    pub(super) fn offset(&self, at: usize) -> u64 {
        self.base + at as u64
    }
}
