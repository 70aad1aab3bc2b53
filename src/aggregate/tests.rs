//! Tests of the aggregation passes against hand-worked profiles.

use super::limit::apply_band_limit;
use super::order::{deviation, hash_bucket, hash_order};
use super::traces::{band_total, eliminate_traces};
use super::*;
use crate::num::c_trunc_i64;
use crate::profile::area;
use crate::profile::Point;

/// A band of these `(sample, value)` points (also for the other passes' own tests).
pub(super) fn band(name: &str, values: &[(u32, f64)]) -> Band {
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
    man_page_for(opts, aux, &Needs::default())
}

/// [`man_page`] for a format of these needs.
fn man_page_for(opts: AggregateOptions, aux: Option<&Aux>, needs: &Needs) -> Aggregated {
    let (p, _) = Profile::read(MAN_PAGE.as_bytes(), &Default::default()).expect("man page");
    aggregate(p, aux, &opts, needs)
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

/// Three bands over five samples: `leak` grows steadily, `big` is large and flat, `wave`
/// goes up and down.
fn growth_profile() -> Profile {
    let times = vec![0.0, 1.0, 2.0, 3.0, 4.0];
    let series = |name: &str, f: &dyn Fn(f64) -> f64| band_of(name, &times, f);
    Profile {
        bands: vec![
            series("big", &|_| 1000.0),
            series("leak", &|t| 10.0 + 50.0 * t),
            series("wave", &|t| if t as i64 % 2 == 0 { 100.0 } else { 300.0 }),
        ],
        times,
        ..Profile::default()
    }
}

fn band_of(name: &str, times: &[f64], f: &dyn Fn(f64) -> f64) -> Band {
    Band {
        name: name.as_bytes().to_vec(),
        points: times
            .iter()
            .enumerate()
            .map(|(i, &t)| Point {
                sample: i as u32,
                value: f(t),
            })
            .collect(),
    }
}

#[test]
fn growth_puts_the_leaking_band_on_top() {
    let opts = AggregateOptions {
        by_growth: true,
        ..AggregateOptions::default()
    };
    let agg = aggregate(growth_profile(), None, &opts, &Needs::default());
    // Bottom first: the top of the stack is the last band.
    assert_eq!(names(&agg.bands).last().map(String::as_str), Some("leak"));
    assert_eq!(super::order::growth(&agg.bands[2], &agg.times), 50.0);
    assert_eq!(super::order::growth(&agg.bands[0], &agg.times), 0.0);
}

#[test]
fn reverse_flips_the_drawn_bands_and_keeps_other_at_the_bottom() {
    let mut opts = AggregateOptions {
        trace_percent: 0.0,
        ..AggregateOptions::default()
    };
    let plain = names(&aggregate(growth_profile(), None, &opts, &Needs::default()).bands);
    opts.reverse = true;
    let mut reversed = names(&aggregate(growth_profile(), None, &opts, &Needs::default()).bands);
    reversed.reverse();
    assert_eq!(plain, reversed);

    opts.band_limit = 2;
    let limited = names(&aggregate(growth_profile(), None, &opts, &Needs::default()).bands);
    opts.reverse = false;
    let unreversed = names(&aggregate(growth_profile(), None, &opts, &Needs::default()).bands);
    assert_eq!(limited[0], "OTHER");
    assert_eq!(unreversed[0], "OTHER");
    assert_eq!(limited[1], unreversed[1]);
}

/// The band filter runs when the profile is loaded, so aggregation sees a profile that
/// never had the bands it took out: trace elimination and OTHER decide without them.
#[test]
fn a_filtered_profile_decides_traces_and_other_without_the_bands_taken_out() {
    let opts = AggregateOptions {
        band_limit: 1,
        ..AggregateOptions::default()
    };
    let mut filter = crate::load::BandFilter::default();
    filter.exclude("^big$").unwrap();
    let mut profile = growth_profile();
    filter.take_out(&mut profile);
    let agg = aggregate(profile, None, &opts, &Needs::default());
    // Without `big`, OTHER holds `wave` and `leak` only.
    assert_eq!(names(&agg.bands), ["OTHER"]);
    let sum: f64 = agg.bands[0].points.iter().map(|p| p.value).sum();
    assert_eq!(
        sum,
        10.0 + 60.0 + 110.0 + 160.0 + 210.0 + 100.0 * 3.0 + 300.0 * 2.0
    );
}

#[test]
fn the_band_table_lists_every_band_with_what_became_of_it() {
    let mut opts = AggregateOptions {
        trace_percent: 5.0,
        band_limit: 4,
        ..AggregateOptions::default()
    };
    let table = Needs {
        band_table: true,
        ..Needs::default()
    };
    let agg = man_page_for(opts.clone(), None, &table);
    assert!(agg.other, "7 bands, 4 drawn: OTHER");
    let fate = |agg: &Aggregated, name: &str| {
        let row = agg.table.iter().find(|b| b.name == name.as_bytes());
        row.map(|b| b.fate).expect("every band has a row")
    };
    assert_eq!(agg.table.len(), 7);
    // Totals 20 (reduce), 24, 24, ... of 692: below 5 % only reduce (2.9 %; with
    // intersect or main 6.4 %).
    assert_eq!(fate(&agg, "reduce"), Fate::Trace);
    let traces = (agg.table.iter()).filter(|b| b.fate == Fate::Trace).count();
    assert_eq!(traces, 1);
    for drawn in &agg.bands[1..] {
        let name = String::from_utf8_lossy(&drawn.name).into_owned();
        assert_eq!(fate(&agg, &name), Fate::Drawn, "{name}");
    }
    let merged = (agg.table.iter()).filter(|b| b.fate == Fate::Other).count();
    assert_eq!(merged, 3, "6 bands left for 4 places: OTHER holds 3");
    // The table is --summary's: biggest area first.
    assert_eq!(agg.table[0].name, b"elim");
    assert!(agg.table.windows(2).all(|w| w[0].area >= w[1].area));

    opts.band_limit = -1;
    let agg = man_page_for(opts.clone(), None, &table);
    assert!(agg.bands.is_empty());
    assert_eq!(fate(&agg, "elim"), Fate::Dropped);
    assert_eq!(fate(&agg, "reduce"), Fate::Trace);

    assert!(man_page(opts, None).table.is_empty());
}

/// `--sort name` (`numeric_names`): eras in numeric order, numbers before other names,
/// equal values by their bytes; `-i` keeps hp2ps's byte order.
#[test]
fn numeric_names_sort_by_value() {
    let labels = ["10", "2", "b", "007", "1", "7", "a", "19"];
    let profile = Profile {
        times: vec![0.0, 1.0],
        bands: labels.iter().map(|n| band(n, &[(1, 100.0)])).collect(),
        ..Profile::default()
    };
    let sorted = |numeric: bool, order: NameOrder| {
        let opts = AggregateOptions {
            by_name: Some(order),
            numeric_names: numeric,
            trace_percent: 0.0,
            ..AggregateOptions::default()
        };
        names(&aggregate(profile.clone(), None, &opts, &Needs::default()).bands)
    };
    let numeric = ["1", "2", "007", "7", "10", "19", "a", "b"];
    assert_eq!(sorted(true, NameOrder::Ascending), numeric);
    let mut descending = numeric;
    descending.reverse();
    assert_eq!(sorted(true, NameOrder::Descending), descending);
    assert_eq!(
        sorted(false, NameOrder::Ascending),
        ["007", "1", "10", "19", "2", "7", "a", "b"]
    );
}
