//! Recognising the inputs and command lines on which our tool deliberately
//! differs from hp2ps (listed in `docs/compat.md`), so the
//! differential tests can skip them with a reason instead of reporting them.
//!
//! The scanner follows the `.hp` lexical rules of the spec (§2) closely enough
//! to find the header strings, over-long tokens and the sample structure.

const WHITESPACE: &[u8] = b" \t\n\x0b\x0c\r";
/// hp2ps splits longer identifiers into two tokens; we keep them whole.
const MAX_IDENTIFIER: usize = 4999;
/// hp2ps splits longer numbers; we reject or keep them whole.
const MAX_NUMBER: usize = 32;

/// One option letter with its value, as hp2ps's scanner sees it (spec §1.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opt {
    pub letter: char,
    /// The rest of the argument after the letter (empty for `p`).
    pub value: String,
}

/// The options hp2ps would act on: arguments are options while they start
/// with `-`; the first one that does not is the file name and ends the scan.
/// Inside an argument, `p` continues with the next letter; any other letter
/// takes the rest of the argument as its value.
pub fn scan_options(args: &[String]) -> Vec<Opt> {
    let mut opts = Vec::new();
    for arg in args {
        let Some(mut rest) = arg.strip_prefix('-') else {
            break;
        };
        while let Some(letter) = rest.chars().next() {
            rest = &rest[letter.len_utf8()..];
            if letter == 'p' {
                opts.push(Opt {
                    letter,
                    value: String::new(),
                });
                continue;
            }
            opts.push(Opt {
                letter,
                value: rest.to_string(),
            });
            break;
        }
    }
    opts
}

/// Whether hp2ps would run with `-p` (reuse the `.aux` file).
pub fn has_previous_flag(args: &[String]) -> bool {
    scan_options(args).iter().any(|o| o.letter == 'p')
}

/// Arguments after the first non-option argument (the file name).
fn args_after_file(args: &[String]) -> &[String] {
    match args.iter().position(|a| !a.starts_with('-')) {
        Some(i) => &args[i + 1..],
        None => &[],
    }
}

/// A C `atof` of the longest numeric prefix, enough to tell whether an `-e`
/// width is finite (the `inf`/`nan`/overflow cases are deliberate differences).
pub fn c_atof(text: &str) -> f64 {
    let s = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (sign, s) = match s.as_bytes().first() {
        Some(b'-') => (-1.0, &s[1..]),
        Some(b'+') => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    let lower = s.to_ascii_lowercase();
    if lower.starts_with("inf") {
        return sign * f64::INFINITY;
    }
    if lower.starts_with("nan") {
        return f64::NAN;
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        return sign * hex_float_prefix(hex);
    }
    let b = s.as_bytes();
    let mut end = 0;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    if end < b.len() && b[end] == b'.' {
        end += 1;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
    }
    let mantissa_end = end;
    if end < b.len() && (b[end] == b'e' || b[end] == b'E') {
        let mut e = end + 1;
        if e < b.len() && (b[e] == b'+' || b[e] == b'-') {
            e += 1;
        }
        let digits_start = e;
        while e < b.len() && b[e].is_ascii_digit() {
            e += 1;
        }
        if e > digits_start {
            end = e;
        }
    }
    let number = &s[..end];
    match number.parse::<f64>() {
        Ok(v) => sign * v,
        Err(_) => match s[..mantissa_end].parse::<f64>() {
            Ok(v) => sign * v,
            Err(_) => 0.0,
        },
    }
}

/// Value of a hex float body (`1p8`, `a.8`), approximately; only finiteness matters.
fn hex_float_prefix(s: &str) -> f64 {
    let mut value = 0.0f64;
    let mut scale = 1.0f64;
    let mut seen_dot = false;
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if let Some(d) = c.to_digit(16) {
            if seen_dot {
                scale /= 16.0;
                value += d as f64 * scale;
            } else {
                value = value * 16.0 + d as f64;
            }
        } else if c == '.' && !seen_dot {
            seen_dot = true;
        } else {
            break;
        }
        chars.next();
    }
    if chars.peek() == Some(&'p') {
        chars.next();
        let exp: String = chars
            .take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '+')
            .collect();
        if let Ok(e) = exp.parse::<i32>() {
            value *= 2f64.powi(e);
        }
    }
    value
}

/// What the scanner learnt about a `.hp` file.
#[derive(Debug, Default)]
struct HpFacts {
    job: Option<Vec<u8>>,
    date: Option<Vec<u8>>,
    sample_unit: Option<Vec<u8>>,
    value_unit: Option<Vec<u8>>,
    long_identifier: bool,
    long_number: bool,
    end_outside_sample: bool,
    /// Data points after the last END_SAMPLE (an incomplete last sample).
    trailing_data: bool,
}

/// A token of the `.hp` language: a string (quotes removed, `""` → `"`), or
/// any other maximal run of non-whitespace bytes.
enum Token {
    Str(Vec<u8>),
    Word(Vec<u8>),
}

struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    fn skip_whitespace(&mut self) {
        while self.pos < self.bytes.len() && WHITESPACE.contains(&self.bytes[self.pos]) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// The next token; `None` at EOF or inside an unterminated string (both
    /// make hp2ps fail, which the caller classifies before ever asking us).
    fn next_token(&mut self) -> Option<Token> {
        self.skip_whitespace();
        let first = self.peek()?;
        if first == b'"' {
            return self.string().map(Token::Str);
        }
        let start = self.pos;
        while self.pos < self.bytes.len() && !WHITESPACE.contains(&self.bytes[self.pos]) {
            self.pos += 1;
        }
        Some(Token::Word(self.bytes[start..self.pos].to_vec()))
    }

    fn string(&mut self) -> Option<Vec<u8>> {
        self.pos += 1; // opening quote
        let mut out = Vec::new();
        loop {
            let b = self.peek()?;
            self.pos += 1;
            if b == b'"' {
                if self.peek() == Some(b'"') {
                    self.pos += 1;
                    out.push(b'"');
                    continue;
                }
                return Some(out);
            }
            out.push(b);
        }
    }
}

fn scan_hp(input: &[u8]) -> HpFacts {
    let mut facts = HpFacts::default();
    let mut lexer = Lexer {
        bytes: input,
        pos: 0,
    };
    let mut in_sample = false;
    while let Some(token) = lexer.next_token() {
        let Token::Word(word) = token else {
            continue; // a string at statement start: hp2ps fails
        };
        if word.len() > MAX_IDENTIFIER {
            facts.long_identifier = true;
        }
        let argument = lexer.next_token();
        if let Some(Token::Word(arg)) = &argument {
            check_argument(arg, &mut facts);
        }
        let string = match argument {
            Some(Token::Str(s)) => Some(s),
            _ => None,
        };
        match word.as_slice() {
            b"JOB" => facts.job = string.or(facts.job),
            b"DATE" => facts.date = string.or(facts.date),
            b"SAMPLE_UNIT" => facts.sample_unit = string.or(facts.sample_unit),
            b"VALUE_UNIT" => facts.value_unit = string.or(facts.value_unit),
            b"MARK" => {}
            b"BEGIN_SAMPLE" => in_sample = true,
            b"END_SAMPLE" => {
                facts.end_outside_sample |= !in_sample;
                in_sample = false;
                facts.trailing_data = false;
            }
            _ => facts.trailing_data = true,
        }
    }
    facts
}

/// Over-long numbers and identifiers in argument position.
fn check_argument(arg: &[u8], facts: &mut HpFacts) {
    if arg.first().is_some_and(u8::is_ascii_digit) {
        let run = arg
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'.')
            .count();
        if run > MAX_NUMBER {
            facts.long_number = true;
        }
    } else if arg.len() > MAX_IDENTIFIER {
        facts.long_identifier = true;
    }
}

/// Whether a PostScript string written raw would break or change meaning:
/// any backslash, or parentheses that do not balance.
fn unsafe_raw_ps_string(s: &[u8]) -> bool {
    let mut depth: i64 = 0;
    for &b in s {
        match b {
            b'\\' => return true,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    depth != 0
}

/// The reason our tool deliberately differs from hp2ps on this case, if any.
/// Only consulted after hp2ps itself succeeded (its own failures are
/// classified first, from what it observably did).
pub fn deliberate_difference(input: &[u8], run: &super::case::Run) -> Option<String> {
    if !args_after_file(&run.args).is_empty() {
        return Some("arguments after the file name (ours renders every file)".into());
    }
    for opt in scan_options(&run.args) {
        if opt.letter == 'e' && !c_atof(&opt.value).is_finite() {
            return Some("-e width nan/inf".into());
        }
        if opt.letter == 't' && c_atof(&opt.value).is_nan() {
            return Some("-t threshold nan".into());
        }
        if opt.letter == 'l' {
            return Some("-l flag".into());
        }
    }
    let facts = scan_hp(input);
    if facts.long_identifier {
        return Some("identifier longer than 4999 bytes".into());
    }
    if facts.long_number {
        return Some("number longer than 32 characters".into());
    }
    if facts.end_outside_sample {
        return Some("END_SAMPLE outside a sample (undefined in hp2ps)".into());
    }
    if facts.trailing_data {
        return Some("data in an incomplete last sample".into());
    }
    if facts.job.as_deref().is_some_and(|j| j.contains(&b'\\')) {
        return Some("JOB contains a backslash (ours escapes it)".into());
    }
    let raw_strings = [&facts.date, &facts.sample_unit, &facts.value_unit];
    if raw_strings
        .iter()
        .any(|s| s.as_deref().is_some_and(unsafe_raw_ps_string))
    {
        return Some("DATE/unit with a backslash or unbalanced parentheses".into());
    }
    None
}
