//! The container: header (event-type declarations) and the framing of events, read as a
//! stream through a small buffer.
//!
//! Nothing here knows what an event means. Sizes come only from the header, so an
//! unknown event type is skipped by its declared size, and a variable-size event always
//! resumes at `payload start + length` whatever its decoder consumed.

use std::io::{self, Read};

use super::error::EventlogError;

/// How much is read from the input at a time.
const CHUNK: usize = 64 * 1024;
/// `size` value of a variable-size event type.
const VARIABLE: u16 = 0xFFFF;
/// Table entry of an id the header does not declare.
const UNDECLARED: u32 = u32::MAX;

/// Where the container reads its bytes from: a stream through a buffer ([`Input`]) or
/// bytes already in memory ([`SliceInput`], a mapped file, read in place).
pub(crate) trait Source {
    /// Makes at least `n` bytes available (n is at most one event: 10 + 2 + 65 535);
    /// false at end of input.
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
/// only grows to the largest event actually present (at most 64 KiB plus a
/// chunk), never to a length a header field claims.
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

/// Whether `first_bytes` start like an eventlog (the magic `hdrb`).
pub fn is_eventlog(first_bytes: &[u8]) -> bool {
    first_bytes.starts_with(b"hdrb")
}

/// The event-type table: id → declared size.
pub(crate) struct Types {
    size: Vec<u32>,
}

impl Types {
    /// An empty table (every id undeclared).
    pub(crate) fn new() -> Self {
        Types {
            size: vec![UNDECLARED; 1 << 16],
        }
    }

    /// Declares `id` with its header size (`0xFFFF` = variable). A later declaration of
    /// the same id replaces the earlier one.
    pub(crate) fn declare(&mut self, id: u16, size: u16) {
        self.size[usize::from(id)] = u32::from(size);
    }
}

/// Id of the block marker, whose first payload field is the size of its block.
const BLOCK_MARKER: u16 = 18;

/// Cuts the data from some offset on into runs of whole blocks of about `target` bytes
/// each, following the block markers' sizes, a run at a time (so that the pages of the
/// file are touched just before they are read, not all at the start). The first thing
/// that is not a block (an event outside blocks, the end marker, a size that does not
/// fit) ends the cutting: the last run goes to the end of the input. The cuts are only
/// guesses: whoever reads a run checks that its events end exactly at the next cut.
pub(crate) struct BlockRuns {
    /// Where the next run starts (`None` once the last run was given).
    at: Option<usize>,
    /// The smallest block: a marker and its payload.
    smallest: Option<usize>,
    target: usize,
}

impl BlockRuns {
    /// Runs of `bytes` from `start` on, of about `target` bytes.
    pub(crate) fn new(start: usize, types: &Types, target: usize) -> Self {
        let declared = types.size[usize::from(BLOCK_MARKER)];
        let fixed = declared != UNDECLARED && declared != u32::from(VARIABLE) && declared >= 4;
        BlockRuns {
            at: Some(start),
            smallest: fixed.then_some(10 + declared as usize),
            target: target.max(1),
        }
    }

