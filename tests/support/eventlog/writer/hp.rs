//! `.hp` → eventlog, first step: [`parse_hp`], a plain reader of the `.hp` GHC writes.

use std::fmt;

/// A `.hp` profile as GHC writes it: header strings, complete samples in file order (data
/// lines in file order inside each), marks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HpProfile {
    pub job: Vec<u8>,
    pub date: Vec<u8>,
    pub sample_unit: Vec<u8>,
    pub value_unit: Vec<u8>,
    pub samples: Vec<HpSample>,
    pub marks: Vec<f64>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct HpSample {
    pub time: f64,
    pub bands: Vec<HpBand>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct HpBand {
    pub name: Vec<u8>,
    /// The value as hp2ps reads it (a double).
    pub value: f64,
    /// The value when its text is a plain decimal integer that fits a u64 (GHC always
    /// writes those); `None` for anything else (fractions, exponents, overflow).
    pub exact: Option<u64>,
}

/// Why a `.hp` could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HpParseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for HpParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for HpParseError {}

/// Parses a `.hp` of the shape GHC writes: line-based; `KEYWORD "string"` headers (a `""`
/// inside the quotes is one `"`; a string may run over several lines), `BEGIN_SAMPLE t`,
/// `END_SAMPLE t`, `MARK t`, and data lines `name<TAB>value` (or `name value`, split at the
/// last blank). CR before LF is ignored, blank lines are skipped. A sample with no
/// END_SAMPLE at the end of the file is dropped (as hp2ps does with a truncated sample).
/// Data lines outside a sample belong to the next sample (as in hp2ps).
///
/// This is deliberately simple: it does not copy hp2ps's tokenizer quirks (several
/// statements on one line, …). Tests compare it with the crate's own reader on every
/// golden input and list the files where they differ.
pub fn parse_hp(hp: &[u8]) -> Result<HpProfile, HpParseError> {
    let mut p = HpProfile {
        sample_unit: b"seconds".to_vec(),
        value_unit: b"bytes".to_vec(),
        ..HpProfile::default()
    };
    let mut current: Option<HpSample> = None;
    let mut pending: Vec<HpBand> = Vec::new();
    let lines: Vec<&[u8]> = hp.split(|&b| b == b'\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let line_no = i + 1;
        let line = strip_cr(lines[i]);
        i += 1;
        let trimmed = trim(line);
        if trimmed.is_empty() {
            continue;
        }
        let (word, rest) = split_word(trimmed);
        let err = |m: &str| HpParseError {
            line: line_no,
            message: m.to_string(),
        };
        // GHC writes every data line as `name<TAB>value`, even for names spelt like a
        // keyword (`JOB`, `MARK` are real `-hd` closure descriptions); statements use a
        // space. So inside a sample a line with a TAB is data, whatever its first word.
        let word = if current.is_some() && trimmed.contains(&b'\t') {
            &b""[..]
        } else {
            word
        };
        match word {
            b"JOB" | b"DATE" | b"SAMPLE_UNIT" | b"VALUE_UNIT" => {
                let rest = trim(rest);
                if rest.first() != Some(&b'"') {
                    return Err(err("header string without an opening quote"));
                }
                // Gather lines until the string closes: a `"` not followed by another.
                let mut text = rest[1..].to_vec();
                let value = loop {
                    if let Some(v) = closed_string(&text) {
                        break v;
                    }
                    if i >= lines.len() {
                        return Err(err("unterminated header string"));
                    }
                    text.push(b'\n');
                    text.extend_from_slice(strip_cr(lines[i]));
                    i += 1;
                };
                let slot = match word {
                    b"JOB" => &mut p.job,
                    b"DATE" => &mut p.date,
                    b"SAMPLE_UNIT" => &mut p.sample_unit,
                    _ => &mut p.value_unit,
                };
                *slot = value;
            }
            b"BEGIN_SAMPLE" => {
                let t = parse_time(rest).ok_or_else(|| err("bad BEGIN_SAMPLE time"))?;
                match &mut current {
                    // A repeated BEGIN_SAMPLE only moves the open sample's time.
                    Some(s) => s.time = t,
                    None => {
                        current = Some(HpSample {
                            time: t,
                            bands: std::mem::take(&mut pending),
                        })
                    }
                }
            }
            b"END_SAMPLE" => {
                let s = current
                    .take()
                    .ok_or_else(|| err("END_SAMPLE outside a sample"))?;
                p.samples.push(s);
            }
            b"MARK" => {
                let t = parse_time(rest).ok_or_else(|| err("bad MARK time"))?;
                p.marks.push(t);
            }
            _ => {
                let (name, value) = split_data_line(trimmed).ok_or_else(|| err("bad data line"))?;
                let band = HpBand {
                    name: name.to_vec(),
                    value: parse_f64(value).ok_or_else(|| err("bad value"))?,
                    exact: parse_u64(value),
                };
                match &mut current {
                    Some(s) => s.bands.push(band),
                    None => pending.push(band),
                }
            }
        }
    }
    Ok(p)
}

fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| !is_blank(b)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&b| !is_blank(b))
        .map_or(start, |e| e + 1);
    &s[start..end.max(start)]
}

fn split_word(s: &[u8]) -> (&[u8], &[u8]) {
    match s.iter().position(|&b| is_blank(b)) {
        Some(n) => (&s[..n], &s[n..]),
        None => (s, &[]),
    }
}

/// `text` starts after the opening quote; returns the string if it closes in `text`.
fn closed_string(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < text.len() {
        if text[k] == b'"' {
            if text.get(k + 1) == Some(&b'"') {
                out.push(b'"');
                k += 2;
                continue;
            }
            return Some(out);
        }
        out.push(text[k]);
        k += 1;
    }
    None
}

/// GHC writes `name<TAB>value`; names can contain blanks and even TABs, so the value is
/// what follows the last blank.
fn split_data_line(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let cut = line.iter().rposition(|&b| is_blank(b))?;
    // Blanks between name and value are a separator, not part of the name.
    let name = &line[..cut];
    let end = name
        .iter()
        .rposition(|&b| !is_blank(b))
        .map_or(0, |e| e + 1);
    Some((&name[..end], &line[cut + 1..]))
}

fn parse_time(s: &[u8]) -> Option<f64> {
    parse_f64(trim(s))
}

fn parse_f64(s: &[u8]) -> Option<f64> {
    std::str::from_utf8(s).ok()?.parse::<f64>().ok()
}

fn parse_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse::<u64>().ok()
}
