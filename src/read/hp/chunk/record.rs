//! A chunk's scan written down for a second reading (issue 39): the first reading of a
//! long mapped `.hp` writes what its scan found in each chunk (the names' places, then
//! its lines), and the second reading of the same bytes takes each chunk's scan from that
//! instead of scanning the text again (`replay.rs`), in whatever form it needs the points
//! (`super::Form`). The record is about six bytes a line (a seventh of GHC's usual text)
//! and has no name to hash or compare.
//!
//! The lines are written down by band: every census's count and sum of points, the
//! markers, then each band's points together, each its census and its value. So the
//! second reading of a chart by role reads the drawn bands' points alone and skips the
//! merged bands' whole (their sum by census is the census's less the others'), where it
//! used to take every line in turn.

use super::{ChunkScan, Marker, POINT};

/// A marker's code: `BEGIN_SAMPLE`, `END_SAMPLE` and `MARK` (their time's 8 bytes
/// follow).
pub(super) const BEGIN: u8 = 0;
pub(super) const END: u8 = 1;
pub(super) const MARK: u8 = 2;

/// The most censuses a chunk with a record has (a point's census is written in two
/// bytes).
pub(super) const CENSUSES_UP_TO: u64 = 1 << 16;

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
pub(super) fn varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
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
pub(super) fn fixed<const N: usize>(bytes: &[u8], at: &mut usize) -> Option<[u8; N]> {
    let raw = bytes.get(*at..at.checked_add(N)?)?;
    *at += N;
    raw.try_into().ok()
}

impl ChunkScan {
    /// Writes down a marker line the scan took (after [`Self::marker`]); returns whether
    /// the scan goes on writing down: a chunk of censuses past two bytes' reach has no
    /// record.
    #[inline(always)]
    pub(super) fn record_marker(&mut self, kind: Marker, t: f64) -> bool {
        let code = match kind {
            Marker::Begin => BEGIN,
            Marker::End => END,
            Marker::Mark => MARK,
        };
        let g = &mut self.parts;
        g.markers.push(code);
        g.markers.extend_from_slice(&t.to_bits().to_le_bytes());
        if matches!(kind, Marker::End) {
            // The census before this one is over.
            g.censuses.push(std::mem::take(&mut g.open));
            if self.ends >= CENSUSES_UP_TO {
                self.recording = false;
            }
        }
        self.recording
    }

    /// Writes down a point the scan took, of band `id` in the census being taken,
    /// `value` being its [`DataLine::whole`]; returns whether the scan goes on writing
    /// down. A value past `u32` (and so any of 2^53 or more, which only the forms that
    /// do not add the points up take) is not written: the chunk then has no record.
    ///
    /// [`DataLine::whole`]: super::super::data_line::DataLine::whole
    #[inline(always)]
    pub(super) fn record_point(&mut self, id: u32, value: u64) -> bool {
        let Ok(value) = u32::try_from(value) else {
            self.recording = false;
            return false;
        };
        let mut point = [0; POINT];
        // Below two bytes' reach: the census after it stops the writing down.
        point[..2].copy_from_slice(&(self.ends as u16).to_le_bytes());
        point[2..].copy_from_slice(&value.to_le_bytes());
        let g = &mut self.parts;
        // Every band has its list (`names.rs`, as the band is met).
        if let Some(band) = g.bands.get_mut(id as usize) {
            band.push(point);
        }
        g.open = (g.open.0 + 1, g.open.1.saturating_add(u64::from(value)));
        true
    }

    /// The head of the scan's record in `out`: its prefix's length and lines, its
    /// names' places, every census's count and sum of points, the markers (a code byte
    /// and the time's 8 bytes each), and each band's id and count of points, in the
    /// order of [`Self::record_body`], which holds the points; `false` when the scan
    /// wrote nothing down.
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
        let g = &self.parts;
        push_varint(out, g.censuses.len() as u64);
        for &(count, sum) in &g.censuses {
            push_varint(out, count);
            push_varint(out, sum);
        }
        push_varint(out, (g.markers.len() / 9) as u64);
        out.extend_from_slice(&g.markers);
        push_varint(out, self.record_body().count() as u64);
        for (id, points) in g.bands.iter().enumerate() {
            if !points.is_empty() {
                push_varint(out, id as u64);
                push_varint(out, points.len() as u64);
            }
        }
        true
    }

    /// The rest of the scan's record after [`Self::recorded`]'s head: each band's points
    /// (census, value), band by band. Kept in the bands' own lists and written from
    /// there, not copied into one.
    pub(crate) fn record_body(&self) -> impl Iterator<Item = &[u8]> {
        (self.parts.bands.iter())
            .filter(|points| !points.is_empty())
            .map(|points| points.as_flattened())
    }

    /// Ends the record when the scan is over: the last census's count and sum.
    pub(super) fn close_record(&mut self) {
        if self.recording {
            let g = &mut self.parts;
            g.censuses.push(std::mem::take(&mut g.open));
        }
    }

    /// Makes the record's parts ready for a new chunk.
    pub(super) fn clear_record(&mut self) {
        let g = &mut self.parts;
        if g.bands.len() > 1 << 12 {
            // A chunk of many bands: do not keep clearing their lists.
            g.bands = Vec::new();
        }
        g.bands.iter_mut().for_each(Vec::clear);
        g.censuses.clear();
        g.markers.clear();
        g.open = (0, 0);
    }
}
