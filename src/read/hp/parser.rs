//! The statement machine of the `.hp` language (§2 of `docs/reference/hp2ps-behaviour.md`), fed one segment at a time.

use super::data_line::{simple_data_line, tab_data_line};
use super::error::{quote, Pos, ReadError, Warning};
use super::segments::SegmentInfo;
use super::tokens::{cut_at_nul, is_space, keyword, number_end, word_end, Keyword, MAX_NUMBER_LEN};
use super::ReadOptions;
use crate::num::{float_value, integer_value};
use crate::read::{HeaderField, Sink};

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

pub(super) struct Parser<'o> {
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
    pub(super) fn new(opts: &'o ReadOptions) -> Self {
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
    pub(super) fn at_statement_start(&self) -> bool {
        self.pending.is_none() && self.string.is_none()
    }

    /// Whether the statements a worker scanned from a chunk are what this machine would
    /// read from there: no statement or string is open, a chunk that starts inside a
    /// sample (or outside one) comes when one is open (or not), and its first
    /// `BEGIN_SAMPLE` is not out of sequence.
    /// Otherwise the chunk is read here, which gives the error or the odd reading.
    pub(super) fn admits(&self, scan: &super::chunk::ChunkScan) -> bool {
        self.at_statement_start()
            && scan
                .needs_inside
                .map_or(true, |inside| inside == self.state.in_sample)
            && !scan.first_begin.is_some_and(|t| t < self.state.last_begin)
    }

    /// Moves the sample structure past an admitted scan.
    pub(super) fn advance(&mut self, scan: &super::chunk::ChunkScan) {
        if let Some(in_sample) = scan.end_in_sample {
            self.state.in_sample = in_sample;
        }
        if let Some(t) = scan.last_begin {
            self.state.last_begin = t;
        }
        self.state.completed += scan.ends;
    }

    /// Reads one segment. Statements take effect on the sink when the segment is done.
    pub(super) fn feed<S: Sink + ?Sized>(
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

    fn commit<S: Sink + ?Sized>(&mut self, sink: &mut S) {
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
    pub(super) fn finish<S: Sink + ?Sized>(
        mut self,
        end: Pos,
        sink: &mut S,
    ) -> Result<Vec<Warning>, ReadError> {
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
                            crate::num::fixed(t, 6)
                        ),
                        format!(
                            "a time of at least {} (the previous BEGIN_SAMPLE)",
                            crate::num::fixed(s.last_begin, 6)
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
