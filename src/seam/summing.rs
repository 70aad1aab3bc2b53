//! What the builder keeps of a long `.hp` read for `--summary` (issue 39): no point, but
//! the stack's height at every census and each band's peak and area
//! ([`crate::profile::keep::Sums`]), added up as the points come. A band's value in a
//! census is added to its numbers once the census after it is complete (its trapezoid
//! weight needs that census's time, which an incomplete last census would not keep), so
//! each band waits with at most the points of the last census or two, or of one run of
//! the parallel reader.

use crate::profile::keep::Sums;
use crate::profile::running::trapezoid_weight;
use crate::profile::{Point, Running};

/// Sums below this add up to the same double in any order (2^52: room to spare).
const EXACT_BELOW: f64 = (1u64 << 52) as f64;

/// The state of a reading for `--summary`.
#[derive(Debug)]
pub(crate) struct Summing {
    /// By band number.
    bands: Vec<Waiting>,
    /// Every census's values added up, in the order they came.
    heights: Vec<f64>,
    /// Every value so far whole and not negative.
    whole: bool,
}

impl Default for Summing {
    fn default() -> Self {
        Summing {
            bands: Vec::new(),
            heights: Vec::new(),
            whole: true,
        }
    }
}

/// One band's numbers so far, and its values not yet added to them.
#[derive(Debug, Default, Clone)]
struct Waiting {
    running: Running,
    /// The values added so far, in census order (the mean of a growth's slope).
    sum: f64,
    /// `(census, value)`, censuses in order, a census's points added up.
    values: Vec<(u32, f64)>,
}

impl Summing {
    /// Takes `points` of band `id` (their censuses counted from `base`), `complete`
    /// censuses being complete, whose times are the first of `times`.
    pub(crate) fn take(
        &mut self,
        id: u32,
        points: &[Point],
        base: u32,
        complete: u32,
        times: &[f64],
    ) {
        let id = id as usize;
        if self.bands.len() <= id {
            self.bands.resize(id + 1, Waiting::default());
        }
        let band = &mut self.bands[id];
        for p in points {
            let (census, value) = (p.sample + base, p.value);
            match band.values.last_mut() {
                Some((last, sum)) if *last == census => *sum += value,
                _ => band.values.push((census, value)),
            }
            let at = census as usize;
            if self.heights.len() <= at {
                self.heights.resize(at + 1, 0.0);
            }
            self.heights[at] += value;
            self.whole &= value >= 0.0 && value.fract() == 0.0;
        }
        band.settle(u64::from(complete), times);
    }

    /// Drops what is kept of census `complete` and later (an incomplete last census);
    /// returns whether any point was in it.
    pub(crate) fn discard_from(&mut self, complete: u32) -> bool {
        self.heights.truncate(complete as usize);
        let mut dropped = false;
        for band in &mut self.bands {
            let before = band.values.len();
            band.values.retain(|&(census, _)| census < complete);
            dropped |= band.values.len() != before;
        }
        dropped
    }

    /// Whether band `id` still has a value.
    pub(crate) fn has_points(&self, id: usize) -> bool {
        (self.bands.get(id)).is_some_and(|b| b.running.any() || !b.values.is_empty())
    }

    /// After the builder dropped bands ([`Self::has_points`]): the same here.
    pub(crate) fn retain(&mut self, kept: &[bool]) {
        let mut flags = kept.iter();
        self.bands
            .retain(|_| flags.next().copied().unwrap_or(false));
    }

    /// What was found, once the reading is over and `times` are the complete censuses'
    /// (`bands` many bands).
    pub(crate) fn sums(&mut self, times: &[f64], bands: usize) -> Sums {
        self.bands.resize(bands, Waiting::default());
        for band in &mut self.bands {
            band.settle(u64::MAX, times);
        }
        let mut heights = std::mem::take(&mut self.heights);
        heights.resize(times.len(), 0.0);
        Sums {
            exact: self.whole && heights.iter().all(|&h| h < EXACT_BELOW),
            heights,
            bands: self.bands.iter().map(|b| b.running).collect(),
            values: self.bands.iter().map(|b| b.sum).collect(),
        }
    }
}

impl Waiting {
    /// Adds the values of the censuses before the last complete one, whose weights are
    /// known (every value, with `complete` at `u64::MAX`), in census order.
    fn settle(&mut self, complete: u64, times: &[f64]) {
        let ready = (self.values.iter())
            .take_while(|&&(census, _)| u64::from(census) + 1 < complete)
            .count();
        for (census, value) in self.values.drain(..ready) {
            self.sum += value;
            let at = census as usize;
            if let Some(&time) = times.get(at) {
                self.running.add(value, time, trapezoid_weight(times, at));
            }
        }
    }
}
