//! [`StatementRun`]: statements a reader's worker thread scanned ahead, handed to the
//! [`super::Sink`] in one go. The worker has already told the run's names apart (each gets a
//! local id, in order of first appearance) and hashed each once, so the sink looks each
//! name up once per run rather than once per data point.

use crate::profile::Point;

/// Tag of an entry that is a `BEGIN_SAMPLE` (its value is the time).
pub(crate) const BEGIN: u32 = u32::MAX;
/// Tag of an entry that is an `END_SAMPLE`.
pub(crate) const END: u32 = u32::MAX - 1;
/// Tag of an entry that is a `MARK` (its value is the time).
pub(crate) const MARK: u32 = u32::MAX - 2;

/// One statement of a run: a data point of the run's local name `tag`, or a sample
/// boundary or a mark ([`BEGIN`], [`END`], [`MARK`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunEntry {
    pub(crate) tag: u32,
    pub(crate) value: f64,
}

/// A run of statements in file order, as [`super::Sink::statements`] receives it: the run's
/// names, and its entries (sample boundaries, marks and, unless they come grouped by
/// name, data points).
pub struct StatementRun<'a> {
    /// The bytes the names lie in.
    pub(crate) bytes: &'a [u8],
    /// Local id → the name's `(start, len)` in [`Self::bytes`], in order of first
    /// appearance.
    pub(crate) names: &'a [(u32, u32)],
    /// [`crate::intern::hash_bytes`] of each name, by local id.
    pub(crate) hashes: &'a [u64],
    /// The statements, in file order (without the data points when they come by name).
    pub(crate) entries: &'a [RunEntry],
    /// Each name's data points, by local id, with sample numbers counted from the run's
    /// start, when the sink asked for them this way ([`super::Sink::wants_runs_by_band`]).
    pub(crate) by_band: Option<&'a [Vec<Point>]>,
    /// Each name's points added up, by local id, and every census's sum of magnitudes
    /// (by `END_SAMPLE`s before it in the run), instead of the points, when the sink
    /// asked for them this way ([`super::Sink::wants_run_sums`]).
    pub(crate) sums: Option<RunSums<'a>>,
    /// With the points of the drawn bands only in [`Self::by_band`], the rest of the
    /// run's points added up by census, when the sink gave the bands' roles
    /// ([`super::Sink::run_roles`]).
    pub(crate) split: Option<RunSplit<'a>>,
    /// The share of the whole input read once this run is applied, when the input's
    /// size is known (a sink can size its storage from it).
    pub(crate) progress: Option<f64>,
}

impl<'a> StatementRun<'a> {
    /// The name of local id `id`.
    pub(super) fn name(&self, id: u32) -> &'a [u8] {
        let (s, l) = self.names[id as usize];
        &self.bytes[s as usize..s as usize + l as usize]
    }

    /// The run's names with their hashes, by local id.
    pub(crate) fn names_with_hashes(&self) -> impl Iterator<Item = (&'a [u8], u64)> + '_ {
        (0..self.names.len() as u32)
            .map(|id| self.name(id))
            .zip(self.hashes.iter().copied())
    }
}

/// A run's points added up instead of kept ([`StatementRun::sums`]): what a first
/// reading of a long `.hp` needs of them (`crate::profile::keep::BandTotals`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunSums<'a> {
    /// Each name's sum, by local id.
    pub(crate) bands: &'a [BandSum],
    /// Every census's values added up (all are whole and not negative), by the number
    /// of `END_SAMPLE`s before it in the run; saturating.
    pub(crate) censuses: &'a [u64],
}

/// One name's points of a run added up: each value is a whole number below 2^53, and
/// the sums saturate (a sink takes them only while they are exact).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct BandSum {
    /// Its values added up.
    pub(crate) sum: u64,
    /// How many points.
    pub(crate) count: u32,
    /// The census of its last point (`END_SAMPLE`s before it in the run).
    pub(crate) last: u32,
    /// Its values in that census added up, and how many.
    pub(crate) last_sum: u64,
    pub(crate) last_count: u32,
}

impl BandSum {
    /// Adds a point of `value` in census `census` (in the run).
    #[inline(always)]
    pub(crate) fn add(&mut self, value: u64, census: u32) {
        if self.count == 0 || census != self.last {
            (self.last, self.last_sum, self.last_count) = (census, 0, 0);
        }
        self.sum = self.sum.saturating_add(value);
        self.last_sum = self.last_sum.saturating_add(value);
        self.count += 1;
        self.last_count += 1;
    }
}

/// A run's points split by role ([`StatementRun::split`]): the drawn bands' are in
/// [`StatementRun::by_band`] (the others' lists empty), and every census's values of
/// the drawn and merged bands added up, and of the merged bands alone. Every value is
/// whole and below 2^53 (the first reading found every census's sum below 2^52), so
/// the sums are exact in any order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunSplit<'a> {
    /// Each census's drawn and merged values added up, by `END_SAMPLE`s before it in
    /// the run, up to the last census with such a point.
    pub(crate) heights: &'a [u64],
    /// Each census's merged values added up, up to the last census with one.
    pub(crate) merged: &'a [u64],
    /// The census of the run's last point, of any band.
    pub(crate) last: Option<u32>,
}
