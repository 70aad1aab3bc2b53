//! The statement machine of the `.hp` language (spec §2), fed one segment at a time.

use super::error::{quote, Pos, ReadError, Warning};
use super::segments::{is_space, SegmentInfo};
use super::sink::{HeaderField, Sink};
use super::ReadOptions;

/// hp2ps splits numbers after 32 characters; we refuse longer ones instead of misreading
/// them (a 33-digit heap size is not real data).
pub const MAX_NUMBER_LEN: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    Header(HeaderField),
    Mark,
    Begin,
    End,
}

impl Keyword {
    fn name(self) -> &'static str {
        match self {
            Keyword::Header(f) => f.keyword(),
            Keyword::Mark => "MARK",
            Keyword::Begin => "BEGIN_SAMPLE",
            Keyword::End => "END_SAMPLE",
        }
    }
}

fn keyword(word: &[u8]) -> Option<Keyword> {
    // Only words starting with an upper-case letter can be keywords (as in hp2ps).
    if !word.first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    Some(match word {
        b"BEGIN_SAMPLE" => Keyword::Begin,
        b"END_SAMPLE" => Keyword::End,
        b"JOB" => Keyword::Header(HeaderField::Job),
        b"DATE" => Keyword::Header(HeaderField::Date),
        b"SAMPLE_UNIT" => Keyword::Header(HeaderField::SampleUnit),
        b"VALUE_UNIT" => Keyword::Header(HeaderField::ValueUnit),
        b"MARK" => Keyword::Mark,
        _ => return None,
    })
}

/// A statement head waiting for its argument.
#[derive(Debug, Clone, Copy)]
enum Head {
    Keyword(Keyword),
    /// An identifier; its name is in `Parser::name`.
    Data,
}

#[derive(Debug, Clone, Copy)]
struct Pending {
    head: Head,
    pos: Pos,
}

/// A header string being read, possibly across lines.
#[derive(Debug)]
struct OpenString {
    field: HeaderField,
    pos: Pos,
    text: Vec<u8>,
    /// A NUL byte was seen: hp2ps stores the string only up to it.
    cut_at_nul: bool,
    /// The previous segment ended with a `"`: a `"` at the start of this one makes `""`.
    quote_pending: bool,
}

/// The sample structure, small enough to copy so a line can be tried and undone.
#[derive(Debug, Clone, Copy)]
struct State {
    in_sample: bool,
    last_begin: f64,
    completed: u64,
    seen: [bool; 4],
}

/// A statement accepted on the current line, applied to the sink when the line is done.
#[derive(Debug)]
enum Effect {
    Header(HeaderField, std::ops::Range<usize>),
    Mark(f64),
    Begin(f64),
    End,
    Data(std::ops::Range<usize>, f64),
}

pub struct Parser<'o> {
    opts: &'o ReadOptions,
    state: State,
    pending: Option<Pending>,
    string: Option<OpenString>,
    /// The identifier of a pending data statement.
    name: Vec<u8>,
    effects: Vec<Effect>,
    /// Bytes of the names and strings that `effects` refer to.
    arena: Vec<u8>,
    pub warnings: Vec<Warning>,
}

/// How a segment ended, when it did not end cleanly.
enum Incomplete {
    Error(ReadError),
}

