//! From a [`Profile`] to the bands that are drawn (spec §3.2–3.9): trace elimination,
//! the `-d`, `-i` and `-p` orders, the band limit with OTHER, the ranges and the area.

use crate::aux_file::Aux;
use crate::profile::{Band, Point, Profile};
use crate::sort::{f64_key, selection_sort};
use std::cmp::Reverse;

/// Direction of the `-i` name order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameOrder {
    /// `-i`, `-i+`: smallest name at the bottom.
    Ascending,
    /// `-i-`: greatest name at the bottom.
    Descending,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AggregateOptions {
    /// `-t`: bands whose combined share stays below this percentage are dropped.
    pub trace_percent: f64,
    /// `-d`: order by standard deviation.
    pub by_deviation: bool,
    /// `-i`: order by name.
    pub by_name: Option<NameOrder>,
    /// `-m`: the band limit N; 0 means none, a negative value drops every band.
    pub band_limit: i64,
}

impl Default for AggregateOptions {
    fn default() -> Self {
        AggregateOptions {
            trace_percent: 1.0,
            by_deviation: false,
            by_name: None,
            band_limit: 20,
        }
    }
}

/// The bands to draw, bottom band first, with the numbers the layout needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregated {
    pub job: Vec<u8>,
    pub date: Vec<u8>,
    pub sample_unit: Vec<u8>,
    pub value_unit: Vec<u8>,
    pub times: Vec<f64>,
    pub marks: Vec<f64>,
    pub bands: Vec<Band>,
    /// Time span (at least the aux X_RANGE; 1.0 instead of 0).
    pub x_range: f64,
    /// Highest stack (at least the aux Y_RANGE; 1.0 instead of 0).
    pub y_range: f64,
    /// The "bytes x seconds" integral of the stacked bands.
    pub area: f64,
}

impl Aggregated {
    pub fn first_time(&self) -> f64 {
        self.times.first().copied().unwrap_or(0.0)
    }
    pub fn last_time(&self) -> f64 {
        self.times.last().copied().unwrap_or(0.0)
    }
}

/// Runs the pipeline in hp2ps's step order. `aux` is the previous run's `.aux` (`-p`).
pub fn aggregate(profile: Profile, aux: Option<&Aux>, opts: &AggregateOptions) -> Aggregated {
    let nsamples = profile.times.len();
    let mut bands = profile.bands;
    hash_order(&mut bands);
    eliminate_traces(&mut bands, opts.trace_percent);
    if opts.by_deviation {
        let keys = bands
            .iter()
            .map(|b| f64_key(deviation(b, nsamples)))
            .collect();
        selection_sort(&mut bands, keys);
    }
    match opts.by_name {
        Some(NameOrder::Ascending) => {
            let keys = bands.iter().map(|b| Some(b.name.clone())).collect();
            selection_sort(&mut bands, keys);
        }
        Some(NameOrder::Descending) => {
            let keys = bands
                .iter()
                .map(|b| Some(Reverse(b.name.clone())))
                .collect();
            selection_sort(&mut bands, keys);
        }
        None => {}
    }
    if let Some(aux) = aux {
        let order = aux.order_map();
        let keys = bands
            .iter()
            .map(|b| Some(order.get(b.name.as_slice()).copied().unwrap_or(0)))
            .collect();
        selection_sort(&mut bands, keys);
    }
    apply_band_limit(&mut bands, opts.band_limit, nsamples);

    let heights = stack_heights(&bands, nsamples);
    let times = profile.times;
    let first = times.first().copied().unwrap_or(0.0);
    let last = times.last().copied().unwrap_or(0.0);
    let x_range = nonzero(at_least(last - first, aux.and_then(|a| a.x_range)));
    let y_max = heights
        .iter()
        .skip(1)
        .fold(heights.first().copied().unwrap_or(0.0), |m, &h| {
            if h > m {
                h
            } else {
                m
            }
        });
    let y_range = nonzero(at_least(y_max, aux.and_then(|a| a.y_range)));
    let area = area(&times, &heights);
    Aggregated {
        job: profile.job,
        date: profile.date,
        sample_unit: profile.sample_unit,
        value_unit: profile.value_unit,
        times,
        marks: profile.marks,
        bands,
        x_range,
        y_range,
        area,
    }
}

