//! A chunk's scan written down and read back (issue 39): the first reading of a long
//! mapped `.hp` writes what its scan found in each chunk (the names' places, then each
//! line as a code: a point's band and whole value, or a marker's time), and the second
//! reading of the same bytes takes each chunk's scan from that instead of scanning the
//! text again, in whatever form it needs the points (`super::Form`). The record is about
//! six bytes a line (a seventh of GHC's usual text) and has no name to hash or compare.
//!
//! A record is the scan's own account of the lines it read: the replay goes through the
//! same steps for each (`ChunkScan::marker`, `ChunkScan::take`, and in split mode the
//! scan's own `ChunkScan::split_point`, `split.rs`), so it stops, if ever, where the scan
//! would; a record that does not read back whole is refused, and the chunk is scanned
//! from its text.

use super::super::data_line::WHOLE_BELOW;
use super::{ChunkScan, Form, Marker, SUMMED_BELOW};
use crate::intern::hash_bytes;
use crate::profile::keep::RunRoles;

/// A line's code, two bytes: `BEGIN_SAMPLE`, `END_SAMPLE` and `MARK` (their time's 8
/// bytes follow); a point of band `b` below 2^16 − [`POINT`] with a value below 2^32 is
/// `b +` [`POINT`] (the value's 4 bytes follow); any other point is [`LONG`] (its band
/// and value follow as [`push_varint`]s). Codes of a fixed length are written and read
/// without a loop whose end depends on the number (the varints' was most of the replay).
const BEGIN: u16 = 0;
const END: u16 = 1;
const MARK: u16 = 2;
const LONG: u16 = 3;
const POINT: u16 = 4;

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

/// The `N` bytes at `bytes[*at..]`, moving `at` past them.
#[inline(always)]
fn fixed<const N: usize>(bytes: &[u8], at: &mut usize) -> Option<[u8; N]> {
    let raw = bytes.get(*at..at.checked_add(N)?)?;
    *at += N;
    raw.try_into().ok()
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
        self.record.extend_from_slice(&code.to_le_bytes());
        self.record.extend_from_slice(&t.to_bits().to_le_bytes());
    }

    /// Writes down a point the scan took, of band `id`, `value` being its
    /// [`DataLine::whole`]; returns whether the scan goes on writing down. A value of 2^53
    /// or more (which only the forms that do not add the points up take) is not
    /// written: the chunk then has no record.
    ///
    /// [`DataLine::whole`]: super::super::data_line::DataLine::whole
    #[inline(always)]
    pub(super) fn record_point(&mut self, id: u32, value: u64) -> bool {
        if value >= WHOLE_BELOW {
            self.recording = false;
            self.record.clear();
            return false;
        }
        let code = u16::try_from(u64::from(id) + u64::from(POINT));
        match (code, u32::try_from(value)) {
            (Ok(code), Ok(value)) => {
                let mut line = [0; 6];
                line[..2].copy_from_slice(&code.to_le_bytes());
                line[2..].copy_from_slice(&value.to_le_bytes());
                self.record.extend_from_slice(&line);
            }
            _ => {
                self.record.extend_from_slice(&LONG.to_le_bytes());
                push_varint(&mut self.record, u64::from(id));
                push_varint(&mut self.record, value);
            }
        }
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
            if self.form == Form::Split {
                self.replay_split_points(record, at)?;
                if *at == record.len() {
                    break;
                }
            }
            let code = u16::from_le_bytes(fixed(record, at)?);
            let marker = match code {
                BEGIN => Marker::Begin,
                END => Marker::End,
                MARK => Marker::Mark,
                LONG => {
                    let id = varint(record, at)?;
                    let value = varint(record, at)?;
                    self.replay_point(id, value)?;
                    continue;
                }
                _ => {
                    let value = u32::from_le_bytes(fixed(record, at)?);
                    self.replay_point(u64::from(code - POINT), u64::from(value))?;
                    continue;
                }
            };
            let t = f64::from_bits(u64::from_le_bytes(fixed(record, at)?));
            if !self.marker(marker, t) {
                return None;
            }
            self.lines += 1;
        }
        self.split.close_census();
        self.close_census_sum();
        (self.lines == lines).then_some(())?;
        self.fast_len = fast_len;
        Some(())
    }

    /// In [`Form::Split`], the points from `record[*at..]` up to the next line of
    /// another code (a marker, or a point written the long way), moving `at` past them:
    /// what [`Self::replay_point`] does for each, with the census entered once for them
    /// all (no marker between them, so no census ends) and nothing asked of the form
    /// (most of the second reading of `-c` is this loop); `None` for a band that is
    /// not the chunk's.
    #[inline(always)]
    fn replay_split_points(&mut self, record: &[u8], at: &mut usize) -> Option<()> {
        // Every name has its role (`add_replayed`): a band past them is not the chunk's.
        let names = self.names.len().min(self.roles.len());
        self.enter_census();
        let first = *at;
        while let Some(&[c0, c1, v0, v1, v2, v3]) = record.get(*at..at.wrapping_add(6)) {
            let code = u16::from_le_bytes([c0, c1]);
            if code < POINT {
                break;
            }
            let id = usize::from(code - POINT);
            let role = *self.roles[..names].get(id)?;
            // A short code's value is below 2^32, so below 2^53 too.
            self.take_split(
                id as u32,
                role,
                u64::from(u32::from_le_bytes([v0, v1, v2, v3])),
            );
            *at += 6;
        }
        let points = (*at - first) / 6;
        if points > 0 {
            self.split.open.any = true;
            self.lines += points as u64;
        }
        Some(())
    }

    /// Takes a point of the record, of band `id`; `None` when it is not one the scan
    /// could have written down.
    #[inline(always)]
    fn replay_point(&mut self, id: u64, value: u64) -> Option<()> {
        if id >= self.names.len() as u64 || value >= SUMMED_BELOW as u64 {
            return None;
        }
        match self.form {
            Form::Split => self.split_point(id as u32, value),
            // Below 2^53: through `i64`, one instruction where `u64` takes several.
            _ => self.take(id as u32, value as i64 as f64),
        }
        self.lines += 1;
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
