//! A PostScript lexer that follows the PLRM's rules for comments and string literals,
//! and an oracle built on it: the PostScript we write contains only the operators the
//! painter uses, numbers, header comments, and string literals that decode to texts of
//! the chart. A name, DATE or unit that escaped its string would show up as a string
//! that decodes to something else, or as a token outside that set.
//!
//! Shared by `tests/` and the `fuzz/` targets through `#[path]`.

#![allow(dead_code)]

use hp2ps::internals::chart::Chart;

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// A `%` comment up to the end of its line, the `%` included. `ended_by` is the byte
    /// that ended it (LF, CR or FF), or `None` at the end of the file.
    Comment { text: Vec<u8>, ended_by: Option<u8> },
    /// A `( … )` literal, decoded (escapes applied, end-of-line markers made LF).
    Str(Vec<u8>),
    /// Any other run of regular characters: a number or an executable name.
    Word(Vec<u8>),
    /// `/name`.
    Literal(Vec<u8>),
    /// One of the delimiters `[ ] { } < >`, which our output never uses.
    Delimiter(u8),
}

fn is_white(b: u8) -> bool {
    matches!(b, 0 | b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Splits PostScript into tokens. Errors are what an interpreter would reject: an
/// unterminated string or an unbalanced `)`.
pub fn lex(ps: &[u8]) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ps.len() {
        let b = ps[i];
        if is_white(b) {
            i += 1;
        } else if b == b'%' {
            let end = ps[i..]
                .iter()
                .position(|&c| matches!(c, b'\n' | b'\r' | 0x0c))
                .map(|k| i + k);
            let stop = end.unwrap_or(ps.len());
            out.push(Token::Comment {
                text: ps[i..stop].to_vec(),
                ended_by: end.map(|e| ps[e]),
            });
            i = stop;
        } else if b == b'(' {
            let (s, next) = string(ps, i + 1)?;
            out.push(Token::Str(s));
            i = next;
        } else if b == b')' {
            return Err(format!("unbalanced ')' at byte {i}"));
        } else if b == b'/' {
            let end = word_end(ps, i + 1);
            out.push(Token::Literal(ps[i + 1..end].to_vec()));
            i = end;
        } else if b == b'<' && ps.get(i + 1) != Some(&b'<') {
            let (s, next) = hex_string(ps, i + 1)?;
            out.push(Token::Str(s));
            i = next;
        } else if is_delimiter(b) {
            out.push(Token::Delimiter(b));
            i += 1;
        } else {
            let end = word_end(ps, i);
            out.push(Token::Word(ps[i..end].to_vec()));
            i = end;
        }
    }
    Ok(out)
}

fn word_end(ps: &[u8], from: usize) -> usize {
    ps[from..]
        .iter()
        .position(|&c| is_white(c) || is_delimiter(c))
        .map_or(ps.len(), |k| from + k)
}

/// Decodes a `<hex>` string (PDF writes those for bytes outside ASCII) whose body starts
/// at `i`; returns it and the index after its `>`.
fn hex_string(ps: &[u8], i: usize) -> Result<(Vec<u8>, usize), String> {
    let end = ps[i..]
        .iter()
        .position(|&c| c == b'>')
        .ok_or_else(|| format!("hex string at byte {i} never ends"))?;
    let mut digits: Vec<u8> = Vec::new();
    for &c in &ps[i..i + end] {
        match (c as char).to_digit(16) {
            Some(d) => digits.push(d as u8),
            None if is_white(c) => {}
            None => return Err(format!("bad hex digit {:?} at byte {i}", c as char)),
        }
    }
    if digits.len() % 2 == 1 {
        digits.push(0);
    }
    let bytes = digits.chunks(2).map(|p| p[0] * 16 + p[1]).collect();
    Ok((bytes, i + end + 1))
}

/// Decodes a string literal whose body starts at `i`; returns it and the index after
/// its closing `)`.
fn string(ps: &[u8], mut i: usize) -> Result<(Vec<u8>, usize), String> {
    let start = i;
    let mut depth = 1usize;
    let mut s = Vec::new();
    while i < ps.len() {
        let b = ps[i];
        i += 1;
        match b {
            b'(' => {
                depth += 1;
                s.push(b);
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok((s, i));
                }
                s.push(b);
            }
            b'\r' => {
                // CR and CRLF inside a string read as one LF.
                if ps.get(i) == Some(&b'\n') {
                    i += 1;
                }
                s.push(b'\n');
            }
            b'\\' => i = escape(ps, i, &mut s),
            _ => s.push(b),
        }
    }
    Err(format!("string starting at byte {start} never ends"))
}