fn at_least(x: f64, floor: Option<f64>) -> f64 {
    match floor {
        Some(f) if f > x => f,
        _ => x,
    }
}

fn nonzero(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x
    }
}

/// hp2ps's identifier hash (spec §3.1): h = 3h + b over signed bytes, 32-bit.
pub fn hash_bucket(name: &[u8]) -> u32 {
    let mut h: i32 = 0;
    for &b in name {
        h = h.wrapping_mul(3).wrapping_add(i32::from(b as i8));
    }
    h.unsigned_abs() % 513
}

/// Puts bands into hp2ps's initial order: hash bucket 0…512, and within a bucket the most
/// recently created identifier first. Every later sort breaks ties by this order.
pub fn hash_order(bands: &mut Vec<Band>) {
    let mut keyed: Vec<(u32, Reverse<usize>, Band)> = std::mem::take(bands)
        .into_iter()
        .enumerate()
        .map(|(created, b)| (hash_bucket(&b.name), Reverse(created), b))
        .collect();
    keyed.sort_by_key(|(bucket, created, _)| (*bucket, *created));
    bands.extend(keyed.into_iter().map(|(_, _, b)| b));
}

/// C's conversion of a double to int64: truncation, with everything out of range (and
/// NaN) becoming INT64_MIN as on x86.
pub fn c_trunc_i64(x: f64) -> i64 {
    // ±2^63: the range of int64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if (-LIMIT..LIMIT).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// A band's total as hp2ps sums it: in a 64-bit integer, through a double at every step.
pub fn band_total(band: &Band) -> i64 {
    band.points
        .iter()
        .fold(0i64, |t, p| c_trunc_i64(t as f64 + p.value))
}

/// Step 3: sorts by total and drops the smallest bands whose combined share of the grand
/// total stays below `percent`. An all-zero profile (or a NaN threshold) loses every band.
pub fn eliminate_traces(bands: &mut Vec<Band>, percent: f64) {
    let totals: Vec<i64> = bands.iter().map(band_total).collect();
    let mut pairs: Vec<(Band, i64)> = std::mem::take(bands).into_iter().zip(totals).collect();
    let keys = pairs.iter().map(|(_, t)| Some(*t)).collect();
    selection_sort(&mut pairs, keys);
    let grand: f64 = pairs.iter().fold(0.0, |g, (_, t)| g + *t as f64);
    let mut cumulative = 0.0;
    let mut keep_from = pairs.len();
    for (i, (_, t)) in pairs.iter().enumerate() {
        cumulative += 100.0 * *t as f64 / grand;
        if cumulative >= percent {
            keep_from = i;
            break;
        }
    }
    bands.extend(pairs.into_iter().skip(keep_from).map(|(b, _)| b));
}

/// The `-d` key: absent samples count as zeros in the mean but not in the sum of squares.
pub fn deviation(band: &Band, nsamples: usize) -> f64 {
    let n = nsamples as f64;
    let sum = band.points.iter().fold(0.0, |s, p| s + p.value);
    let mean = sum / n;
    let sumsq = band
        .points
        .iter()
        .fold(0.0, |s, p| s + (p.value - mean) * (p.value - mean));
    (sumsq / (n - 1.0)).sqrt()
}

/// Step 7: keeps `limit` bands by merging the bottom ones into OTHER.
pub fn apply_band_limit(bands: &mut Vec<Band>, limit: i64, nsamples: usize) {
    let n = bands.len() as i64;
    if limit == 0 || n <= limit {
        return;
    }
    if limit < 0 {
        bands.clear();
        return;
    }
    let merged = (n - limit + 1) as usize;
    let mut sums = vec![0.0; nsamples];
    for band in &bands[..merged] {
        for p in &band.points {
            if let Some(s) = sums.get_mut(p.sample as usize) {
                *s += p.value;
            }
        }
    }
    let other = Band {
        name: b"OTHER".to_vec(),
        points: sums
            .into_iter()
            .enumerate()
            .map(|(i, value)| Point {
                sample: i as u32,
                value,
            })
            .collect(),
    };
    bands.splice(..merged, [other]);
}

/// The height of the stack at every sample, summed band by band.
pub fn stack_heights(bands: &[Band], nsamples: usize) -> Vec<f64> {
    let mut h = vec![0.0; nsamples];
    for band in bands {
        for p in &band.points {
            if let Some(s) = h.get_mut(p.sample as usize) {
                *s += p.value;
            }
        }
    }
    h
}

/// The trapezoid integral of the stack, in hp2ps's exact arithmetic.
pub fn area(times: &[f64], heights: &[f64]) -> f64 {
    let mut area = 0.0;
    for i in 1..times.len().min(heights.len()) {
        let base = times[i] - times[i - 1];
        let (lower, diff) = if heights[i] > heights[i - 1] {
            (heights[i - 1], heights[i] - heights[i - 1])
        } else {
            (heights[i], heights[i - 1] - heights[i])
        };
        area += base * lower + (base * diff) / 2.0;
    }
    area
}

#[cfg(test)]
mod tests {
    use super::*;

    fn band(name: &str, values: &[(u32, f64)]) -> Band {
        Band {
            name: name.as_bytes().to_vec(),
            points: values
                .iter()
                .map(|&(sample, value)| Point { sample, value })
                .collect(),
        }
    }

    fn names(bands: &[Band]) -> Vec<String> {
        bands
            .iter()
            .map(|b| String::from_utf8_lossy(&b.name).into_owned())
            .collect()
    }

    const MAN_PAGE: &str = "JOB \"a.out -p\"\nDATE \"Fri Apr 17 11:43:45 1992\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.00\n SYSTEM 24\nEND_SAMPLE 0.00\n\
        BEGIN_SAMPLE 1.00\n elim 180\n insert 24\n intersect 12\n disin 60\n main 12\n reduce 20\n SYSTEM 12\nEND_SAMPLE 1.00\n\
        MARK 1.50\nMARK 1.75\nMARK 1.80\n\
        BEGIN_SAMPLE 2.00\n elim 192\n insert 24\n intersect 12\n disin 84\n main 12\n SYSTEM 24\nEND_SAMPLE 2.00\n\
        BEGIN_SAMPLE 2.82\nEND_SAMPLE 2.82\n";

    fn man_page(opts: AggregateOptions, aux: Option<&Aux>) -> Aggregated {
        let (p, _) = Profile::read(MAN_PAGE.as_bytes(), &Default::default()).expect("man page");
        aggregate(p, aux, &opts)
    }

    #[test]
    fn man_page_orders_for_each_sort() {
        let default = man_page(AggregateOptions::default(), None);
        assert_eq!(
            names(&default.bands),
            [
                "reduce",
                "intersect",
                "main",
                "insert",
                "SYSTEM",
                "disin",
                "elim"
            ]
        );
        assert_eq!(c_trunc_i64(default.area), 648);
        assert_eq!((default.x_range, default.y_range), (2.82, 348.0));
        let cases: [(AggregateOptions, [&str; 7]); 3] = [
            (
                AggregateOptions {
                    by_deviation: true,
                    ..Default::default()
                },
                [
                    "intersect",
                    "main",
                    "SYSTEM",
                    "reduce",
                    "insert",
                    "disin",
                    "elim",
                ],
            ),
            (
                AggregateOptions {
                    by_name: Some(NameOrder::Ascending),
                    ..Default::default()
                },
                [
                    "SYSTEM",
                    "disin",
                    "elim",
                    "insert",
                    "intersect",
                    "main",
                    "reduce",
                ],
            ),
            (
                AggregateOptions {
                    by_name: Some(NameOrder::Descending),
                    ..Default::default()
                },
                [
                    "reduce",
                    "main",
                    "intersect",
                    "insert",
                    "elim",
                    "disin",
                    "SYSTEM",
                ],
            ),
        ];
        for (opts, want) in cases {
            assert_eq!(names(&man_page(opts.clone(), None).bands), want, "{opts:?}");
        }
        let limited = man_page(
            AggregateOptions {
                band_limit: 3,
                ..Default::default()
            },
            None,
        );
        assert_eq!(names(&limited.bands), ["OTHER", "disin", "elim"]);
        let traced = man_page(
            AggregateOptions {
                trace_percent: 5.0,
                ..Default::default()
            },
            None,
        );
        assert_eq!(
            names(&traced.bands),
            ["intersect", "main", "insert", "SYSTEM", "disin", "elim"]
        );
        assert_eq!(c_trunc_i64(traced.area), 628);
    }

    #[test]
    fn aux_order_puts_unknown_names_at_the_bottom_and_widens_ranges() {
        let aux = Aux {
            x_range: Some(10.0),
            y_range: Some(100.0),
            order: vec![(b"elim".to_vec(), 1), (b"main".to_vec(), 2)],
            shades: Vec::new(),
        };
        let agg = man_page(AggregateOptions::default(), Some(&aux));
        let n = names(&agg.bands);
        assert_eq!(&n[5..], ["elim", "main"]);
        assert_eq!((agg.x_range, agg.y_range), (10.0, 348.0));
    }

    #[test]
    fn hash_buckets_of_the_man_page_example() {
        let got: Vec<u32> = [
            "elim",
            "reduce",
            "intersect",
            "disin",
            "main",
            "SYSTEM",
            "insert",
        ]
        .iter()
        .map(|n| hash_bucket(n.as_bytes()))
        .collect();
        assert_eq!(got, vec![19, 20, 80, 83, 137, 392, 422]);
    }

    #[test]
    fn hash_order_puts_newer_identifiers_first_in_a_bucket() {
        // "a" and "ǀ"-free: find two names in one bucket.
        let a = "b";
        let mut other = None;
        for i in 0..100000u32 {
            let n = format!("x{i}");
            if hash_bucket(n.as_bytes()) == hash_bucket(a.as_bytes()) {
                other = Some(n);
                break;
            }
        }
        let other = other.expect("a colliding name");
        let mut bands = vec![band(a, &[]), band(&other, &[])];
        hash_order(&mut bands);
        assert_eq!(names(&bands), vec![other, a.to_string()]);
    }

    #[test]
    fn totals_saturate_like_c() {
        let b = band("a", &[(0, 6.28e31), (1, 1.0)]);
        assert_eq!(band_total(&b), i64::MIN);
        assert_eq!(c_trunc_i64(f64::NAN), i64::MIN);
        assert_eq!(c_trunc_i64(-2.7), -2);
    }

    #[test]
    fn trace_elimination_drops_the_smallest_share() {
        let mut bands = vec![
            band("big", &[(0, 950.0)]),
            band("tiny", &[(0, 20.0)]),
            band("small", &[(0, 30.0)]),
        ];
        eliminate_traces(&mut bands, 5.0);
        assert_eq!(names(&bands), vec!["small", "big"]);
        let mut zero = vec![band("z", &[(0, 0.0)])];
        eliminate_traces(&mut zero, 1.0);
        assert!(zero.is_empty());
        let mut keep = vec![band("z", &[(0, 1.0)]), band("y", &[(0, 1000.0)])];
        eliminate_traces(&mut keep, 0.0);
        assert_eq!(keep.len(), 2);
    }

    #[test]
    fn other_sums_the_bottom_bands_at_every_sample() {
        let mut bands = vec![
            band("a", &[(0, 1.0)]),
            band("b", &[(1, 2.0), (1, 3.0)]),
            band("c", &[(0, 10.0)]),
            band("d", &[(2, 7.0)]),
        ];
        apply_band_limit(&mut bands, 3, 3);
        assert_eq!(names(&bands), vec!["OTHER", "c", "d"]);
        let other: Vec<f64> = bands[0].points.iter().map(|p| p.value).collect();
        assert_eq!(other, vec![1.0, 5.0, 0.0]);
        let mut neg = vec![band("a", &[(0, 1.0)])];
        apply_band_limit(&mut neg, -3, 1);
        assert!(neg.is_empty());
    }

    #[test]
    fn deviation_counts_absent_samples_in_the_mean_only() {
        let b = band("a", &[(0, 4.0)]);
        // mean 2 over 2 samples; sumsq only over the present point: (4-2)^2 = 4.
        assert_eq!(deviation(&b, 2), 2.0);
        assert!(deviation(&b, 1).is_nan());
    }

    #[test]
    fn area_is_the_trapezoid_integral() {
        assert_eq!(area(&[0.0, 1.0, 3.0], &[0.0, 10.0, 10.0]), 5.0 + 20.0);
        assert_eq!(area(&[2.0], &[5.0]), 0.0);
    }
}