    /// The next run, `(start, end)`.
    pub(crate) fn next_run(&mut self, bytes: &[u8]) -> Option<(usize, usize)> {
        let start = self.at?;
        let mut at = start;
        if let Some(smallest) = self.smallest {
            while at - start < self.target {
                let Some(head) = bytes.get(at..at + 14) else {
                    break;
                };
                let size = u32_at(head, 10) as usize;
                if u16_at(head, 0) != BLOCK_MARKER || size < smallest || size > bytes.len() - at {
                    break;
                }
                at += size;
            }
        }
        if at == start || at == bytes.len() || at - start < self.target {
            // Not a block, or the last blocks: the rest is one run.
            self.at = None;
            return (start < bytes.len()).then_some((start, bytes.len()));
        }
        self.at = Some(at);
        Some((start, at))
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_be_bytes(w)
}

fn quote(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "end of input".to_string()
    } else {
        format!("\"{}\"", bytes.escape_ascii())
    }
}

/// Reads `tag` or fails with what was there.
fn expect<I: Source>(
    input: &mut I,
    tag: &[u8; 4],
    expected: &'static str,
) -> Result<(), EventlogError> {
    let at = input.offset();
    match input.take(4)? {
        Some(b) if b == tag => Ok(()),
        other => Err(EventlogError::BadHeader {
            offset: at,
            found: quote(other.unwrap_or(&[])),
            expected,
        }),
    }
}

/// Reads the header up to and including `datb`.
pub(crate) fn read_header<I: Source>(input: &mut I) -> Result<Types, EventlogError> {
    match input.take(4)? {
        Some(b"hdrb") => {}
        other => {
            return Err(EventlogError::NotEventlog {
                found: quote(other.unwrap_or(&[])),
            })
        }
    }
    expect(input, b"hetb", "\"hetb\" (the event-type list)")?;
    let mut types = Types::new();
    loop {
        let at = input.offset();
        let tag: [u8; 4] = match input.take(4)? {
            Some(b) => [b[0], b[1], b[2], b[3]],
            None => [0; 4],
        };
        match &tag {
            b"hete" => break,
            b"etb\0" => {}
            _ => {
                return Err(EventlogError::BadHeader {
                    offset: at,
                    found: quote(if input.at_end()? && tag == [0; 4] {
                        &[]
                    } else {
                        &tag
                    }),
                    expected: "an event type (\"etb\") or the end of the list (\"hete\")",
                })
            }
        }
        let cut = || EventlogError::BadHeader {
            offset: at,
            found: "end of input".to_string(),
            expected: "a complete event-type declaration",
        };
        let (id, size, desc_len) = match input.take(8)? {
            Some(b) => (u16_at(b, 0), u16_at(b, 2), u32_at(b, 4)),
            None => return Err(cut()),
        };
        if !input.skip(u64::from(desc_len))? {
            return Err(cut());
        }
        let extra_len = match input.take(4)? {
            Some(b) => u32_at(b, 0),
            None => return Err(cut()),
        };
        if !input.skip(u64::from(extra_len))? {
            return Err(cut());
        }
        expect(
            input,
            b"ete\0",
            "\"ete\" (end of an event-type declaration)",
        )?;
        types.declare(id, size);
    }
    expect(input, b"hdre", "\"hdre\" (end of the header)")?;
    expect(input, b"datb", "\"datb\" (start of the data)")?;
    Ok(types)
}

/// One framed event. `payload` is exactly the declared or stated payload.
pub(crate) struct RawEvent<'a> {
    pub(crate) id: u16,
    pub(crate) time: u64,
    /// File offset of the event's type field.
    pub(crate) offset: u64,
    pub(crate) payload: &'a [u8],
}

/// What comes next in the data section.
pub(crate) enum Next<'a> {
    Event(RawEvent<'a>),
    /// The 0xFFFF end marker (consumed).
    End,
    /// The input ended inside an event or where an event should start.
    Truncated {
        offset: u64,
    },
    /// An id the header does not declare: nothing after it can be framed.
    Undeclared {
        offset: u64,
        id: u16,
    },
}

/// How the bytes at an event's start frame.
enum Frame {
    /// The end marker (2 bytes).
    End,
    Undeclared(u16),
    /// Not enough bytes to tell: at least this many are needed.
    Needs(usize),
    /// A whole event of `len` bytes whose payload starts at `head`.
    Whole {
        id: u16,
        head: usize,
        len: usize,
    },
}

/// Frames the event that `bytes` start with.
fn frame(bytes: &[u8], types: &Types) -> Frame {
    if bytes.len() < 2 {
        return Frame::Needs(2);
    }
    let id = u16_at(bytes, 0);
    if id == VARIABLE {
        return Frame::End;
    }
    let declared = types.size[usize::from(id)];
    if declared == UNDECLARED {
        return Frame::Undeclared(id);
    }
    let (head, len) = if declared == u32::from(VARIABLE) {
        if bytes.len() < 12 {
            return Frame::Needs(12);
        }
        (12, usize::from(u16_at(bytes, 10)))
    } else {
        (10, declared as usize)
    };
    if bytes.len() < head + len {
        return Frame::Needs(head + len);
    }
    // TEMP (dropped when `framing` lands): GHC 9.10.3 declares IPE (169) events one
    // byte longer than their fields; the event ends after its address and six strings.
    let len = match id {
        169 if len > 8 => bytes[head + 8..head + len]
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == 0)
            .nth(5)
            .map_or(len, |(i, _)| 8 + i + 1),
        _ => len,
    };
    Frame::Whole {
        id,
        head,
        len: head + len,
    }
}

fn raw_event(b: &[u8], id: u16, head: usize, offset: u64) -> RawEvent<'_> {
    RawEvent {
        id,
        time: u64_at(b, 2),
        offset,
        payload: &b[head..],
    }
}

/// Frames the next event.
pub(crate) fn next_event<'a, I: Source>(input: &'a mut I, types: &Types) -> io::Result<Next<'a>> {
    let offset = input.offset();
    let mut need = 2;
    loop {
        if !input.fill(need)? {
            return Ok(Next::Truncated { offset });
        }
        match frame(input.available(), types) {
            Frame::Needs(n) if n > need => need = n,
            Frame::Needs(_) => return Ok(Next::Truncated { offset }),
            Frame::End => {
                input.consume(2);
                return Ok(Next::End);
            }
            Frame::Undeclared(id) => return Ok(Next::Undeclared { offset, id }),
            Frame::Whole { id, head, len } => {
                input.consume(len);
                return Ok(Next::Event(raw_event(
                    input.consumed(len),
                    id,
                    head,
                    offset,
                )));
            }
        }
    }
}

