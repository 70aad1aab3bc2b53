//! A chunk's scan taken back from its record (`record.rs`, which says what a record
//! holds): the markers through the scan's own step ([`ChunkScan::marker`]), each band's
//! points as the form takes them, so the replay stops, if ever, where the scan would; a
//! record that does not read back whole is refused, and the chunk is scanned from its
//! text.
//!
//! By role ([`Form::Split`]), a merged band's points are not read at all: a census's
//! merged sum is its sum less its drawn and dropped bands' points, and its height less
//! the dropped ones'. That is exact: every value is whole, and a census whose sum
//! saturated refuses the record. A record has no file order of points across bands, so
//! [`Form::Entries`] is never replayed.

use super::record::{fixed, varint, BEGIN, CENSUSES_UP_TO, END, MARK};
use super::split::add_at;
use super::{ChunkScan, Form, Marker, POINT};
use crate::intern::hash_bytes;
use crate::profile::keep::{Role, RunRoles};
use crate::profile::Point;

impl ChunkScan {
    /// Takes the scan of the chunk `bytes` from `record` ([`Self::recorded`] of a scan of
    /// the same bytes), in `form`, as [`Self::scan`] would make it; `false` (and the
    /// scan reset) when the record does not read back whole, or `form` is
    /// [`Form::Entries`].
    pub(crate) fn replay(
        &mut self,
        bytes: &[u8],
        record: &[u8],
        form: Form,
        roles: Option<&RunRoles>,
    ) -> bool {
        self.begin(form, roles, false);
        let replayed = self.form != Form::Entries && self.replay_lines(bytes, record, roles);
        if !replayed {
            self.reset();
        }
        replayed
    }

    fn replay_lines(&mut self, bytes: &[u8], record: &[u8], roles: Option<&RunRoles>) -> bool {
        let mut censuses = std::mem::take(&mut self.parts.censuses);
        let replayed = self.replay_into(bytes, record, roles, &mut censuses);
        self.parts.censuses = censuses;
        replayed.is_some()
    }

    /// [`Self::replay_lines`], `censuses` taking the census table.
    fn replay_into(
        &mut self,
        bytes: &[u8],
        record: &[u8],
        roles: Option<&RunRoles>,
        censuses: &mut Vec<(u64, u64)>,
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
        let count = varint(record, at)?;
        if count > CENSUSES_UP_TO {
            return None;
        }
        censuses.clear();
        for _ in 0..count {
            censuses.push((varint(record, at)?, varint(record, at)?));
        }
        let markers = varint(record, at)?;
        for _ in 0..markers {
            let [code] = fixed::<1>(record, at)?;
            let t = f64::from_bits(u64::from_le_bytes(fixed(record, at)?));
            let kind = match code {
                BEGIN => Marker::Begin,
                END => Marker::End,
                MARK => Marker::Mark,
                _ => return None,
            };
            if !self.marker(kind, t) {
                return None;
            }
            self.lines += 1;
        }
        if self.ends + 1 != count {
            return None;
        }
        let by_role = self.form == Form::Split;
        if by_role {
            for sums in [&mut self.parts.drawn, &mut self.parts.dropped] {
                sums.clear();
                sums.resize(censuses.len(), (0, 0));
            }
        }
        let mut groups = std::mem::take(&mut self.parts.groups);
        let replayed = self.replay_groups(record, at, censuses.len(), &mut groups);
        self.parts.groups = groups;
        replayed?;
        if by_role {
            self.split_from_censuses(censuses)?;
        }
        (*at == record.len() && self.lines == lines).then_some(())?;
        self.fast_len = fast_len;
        Some(())
    }

