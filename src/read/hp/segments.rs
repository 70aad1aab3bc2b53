//! Splits any `io::Read` into segments: whole lines, or bounded pieces of very long lines.
//!
//! The `.hp` grammar is token based, but GHC writes one statement per line and the
//! compatibility rules for odd names are line based, so the reader works on lines. A line
//! longer than [`SEGMENT_CAP`] (a whole profile may legally sit on one line) is cut after
//! a whitespace byte, so that no token except a string is ever split; memory stays bounded
//! whatever the input.
//!
//! Segments are slices of one large buffer that is refilled in big reads: no per-line
//! copies or calls, which is most of the reading time on large profiles.

use std::io::{self, Read};
use std::ops::Range;

use super::tokens::is_space;

/// Largest segment handed to the parser.
pub(crate) const SEGMENT_CAP: usize = 256 * 1024;

/// Size of one read from the input.
const READ_SIZE: usize = 1 << 20;

/// Where a segment sits in its line.
#[derive(Debug, Clone, Copy)]
pub(super) struct SegmentInfo {
    /// 1-based line number of the segment.
    pub line: u64,
    /// 1-based column of its first byte.
    pub col: u64,
    /// The segment starts a line.
    pub starts_line: bool,
    /// The segment ends with the line's LF.
    pub ends_line: bool,
    /// The segment ends the input without a final LF.
    pub last: bool,
}

pub(super) struct Segmenter<R> {
    inner: R,
    buf: Vec<u8>,
    /// Unconsumed bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    eof: bool,
    line: u64,
    col: u64,
    at_line_start: bool,
}

impl<R: Read> Segmenter<R> {
    pub(super) fn new(inner: R) -> Self {
        Self::starting_at(inner, 1)
    }

    /// A segmenter whose first byte starts line `line` (a later part of a file).
    pub(super) fn starting_at(inner: R, line: u64) -> Self {
        Segmenter {
            inner,
            buf: Vec::new(),
            start: 0,
            end: 0,
            eof: false,
            line,
            col: 1,
            at_line_start: true,
        }
    }

    /// Position just past everything read so far.
    pub(super) fn end_pos(&self) -> (u64, u64) {
        (self.line, self.col)
    }

    /// The bytes of a segment returned by [`Segmenter::next_segment`].
    pub(super) fn bytes(&self, range: Range<usize>) -> &[u8] {
        &self.buf[range]
    }

    /// Takes a whole `name<TAB>digits` line if one starts here and is already in the
    /// buffer: the common GHC line, read without finding its end first. Returns the
    /// name's range and the value.
    pub(super) fn data_line(&mut self, max_name_len: usize) -> Option<(Range<usize>, f64)> {
        if !self.at_line_start {
            return None;
        }
        let line = super::data_line::scan_data_line(&self.buf[self.start..self.end], false)?;
        if line.name_len > max_name_len {
            return None;
        }
        let name = self.start..self.start + line.name_len;
        self.start += line.len;
        self.line += 1;
        Some((name, line.value))
    }

    /// Finds the next segment. Returns `None` at the end of the input.
    pub(super) fn next_segment(&mut self) -> io::Result<Option<(SegmentInfo, Range<usize>)>> {
        let mut searched = 0;
        loop {
            let pending = &self.buf[self.start + searched..self.end];
            if let Some(i) = memchr::memchr(b'\n', pending) {
                let stop = self.start + searched + i + 1;
                return Ok(Some(self.take(stop, true)));
            }
            searched = self.end - self.start;
            if searched >= SEGMENT_CAP {
                let stop = self.cut_point();
                return Ok(Some(self.take(stop, false)));
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                return Ok(Some(self.take(self.end, false)));
            }
            self.fill()?;
        }
    }

    /// Where to cut an over-long line: after the last whitespace byte within the cap, so
    /// no token is split (a piece without whitespace holds one over-long token, which the
    /// parser rejects, or part of a long string, which it accumulates).
    fn cut_point(&self) -> usize {
        let window = &self.buf[self.start..self.start + SEGMENT_CAP];
        match window.iter().rposition(|&b| is_space(b)) {
            Some(i) => self.start + i + 1,
            None => self.start + SEGMENT_CAP,
        }
    }

    fn take(&mut self, stop: usize, ends_line: bool) -> (SegmentInfo, Range<usize>) {
        let range = self.start..stop;
        let info = SegmentInfo {
            line: self.line,
            col: self.col,
            starts_line: self.at_line_start,
            ends_line,
            last: !ends_line && self.eof && stop == self.end,
        };
        if ends_line {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += range.len() as u64;
        }
        self.at_line_start = ends_line;
        self.start = stop;
        (info, range)
    }

    /// Moves the unconsumed bytes to the front and reads more after them.
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        // Start small (a short profile should not pay for zeroing a big buffer) and grow
        // to READ_SIZE reads for large inputs.
        let read = (2 * self.buf.len()).clamp(64 * 1024, READ_SIZE);
        let want = self.end + read;
        if self.buf.len() < want {
            self.buf.resize(want, 0);
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads through a reader that returns at most 7 bytes per call.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(out.len()).min(7);
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn segments(input: &[u8]) -> Vec<(Vec<u8>, SegmentInfo)> {
        let mut s = Segmenter::new(Trickle(input));
        let mut out = Vec::new();
        while let Some((info, range)) = s.next_segment().unwrap() {
            out.push((s.bytes(range).to_vec(), info));
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
            assert!(!info.last);
        }
        assert_eq!(segs[1].1.col, segs[0].0.len() as u64 + 1);
        assert!(segs.last().unwrap().1.last);
    }

    #[test]
    fn a_token_longer_than_the_cap_comes_in_cap_sized_pieces() {
        let input = vec![b'x'; SEGMENT_CAP + 10];
        let segs = segments(&input);
        assert_eq!(segs[0].0.len(), SEGMENT_CAP);
        assert_eq!(segs[1].0.len(), 10);
    }
}
