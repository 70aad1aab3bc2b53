//! The tokens of a `-pj` file, read one at a time (no tree of values: a profile of a
//! million stacks is read in one pass, in the memory of its own tree, and no nesting
//! depth is too deep).
//!
//! GHC 9.0.2 writes labels as they are, escaping `\` but not `"` or a TAB, so its files
//! for labels holding those are not JSON (`"label": "quote"inside"`). A `"` ends a
//! string only when what follows it can follow a string (`,` `:` `}` `]`, or the end);
//! any other `"`, and a raw control character, is the label's own, and counted to be
//! warned about.

use std::borrow::Cow;

/// A token.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token<'a> {
    Open(u8),
    Close(u8),
    Colon,
    Comma,
    Str(Cow<'a, str>),
    Number(&'a str),
    Word(&'a str),
    End,
}

/// What a string held that JSON does not allow.
#[derive(Debug, Default)]
pub(super) struct Oddities {
    /// The first: its byte offset and what it was; and how many.
    pub(super) first: Option<(usize, &'static str)>,
    pub(super) count: usize,
}

/// The tokenizer.
pub(super) struct Tokens<'a> {
    bytes: &'a [u8],
    pub(super) at: usize,
    pub(super) odd: Oddities,
}

/// The bad token at an offset, and what it was.
pub(super) type Bad = (usize, String);

impl<'a> Tokens<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            at: 0,
            odd: Oddities::default(),
        }
    }

    fn skip_space(&mut self) {
        while let Some(&c) = self.bytes.get(self.at) {
            if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            self.at += 1;
        }
    }

    /// A tokenizer of the same input from byte `at` (to quote what is there).
    pub(super) fn clone_at(&self, at: usize) -> Tokens<'a> {
        Tokens::new(&self.bytes[at.min(self.bytes.len())..])
    }

    /// Where the next token starts.
    pub(super) fn offset(&mut self) -> usize {
        self.skip_space();
        self.at
    }

    /// The next token.
    pub(super) fn next(&mut self) -> Result<Token<'a>, Bad> {
        self.skip_space();
        let start = self.at;
        let Some(&c) = self.bytes.get(start) else {
            return Ok(Token::End);
        };
        self.at += 1;
        Ok(match c {
            b'{' | b'[' => Token::Open(c),
            b'}' | b']' => Token::Close(c),
            b':' => Token::Colon,
            b',' => Token::Comma,
            b'"' => Token::Str(self.string()?),
            b'-' | b'0'..=b'9' => {
                let len = (self.bytes[start..].iter())
                    .position(|c| !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .unwrap_or(self.bytes.len() - start);
                self.at = start + len;
                Token::Number(text(&self.bytes[start..self.at]))
            }
            b'a'..=b'z' => {
                let len = (self.bytes[start..].iter())
                    .position(|c| !c.is_ascii_lowercase())
                    .unwrap_or(self.bytes.len() - start);
                self.at = start + len;
                Token::Word(text(&self.bytes[start..self.at]))
            }
            _ => {
                let found =
                    String::from_utf8_lossy(&self.bytes[start..(start + 20).min(self.bytes.len())]);
                return Err((start, format!("{:?}", found)));
            }
        })
    }

    /// A string's text, after its opening `"`: borrowed from the input unless an escape
    /// (or an oddity) changes it.
    fn string(&mut self) -> Result<Cow<'a, str>, Bad> {
        let bytes = self.bytes;
        let start = self.at;
        // The text, once it differs from the input's bytes.
        let mut owned: Option<Vec<u8>> = None;
        loop {
            let run = (bytes[self.at..].iter())
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .unwrap_or(bytes.len() - self.at);
            if let Some(v) = owned.as_mut() {
                v.extend_from_slice(&bytes[self.at..self.at + run]);
            }
            self.at += run;
            let Some(&c) = bytes.get(self.at) else {
                return Err((start - 1, "a string that does not end".to_string()));
            };
            let at = self.at;
            fn copy<'o>(owned: &'o mut Option<Vec<u8>>, so_far: &[u8]) -> &'o mut Vec<u8> {
                owned.get_or_insert_with(|| so_far.to_vec())
            }
            let so_far = &bytes[start..at];
            match c {
                b'"' => {
                    let after = (bytes[at + 1..].iter())
                        .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                    if matches!(after, None | Some(b',' | b':' | b'}' | b']')) {
                        self.at += 1;
                        return Ok(match owned {
                            Some(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
                            None => String::from_utf8_lossy(&bytes[start..at]),
                        });
                    }
                    self.odd(at, "an unescaped '\"' in a string");
                    copy(&mut owned, so_far).push(b'"');
                    self.at += 1;
                }
                b'\\' => {
                    let (len, odd) = escape(bytes, at, copy(&mut owned, so_far));
                    if let Some(what) = odd {
                        self.odd(at, what);
                    }
                    self.at += len;
                }
                _ => {
                    self.odd(at, "a raw control character (a TAB) in a string");
                    copy(&mut owned, so_far).push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn odd(&mut self, at: usize, what: &'static str) {
        if self.odd.first.is_none() {
            self.odd.first = Some((at, what));
        }
        self.odd.count += 1;
    }

    /// The line and column (from 1, in characters) of byte `at`.
    pub(super) fn position(&self, at: usize) -> (usize, usize) {
        let before = &self.bytes[..at.min(self.bytes.len())];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        (line, column)
    }
}

/// The escape at `bytes[at]` (a `\`) onto `out`: its length in bytes, and what was
/// odd about it (a `\` that escapes nothing is kept as it is).
fn escape(bytes: &[u8], at: usize, out: &mut Vec<u8>) -> (usize, Option<&'static str>) {
    let simple: &[u8] = match bytes.get(at + 1).copied() {
        Some(b'"') => b"\"",
        Some(b'\\') => b"\\",
        Some(b'/') => b"/",
        Some(b'b') => b"\x08",
        Some(b'f') => b"\x0c",
        Some(b'n') => b"\n",
        Some(b'r') => b"\r",
        Some(b't') => b"\t",
        Some(b'u') => {
            if let Some((ch, len)) = unicode(bytes, at + 2) {
                out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                return (2 + len, None);
            }
            out.push(b'\\');
            return (1, Some("a '\\u' without four hex digits"));
        }
        _ => {
            out.push(b'\\');
            return (1, Some("a '\\' that escapes nothing"));
        }
    };
    out.extend_from_slice(simple);
    (2, None)
}

/// A `\u` escape's character from its hex digits at `at` (a surrogate pair's two
/// escapes together; a lone surrogate is U+FFFD), and how many bytes after the `\u` it
/// took.
fn unicode(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let hex = |at: usize| {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let first = hex(at)?;
    if (0xD800..0xDC00).contains(&first) && bytes.get(at + 4..at + 6) == Some(b"\\u") {
        if let Some(second) = hex(at + 6).filter(|s| (0xDC00..0xE000).contains(s)) {
            let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            return char::from_u32(c).map(|c| (c, 10));
        }
    }
    Some((char::from_u32(first).unwrap_or('\u{FFFD}'), 4))
}

/// ASCII bytes (a number or a word) as text.
fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or("")
}
