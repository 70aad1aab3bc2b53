//! Splits any `io::Read` into segments: whole lines, or bounded pieces of very long lines.
//!
//! The `.hp` grammar is token based, but GHC writes one statement per line and the
//! compatibility rules for odd names are line based, so the reader works on lines. A line
//! longer than [`SEGMENT_CAP`] (a whole profile may legally sit on one line) is cut after
//! a whitespace byte, so that no token except a string is ever split; memory stays bounded
//! whatever the input.

use std::io::{self, BufRead};

/// Largest segment handed to the parser.
pub const SEGMENT_CAP: usize = 256 * 1024;

pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Where a segment sits in its line.
#[derive(Debug, Clone, Copy)]
pub struct SegmentInfo {
    /// 1-based line number of the segment.
    pub line: u64,
    /// 1-based column of its first byte.
    pub col: u64,
    /// The segment starts a line.
    pub starts_line: bool,
    /// The segment ends with the line's LF.
    pub ends_line: bool,
    /// Nothing follows this segment.
    pub last: bool,
}

pub struct Segmenter<R> {
    inner: R,
    carry: Vec<u8>,
    line: u64,
    col: u64,
    at_line_start: bool,
    eof: bool,
}

impl<R: BufRead> Segmenter<R> {
    pub fn new(inner: R) -> Self {
        Segmenter {
            inner,
            carry: Vec::new(),
            line: 1,
            col: 1,
            at_line_start: true,
            eof: false,
        }
    }

    /// Position just past everything read so far.
    pub fn end_pos(&self) -> (u64, u64) {
        (self.line, self.col)
    }

    /// Fills `buf` with the next segment. Returns `None` at the end of the input.
    pub fn next_segment(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<SegmentInfo>> {
        buf.clear();
        buf.append(&mut self.carry);
        let mut ends_line = buf.last() == Some(&b'\n');
        while !ends_line && !self.eof && buf.len() < SEGMENT_CAP {
            let available = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                self.eof = true;
                break;
            }
            let room = SEGMENT_CAP - buf.len();
            let window = &available[..available.len().min(room)];
            let used = match memchr_lf(window) {
                Some(i) => {
                    ends_line = true;
                    i + 1
                }
                None => window.len(),
            };
            buf.extend_from_slice(&window[..used]);
            self.inner.consume(used);
        }
        if buf.is_empty() {
            return Ok(None);
        }
        if !ends_line && buf.len() >= SEGMENT_CAP {
            self.cut_after_last_space(buf);
        }
        let info = SegmentInfo {
            line: self.line,
            col: self.col,
            starts_line: self.at_line_start,
            ends_line,
            last: false,
        };
        if ends_line {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += buf.len() as u64;
        }
        self.at_line_start = ends_line;
        let last = self.carry.is_empty() && self.peek_eof()?;
        Ok(Some(SegmentInfo { last, ..info }))
    }

    /// Keeps the tail after the last whitespace byte for the next segment, so that no
    /// token is split (a segment without whitespace holds one over-long token, which the
    /// parser rejects, or part of a long string, which it accumulates).
    fn cut_after_last_space(&mut self, buf: &mut Vec<u8>) {
        if let Some(i) = buf.iter().rposition(|&b| is_space(b)) {
            self.carry.extend_from_slice(&buf[i + 1..]);
            buf.truncate(i + 1);
        }
    }

    fn peek_eof(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(true);
        }
        loop {
            match self.inner.fill_buf() {
                Ok(a) => {
                    self.eof = a.is_empty();
                    return Ok(self.eof);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

fn memchr_lf(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(input: &[u8]) -> Vec<(Vec<u8>, SegmentInfo)> {
        let mut s = Segmenter::new(io::BufReader::with_capacity(7, input));
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while let Some(info) = s.next_segment(&mut buf).unwrap() {
            out.push((buf.clone(), info));
        }
        out
    }

    #[test]
    fn splits_lines_and_tracks_positions() {
        let segs = segments(b"ab\ncd\n\nlast");
        let texts: Vec<&[u8]> = segs.iter().map(|(b, _)| b.as_slice()).collect();
        assert_eq!(texts, vec![&b"ab\n"[..], b"cd\n", b"\n", b"last"]);
        assert_eq!(segs[3].1.line, 4);
        assert!(segs[3].1.last && !segs[3].1.ends_line);
        assert!(!segs[2].1.last);
    }

    #[test]
    fn long_lines_are_cut_after_whitespace() {
        let mut input = Vec::new();
        while input.len() < SEGMENT_CAP * 2 {
            input.extend_from_slice(b"abc 12 ");
        }
        let segs = segments(&input);
        assert!(segs.len() >= 2);
        let joined: Vec<u8> = segs.iter().flat_map(|(b, _)| b.clone()).collect();
        assert_eq!(joined, input);
        for (b, info) in &segs[..segs.len() - 1] {
            assert!(is_space(*b.last().unwrap()));
            assert!(b.len() <= SEGMENT_CAP);
            assert_eq!(info.line, 1);
        }
        assert_eq!(segs[1].1.col, segs[0].0.len() as u64 + 1);
    }
}