impl<'o> Parser<'o> {
    pub fn new(opts: &'o ReadOptions) -> Self {
        Parser {
            opts,
            state: State {
                in_sample: false,
                last_begin: f64::NEG_INFINITY,
                completed: 0,
                seen: [false; 4],
            },
            pending: None,
            string: None,
            name: Vec::new(),
            effects: Vec::new(),
            arena: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Whether a line starting now may be read as a plain data line: no statement or
    /// string is waiting to be completed.
    pub fn at_statement_start(&self) -> bool {
        self.pending.is_none() && self.string.is_none()
    }

    /// Reads one segment. Statements take effect on the sink when the segment is done.
    pub fn feed<S: Sink>(
        &mut self,
        seg: &[u8],
        info: SegmentInfo,
        sink: &mut S,
    ) -> Result<(), ReadError> {
        let whole_line = info.starts_line && (info.ends_line || info.last);
        let at_statement_start = self.pending.is_none() && self.string.is_none();
        if whole_line && at_statement_start {
            if let Some((name, value)) = simple_data_line(seg) {
                if name.len() <= self.opts.max_name_len {
                    sink.data(name, value);
                    return Ok(());
                }
            }
        }
        let saved = self.state;
        self.effects.clear();
        self.arena.clear();
        let result = self.parse(seg, info);
        let incomplete = result.is_err() || self.pending.is_some() || self.string.is_some();
        if incomplete && whole_line && at_statement_start && saved.in_sample {
            if let Some((name, value)) = tab_data_line(seg, self.opts.max_name_len) {
                // GHC writes names with spaces, TABs or keyword spellings as
                // `name<TAB>value` lines that hp2ps's tokens cannot read.
                self.state = saved;
                self.pending = None;
                self.string = None;
                sink.data(cut_at_nul(name), value);
                return Ok(());
            }
        }
        if let Err(Incomplete::Error(e)) = result {
            if info.last && !info.ends_line {
                // A half-written last line: the program was still writing it.
                self.state = saved;
                self.pending = None;
                self.string = None;
                self.warnings.push(Warning::TruncatedLastLine {
                    pos: e.pos().unwrap_or_default(),
                    detail: e.to_string(),
                });
                return Ok(());
            }
            return Err(e);
        }
        self.commit(sink);
        Ok(())
    }

    fn commit<S: Sink>(&mut self, sink: &mut S) {
        for effect in self.effects.drain(..) {
            match effect {
                Effect::Header(field, r) => sink.header(field, &self.arena[r]),
                Effect::Mark(t) => sink.mark(t),
                Effect::Begin(t) => sink.begin_sample(t),
                Effect::End => sink.end_sample(),
                Effect::Data(r, v) => sink.data(&self.arena[r], v),
            }
        }
    }

    /// Called after the last segment: handles an incomplete end, then checks the header.
    pub fn finish<S: Sink>(mut self, end: Pos, sink: &mut S) -> Result<Vec<Warning>, ReadError> {
        if let Some(p) = self.pending.take() {
            self.warnings.push(Warning::TruncatedLastLine {
                pos: p.pos,
                detail: format!("{} without its value", self.head_text(p.head)),
            });
        }
        if let Some(s) = self.string.take() {
            if self.state.completed == 0 {
                // Nothing to render: the unterminated string is the real problem.
                return Err(ReadError::syntax(
                    s.pos,
                    "a string that is never closed (the file ends inside it)",
                    "a closing \"",
                ));
            }
            self.warnings.push(Warning::TruncatedLastLine {
                pos: s.pos,
                detail: format!("unterminated string after {}", s.field.keyword()),
            });
        }
        if sink.discard_incomplete_sample() || self.state.in_sample {
            self.warnings.push(Warning::IncompleteLastSample {
                pos: end,
                samples_kept: self.state.completed as usize,
            });
        }
        for field in HeaderField::ALL_IN_CHECK_ORDER {
            if !self.state.seen[field.index()] {
                return Err(ReadError::MissingHeader {
                    pos: end,
                    field: field.keyword(),
                });
            }
        }
        if self.state.completed == 0 {
            return Err(ReadError::NoSamples { pos: end });
        }
        Ok(self.warnings)
    }

    fn head_text(&self, head: Head) -> String {
        match head {
            Head::Keyword(k) => k.name().to_string(),
            Head::Data => format!("identifier {}", quote(&self.name)),
        }
    }

    fn parse(&mut self, seg: &[u8], info: SegmentInfo) -> Result<(), Incomplete> {
        let pos_at = |i: usize| Pos {
            line: info.line,
            col: info.col + i as u64,
        };
        let mut i = 0;
        loop {
            if self.string.is_some() {
                i = self.continue_string(seg, i, info.last)?;
                if self.string.is_some() {
                    return Ok(());
                }
            }
            while i < seg.len() && is_space(seg[i]) {
                i += 1;
            }
            if i == seg.len() {
                return Ok(());
            }
            match self.pending.take() {
                Some(p) => i = self.argument(seg, i, p, pos_at(i), info.last)?,
                None => i = self.head(seg, i, pos_at(i))?,
            }
        }
    }

    /// Reads a statement's first token: a keyword or an identifier.
    fn head(&mut self, seg: &[u8], i: usize, pos: Pos) -> Result<usize, Incomplete> {
        if seg[i] == b'"' {
            return Err(err(
                pos,
                "a string",
                "a statement (a keyword such as BEGIN_SAMPLE, or an identifier)",
            ));
        }
        let end = word_end(seg, i);
        let word = cut_at_nul(&seg[i..end]);
        if end - i > self.opts.max_name_len {
            return Err(self.too_long(pos, end - i));
        }
        let head = match keyword(word) {
            Some(k) => Head::Keyword(k),
            None => {
                self.name.clear();
                self.name.extend_from_slice(word);
                Head::Data
            }
        };
        self.pending = Some(Pending { head, pos });
        Ok(end)
    }

    fn too_long(&self, pos: Pos, len: usize) -> Incomplete {
        err(
            pos,
            format!("an identifier of {len} bytes"),
            format!(
                "at most {} bytes (the limit on identifier length)",
                self.opts.max_name_len
            ),
        )
    }

    /// Reads the argument of the pending statement `p` at `seg[i]` (not whitespace).
    fn argument(
        &mut self,
        seg: &[u8],
        i: usize,
        p: Pending,
        pos: Pos,
        last: bool,
    ) -> Result<usize, Incomplete> {
        let b = seg[i];
        if b.is_ascii_digit() {
            let end = number_end(seg, i);
            let text = &seg[i..end];
            if text.len() > MAX_NUMBER_LEN {
                return Err(err(
                    pos,
                    format!("a number of {} characters", text.len()),
                    format!("at most {MAX_NUMBER_LEN} characters in a number"),
                ));
            }
            self.number_argument(p, text, pos)?;
            return Ok(end);
        }
        if b == b'"' {
            if let Head::Keyword(Keyword::Header(field)) = p.head {
                self.string = Some(OpenString {
                    field,
                    pos,
                    text: Vec::new(),
                    cut_at_nul: false,
                    quote_pending: false,
                });
                return self.continue_string(seg, i + 1, last);
            }
            return Err(err(pos, "a string", self.expected_after(p.head)));
        }
        let end = word_end(seg, i);
        let word = &seg[i..end];
        let found = match keyword(cut_at_nul(word)) {
            Some(k) => format!("keyword {}", k.name()),
            None => format!("identifier {}", quote(word)),
        };
        Err(err(pos, found, self.expected_after(p.head)))
    }

    fn expected_after(&self, head: Head) -> String {
        match head {
            Head::Keyword(Keyword::Header(f)) => format!("a string after {}", f.keyword()),
            Head::Keyword(k) => format!(
                "a number with a decimal point (such as 1.0) after {}",
                k.name()
            ),
            Head::Data => format!("an integer value after identifier {}", quote(&self.name)),
        }
    }

    fn number_argument(&mut self, p: Pending, text: &[u8], pos: Pos) -> Result<(), Incomplete> {
        let is_float = text.contains(&b'.');
        let found = || {
            let kind = if is_float { "number" } else { "integer" };
            format!("{kind} {}", String::from_utf8_lossy(text))
        };
        match p.head {
            Head::Data => {
                if is_float {
                    return Err(err(pos, found(), self.expected_after(p.head)));
                }
                let start = self.arena.len();
                self.arena.extend_from_slice(&self.name);
                let r = start..self.arena.len();
                self.effects.push(Effect::Data(r, integer_value(text)));
            }
            Head::Keyword(Keyword::Header(_)) => {
                return Err(err(pos, found(), self.expected_after(p.head)));
            }
            Head::Keyword(k) => {
                if !is_float {
                    return Err(err(pos, found(), self.expected_after(p.head)));
                }
                let t = float_value(text);
                self.time_statement(k, t, p.pos)?;
            }
        }
        Ok(())
    }

    fn time_statement(&mut self, k: Keyword, t: f64, pos: Pos) -> Result<(), Incomplete> {
        let s = &mut self.state;
        match k {
            Keyword::Mark => {
                if s.in_sample {
                    return Err(err(
                        pos,
                        "MARK inside a sample",
                        "MARK only between END_SAMPLE and the next BEGIN_SAMPLE",
                    ));
                }
                self.effects.push(Effect::Mark(t));
            }
            Keyword::Begin => {
                if t < s.last_begin {
                    return Err(err(
                        pos,
                        format!(
                            "BEGIN_SAMPLE {} (samples out of sequence)",
                            crate::cfmt::fixed(t, 6)
                        ),
                        format!(
                            "a time of at least {} (the previous BEGIN_SAMPLE)",
                            crate::cfmt::fixed(s.last_begin, 6)
                        ),
                    ));
                }
                s.in_sample = true;
                s.last_begin = t;
                self.effects.push(Effect::Begin(t));
            }
            Keyword::End => {
                if !s.in_sample {
                    return Err(err(
                        pos,
                        "END_SAMPLE outside a sample",
                        "BEGIN_SAMPLE before END_SAMPLE",
                    ));
                }
                s.in_sample = false;
                s.completed += 1;
                self.effects.push(Effect::End);
            }
            Keyword::Header(_) => unreachable!("header keywords take strings"),
        }
        Ok(())
    }

    /// Copies bytes into the arena and returns their range.
    fn stash(&mut self, bytes: &[u8]) -> std::ops::Range<usize> {
        let start = self.arena.len();
        self.arena.extend_from_slice(bytes);
        start..self.arena.len()
    }

    /// Scans the open string from `seg[i]`; closes it (recording the header) when its
    /// closing quote is found. A doubled `""` stands for one `"`.
    fn continue_string(
        &mut self,
        seg: &[u8],
        mut i: usize,
        last: bool,
    ) -> Result<usize, Incomplete> {
        let max = self.opts.max_string_len;
        let Some(s) = self.string.as_mut() else {
            return Ok(i);
        };
        let mut closed = false;
        if s.quote_pending {
            s.quote_pending = false;
            if seg.get(i) == Some(&b'"') {
                push_string_bytes(s, b"\"");
                i += 1;
            } else {
                closed = true;
            }
        }
        while !closed {
            match seg[i..].iter().position(|&b| b == b'"') {
                None => {
                    push_string_bytes(s, &seg[i..]);
                    i = seg.len();
                    break;
                }
                Some(k) => {
                    push_string_bytes(s, &seg[i..i + k]);
                    let q = i + k;
                    if q + 1 < seg.len() {
                        if seg[q + 1] == b'"' {
                            push_string_bytes(s, b"\"");
                            i = q + 2;
                        } else {
                            i = q + 1;
                            closed = true;
                        }
                    } else if last {
                        i = q + 1;
                        closed = true;
                    } else {
                        s.quote_pending = true;
                        i = seg.len();
                        break;
                    }
                }
            }
        }
        if s.text.len() > max {
            let pos = s.pos;
            return Err(err(
                pos,
                "a string longer than the limit",
                format!("at most {max} bytes in a string"),
            ));
        }
        if closed {
            if let Some(s) = self.string.take() {
                let r = self.stash(&s.text);
                self.state.seen[s.field.index()] = true;
                self.effects.push(Effect::Header(s.field, r));
            }
        }
        Ok(i)
    }
}

fn push_string_bytes(s: &mut OpenString, bytes: &[u8]) {
    if s.cut_at_nul {
        return;
    }
    match bytes.iter().position(|&b| b == 0) {
        Some(k) => {
            s.text.extend_from_slice(&bytes[..k]);
            s.cut_at_nul = true;
        }
        None => s.text.extend_from_slice(bytes),
    }
}

fn err(pos: Pos, found: impl Into<String>, expected: impl Into<String>) -> Incomplete {
    Incomplete::Error(ReadError::syntax(pos, found, expected))
}

fn word_end(seg: &[u8], i: usize) -> usize {
    seg[i..]
        .iter()
        .position(|&b| is_space(b))
        .map_or(seg.len(), |k| i + k)
}

fn number_end(seg: &[u8], i: usize) -> usize {
    seg[i..]
        .iter()
        .position(|&b| !(b.is_ascii_digit() || b == b'.'))
        .map_or(seg.len(), |k| i + k)
}

/// hp2ps stores names only up to a NUL byte.
fn cut_at_nul(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == 0) {
        Some(k) => &name[..k],
        None => name,
    }
}

/// The value of an integer token (digits only), as C's `atof` reads it.
pub fn integer_value(digits: &[u8]) -> f64 {
    if digits.len() <= 19 {
        // Exact in u64; `as f64` rounds to nearest-even like strtod.
        digits
            .iter()
            .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')) as f64
    } else {
        std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(f64::INFINITY)
    }
}

/// The value of a number token with a dot, as C's `atof` reads it: the longest prefix of
/// the form `digits[.digits]` (`1.2.3` is 1.2, `1.` is 1.0).
pub fn float_value(text: &[u8]) -> f64 {
    let int_end = text
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(text.len());
    let mut end = int_end;
    if text.get(int_end) == Some(&b'.') {
        end = int_end
            + 1
            + text[int_end + 1..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(text.len() - int_end - 1);
    }
    let prefix = &text[..end];
    let prefix = prefix.strip_suffix(b".").unwrap_or(prefix);
    std::str::from_utf8(prefix)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0)
}

/// The common GHC line `name<TAB>digits`, read in one pass without the general
/// machinery. Only taken when hp2ps's tokens would read it the same way: the name holds
/// no byte at or below space (so no whitespace and no NUL) and is not a keyword, and the
/// value is 1 to 32 digits followed by the line end.
fn simple_data_line(seg: &[u8]) -> Option<(&[u8], f64)> {
    let line = scan_data_line(seg, true)?;
    Some((&seg[..line.name_len], line.value))
}

/// A data line found by [`scan_data_line`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DataLine {
    pub name_len: usize,
    pub value: f64,
    /// Bytes up to and including the LF (or to the end of the bytes).
    pub len: usize,
}