/// Frames the event at offset `at` of `bytes` (which end where the input ends), and
/// where the next one starts; the event borrows `bytes`.
pub(crate) fn event_at<'a>(bytes: &'a [u8], at: usize, types: &Types) -> (Next<'a>, usize) {
    let offset = at as u64;
    match frame(bytes.get(at..).unwrap_or_default(), types) {
        Frame::Needs(_) => (Next::Truncated { offset }, at),
        Frame::End => (Next::End, at + 2),
        Frame::Undeclared(id) => (Next::Undeclared { offset, id }, at),
        Frame::Whole { id, head, len } => (
            Next::Event(raw_event(&bytes[at..at + len], id, head, offset)),
            at + len,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header declaring `(id, size)` pairs, then `datb`.
    pub(crate) fn header(types: &[(u16, u16)]) -> Vec<u8> {
        let mut v = b"hdrbhetb".to_vec();
        for &(id, size) in types {
            v.extend_from_slice(b"etb\0");
            v.extend_from_slice(&id.to_be_bytes());
            v.extend_from_slice(&size.to_be_bytes());
            v.extend_from_slice(&3u32.to_be_bytes());
            v.extend_from_slice(b"abc");
            v.extend_from_slice(&0u32.to_be_bytes());
            v.extend_from_slice(b"ete\0");
        }
        v.extend_from_slice(b"hetehdredatb");
        v
    }

    #[test]
    fn frames_fixed_variable_and_end() {
        let mut v = header(&[(9, 0), (30, 0xFFFF), (7, 3)]);
        v.extend_from_slice(&9u16.to_be_bytes());
        v.extend_from_slice(&5u64.to_be_bytes());
        v.extend_from_slice(&30u16.to_be_bytes());
        v.extend_from_slice(&6u64.to_be_bytes());
        v.extend_from_slice(&2u16.to_be_bytes());
        v.extend_from_slice(b"xy");
        v.extend_from_slice(&7u16.to_be_bytes());
        v.extend_from_slice(&8u64.to_be_bytes());
        v.extend_from_slice(b"abc");
        v.extend_from_slice(&[0xFF, 0xFF]);
        let mut input = Input::new(&v[..]);
        let types = read_header(&mut input).unwrap();
        let mut seen = Vec::new();
        loop {
            match next_event(&mut input, &types).unwrap() {
                Next::Event(e) => seen.push((e.id, e.time, e.payload.to_vec())),
                Next::End => break,
                _ => panic!("unexpected"),
            }
        }
        assert_eq!(
            seen,
            vec![
                (9, 5, vec![]),
                (30, 6, b"xy".to_vec()),
                (7, 8, b"abc".to_vec())
            ]
        );
        assert!(input.at_end().unwrap());
    }

    #[test]
    fn undeclared_and_truncated() {
        let mut v = header(&[(9, 0)]);
        v.extend_from_slice(&9u16.to_be_bytes());
        v.extend_from_slice(&5u64.to_be_bytes()[..4]);
        let mut input = Input::new(&v[..]);
        let types = read_header(&mut input).unwrap();
        assert!(matches!(
            next_event(&mut input, &types).unwrap(),
            Next::Truncated { .. }
        ));
        let mut v = header(&[(9, 0)]);
        v.extend_from_slice(&4u16.to_be_bytes());
        let mut input = Input::new(&v[..]);
        let types = read_header(&mut input).unwrap();
        assert!(matches!(
            next_event(&mut input, &types).unwrap(),
            Next::Undeclared { id: 4, .. }
        ));
    }

    #[test]
    fn header_errors() {
        assert!(matches!(
            read_header(&mut Input::new(&b"hd"[..])),
            Err(EventlogError::NotEventlog { .. })
        ));
        let v = header(&[(9, 0)]);
        for cut in 4..v.len() {
            assert!(matches!(
                read_header(&mut Input::new(&v[..cut])),
                Err(EventlogError::BadHeader { .. })
            ));
        }
        // A description length that lies is skipped by streaming, not allocated.
        let mut v = b"hdrbhetbetb\0\0\x09\0\0\xFF\xFF\xFF\xFF".to_vec();
        v.extend_from_slice(b"short");
        assert!(read_header(&mut Input::new(&v[..])).is_err());
    }
}
