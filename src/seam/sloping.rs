//! What the builder keeps of a long `.hp` read a second time for `--summary --sort
//! growth` (issue 39): each band's growth, the least-squares slope of its values over
//! every census (`aggregate::order::growth_of_column`'s, absent censuses as 0). That
//! sums `(t - mean_t) * (v - mean_v)` over the censuses in order, and the mean of a
//! band's values is known only after them: the first reading (`summing.rs`) found it,
//! with the censuses' times; this one adds the terms as the values come, the same
//! doubles in the same order, a census's points added up first.

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

/// One band's sum of terms so far.
#[derive(Debug, Default, Clone)]
struct Slope {
    num: f64,
    /// The first census whose term is not added yet.
    next: u32,
    /// The last census's value so far (more of its points may come).
    last: Option<(u32, f64)>,
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
        let band = &mut self.bands[id];
        for p in points {
            let (census, value) = (p.sample + base, p.value);
            match &mut band.last {
                Some((last, sum)) if *last == census => *sum += value,
                last => {
                    if let Some((done, v)) = last.replace((census, value)) {
                        band.add_up_to(done, v, times, mean_t, mean_v);
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
        let den = (times.iter()).fold(0.0, |den, &t| den + (t - mean_t) * (t - mean_t));
        self.bands.resize(bands, Slope::default());
        (self.bands.iter_mut().enumerate())
            .map(|(id, band)| {
                let mean_v = self.means.get(id).copied().unwrap_or(0.0);
                if let Some((census, v)) = band.last.take() {
                    band.add_up_to(census, v, times, mean_t, mean_v);
                }
                band.add_absent(n as u32, times, mean_t, mean_v);
                match n >= 2 && den > 0.0 {
                    true => band.num / den,
                    false => 0.0,
                }
            })
            .collect()
    }
}

impl Slope {
    /// Adds the terms of the censuses before `census` (the band absent: 0), then its
    /// value `v` at `census`.
    fn add_up_to(&mut self, census: u32, v: f64, times: &[f64], mean_t: f64, mean_v: f64) {
        self.add_absent(census, times, mean_t, mean_v);
        if let Some(&t) = times.get(census as usize) {
            self.num += (t - mean_t) * (v - mean_v);
        }
        self.next = census + 1;
    }

    /// Adds the terms of the censuses from `next` to before `end`, the band absent.
    fn add_absent(&mut self, end: u32, times: &[f64], mean_t: f64, mean_v: f64) {
        let to = (end as usize).min(times.len());
        for &t in times.get(self.next as usize..to).unwrap_or_default() {
            self.num += (t - mean_t) * (0.0 - mean_v);
        }
        self.next = self.next.max(end);
    }
}