/// Scans `bytes` from the start of a line for `name<TAB>digits` and the line end (`\n`,
/// `\r\n`, a lone `\r` before the end, or with `end_is_line_end` the end of `bytes`).
pub(crate) fn scan_data_line(bytes: &[u8], end_is_line_end: bool) -> Option<DataLine> {
    let tab = first_at_or_below_space(bytes)?;
    if tab == 0 || bytes[tab] != b'\t' {
        return None;
    }
    let name = &bytes[..tab];
    let mut i = tab + 1;
    let mut value: u64 = 0;
    while let Some(&d) = bytes.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        // Exact while it fits; longer numbers are re-read below.
        value = value.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    let digits = i - tab - 1;
    let len = match &bytes[i..] {
        [b'\n', ..] => i + 1,
        [b'\r', b'\n', ..] => i + 2,
        [] | [b'\r'] if end_is_line_end => bytes.len(),
        _ => return None,
    };
    if digits == 0 || digits > MAX_NUMBER_LEN || name[0] == b'"' || keyword(name).is_some() {
        return None;
    }
    let value = if digits <= 19 {
        value as f64
    } else {
        integer_value(&bytes[tab + 1..i])
    };
    Some(DataLine {
        name_len: tab,
        value,
        len,
    })
}

/// Index of the first byte <= 0x20 (every whitespace byte, NUL and most controls), eight
/// bytes at a time: this scan runs over every data line of a profile.
fn first_at_or_below_space(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // Sets the high bit of some byte iff a byte of `w` is below 0x21 (bytes >= 0x80
        // are masked out by `!w`).
        if w.wrapping_sub(ONES * 0x21) & !w & HIGHS != 0 {
            return chunk.iter().position(|&b| b <= b' ').map(|i| offset + i);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b <= b' ')
        .map(|i| offset + i)
}

