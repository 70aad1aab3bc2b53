//! Reading an `.aux` file back (`-p`): the whole-line form hp2ps writes, else hp2ps's
//! aux tokens.

use super::Aux;
use crate::num;
use crate::num::{Pos, MAX_NUMBER_LEN};
use crate::read::hp::ReadError;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A token of the aux language: digits always start a number here, and there are no
/// strings (a `"` is an ordinary byte).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tok<'a> {
    Int(&'a [u8]),
    Float(&'a [u8]),
    Word(&'a [u8]),
    Eof,
}

struct Lexer<'a> {
    text: &'a [u8],
    i: usize,
    line: u64,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    fn next(&mut self) -> (Tok<'a>, Pos) {
        while self.i < self.text.len() && is_space(self.text[self.i]) {
            if self.text[self.i] == b'\n' {
                self.line += 1;
                self.line_start = self.i + 1;
            }
            self.i += 1;
        }
        let pos = Pos {
            line: self.line,
            col: (self.i - self.line_start + 1) as u64,
        };
        let start = self.i;
        let Some(&b) = self.text.get(start) else {
            return (Tok::Eof, pos);
        };
        if b.is_ascii_digit() {
            while self.i < self.text.len()
                && self.i - start < MAX_NUMBER_LEN
                && (self.text[self.i].is_ascii_digit() || self.text[self.i] == b'.')
            {
                self.i += 1;
            }
            let t = &self.text[start..self.i];
            let tok = if t.contains(&b'.') {
                Tok::Float(t)
            } else {
                Tok::Int(t)
            };
            return (tok, pos);
        }
        while self.i < self.text.len() && !is_space(self.text[self.i]) {
            self.i += 1;
        }
        (Tok::Word(&self.text[start..self.i]), pos)
    }
}

fn describe(t: Tok) -> String {
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match t {
        Tok::Int(b) => format!("integer {}", s(b)),
        Tok::Float(b) => format!("number {}", s(b)),
        Tok::Word(b) => format!("identifier \"{}\"", s(b)),
        Tok::Eof => "end of file".to_string(),
    }
}

fn error(pos: Pos, found: Tok, expected: &str) -> ReadError {
    ReadError::syntax(pos, describe(found), expected)
}

impl Aux {
    /// Reads an `.aux` file; a bad one gives a [`ReadError::Syntax`] (where, what was
    /// found, what was expected).
    ///
    /// Files hp2ps wrote hold one statement per line; those lines are read whole, so
    /// names that hp2ps cannot read back (starting with a digit, containing spaces)
    /// survive the round trip. Anything else is read with hp2ps's aux tokens.
    pub fn read(text: &[u8]) -> Result<Aux, ReadError> {
        match read_lines(text) {
            Some(aux) => Ok(aux),
            None => read_tokens(text),
        }
    }
}

fn read_lines(text: &[u8]) -> Option<Aux> {
    let mut aux = Aux::default();
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(|&b| is_space(b)) {
            continue;
        }
        let (kw, rest) = split_once(line, b' ')?;
        match kw {
            b"X_RANGE" => aux.x_range = Some(float_arg(rest)?),
            b"Y_RANGE" => aux.y_range = Some(float_arg(rest)?),
            b"ORDER" | b"SHADE" => {
                // The name is everything up to the last space: it may be empty (a name
                // cut at a NUL) or hold whitespace (a name read by the TAB line rule).
                let cut = rest.iter().rposition(|&b| b == b' ')?;
                let (name, value) = (&rest[..cut], &rest[cut + 1..]);
                if kw == b"ORDER" {
                    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
                        return None;
                    }
                    aux.order.push((name.to_vec(), num::c_atoi(value)));
                } else {
                    aux.shades.push((name.to_vec(), float_arg(value)?));
                }
            }
            _ => return None,
        }
    }
    Some(aux)
}

fn split_once(line: &[u8], sep: u8) -> Option<(&[u8], &[u8])> {
    let i = line.iter().position(|&b| b == sep)?;
    Some((&line[..i], &line[i + 1..]))
}

/// A float argument of a whole-line statement: digits with a dot, nothing else.
fn float_arg(text: &[u8]) -> Option<f64> {
    let ok = !text.is_empty()
        && text.len() <= MAX_NUMBER_LEN
        && text[0].is_ascii_digit()
        && text.contains(&b'.')
        && text.iter().all(|&b| b.is_ascii_digit() || b == b'.');
    ok.then(|| crate::num::float_value(text))
}

fn read_tokens(text: &[u8]) -> Result<Aux, ReadError> {
    let mut lx = Lexer {
        text,
        i: 0,
        line: 1,
        line_start: 0,
    };
    let mut aux = Aux::default();
    loop {
        let (tok, pos) = lx.next();
        match tok {
            Tok::Eof => return Ok(aux),
            Tok::Word(b"X_RANGE") | Tok::Word(b"Y_RANGE") => {
                let is_x = tok == Tok::Word(b"X_RANGE");
                let (arg, apos) = lx.next();
                let Tok::Float(f) = arg else {
                    let what = if is_x { "X_RANGE" } else { "Y_RANGE" };
                    return Err(error(
                        apos,
                        arg,
                        &format!("a number with a decimal point after {what}"),
                    ));
                };
                let v = Some(crate::num::float_value(f));
                if is_x {
                    aux.x_range = v;
                } else {
                    aux.y_range = v;
                }
            }
            Tok::Word(b"ORDER") | Tok::Word(b"SHADE") => {
                let is_order = tok == Tok::Word(b"ORDER");
                let (name_tok, npos) = lx.next();
                let name = match name_tok {
                    Tok::Word(n) if !is_keyword(n) => n,
                    other => {
                        return Err(error(npos, other, "a band name after ORDER or SHADE"));
                    }
                };
                let (arg, apos) = lx.next();
                match (is_order, arg) {
                    (true, Tok::Int(v)) => aux.order.push((name.to_vec(), num::c_atoi(v))),
                    (false, Tok::Float(v)) => {
                        aux.shades.push((name.to_vec(), crate::num::float_value(v)))
                    }
                    (true, other) => {
                        return Err(error(apos, other, "an integer position after ORDER <name>"))
                    }
                    (false, other) => {
                        return Err(error(
                            apos,
                            other,
                            "a shade with a decimal point after SHADE <name>",
                        ))
                    }
                }
            }
            other => {
                return Err(error(
                    pos,
                    other,
                    "a statement: X_RANGE, Y_RANGE, ORDER or SHADE",
                ))
            }
        }
    }
}

fn is_keyword(w: &[u8]) -> bool {
    matches!(w, b"X_RANGE" | b"Y_RANGE" | b"ORDER" | b"SHADE")
}
