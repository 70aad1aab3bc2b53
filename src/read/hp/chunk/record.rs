//! A chunk's scan written down and read back (issue 39): the first reading of a long
//! mapped `.hp` writes what its scan found in each chunk (the names' places, then each
//! line as a code: a point's band and whole value, or a marker's time), and the second
//! reading of the same bytes takes each chunk's scan from that instead of scanning the
//! text again, in whatever form it needs the points (`super::Form`). The record is a
//! sixth to a tenth of the text and has no name to hash or compare.
//!
//! A record is the scan's own account of the lines it read: the replay goes through the
//! same steps for each (`ChunkScan::marker`, `ChunkScan::take`), so it stops, if ever,
//! where the scan would; a record that does not read back whole is refused, and the
//! chunk is scanned from its text.

use super::{whole, ChunkScan, Form, Marker, SUMMED_BELOW};
use crate::intern::hash_bytes;
use crate::profile::keep::RunRoles;

/// A line's code for `BEGIN_SAMPLE`, `END_SAMPLE` and `MARK` (their time's 8 bytes
/// follow); a point's is its band plus [`POINT`] (its value follows).
const BEGIN: u64 = 0;
const END: u64 = 1;
const MARK: u64 = 2;
const POINT: u64 = 3;

/// Appends `v` in 7-bit groups, least first, the high bit set on all but the last.
#[inline(always)]
pub(super) fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a number [`push_varint`] wrote at `bytes[*at..]`, moving `at` past it.
#[inline(always)]
fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

fn time(bytes: &[u8], at: &mut usize) -> Option<f64> {
    let raw = bytes.get(*at..*at + 8)?;
    *at += 8;
    Some(f64::from_bits(u64::from_le_bytes(raw.try_into().ok()?)))
}

impl ChunkScan {
    /// Writes down a marker line the scan took.
    #[inline(always)]
    pub(super) fn record_marker(&mut self, kind: Marker, t: f64) {
        let code = match kind {
            Marker::Begin => BEGIN,
            Marker::End => END,
            Marker::Mark => MARK,
        };
        self.record.push(code as u8);
        self.record.extend_from_slice(&t.to_bits().to_le_bytes());
    }

    /// Writes down a point the scan took, of band `id`; returns whether the scan goes on
    /// writing down. A value of 2^53 or more (which only the forms that do not add the
    /// points up take) is not written: the chunk then has no record.
    #[inline(always)]
    pub(super) fn record_point(&mut self, id: u32, value: f64) -> bool {
        if value >= SUMMED_BELOW {
            self.recording = false;
            self.record.clear();
            return false;
        }
        push_varint(&mut self.record, u64::from(id) + POINT);
        push_varint(&mut self.record, whole(value));
        true
    }

    /// The head of the scan's record in `out` (its prefix's length and lines, its
    /// names' places), [`Self::record_body`] being the rest (the lines); `false` when
    /// the scan wrote nothing down.
    pub(crate) fn recorded(&self, out: &mut Vec<u8>) -> bool {
        out.clear();
        if !self.recording || self.fast_len == 0 {
            return false;
        }
        push_varint(out, self.fast_len as u64);
        push_varint(out, self.lines);
        push_varint(out, self.names.len() as u64);
        for &(start, len) in &self.names {
            push_varint(out, u64::from(start));
            push_varint(out, u64::from(len));
        }
        true
    }

    /// The lines of the scan's record ([`Self::recorded`]).
    pub(crate) fn record_body(&self) -> &[u8] {
        &self.record
    }

    /// Takes the scan of the chunk `bytes` from `record` ([`Self::recorded`] of a scan of
    /// the same bytes), in `form`, as [`Self::scan`] would make it; `false` (and the
    /// scan reset) when the record does not read back whole.
    pub(crate) fn replay(
        &mut self,
        bytes: &[u8],
        record: &[u8],
        form: Form,
        roles: Option<&RunRoles>,
    ) -> bool {
        self.begin(form, roles, false);
        let replayed = self.replay_lines(bytes, record, roles);
        if replayed.is_none() {
            self.reset();
        }
        replayed.is_some()
    }

    fn replay_lines(
        &mut self,
        bytes: &[u8],
        record: &[u8],
        roles: Option<&RunRoles>,
    ) -> Option<()> {
        let at = &mut 0;
        let fast_len = usize::try_from(varint(record, at)?).ok()?;
        let lines = varint(record, at)?;
        let names = varint(record, at)?;
        if fast_len > bytes.len() || names > bytes.len() as u64 {
            return None;
        }
        for _ in 0..names {
            let start = usize::try_from(varint(record, at)?).ok()?;
            let len = usize::try_from(varint(record, at)?).ok()?;
            let name = bytes.get(start..start.checked_add(len)?)?;
            self.add_replayed(start, name, roles);
        }
        while *at < record.len() {
            let code = varint(record, at)?;
            let marker = match code {
                BEGIN => Marker::Begin,
                END => Marker::End,
                MARK => Marker::Mark,
                _ => {
                    let id = u32::try_from(code - POINT).ok()?;
                    let value = varint(record, at)?;
                    if id as usize >= self.names.len() || value as f64 >= SUMMED_BELOW {
                        return None;
                    }
                    self.take(id, value as f64);
                    self.lines += 1;
                    continue;
                }
            };
            let t = time(record, at)?;
            if !self.marker(marker, t) {
                return None;
            }
            self.lines += 1;
        }
        (self.lines == lines).then_some(())?;
        self.fast_len = fast_len;
        Some(())
    }

    /// A name of the record, band number `names.len()`: what [`Self::intern`] does for a
    /// new name, without the table.
    fn add_replayed(&mut self, start: usize, name: &[u8], roles: Option<&RunRoles>) {
        let id = self.names.len();
        self.names.push((start as u32, name.len() as u32));
        self.full_hashes.push(hash_bytes(name));
        self.room_for(id);
        if let Some(roles) = roles {
            self.roles.push(roles.of(name));
        }
    }
}
