//! A statement's argument: a data line's integer value, a time (`MARK`, `BEGIN_SAMPLE`,
//! `END_SAMPLE`) and the sample structure it must keep, or an error naming what the
//! statement expected.

use super::super::error::{quote, Pos};
use super::super::tokens::{cut_at_nul, keyword, number_end, word_end, Keyword, MAX_NUMBER_LEN};
use super::{err, Effect, Head, Incomplete, OpenString, Parser, Pending};
use crate::num::{float_value, integer_value};

impl Parser<'_> {
    /// Reads the argument of the pending statement `p` at `seg[i]` (not whitespace).
    pub(super) fn argument(
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

    pub(super) fn expected_after(&self, head: Head) -> String {
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
}
