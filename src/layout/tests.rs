//! Tests of the page layout against hand-worked charts.

use super::*;
use crate::aggregate::{aggregate, AggregateOptions};
use crate::profile::Profile;

/// Lays out a profile given as `(time, [(name, value)])` samples.
fn chart_of(samples: &[(f64, &[(&str, f64)])]) -> Chart {
    let mut text = String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    for (t, values) in samples {
        text.push_str(&format!("BEGIN_SAMPLE {t:.2}\n"));
        for (name, v) in *values {
            text.push_str(&format!("{name} {v}\n"));
        }
        text.push_str(&format!("END_SAMPLE {t:.2}\n"));
    }
    let (p, _) = Profile::read(text.as_bytes(), &Default::default()).expect("profile");
    let agg = aggregate(p, None, &AggregateOptions::default());
    let shades = vec![0.0; agg.bands.len()];
    layout(&agg, &shades, &LayoutOptions::default())
}

fn labels(ticks: &[Tick]) -> Vec<String> {
    ticks
        .iter()
        .map(|t| String::from_utf8_lossy(&t.label).into_owned())
        .collect()
}

fn axes(chart: &Chart) -> &Axes {
    chart.pages[0].axes.as_ref().expect("axes")
}

#[test]
fn y_ticks_use_k_and_m_by_step_and_round_powers_of_ten_to_half() {
    let c = chart_of(&[(0.0, &[("a", 70.0)]), (1.0, &[("a", 70.0)])]);
    let l = labels(&axes(&c).y_ticks);
    assert_eq!(l.first().map(String::as_str), Some("0"));
    assert_eq!(l.last().map(String::as_str), Some("65"));
    assert_eq!(l.len(), 14);
    let c = chart_of(&[(0.0, &[("a", 7000.0)]), (1.0, &[("a", 7000.0)])]);
    assert_eq!(&labels(&axes(&c).y_ticks)[..3], ["0", "500", "1,000"]);
    let c = chart_of(&[(0.0, &[("a", 70e6)]), (1.0, &[("a", 70e6)])]);
    assert_eq!(&labels(&axes(&c).y_ticks)[..3], ["0M", "5M", "10M"]);
    let c = chart_of(&[(0.0, &[("a", 5e9), ("b", 3e9)]), (1.0, &[("a", 5e9)])]);
    assert_eq!(&labels(&axes(&c).y_ticks)[..2], ["0M", "2,000M"]);
}

#[test]
fn x_ticks_start_at_the_first_sample_and_stop_before_the_last() {
    let c = chart_of(&[
        (3.3, &[("a", 1.0)]),
        (4.1, &[("a", 1.0)]),
        (9.9, &[("a", 1.0)]),
    ]);
    let l = labels(&axes(&c).x_ticks);
    assert_eq!(l.first().map(String::as_str), Some("3.3"));
    assert_eq!(l.last().map(String::as_str), Some("9.3"));
    let c = chart_of(&[(0.0, &[("a", 1.0)]), (0.05, &[("a", 1.0)])]);
    assert_eq!(labels(&axes(&c).x_ticks), vec!["0.0"; 10]);
    let c = chart_of(&[(3.0, &[("a", 1.0)])]);
    assert!(axes(&c).x_ticks.is_empty(), "one sample: no x ticks");
}

#[test]
fn key_entries_are_spaced_evenly_from_the_bottom() {
    let c = chart_of(&[(0.0, &[("a", 1.0), ("b", 2.0), ("c", 3.0)])]);
    let key = &c.pages[0].key;
    let gh = axes(&c).height;
    assert_eq!(key.len(), 3);
    assert_eq!(key[0].box_y, 20.0 + gh / 4.0 - 7.0);
    assert_eq!(key[2].label_y, 20.0 + 3.0 * (gh / 4.0) - 5.0);
}

#[test]
fn round_step_follows_the_1_2_5_rule_with_hp2ps_powers_of_ten() {
    let cases = [
        (0.35, 0.2),
        (1.0, 1.0),
        (1.5, 2.0),
        (4.0, 2.0),
        (4.5, 5.0),
        (10.0, 5.0),
        (11.0, 2.0 * 10.0),
        (100.0, 50.0),
        (1000.0, 500.0),
        (70.0 / 7.0, 5.0),
        (7000.0 / 7.0, 500.0),
        (49.71, 50.0),
    ];
    for (y, want) in cases {
        assert_eq!(round_step(y), want, "Round({y})");
    }
}
