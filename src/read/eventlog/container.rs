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

    /// File offset of the next unread byte.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Makes at least `n` bytes available (n is at most one event: 10 + 2 + 65 535);
    /// false at end of input.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        while self.end - self.start < n {
            if self.eof {
                return Ok(false);
            }
            if self.buf.len() - self.start < n + CHUNK {
                // Move the unread tail to the front, then make room for one more chunk.
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

    /// The next `n` bytes, consumed; `None` (nothing consumed) if the input ends first.
    fn take(&mut self, n: usize) -> io::Result<Option<&[u8]>> {
        if !self.fill(n)? {
            return Ok(None);
        }
        let s = self.start;
        self.start += n;
        self.offset += n as u64;
        Ok(Some(&self.buf[s..s + n]))
    }

    /// Skips `n` bytes (any number: header lengths are not trusted to fit in memory).
    /// Returns false if the input ended first.
    fn skip(&mut self, mut n: u64) -> io::Result<bool> {
        while n > 0 {
            if !self.fill(1)? {
                return Ok(false);
            }
            let k = ((self.end - self.start) as u64).min(n) as usize;
            self.start += k;
            self.offset += k as u64;
            n -= k as u64;
        }
        Ok(true)
    }

    /// Whether any byte is left.
    pub(crate) fn at_end(&mut self) -> io::Result<bool> {
        Ok(!self.fill(1)?)
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
fn expect<R: Read>(
    input: &mut Input<R>,
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
pub(crate) fn read_header<R: Read>(input: &mut Input<R>) -> Result<Types, EventlogError> {
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

/// Frames the next event.
pub(crate) fn next_event<'a, R: Read>(
    input: &'a mut Input<R>,
    types: &Types,
) -> io::Result<Next<'a>> {
    let offset = input.offset();
    if !input.fill(2)? {
        return Ok(Next::Truncated { offset });
    }
    let id = u16_at(&input.buf, input.start);
    if id == VARIABLE {
        input.start += 2;
        input.offset += 2;
        return Ok(Next::End);
    }
    let declared = types.size[usize::from(id)];
    if declared == UNDECLARED {
        return Ok(Next::Undeclared { offset, id });
    }
    let (head, len) = if declared == u32::from(VARIABLE) {
        if !input.fill(12)? {
            return Ok(Next::Truncated { offset });
        }
        (12, usize::from(u16_at(&input.buf, input.start + 10)))
    } else {
        (10, declared as usize)
    };
    if !input.fill(head + len)? {
        return Ok(Next::Truncated { offset });
    }
    let s = input.start;
    input.start += head + len;
    input.offset += (head + len) as u64;
    let b = &input.buf[s..s + head + len];
    Ok(Next::Event(RawEvent {
        id,
        time: u64_at(b, 2),
        offset,
        payload: &b[head..],
    }))
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
