//! The numbers the gate judges, of one profile: the summary's peak and area, the
//! residency at the end, and each band's (by its match key, as the page of several runs
//! matches bands: `crate::profile::match_key`, bands of one key together) peak, peak held
//! over two neighbouring censuses, and lowest value in each quarter of the run.

use std::collections::BTreeMap;

use crate::profile::{match_key, merged_values, Band, Profile};
use crate::summary::{of_profile, SummaryOptions};

/// How many stretches of the run a leak's floor must rise through.
pub(super) const QUARTERS: usize = 4;

/// One profile's numbers.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Numbers {
    /// The highest total and the time of its first census (`--summary`'s peak).
    pub(super) peak: (f64, f64),
    /// The total of the last census that holds any band, and its time (GHC's empty
    /// census at exit left aside).
    pub(super) end: (f64, f64),
    /// The total's integral over time (`--summary`'s area).
    pub(super) area: f64,
    /// Every key's numbers, by key (UTF-8, bad bytes as U+FFFD).
    pub(super) bands: BTreeMap<String, KeyNumbers>,
}

/// One key's numbers.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct KeyNumbers {
    /// Its highest value in one census.
    pub(super) peak: f64,
    /// Its highest value held over two neighbouring censuses (the lower of the two): a
    /// structure that one census alone catches lived less than two sampling intervals,
    /// and whether a census catches it is chance.
    pub(super) held: f64,
    /// Its lowest value in each quarter of the run (from the first census to the last
    /// that holds any band, by time); `None` when a quarter has no census.
    pub(super) floors: Option<[f64; QUARTERS]>,
}

impl Numbers {
    pub(super) fn of(profile: &Profile) -> Numbers {
        let opts = SummaryOptions {
            top: 0,
            ..SummaryOptions::default()
        };
        let summary = of_profile(profile, &opts);
        let totals = crate::profile::stack_heights(&profile.bands, profile.times.len());
        let last = totals.iter().rposition(|&t| t != 0.0);
        let end = last.map_or((0.0, 0.0), |c| (totals[c], profile.times[c]));
        let quarter = quarters(&profile.times, last);
        let mut keys: BTreeMap<String, Vec<&Band>> = BTreeMap::new();
        for band in &profile.bands {
            let key = String::from_utf8_lossy(match_key(&band.name)).into_owned();
            keys.entry(key).or_default().push(band);
        }
        let bands = (keys.into_iter())
            .map(|(key, bands)| (key, key_numbers(&bands, &quarter)))
            .collect();
        Numbers {
            peak: (summary.peak.total, summary.peak.time),
            end,
            area: summary.area,
            bands,
        }
    }
}

/// Each sample's quarter of the run, up to the last census that holds any band (`last`);
/// `None` after it, and for every sample of a run that spans no time.
fn quarters(times: &[f64], last: Option<usize>) -> Vec<Option<usize>> {
    let Some(last) = last else {
        return vec![None; times.len()];
    };
    let (t0, t1) = (times[0], times[last]);
    (times.iter().enumerate())
        .map(|(s, &t)| {
            let share = (t - t0) / (t1 - t0);
            (s <= last && t1 > t0).then(|| ((share * QUARTERS as f64) as usize).min(QUARTERS - 1))
        })
        .collect()
}

/// The numbers of the bands of one key, `quarter` giving each sample's quarter.
fn key_numbers(bands: &[&Band], quarter: &[Option<usize>]) -> KeyNumbers {
    let values = merged_values(bands);
    let peak = values.iter().fold(0.0, |m: f64, &(_, v)| m.max(v));
    let held = (values.windows(2))
        .filter(|w| w[1].0 == w[0].0 + 1)
        .fold(0.0, |m: f64, w| m.max(w[0].1.min(w[1].1)));
    // A quarter's floor is 0 when the key misses one of its censuses.
    let mut censuses = [0usize; QUARTERS];
    for q in quarter.iter().flatten() {
        censuses[*q] += 1;
    }
    let mut floors = [f64::INFINITY; QUARTERS];
    let mut present = [0usize; QUARTERS];
    for &(s, v) in &values {
        if let Some(Some(q)) = quarter.get(s) {
            floors[*q] = floors[*q].min(v);
            present[*q] += 1;
        }
    }
    let floors = (censuses.iter().all(|&n| n > 0)).then(|| {
        let mut f = [0.0; QUARTERS];
        for q in 0..QUARTERS {
            f[q] = if present[q] == censuses[q] {
                floors[q]
            } else {
                0.0
            };
        }
        f
    });
    KeyNumbers { peak, held, floors }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Point;

    fn band(name: &str, values: &[(u32, f64)]) -> Band {
        Band {
            name: name.as_bytes().to_vec(),
            points: (values.iter())
                .map(|&(sample, value)| Point { sample, value })
                .collect(),
        }
    }

    fn profile(times: Vec<f64>, bands: Vec<Band>) -> Profile {
        Profile {
            times,
            bands,
            ..Profile::default()
        }
    }

    #[test]
    fn a_spike_of_one_census_is_not_held() {
        let p = profile(
            vec![0.0, 1.0, 2.0, 3.0, 4.0],
            vec![band("a", &[(1, 5.0), (2, 50.0), (3, 6.0)])],
        );
        let n = Numbers::of(&p);
        let a = &n.bands["a"];
        assert_eq!((a.peak, a.held), (50.0, 6.0));
        assert_eq!(n.peak, (50.0, 2.0));
        assert_eq!(n.end, (6.0, 3.0), "the empty census at exit is left aside");
    }

    #[test]
    fn bands_of_one_key_count_together() {
        let p = profile(
            vec![0.0, 1.0],
            vec![
                band("(3)a/b", &[(0, 1.0), (1, 2.0)]),
                band("(9)a/b", &[(1, 3.0)]),
            ],
        );
        let n = Numbers::of(&p);
        assert_eq!(n.bands.len(), 1);
        assert_eq!((n.bands["a/b"].peak, n.bands["a/b"].held), (5.0, 1.0));
    }

    #[test]
    fn floors_are_the_lowest_of_each_quarter_and_absent_is_zero() {
        let times: Vec<f64> = (0..9).map(f64::from).collect();
        // Quarters of [0, 8]: {0,1}, {2,3}, {4,5}, {6,7,8}.
        let rising = band(
            "r",
            &[
                (0, 1.0),
                (1, 2.0),
                (2, 3.0),
                (3, 4.0),
                (4, 5.0),
                (5, 6.0),
                (6, 9.0),
                (7, 8.0),
                (8, 7.0),
            ],
        );
        let gappy = band(
            "g",
            &[
                (0, 1.0),
                (2, 3.0),
                (3, 4.0),
                (4, 5.0),
                (5, 6.0),
                (6, 9.0),
                (7, 8.0),
                (8, 7.0),
            ],
        );
        let n = Numbers::of(&profile(times, vec![rising, gappy]));
        assert_eq!(n.bands["r"].floors, Some([1.0, 3.0, 5.0, 7.0]));
        assert_eq!(n.bands["g"].floors, Some([0.0, 3.0, 5.0, 7.0]));
        let one = Numbers::of(&profile(vec![0.0], vec![band("x", &[(0, 1.0)])]));
        assert_eq!(one.bands["x"].floors, None, "a run that spans no time");
    }
}