    /// Takes each band's points: the bands' ids and counts from `record` at `at` (into
    /// `groups`), then their points, which follow.
    fn replay_groups(
        &mut self,
        record: &[u8],
        at: &mut usize,
        censuses: usize,
        groups: &mut Vec<(u32, u64)>,
    ) -> Option<()> {
        let count = varint(record, at)?;
        groups.clear();
        for _ in 0..count.min(self.names.len() as u64 + 1) {
            let id = u32::try_from(varint(record, at)?).ok()?;
            groups.push((id, varint(record, at)?));
        }
        if groups.len() as u64 != count {
            return None;
        }
        for &(id, n) in groups.iter() {
            let len = usize::try_from(n).ok()?.checked_mul(POINT)?;
            let points = record.get(*at..at.checked_add(len)?)?;
            *at += len;
            if id as usize >= self.names.len() {
                return None;
            }
            self.lines += n;
            self.replay_group(id, points, censuses)?;
        }
        Some(())
    }

    /// Takes the points of band `id`'s group (of censuses below `censuses`) as the form
    /// does.
    fn replay_group(&mut self, id: u32, points: &[u8], censuses: usize) -> Option<()> {
        let role = match self.form {
            Form::Split => *self.roles.get(id as usize)?,
            _ => Role::Drawn,
        };
        let each = points.chunks_exact(POINT).map(|p| match *p {
            [c0, c1, v0, v1, v2, v3] => (
                u32::from(u16::from_le_bytes([c0, c1])),
                u64::from(u32::from_le_bytes([v0, v1, v2, v3])),
            ),
            _ => (u32::MAX, 0),
        });
        // Every value below 2^32 (`record.rs`): only the census can be out of place.
        let fits = |census: u32| ((census as usize) < censuses).then_some(());
        match (self.form, role) {
            // Their sums are the census's less the others'.
            (Form::Split, Role::Merged) => {}
            (Form::Split, Role::Dropped) => {
                for (census, value) in each {
                    fits(census)?;
                    add_to(&mut self.parts.dropped[census as usize], value);
                }
            }
            (Form::Split, Role::Drawn) => {
                let band = &mut self.by_band[id as usize];
                for (census, value) in each {
                    fits(census)?;
                    add_to(&mut self.parts.drawn[census as usize], value);
                    // Below 2^53: through `i64`, one instruction where `u64` takes several.
                    let value = value as i64 as f64;
                    band.push(Point {
                        sample: census,
                        value,
                    });
                }
            }
            (Form::Sums, _) => {
                for (census, value) in each {
                    fits(census)?;
                    self.add_to_sums_at(id, value, census);
                }
            }
            _ => {
                let band = &mut self.by_band[id as usize];
                for (census, value) in each {
                    fits(census)?;
                    let value = value as i64 as f64;
                    band.push(Point {
                        sample: census,
                        value,
                    });
                }
            }
        }
        Some(())
    }

    /// The split's sums by census ([`super::Split`]) from every census's count and sum
    /// of points and the drawn and dropped bands' as the replay took them: what
    /// `split_point` adds up point by point. `None` when they do not agree, or a
    /// census's sum saturated (the sums by role would not be exact).
    fn split_from_censuses(&mut self, censuses: &[(u64, u64)]) -> Option<()> {
        let (drawn, dropped) = (&self.parts.drawn, &self.parts.dropped);
        for (census, &(count, sum)) in censuses.iter().enumerate() {
            if count == 0 {
                continue;
            }
            if sum == u64::MAX {
                return None;
            }
            let ((drawn_count, drawn_sum), (dropped_count, dropped_sum)) =
                (drawn[census], dropped[census]);
            let merged_count = count.checked_sub(drawn_count)?.checked_sub(dropped_count)?;
            let height = sum.checked_sub(dropped_sum)?;
            let merged = height.checked_sub(drawn_sum)?;
            let census = census as u32;
            self.split.last = Some(census);
            if drawn_count + merged_count > 0 {
                add_at(&mut self.split.heights, census, height);
            }
            if merged_count > 0 {
                add_at(&mut self.split.merged, census, merged);
            }
        }
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

/// Adds a point of `value` to a census's count and sum.
#[inline(always)]
fn add_to(sums: &mut (u64, u64), value: u64) {
    *sums = (sums.0 + 1, sums.1.saturating_add(value));
}