/// The line rule for real GHC output that hp2ps's tokens cannot read: a line whose text
/// after its last TAB is an integer is a data line, and the identifier is everything
/// before that TAB.
fn tab_data_line(seg: &[u8], max_name_len: usize) -> Option<(&[u8], f64)> {
    let end = seg.iter().rposition(|&b| !is_space(b)).map_or(0, |k| k + 1);
    let body = &seg[..end];
    let tab = body.iter().rposition(|&b| b == b'\t')?;
    let (name, digits) = (&body[..tab], &body[tab + 1..]);
    let ok = !name.is_empty()
        && name.len() <= max_name_len
        && !digits.is_empty()
        && digits.len() <= MAX_NUMBER_LEN
        && digits.iter().all(u8::is_ascii_digit);
    ok.then(|| (name, integer_value(digits)))
}

impl HeaderField {
    /// The order in which hp2ps reports missing header fields.
    pub const ALL_IN_CHECK_ORDER: [HeaderField; 4] = [
        HeaderField::Job,
        HeaderField::Date,
        HeaderField::ValueUnit,
        HeaderField::SampleUnit,
    ];
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn finds_the_first_byte_at_or_below_space() {
        for len in 0..40 {
            for at in 0..len {
                for b in [0u8, b'\t', b' ', 0x14, b'\n'] {
                    let mut v = vec![b'a'; len];
                    v.iter_mut()
                        .skip(at + 1)
                        .for_each(|x| *x = 0x80 + (*x % 64));
                    v[at] = b;
                    assert_eq!(first_at_or_below_space(&v), Some(at), "{len} {at} {b}");
                }
            }
            let high: Vec<u8> = (0..len)
                .map(|i| 0x21 + (i as u8).wrapping_mul(37) % 0xde)
                .collect();
            assert_eq!(first_at_or_below_space(&high), None);
        }
    }

