//! What a bounded reading of an eventlog (`super::bounded`) keeps in its model: the
//! open census's points, and, in the first reading, the census where each key first has
//! a point, or, in the second, where each census goes as it completes.

use super::EventlogReport;
use crate::profile::keep::BandTotals;
use crate::seam::{HeaderField, ProfileBuilder, SampleBlock, Sink};

/// What a first reading of an eventlog hands its sink, without the points, and its
/// report: how a second reading places each census (`super::bounded::stream`).
#[derive(Debug, Clone)]
pub(crate) struct Placement {
    pub(super) header: Vec<(HeaderField, Vec<u8>)>,
    /// The samples' times (the empty first and last included), the bands' names by key,
    /// the marks where they stand; no point.
    pub(super) block: SampleBlock,
    /// The first reading's report: the reading's, as the second one's would be.
    pub(crate) report: EventlogReport,
    /// The bands' totals, when the first reading was asked for them.
    pub(crate) totals: Option<BandTotals>,
}

impl Placement {
    /// Whether the first reading handed over no point (it keeps none).
    #[cfg(test)]
    pub(crate) fn block_has_no_point(&self) -> bool {
        self.block.points.iter().all(Vec::is_empty)
    }
}

/// A bounded reading's state, in the model (`super::model::Model`): the open census's points,
/// and either the first census each key has a point in (the first reading) or where
/// the censuses go (the second).
pub(crate) struct Bounded<'o> {
    /// The open census's points (key, value), in the order they came.
    open: Vec<(u32, f64)>,
    /// By key: the first complete census with a point of it (`u32::MAX`: none yet).
    first: Vec<u32>,
    /// A first reading's bands' totals, when asked for (`-c`'s first reading of a
    /// `.hp`, `crate::profile::keep`): each band named by its key's bytes until the
    /// names are known.
    totals: Option<ProfileBuilder>,
    out: Option<Streamer<'o>>,
}

/// Where the second reading's censuses go.
struct Streamer<'o> {
    placement: &'o Placement,
    sink: &'o mut dyn Sink,
    /// The next sample to give, and how many marks are given.
    sample: usize,
    marks: usize,
    /// More censuses than the first reading placed (never, for the same bytes).
    overflow: bool,
}

impl<'o> Bounded<'o> {
    /// A first reading's, adding up the bands' totals when `totals`.
    pub(super) fn placing(totals: bool) -> Bounded<'o> {
        let totals = totals.then(|| {
            let mut builder = ProfileBuilder::totals_only();
            // The empty sample at 0, as the second reading gives it.
            builder.end_sample();
            builder
        });
        Bounded {
            open: Vec::new(),
            first: Vec::new(),
            totals,
            out: None,
        }
    }

    /// The bands' totals a first reading added up, the bands named by key from `names`
    /// (`None` when not asked for).
    pub(super) fn band_totals(&mut self, names: &[Vec<u8>]) -> Option<BandTotals> {
        let mut totals = self.totals.take()?.band_totals()?;
        for name in &mut totals.names {
            let key = u32::from_le_bytes(name.as_slice().try_into().ok()?);
            *name = names.get(key as usize)?.clone();
        }
        Some(totals)
    }

    /// A second reading's, which hands the censuses to `sink` as `placement` places
    /// them: the header and the empty sample at 0 at once.
    pub(super) fn streaming(placement: &'o Placement, sink: &'o mut dyn Sink) -> Bounded<'o> {
        for (field, text) in &placement.header {
            sink.header(*field, text);
        }
        let mut out = Streamer {
            placement,
            sink,
            sample: 0,
            marks: 0,
            overflow: false,
        };
        out.sample(0, &[]);
        Bounded {
            open: Vec::new(),
            first: Vec::new(),
            totals: None,
            out: Some(out),
        }
    }

    /// Ends a second reading: the empty sample at the end, then the marks after it.
    /// Returns whether the censuses were the ones placed.
    pub(super) fn end_stream(self) -> bool {
        let Some(mut out) = self.out else {
            return false;
        };
        let last = out.placement.block.times.len().saturating_sub(1);
        let placed = out.sample == last;
        out.sample(last, &[]);
        out.marks_before(usize::MAX);
        placed && !out.overflow
    }

    /// Takes a point of the open census.
    #[inline]
    pub(crate) fn push(&mut self, key: u32, value: f64) {
        self.open.push((key, value));
    }

    /// Damage or a cut took the open census.
    pub(crate) fn drop_open(&mut self) {
        self.open.clear();
    }

    /// The open census is complete, the `census`th (from 0).
    pub(crate) fn complete(&mut self, census: usize) {
        // As the block gives a census's points: by band, in file order within one.
        self.open.sort_by_key(|&(key, _)| key);
        match &mut self.out {
            Some(out) => out.sample(census + 1, &self.open),
            None => {
                for &(key, _) in &self.open {
                    let key = key as usize;
                    if self.first.len() <= key {
                        self.first.resize(key + 1, u32::MAX);
                    }
                    self.first[key] = self.first[key].min(census as u32);
                }
                if let Some(t) = &mut self.totals {
                    // Totals need no time; the bands are numbered in the order their
                    // first points come, as in the second reading (`keys_in_order`).
                    t.begin_sample(0.0);
                    t.keyed_points(&self.open, |key| Some(key.to_le_bytes()));
                    t.end_sample();
                }
            }
        }
        self.open.clear();
    }

    /// Whether the keys that have a point first have one in key order (see the module
    /// docs).
    pub(super) fn keys_in_order(&self) -> bool {
        let kept = self.first.iter().filter(|&&c| c != u32::MAX);
        kept.clone().zip(kept.skip(1)).all(|(a, b)| a <= b)
    }
}

impl Streamer<'_> {
    /// Gives sample `s` with `points` (key, value), after the marks that stand before it.
    fn sample(&mut self, s: usize, points: &[(u32, f64)]) {
        let block = &self.placement.block;
        let Some(&time) = block.times.get(s).filter(|_| s == self.sample) else {
            self.overflow = true;
            return;
        };
        self.marks_before(s + 1);
        // The placement's names stay the same through the reading: by key.
        self.sink.keyed_census(time, points, &block.names);
        self.sample += 1;
    }

    /// Gives the marks that stand before sample `s` (those with `before < s`).
    fn marks_before(&mut self, s: usize) {
        let marks = &self.placement.block.marks;
        while let Some(m) = marks.get(self.marks).filter(|m| m.before < s) {
            match m.text.is_empty() {
                true => self.sink.mark(m.time),
                false => self.sink.labelled_mark(m.time, &m.text),
            }
            self.marks += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Bounded;

    fn firsts(first: Vec<u32>) -> Bounded<'static> {
        Bounded {
            first,
            ..Bounded::placing(false)
        }
    }

    /// Keys whose first kept census goes back (damage took the census where a key came
    /// first, and it came again after a later key) make the log be read whole; keys with
    /// no point do not count.
    #[test]
    fn keys_out_of_order_are_told() {
        assert!(firsts(vec![0, 0, 1, 3]).keys_in_order());
        assert!(firsts(vec![0, u32::MAX, 1, u32::MAX, 1]).keys_in_order());
        assert!(!firsts(vec![0, 2, 1]).keys_in_order());
        assert!(!firsts(vec![3, u32::MAX, 1]).keys_in_order());
    }
}
