//! The `.aux` file (§3.12 of `docs/reference/hp2ps-behaviour.md`): ranges, band order and
//! shades, written after every file-mode run and read back with `-p`. Both directions live
//! here so the format is defined once.

use std::io::{self, Write};

use crate::num;
use crate::read::hp::Pos;

/// What an `.aux` file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aux {
    /// `X_RANGE`: the time span of the earlier chart, if the file gives one.
    pub x_range: Option<f64>,
    /// `Y_RANGE`: the stack height of the earlier chart, if the file gives one.
    pub y_range: Option<f64>,
    /// (name, position) in file order; lookups take the first entry of a name.
    pub order: Vec<(Vec<u8>, i32)>,
    /// (name, shade) in file order; lookups take the first entry of a name.
    pub shades: Vec<(Vec<u8>, f64)>,
}

impl Aux {
    /// The ORDER key of a band: its first ORDER entry, or 0 for names the file lacks.
    pub fn order_of(&self, name: &[u8]) -> i32 {
        self.order
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, k)| *k)
    }

    /// Every name's first ORDER entry, for looking up many bands.
    pub fn order_map(&self) -> std::collections::HashMap<&[u8], i32> {
        let mut map = std::collections::HashMap::with_capacity(self.order.len());
        for (name, k) in &self.order {
            map.entry(name.as_slice()).or_insert(*k);
        }
        map
    }
}

/// Why an `.aux` file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{pos}: {found}, expected {expected}")]
pub struct AuxError {
    /// Where the bad token starts.
    pub pos: Pos,
    /// What was there.
    pub found: String,
    /// What the format allows there.
    pub expected: String,
}

/// Writes an `.aux` file: `bands` are (name, shade) bottom band first.
pub fn write_aux<W: Write>(
    out: &mut W,
    x_range: f64,
    y_range: f64,
    bands: &[(&[u8], f64)],
) -> io::Result<()> {
    let mut buf = Vec::new();
    buf.extend_from_slice(b"X_RANGE ");
    num::push_fixed(&mut buf, x_range, 2);
    buf.extend_from_slice(b"\nY_RANGE ");
    num::push_fixed(&mut buf, y_range, 2);
    buf.push(b'\n');
    for (i, (name, _)) in bands.iter().enumerate() {
        buf.extend_from_slice(b"ORDER ");
        buf.extend_from_slice(name);
        buf.extend_from_slice(format!(" {}\n", i + 1).as_bytes());
    }
    for (name, shade) in bands {
        buf.extend_from_slice(b"SHADE ");
        buf.extend_from_slice(name);
        buf.push(b' ');
        num::push_fixed(&mut buf, *shade, 2);
        buf.push(b'\n');
    }
    out.write_all(&buf)
}

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
                && self.i - start < crate::read::hp::MAX_NUMBER_LEN
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

fn error(pos: Pos, found: Tok, expected: &str) -> AuxError {
    AuxError {
        pos,
        found: describe(found),
        expected: expected.to_string(),
    }
}

/// Reads an `.aux` file.
///
/// Files hp2ps wrote hold one statement per line; those lines are read whole, so names
/// that hp2ps cannot read back (starting with a digit, containing spaces) survive the
/// round trip. Anything else is read with hp2ps's aux tokens.
pub fn read_aux(text: &[u8]) -> Result<Aux, AuxError> {
    match read_lines(text) {
        Some(aux) => Ok(aux),
        None => read_tokens(text),
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
        && text.len() <= crate::read::hp::MAX_NUMBER_LEN
        && text[0].is_ascii_digit()
        && text.contains(&b'.')
        && text.iter().all(|&b| b.is_ascii_digit() || b == b'.');
    ok.then(|| crate::num::float_value(text))
}

fn read_tokens(text: &[u8]) -> Result<Aux, AuxError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_hp2ps_layout() {
        let mut out = Vec::new();
        write_aux(&mut out, 2.82, 348.0, &[(b"a", 0.0), (b"b(c", 0.2)]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "X_RANGE 2.82\nY_RANGE 348.00\nORDER a 1\nORDER b(c 2\nSHADE a 0.00\nSHADE b(c 0.20\n"
        );
    }

    #[test]
    fn reads_back_what_it_writes_even_odd_names() {
        let mut out = Vec::new();
        let names: [&[u8]; 3] = [b"1abc", b"with space", b"ORDER"];
        let bands: Vec<(&[u8], f64)> = names.iter().map(|n| (*n, 0.6)).collect();
        write_aux(&mut out, 1.0, 2.0, &bands).unwrap();
        let aux = read_aux(&out).unwrap();
        assert_eq!(aux.order_of(b"with space"), 2);
        assert_eq!(aux.order_of(b"1abc"), 1);
        assert_eq!(aux.shades.len(), 3);
        assert_eq!(aux.x_range, Some(1.0));
    }

    #[test]
    fn token_form_and_its_errors() {
        let aux = read_aux(b"X_RANGE 1.5 Y_RANGE 2.0 ORDER a 3 SHADE a 0.5").unwrap();
        assert_eq!(aux.order_of(b"a"), 3);
        assert_eq!(aux.order_of(b"zzz"), 0);
        let e = read_aux(b"Y_RANGE 100\n").unwrap_err();
        assert_eq!((e.pos.line, e.pos.col), (1, 9));
        assert!(e.expected.contains("Y_RANGE"), "{e}");
        let e = read_aux(b"X_RANGE 1.0\nJOB 1.0\n").unwrap_err();
        assert_eq!(e.pos.line, 2);
    }

    #[test]
    fn first_order_entry_wins() {
        let aux = read_aux(b"ORDER a 2\nORDER a 5\n").unwrap();
        assert_eq!(aux.order_of(b"a"), 2);
    }
}
