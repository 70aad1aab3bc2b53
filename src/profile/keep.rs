//! What a first reading of a long `.hp` learns of its bands, and what the second keeps
//! of each (issue 39): the command draws a long profile from two readings of its mapped
//! file instead of keeping every point, the first giving each band's total (hp2ps's,
//! which decides the traces and the order), the second keeping the points of the bands
//! drawn and adding up those merged into OTHER; and what a reading for `--summary`
//! keeps instead of the points ([`Sums`]).

use std::collections::HashMap;

/// Each band's name and hp2ps's total of it, in the order the bands first appear, as a
/// reading that keeps no point finds them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct BandTotals {
    /// Every band's name, in order of first appearance.
    pub(crate) names: Vec<Vec<u8>>,
    /// Every band's total, as `aggregate::band_total` sums it (a 64-bit integer through
    /// a double at every step), in the same order.
    pub(crate) totals: Vec<i64>,
    /// Every band's number of points, in the same order (the second reading reserves
    /// the drawn bands' room at once).
    pub(crate) counts: Vec<u32>,
    /// Whether adding a census's values in any order gives the same double: every value
    /// a whole number, and the sum of a census's magnitudes below 2^52. The bands merged
    /// into OTHER are then added as the file lists them, not band by band.
    pub(crate) exact: bool,
    /// How many censuses the file holds (an incomplete last one included).
    pub(crate) censuses: usize,
}

/// What the second reading keeps: each band's role, and its number of points.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Drawing {
    /// Each band's role, in order of first appearance.
    pub(crate) roles: Vec<Role>,
    /// Each band's number of points, in the same order.
    pub(crate) counts: Vec<u32>,
    /// Where the drawn bands' points go instead of memory, with the stack's heights and
    /// the merged bands' sum (`-c` as PostScript: [`super::spill`]); `None`: in the
    /// bands.
    pub(crate) spill: Option<super::spill::SpillHandle>,
    /// How many censuses the first reading found: what the second reserves for what it
    /// keeps of each, at once rather than doubling.
    pub(crate) censuses: usize,
    /// When set, a flag per census: the drawn bands keep their points in the censuses
    /// flagged only (the page's third reading, which keeps the bands it does not draw
    /// at the samples it carries them at: `crate::run`'s `two_pass`).
    pub(crate) at: Option<Vec<bool>>,
    /// Each band's role by its name, for the reader's workers to split the points by
    /// role as they scan them (with a spill only: `crate::seam`'s `RunRoles`); `None`:
    /// the points come by band, every one.
    pub(crate) by_name: Option<std::sync::Arc<RunRoles>>,
}

/// Each band's role by its name, for a reader's workers (they tell a run's names apart
/// before the sink numbers them): the second reading of a long `.hp` has its points
/// split by role as they are scanned (`crate::seam::Sink::run_roles`). A name it does not
/// list is dropped. (Hashed as the profile's names are, not by SipHash: each chunk's
/// names are looked up here.)
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunRoles(pub(crate) HashMap<Box<[u8]>, Role, crate::intern::FxBuild>);

impl RunRoles {
    /// The role of the band named `name`.
    pub(crate) fn of(&self, name: &[u8]) -> Role {
        self.0.get(name).copied().unwrap_or(Role::Dropped)
    }
}

/// What the second reading keeps of a band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Drawn on its own: every point.
    Drawn,
    /// Merged into OTHER: its values added into the first merged band's, census by
    /// census.
    Merged,
    /// A trace, or dropped: nothing (its total is known).
    Dropped,
}

/// What the reading for `--summary` of a long `.hp` keeps instead of its points: the
/// stack's height at every census and every band's peak and area, each worked out as
/// the points stream past (`crate::profile::running`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Sums {
    /// The height of all bands stacked at every complete census, as
    /// `crate::profile::stack_heights` gives it when `exact`.
    pub(crate) heights: Vec<f64>,
    /// Every band's peak and area, in the profile's order of bands.
    pub(crate) bands: Vec<super::Running>,
    /// Every band's values added up in census order, in the same order (a band's mean,
    /// which its growth needs before its values: a second reading's).
    pub(crate) values: Vec<f64>,
    /// Whether `heights` are the same doubles as the stack of every point kept gives:
    /// that adds each census's values band by band, this reading in the order the file
    /// lists them, which gives the same sums when every value is a whole number, none
    /// negative, and every census's sum below 2^52.
    pub(crate) exact: bool,
}

/// What the second reading of a long `.hp` for its bands' growth finds
/// (`crate::seam`'s `sloping.rs`), in the profile's order of bands.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Growth {
    /// Every band's growth, as `aggregate::order::growth_of_column` gives it.
    pub(crate) slopes: Vec<f64>,
    /// Every band's sparkline, as `aggregate::numbers` makes it (the page's band table).
    pub(crate) sparks: Vec<Vec<f64>>,
}
