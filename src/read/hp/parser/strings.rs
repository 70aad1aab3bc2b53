//! Header strings (`JOB "..."`), which may run over several lines and segments: a
//! doubled `""` stands for one `"`, and hp2ps keeps a string only up to a NUL byte.

use super::{err, Effect, Incomplete, OpenString, Parser};

impl Parser<'_> {
    /// Copies bytes into the arena and returns their range.
    fn stash(&mut self, bytes: &[u8]) -> std::ops::Range<usize> {
        let start = self.arena.len();
        self.arena.extend_from_slice(bytes);
        start..self.arena.len()
    }

    /// Scans the open string from `seg[i]`; closes it (recording the header) when its
    /// closing quote is found. A doubled `""` stands for one `"`.
    pub(super) fn continue_string(
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
