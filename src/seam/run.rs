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
