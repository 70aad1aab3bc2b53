//! Where the container reads its bytes from: a stream through a buffer ([`Input`]) or
//! bytes already in memory ([`SliceInput`], a mapped file, read in place).

use std::io::{self, Read};

/// How much is read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// Where the container reads its bytes from: a stream through a buffer ([`Input`]) or
/// bytes already in memory ([`SliceInput`], a mapped file, read in place).
pub(crate) trait Source {
    /// Makes at least `n` bytes available (n is at most what one framing decision looks
    /// at: a few events, or a stretch of damage); false at end of input.
    fn fill(&mut self, n: usize) -> io::Result<bool>;
    /// The bytes available (after a successful [`Source::fill`], at least `n`).
    fn available(&self) -> &[u8];
    /// Consumes `n` available bytes.
    fn consume(&mut self, n: usize);
    /// File offset of the next unread byte.
    fn offset(&self) -> u64;

    /// The next `n` bytes, consumed; `None` (nothing consumed) if the input ends first.
    fn take(&mut self, n: usize) -> io::Result<Option<&[u8]>> {
        if !self.fill(n)? {
            return Ok(None);
        }
        self.consume(n);
        Ok(Some(self.consumed(n)))
    }

    /// The last `n` bytes consumed (n at most one event).
    fn consumed(&self, n: usize) -> &[u8];

    /// Skips `n` bytes (any number: header lengths are not trusted to fit in memory).
    /// Returns false if the input ended first.
    fn skip(&mut self, mut n: u64) -> io::Result<bool> {
        while n > 0 {
            if !self.fill(1)? {
                return Ok(false);
            }
            let k = (self.available().len() as u64).min(n) as usize;
            self.consume(k);
            n -= k as u64;
        }
        Ok(true)
    }

    /// Whether any byte is left.
    fn at_end(&mut self) -> io::Result<bool> {
        Ok(!self.fill(1)?)
    }
}

/// A buffered reader that knows the file offset of every byte it hands out. The buffer
/// only grows to what framing decisions look at (the event and the header after it; a
/// few events' worth after damage, at most some 320 KiB) plus a chunk, never to a length
/// a header field claims.
pub(crate) struct Input<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// File offset of `buf[start]`.
    offset: u64,
    eof: bool,
}

impl<R: Read> Input<R> {
    pub(crate) fn new(inner: R) -> Self {
        Input {
            inner,
            buf: Vec::new(),
            start: 0,
            end: 0,
            offset: 0,
            eof: false,
        }
    }
}

impl<R: Read> Source for Input<R> {
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        while self.end - self.start < n {
            if self.eof {
                return Ok(false);
            }
            if self.buf.len() - self.start < n + CHUNK {
                // Move the unread tail to the front, then make room for one more chunk.
                // (An event just consumed stays readable: `consumed` is only asked
                // for right after `consume`, before the next `fill`.)
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
                let want = (n + CHUNK).max(self.buf.len());
                self.buf.resize(want, 0);
            }
            let room = self.buf.len();
            match self.inner.read(&mut self.buf[self.end..room]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.offset += n as u64;
    }

    fn offset(&self) -> u64 {
        self.offset
    }

    fn consumed(&self, n: usize) -> &[u8] {
        &self.buf[self.start - n..self.start]
    }
}

/// Bytes already in memory, read in place. `release(n)` is told, every few megabytes,
/// that the first `n` bytes are no longer needed (a mapped file drops those pages, so the
/// resident memory stays small whatever the file's size).
pub(crate) struct SliceInput<'a> {
    bytes: &'a [u8],
    at: usize,
    released: usize,
    release: &'a mut dyn FnMut(usize),
}

impl<'a> SliceInput<'a> {
    pub(crate) fn new(bytes: &'a [u8], release: &'a mut dyn FnMut(usize)) -> Self {
        Self::starting_at(bytes, 0, release)
    }

    /// Reads `bytes` from offset `at` on (offsets stay those of `bytes`).
    pub(crate) fn starting_at(
        bytes: &'a [u8],
        at: usize,
        release: &'a mut dyn FnMut(usize),
    ) -> Self {
        SliceInput {
            bytes,
            at: at.min(bytes.len()),
            released: at,
            release,
        }
    }
}

/// How far a [`SliceInput`] reads before it releases what it has read.
const RELEASE_STEP: usize = 16 << 20;
/// What a [`SliceInput`] keeps before its position when it releases (more than an event).
const KEEP: usize = 1 << 20;

impl Source for SliceInput<'_> {
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        Ok(self.bytes.len() - self.at >= n)
    }

    fn available(&self) -> &[u8] {
        &self.bytes[self.at..]
    }

    fn consume(&mut self, n: usize) {
        self.at += n;
        if self.at - self.released >= RELEASE_STEP {
            // The event just consumed is still to be decoded: keep a margin.
            self.released = self.at - KEEP;
            (self.release)(self.released);
        }
    }

    fn offset(&self) -> u64 {
        self.at as u64
    }

    fn consumed(&self, n: usize) -> &[u8] {
        &self.bytes[self.at - n..self.at]
    }
}
