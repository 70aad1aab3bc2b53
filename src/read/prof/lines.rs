//! The lines of a text report: numbered from 1, as bytes without their `\n` or `\r\n`
//! (as text when asked, invalid UTF-8 replaced), and the bytes read given back as
//! reading goes.

use std::borrow::Cow;

/// How many bytes are read between two calls of the release callback.
const RELEASE_EVERY: usize = 8 << 20;

/// A report's lines.
pub(super) struct Lines<'a, 'r> {
    bytes: &'a [u8],
    at: usize,
    number: usize,
    released: usize,
    release: &'r mut dyn FnMut(usize),
}

/// One line.
pub(super) struct Line<'a> {
    /// Its number, from 1.
    pub(super) number: usize,
    /// Where it starts in the input.
    pub(super) start: usize,
    /// Its bytes (without the line end).
    pub(super) bytes: &'a [u8],
    /// Whether a line end ends it (the last line of a cut file has none).
    pub(super) ended: bool,
}

impl<'a> Line<'a> {
    /// Its text (invalid UTF-8 replaced).
    pub(super) fn text(&self) -> Cow<'a, str> {
        String::from_utf8_lossy(self.bytes)
    }
}

impl<'a, 'r> Lines<'a, 'r> {
    /// The lines of `bytes`; `release(n)` is called now and then once the first `n`
    /// bytes are read.
    pub(super) fn new(bytes: &'a [u8], release: &'r mut dyn FnMut(usize)) -> Self {
        Lines {
            bytes,
            at: 0,
            number: 0,
            released: 0,
            release,
        }
    }

    /// Goes back to before `line`, which was the last line given.
    pub(super) fn rewind(&mut self, line: &Line<'_>) {
        self.at = line.start;
        self.number = line.number - 1;
    }

    /// The bytes after the last line given.
    pub(super) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    /// Skips `bytes` bytes holding `lines` lines (read elsewhere).
    pub(super) fn skip(&mut self, bytes: usize, lines: usize) {
        self.at = (self.at + bytes).min(self.bytes.len());
        self.number += lines;
        if self.at - self.released >= RELEASE_EVERY {
            self.released = self.at;
            (self.release)(self.at);
        }
    }

    /// How many bytes are left after the last line given.
    pub(super) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// The number of the last line given (0 before the first).
    pub(super) fn number(&self) -> usize {
        self.number
    }

    /// The next line.
    #[allow(clippy::should_implement_trait)]
    pub(super) fn next(&mut self) -> Option<Line<'a>> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let rest = &self.bytes[self.at..];
        let start = self.at;
        let (line, ended) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], true),
            None => (rest, false),
        };
        self.at += line.len() + usize::from(ended);
        self.number += 1;
        if self.at - self.released >= RELEASE_EVERY {
            self.released = self.at;
            (self.release)(self.at);
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Some(Line {
            number: self.number,
            start,
            bytes: line,
            ended,
        })
    }
}

/// `text` for a message: quoted, control characters escaped, at most 40 characters.
pub(super) fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    let more = if cut.len() < text.len() { "…" } else { "" };
    format!("{:?}{more}", cut)
}
