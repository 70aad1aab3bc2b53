//! Where the parallel reader's chunks come from: bytes in memory (a mapped file), or a
//! reader cut into blocks of whole lines.

use std::io::{self, Read};

/// The bytes of a chunk: a recycled buffer (`buf[..len]`), or a piece of the input in
/// memory (and the offset of its end).
pub(super) enum ChunkBytes<'a> {
    Owned(Vec<u8>, usize),
    Borrowed(&'a [u8], usize),
}

impl ChunkBytes<'_> {
    pub(super) fn as_slice(&self) -> &[u8] {
        match self {
            ChunkBytes::Owned(buf, len) => &buf[..*len],
            ChunkBytes::Borrowed(bytes, _) => bytes,
        }
    }
}

/// What a source gives next.
pub(super) enum Next<'a> {
    Chunk(ChunkBytes<'a>),
    /// The start of a line longer than the long-line limit: stream the rest.
    LongLine(Vec<u8>),
    /// Nothing more (the buffer is handed back).
    Done(Vec<u8>),
}

/// Where the chunks come from: a reader, or bytes in memory.
pub(super) trait Source<'a> {
    /// About `size` bytes of whole lines (or the input's last bytes), in `buf` if the
    /// source copies.
    fn next_chunk(&mut self, buf: Vec<u8>, size: usize) -> Next<'a>;
    /// A read error, reported after everything read before it.
    fn error(&mut self) -> Option<io::Error>;
    /// The input's size, if known.
    fn total_len(&self) -> Option<usize> {
        None
    }
    /// Where [`Source::rest`] starts in the input (0 when unknown).
    fn offset(&self) -> usize {
        0
    }
    /// What is left after a long line.
    fn rest(self) -> impl Read + 'a;
}

pub(super) struct SliceSource<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    /// A line longer than this switches to streaming.
    pub(super) long_line: usize,
}

pub(super) fn buf_cleared(mut buf: Vec<u8>) -> Vec<u8> {
    buf.clear();
    buf
}

impl<'a> Source<'a> for SliceSource<'a> {
    fn next_chunk(&mut self, buf: Vec<u8>, size: usize) -> Next<'a> {
        let start = self.pos;
        if start >= self.bytes.len() {
            return Next::Done(buf);
        }
        let want = start.saturating_add(size).min(self.bytes.len());
        // A line end within the long-line limit, or the input's end; else stream the rest
        // (a worker would read the whole line, and all of it would stay in memory).
        let from = want.saturating_sub(1);
        let limit = start.saturating_add(self.long_line).min(self.bytes.len());
        let end = match memchr::memchr(b'\n', &self.bytes[from..limit.max(from)]) {
            Some(i) => from + i + 1,
            None if limit == self.bytes.len() => self.bytes.len(),
            None => return Next::LongLine(buf_cleared(buf)),
        };
        let end = end.max(start + 1).min(self.bytes.len());
        self.pos = end;
        Next::Chunk(ChunkBytes::Borrowed(&self.bytes[start..end], end))
    }

    fn error(&mut self) -> Option<io::Error> {
        None
    }

    fn total_len(&self) -> Option<usize> {
        Some(self.bytes.len())
    }

    fn offset(&self) -> usize {
        self.pos
    }

    fn rest(self) -> impl Read + 'a {
        &self.bytes[self.pos..]
    }
}

/// What [`BlockReader::next_block`] put in the buffer.
pub(super) enum Block {
    /// `len` bytes of whole lines (or the input's last bytes).
    Lines(usize),
    /// `len` bytes of a line longer than the long-line limit, not ended yet.
    LongLine(usize),
    /// Nothing: the input is done.
    Empty,
}

pub(super) struct BlockReader<R> {
    pub(super) input: R,
    /// Bytes read after the last line end of the previous block.
    pub(super) carry: Vec<u8>,
    /// A line longer than this switches to streaming.
    pub(super) long_line: usize,
    pub(super) eof: bool,
    /// A read error: reported after everything read before it.
    pub(super) error: Option<io::Error>,
}

impl<'a, R: Read + 'a> Source<'a> for BlockReader<R> {
    fn next_chunk(&mut self, mut buf: Vec<u8>, size: usize) -> Next<'a> {
        if self.done() {
            return Next::Done(buf);
        }
        match self.next_block(&mut buf, size) {
            Block::Lines(len) => Next::Chunk(ChunkBytes::Owned(buf, len)),
            Block::LongLine(len) => {
                buf.truncate(len);
                Next::LongLine(buf)
            }
            Block::Empty => Next::Done(buf),
        }
    }

    fn error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    fn rest(self) -> impl Read + 'a {
        io::Cursor::new(self.carry).chain(self.input)
    }
}

impl<R: Read> BlockReader<R> {
    fn done(&self) -> bool {
        (self.eof || self.error.is_some()) && self.carry.is_empty()
    }

    /// Fills `buf` with about `size` bytes: whole lines, the carry of the previous block
    /// first. The buffer keeps its length (it is recycled, so it is never zeroed again);
    /// the block is `buf[..len]`.
    fn next_block(&mut self, buf: &mut Vec<u8>, size: usize) -> Block {
        let mut target = size.max(self.carry.len() + 1);
        if buf.len() < target {
            buf.resize(target, 0);
        }
        let mut len = self.carry.len();
        buf[..len].copy_from_slice(&self.carry);
        self.carry.clear();
        let mut searched = 0;
        loop {
            while len < target && !self.eof && self.error.is_none() {
                match self.input.read(&mut buf[len..target]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => len += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => self.error = Some(e),
                }
            }
            let ended = self.eof || self.error.is_some();
            if let Some(i) = memchr::memrchr(b'\n', &buf[searched..len]) {
                let cut = searched + i + 1;
                if !self.eof {
                    // After a read error, the bytes after the last line end are dropped,
                    // as the streaming reader drops them.
                    if self.error.is_none() {
                        self.carry.extend_from_slice(&buf[cut..len]);
                    }
                    return Block::Lines(cut);
                }
                return Block::Lines(len);
            }
            if ended {
                if len == 0 || self.error.is_some() {
                    return Block::Empty;
                }
                return Block::Lines(len);
            }
            searched = len;
            if len >= self.long_line {
                return Block::LongLine(len);
            }
            target *= 2;
            buf.resize(target, 0);
        }
    }
}