    #[test]
    fn simple_lines_are_exactly_the_token_readable_ones() {
        assert_eq!(
            simple_data_line(b"MAIN\t160\n"),
            Some((&b"MAIN"[..], 160.0))
        );
        assert_eq!(
            simple_data_line(b"(1)a.b\t7\r\n"),
            Some((&b"(1)a.b"[..], 7.0))
        );
        assert_eq!(simple_data_line(b"x\t12"), Some((&b"x"[..], 12.0)));
        let long = b"x\t12345678901234567890123456789012\n";
        assert_eq!(
            simple_data_line(long),
            Some((&b"x"[..], 12345678901234567890123456789012.0))
        );
        let line = scan_data_line(b"ab\t7\r\nnext", false).expect("line");
        assert_eq!((line.name_len, line.value, line.len), (2, 7.0, 6));
        assert_eq!(
            scan_data_line(b"ab\t7", false),
            None,
            "the line end is not in sight"
        );
        for other in [
            &b"JOB\t1\n"[..],
            b"a b\t1\n",
            b"a\t1.5\n",
            b"\"a\t1\n",
            b"a\x00b\t1\n",
            b"\t1\n",
            b"a\t\n",
            b"a\t1 \n",
        ] {
            assert_eq!(simple_data_line(other), None, "{other:?}");
        }
    }
}
