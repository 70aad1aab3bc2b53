//! What the builder keeps of a long `.hp` read a second time for `--summary --sort
//! growth` (issue 39): each band's growth, the least-squares slope of its values over
//! every census (`aggregate::order::growth_of_column`'s, absent censuses as 0). That
//! sums `(t - mean_t) * (v - mean_v)` over the censuses in order, and the mean of a
//! band's values is known only after them: the first reading (`summing.rs`) found it,
//! with the censuses' times; this one adds the terms as the values come, the same
//! doubles in the same order, a census's points added up first. It makes each band's
//! sparkline on the way (`aggregate::numbers`'s: the highest value of each of
//! [`SPARK_POINTS`] slices of the censuses, absent ones as 0), which the page's band
//! table needs with the growth.

use crate::profile::running::SPARK_POINTS;

/// The state of the second reading for the bands' growth.
#[derive(Debug, Default)]
pub(crate) struct Sloping {
    /// The complete censuses' times, as the first reading found them.
    times: Vec<f64>,
    mean_t: f64,
    /// Each band's mean value over every census, by band number.
    means: Vec<f64>,
    bands: Vec<Slope>,
}

/// Where each census's value goes in a sparkline of `n` censuses: its own point when
/// there are no more than [`SPARK_POINTS`] censuses, else the slice `k` of
/// `k * n / SPARK_POINTS .. (k + 1) * n / SPARK_POINTS` it is in.
#[derive(Debug, Clone, Copy)]
struct Spark {
    n: usize,
}

impl Spark {
    /// How many points the sparkline has.
    fn len(self) -> usize {
        self.n.min(SPARK_POINTS)
    }

    /// Folds the value `v` of census `census` into `points`, as `aggregate::numbers`'s
    /// sparkline folds a slice in census order (the first of equal values stays).
    fn fold(self, points: &mut Vec<f64>, census: usize, v: f64) {
        if points.is_empty() {
            let start = match self.n <= SPARK_POINTS {
                true => 0.0,
                false => f64::NEG_INFINITY,
            };
            points.resize(self.len(), start);
        }
        let k = match self.n <= SPARK_POINTS {
            true => {
                points[census] = v;
                return;
            }
            // The slice whose start is at or before `census`: the largest k with
            // k * n / SPARK_POINTS <= census.
            false => ((census + 1) * SPARK_POINTS).div_ceil(self.n) - 1,
        };
        if v > points[k] {
            points[k] = v;
        }
    }
}

/// One band's sum of terms so far.
#[derive(Debug, Default, Clone)]
struct Slope {
    num: f64,
    /// The first census whose term is not added yet.
    next: u32,
    /// The last census's value so far (more of its points may come).
    last: Option<(u32, f64)>,
    /// The sparkline so far (empty until a census is folded in).
    spark: Vec<f64>,
}

impl Sloping {
    /// With the first reading's times and each band's values added up (`sums`).
    pub(crate) fn new(times: Vec<f64>, sums: &[f64]) -> Sloping {
        let n = times.len() as f64;
        Sloping {
            mean_t: times.iter().sum::<f64>() / n,
            means: sums.iter().map(|&sum| sum / n).collect(),
            times,
            bands: Vec::new(),
        }
    }

    /// Takes `points` of band `id`, their censuses counted from `base`.
    pub(crate) fn take(&mut self, id: u32, points: &[crate::profile::Point], base: u32) {
        let id = id as usize;
        if self.bands.len() <= id {
            self.bands.resize(id + 1, Slope::default());
        }
        let mean_v = self.means.get(id).copied().unwrap_or(0.0);
        let (times, mean_t) = (&self.times[..], self.mean_t);
        let spark = Spark { n: times.len() };
        let band = &mut self.bands[id];
        for p in points {
            let (census, value) = (p.sample + base, p.value);
            match &mut band.last {
                Some((last, sum)) if *last == census => *sum += value,
                last => {
                    if let Some((done, v)) = last.replace((census, value)) {
                        band.add_up_to(done, v, times, mean_t, mean_v, spark);
                    }
                }
            }
        }
    }

    /// Drops the values of census `complete` and later (an incomplete last census);
    /// returns whether there were any.
    pub(crate) fn discard_from(&mut self, complete: u32) -> bool {
        let mut dropped = false;
        for band in &mut self.bands {
            if band.last.is_some_and(|(census, _)| census >= complete) {
                band.last = None;
                dropped = true;
            }
        }
        dropped
    }

    /// Whether band `id` still has a value.
    pub(crate) fn has_points(&self, id: usize) -> bool {
        (self.bands.get(id)).is_some_and(|b| b.next > 0 || b.last.is_some())
    }

    /// After the builder dropped bands ([`Self::has_points`]): the same here.
    pub(crate) fn retain(&mut self, kept: &[bool]) {
        let mut flags = kept.iter();
        self.bands
            .retain(|_| flags.next().copied().unwrap_or(false));
    }

    /// Every band's growth, once the reading is over (`bands` many bands).
    pub(crate) fn slopes(&mut self, bands: usize) -> Vec<f64> {
        let (times, mean_t) = (&self.times[..], self.mean_t);
        let n = times.len();
        let spark = Spark { n };
        let den = (times.iter()).fold(0.0, |den, &t| den + (t - mean_t) * (t - mean_t));
        self.bands.resize(bands, Slope::default());
        (self.bands.iter_mut().enumerate())
            .map(|(id, band)| {
                let mean_v = self.means.get(id).copied().unwrap_or(0.0);
                if let Some((census, v)) = band.last.take() {
                    band.add_up_to(census, v, times, mean_t, mean_v, spark);
                }
                band.add_absent(n as u32, times, mean_t, mean_v, spark);
                match n >= 2 && den > 0.0 {
                    true => band.num / den,
                    false => 0.0,
                }
            })
            .collect()
    }
}

impl Sloping {
    /// The first reading's times it was given, once [`Self::slopes`] and
    /// [`Self::sparks`] have ended the reading (they were lent, not copied: a long
    /// profile's page keeps one list of its censuses' times, not two).
    pub(crate) fn give_back_times(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.times)
    }

    /// Every band's sparkline, once [`Self::slopes`] has ended the reading.
    pub(crate) fn sparks(&mut self) -> Vec<Vec<f64>> {
        (self.bands.iter_mut())
            .map(|band| std::mem::take(&mut band.spark))
            .collect()
    }
}

impl Slope {
    /// Adds the terms of the censuses before `census` (the band absent: 0), then its
    /// value `v` at `census`; the same values to the sparkline.
    fn add_up_to(
        &mut self,
        census: u32,
        v: f64,
        times: &[f64],
        mean_t: f64,
        mean_v: f64,
        spark: Spark,
    ) {
        self.add_absent(census, times, mean_t, mean_v, spark);
        if let Some(&t) = times.get(census as usize) {
            self.num += (t - mean_t) * (v - mean_v);
            // As the sparkline's column adds a census's points: onto 0 (-0 becomes 0).
            spark.fold(&mut self.spark, census as usize, 0.0 + v);
        }
        self.next = census + 1;
    }

    /// Adds the terms of the censuses from `next` to before `end`, the band absent.
    fn add_absent(&mut self, end: u32, times: &[f64], mean_t: f64, mean_v: f64, spark: Spark) {
        let (from, to) = (self.next as usize, (end as usize).min(times.len()));
        for (census, &t) in (from..).zip(times.get(from..to).unwrap_or_default()) {
            self.num += (t - mean_t) * (0.0 - mean_v);
            spark.fold(&mut self.spark, census, 0.0);
        }
        self.next = self.next.max(end);
    }
}
