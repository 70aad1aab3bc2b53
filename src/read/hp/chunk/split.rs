//! A scan in [`Form::Split`](super::Form::Split): each point taken as its band's role
//! says (a drawn band's kept, a merged band's added up by census, a dropped band's not
//! kept), and every census's height added up. The scan of the text and the replay of a
//! record (`record.rs`) take their points through the one step here, so the two hand
//! over the same split by construction. (The state, [`Split`], is the scan's: in
//! `mod.rs`.)

use super::{ChunkScan, OpenCensus, Split};
use crate::profile::keep::Role;
use crate::profile::Point;

impl Split {
    pub(super) fn clear(&mut self) {
        self.heights.clear();
        self.merged.clear();
        self.last = None;
        self.open = OpenCensus::default();
    }

    /// Puts the open census's sums into [`Self::heights`] and [`Self::merged`]; the scan
    /// calls this when it ends (a later point of another census does it too).
    pub(super) fn close_census(&mut self) {
        let open = std::mem::take(&mut self.open);
        if open.any {
            self.last = Some(open.census);
        }
        if open.height.1 {
            add_at(&mut self.heights, open.census, open.height.0);
        }
        if open.merged.1 {
            add_at(&mut self.merged, open.census, open.merged.0);
        }
    }
}

impl ChunkScan {
    /// Takes a point of band `id` whose value is the whole number `value` (below 2^53)
    /// as the band's role says, in the census being taken.
    #[inline(always)]
    pub(super) fn split_point(&mut self, id: u32, value: u64) {
        self.enter_census();
        self.split.open.any = true;
        self.take_split(id, self.roles[id as usize], value);
    }

    /// Makes the census being taken ([`Self::ends`]) the open one, putting the one
    /// before in if it is another.
    #[inline(always)]
    pub(super) fn enter_census(&mut self) {
        let census = self.ends as u32;
        if census != self.split.open.census {
            self.split.close_census();
            self.split.open.census = census;
        }
    }

    /// [`Self::split_point`] of band `id`, whose role is `role`, in the open census,
    /// which has points (the replay enters it, and says so, once for a run of points:
    /// `record.rs`).
    #[inline(always)]
    pub(super) fn take_split(&mut self, id: u32, role: Role, value: u64) {
        let census = self.split.open.census;
        let open = &mut self.split.open;
        match role {
            Role::Dropped => {}
            Role::Drawn => {
                // Below 2^53: through `i64`, one instruction where `u64` takes several.
                let point = Point {
                    sample: census,
                    value: value as i64 as f64,
                };
                self.by_band[id as usize].push(point);
                open.height = (open.height.0.saturating_add(value), true);
            }
            Role::Merged => {
                open.height = (open.height.0.saturating_add(value), true);
                open.merged = (open.merged.0.saturating_add(value), true);
            }
        }
    }
}

/// Adds `value` to `sums[at]`, `sums` grown to reach it (saturating: the sink takes
/// these only when every census's sum is below 2^52).
#[inline(always)]
fn add_at(sums: &mut Vec<u64>, at: u32, value: u64) {
    let at = at as usize;
    if sums.len() <= at {
        sums.resize(at + 1, 0);
    }
    sums[at] = sums[at].saturating_add(value);
}
