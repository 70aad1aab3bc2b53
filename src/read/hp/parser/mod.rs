//! The statement machine of the `.hp` language (§2 of `docs/reference/hp2ps-behaviour.md`),
//! fed one segment at a time: here a statement's head and how a segment's statements
//! reach the sink; its argument in `arguments.rs`, header strings in `strings.rs`.

use super::data_line::{simple_data_line, tab_data_line};
use super::error::{quote, Pos, ReadError, Warning};
use super::segments::SegmentInfo;
use super::tokens::{cut_at_nul, is_space, keyword, word_end, Keyword};
use super::ReadOptions;
use crate::seam::{HeaderField, Sink};

mod arguments;
mod strings;

/// A header string being read, possibly across lines.
#[derive(Debug)]
pub(super) struct OpenString {
    pub(super) field: HeaderField,
    pub(super) pos: Pos,
    pub(super) text: Vec<u8>,
    /// A NUL byte was seen: hp2ps stores the string only up to it.
    pub(super) cut_at_nul: bool,
    /// The previous segment ended with a `"`: a `"` at the start of this one makes `""`.
    pub(super) quote_pending: bool,
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
}

fn err(pos: Pos, found: impl Into<String>, expected: impl Into<String>) -> Incomplete {
    Incomplete::Error(ReadError::syntax(pos, found, expected))
}