/// Applies the escape whose first byte after the backslash is at `i`.
fn escape(ps: &[u8], mut i: usize, s: &mut Vec<u8>) -> usize {
    let Some(&c) = ps.get(i) else {
        return i;
    };
    i += 1;
    match c {
        b'n' => s.push(b'\n'),
        b'r' => s.push(b'\r'),
        b't' => s.push(b'\t'),
        b'b' => s.push(0x08),
        b'f' => s.push(0x0c),
        b'0'..=b'7' => {
            let mut v = u32::from(c - b'0');
            let mut digits = 1;
            while digits < 3 && ps.get(i).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                v = v * 8 + u32::from(ps[i] - b'0');
                i += 1;
                digits += 1;
            }
            s.push((v & 0xff) as u8);
        }
        // A backslash before an end of line continues the string on the next line.
        b'\n' => {}
        b'\r' => {
            if ps.get(i) == Some(&b'\n') {
                i += 1;
            }
        }
        // `\(`, `\)`, `\\`, and any other byte: the backslash is dropped.
        other => s.push(other),
    }
    i
}

/// Every operator and name the PostScript painter writes.
pub const OPERATORS: &[&str] = &[
    "newpath",
    "moveto",
    "rlineto",
    "lineto",
    "closepath",
    "setlinewidth",
    "stroke",
    "setfont",
    "show",
    "dup",
    "stringwidth",
    "pop",
    "div",
    "exch",
    "sub",
    "gsave",
    "grestore",
    "translate",
    "rotate",
    "scale",
    "setgray",
    "setrgbcolor",
    "fill",
    "showpage",
    "findfont",
    "scalefont",
    "def",
    "HE10",
    "HE12",
];

/// Every text the chart shows, as the painters get it.
pub fn chart_texts(chart: &Chart) -> Vec<Vec<u8>> {
    let t = &chart.title;
    let mut texts = vec![t.job.clone(), t.area_text.clone(), t.date.clone()];
    for page in &chart.pages {
        if let Some(a) = &page.axes {
            texts.push(a.x_legend.clone());
            texts.push(a.y_legend.clone());
            texts.extend(a.x_ticks.iter().map(|k| k.label.clone()));
            texts.extend(a.y_ticks.iter().map(|k| k.label.clone()));
        }
        texts.extend(page.key.iter().map(|k| k.label.clone()));
    }
    texts
}

/// Checks that `ps` holds nothing but our operators, finite numbers, header comments
/// that end at a line feed, and strings that show exactly the chart's texts.
pub fn check_postscript(ps: &[u8], chart: &Chart) -> Result<(), String> {
    let tokens = lex(ps)?;
    let texts = chart_texts(chart);
    let mut in_header = true;
    for tok in tokens {
        match tok {
            Token::Comment { text, ended_by } => {
                // Comments are the header (before the first operator) and `%%EOF`.
                if !(in_header || text == b"%%EOF") {
                    return Err(format!("comment in the body: {}", show(&text)));
                }
                if !matches!(ended_by, Some(b'\n')) {
                    return Err(format!(
                        "comment {} ended by {:?}, not a line feed: what follows is code",
                        show(&text),
                        ended_by
                    ));
                }
            }
            Token::Str(s) => {
                if !texts.contains(&s) {
                    return Err(format!("string {} is no text of the chart", show(&s)));
                }
            }
            Token::Word(w) => {
                in_header = false;
                let known = std::str::from_utf8(&w).is_ok_and(|w| OPERATORS.contains(&w));
                let number = std::str::from_utf8(&w)
                    .ok()
                    .and_then(|w| w.parse::<f64>().ok())
                    .is_some_and(f64::is_finite);
                if !(known || number) {
                    return Err(format!("unexpected token {}", show(&w)));
                }
            }
            Token::Literal(l) => {
                if !matches!(l.as_slice(), b"HE10" | b"HE12" | b"Helvetica") {
                    return Err(format!("unexpected literal /{}", show(&l)));
                }
            }
            Token::Delimiter(d) => return Err(format!("unexpected delimiter {}", d as char)),
        }
    }
    Ok(())
}

fn show(bytes: &[u8]) -> String {
    let s: String = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]).into_owned();
    format!("{s:?}")
}
