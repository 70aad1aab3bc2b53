//! Tests of the page layout against hand-worked charts.

use super::frame::round_step;
use super::*;
use crate::aggregate::{aggregate, AggregateOptions};
use crate::needs::{Needs, XLabels};
use crate::profile::Profile;

/// Lays out a profile given as `(time, [(name, value)])` samples.
fn chart_of(samples: &[(f64, &[(&str, f64)])]) -> Chart {
    chart_with(samples, &LayoutOptions::default())
}

/// [`chart_of`] with these layout options.
fn chart_with(samples: &[(f64, &[(&str, f64)])], opts: &LayoutOptions) -> Chart {
    chart_needing(samples, opts, &Needs::default())
}

/// [`chart_with`] for a format of these needs.
fn chart_needing(samples: &[(f64, &[(&str, f64)])], opts: &LayoutOptions, needs: &Needs) -> Chart {
    let mut text = String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    for (t, values) in samples {
        text.push_str(&format!("BEGIN_SAMPLE {t:.2}\n"));
        for (name, v) in *values {
            text.push_str(&format!("{name} {v}\n"));
        }
        text.push_str(&format!("END_SAMPLE {t:.2}\n"));
    }
    let (p, _) = Profile::read(text.as_bytes(), &Default::default()).expect("profile");
    let agg = aggregate(p, None, &AggregateOptions::default(), needs);
    let shades = vec![0.0; agg.bands.len()];
    chart(&agg, &shades, opts, needs, None)
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
fn x_labels_by_step_have_the_decimals_the_step_needs() {
    let by_step = Needs {
        x_labels: XLabels::ByStep,
        ..Needs::default()
    };
    // 0.35 s: a step of 0.05.
    let run = [(0.0, &[("a", 1.0)][..]), (0.35, &[("a", 1.0)])];
    let c = chart_needing(&run, &LayoutOptions::default(), &by_step);
    let want = ["0.00", "0.05", "0.10", "0.15", "0.20", "0.25", "0.30"];
    assert_eq!(labels(&axes(&c).x_ticks), want);
    let scale = c.pages[0].graph.as_ref().expect("graph").scale;
    assert_eq!(scale.x_label_decimals, 2, "the page's script is told too");
    // hp2ps's one decimal by default, ticks at the same places.
    let hp2ps = chart_of(&run);
    let at = |c: &Chart| axes(c).x_ticks.iter().map(|t| t.at).collect::<Vec<_>>();
    assert_eq!(at(&hp2ps), at(&c));
    // (printf's rounding of the summed steps: 0.15000000000000002 up, 0.25 to even.)
    let one = ["0.0", "0.1", "0.1", "0.2", "0.2", "0.2", "0.3"];
    assert_eq!(labels(&axes(&hp2ps).x_ticks), one);
    // Steps of 0.02 and 0.005: two and three decimals; of 0.5, one; of 1 and 50, none.
    for (end, first_two) in [
        (0.14, ["0.00", "0.02"]),
        (0.05, ["0.000", "0.005"]),
        (3.5, ["0.0", "0.5"]),
        (7.0, ["0", "1"]),
        (350.0, ["0", "50"]),
    ] {
        let run = [(0.0, &[("a", 1.0)][..]), (end, &[("a", 1.0)])];
        let c = chart_needing(&run, &LayoutOptions::default(), &by_step);
        assert_eq!(
            labels(&axes(&c).x_ticks)[..2],
            first_two,
            "a run of {end} s"
        );
    }
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

#[test]
fn the_data_scale_places_samples_and_ticks_as_the_layout_does() {
    let c = chart_of(&[
        (0.3, &[("a", 1000.0), ("b", 20.0)]),
        (1.7, &[("a", 7000.0)]),
        (2.95, &[("a", 300.0), ("b", 5000.0)]),
    ]);
    let graph = c.pages[0].graph.as_ref().expect("graph");
    let s = graph.scale;
    let a = axes(&c);
    assert_eq!(
        (s.x0, s.y0, s.width, s.height),
        (a.x0, a.y0, a.width, a.height)
    );
    let times = [0.3, 1.7, 2.95];
    for (&t, &x) in times.iter().zip(&graph.xs) {
        assert_eq!(((t - s.t0) / s.t_span) * s.width + s.x0, x);
    }
    // The stack's top at the last sample.
    let top = 5300.0 * (s.height / s.v_span) + s.y0;
    assert!((graph.bands[1].top[2] - top).abs() < 1e-9);
    // The ticks, by the rules the scale's doc gives.
    let step = round_step(s.t_span / s.target_ticks);
    let mut at = Vec::new();
    let mut t = s.t0;
    while t < s.t_end {
        let px = (t - s.t0) * (s.width / s.t_span);
        if px < s.x_tick_room {
            at.push(s.x0 + px);
        }
        t += step;
    }
    assert_eq!(at, a.x_ticks.iter().map(|t| t.at).collect::<Vec<_>>());
    let step = round_step((s.v_span / s.target_ticks).max(1.0));
    let mut at = Vec::new();
    let mut v = 0.0;
    while v <= s.v_span {
        let py = v * (s.height / s.v_span);
        if py < s.y_tick_room {
            at.push(s.y0 + py);
        }
        v += step;
    }
    assert_eq!(at, a.y_ticks.iter().map(|t| t.at).collect::<Vec<_>>());
    assert!(c.data.is_none(), "no data unless asked");
}

#[test]
fn the_chart_data_holds_the_drawn_values_and_the_table_rows() {
    let text = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
        BEGIN_SAMPLE 0.0\na 10\nb 20\nc 30\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\na 11\nb 21\nc 31\nEND_SAMPLE 1.0\nMARK 1.5\n";
    let (p, _) = Profile::read(text.as_bytes(), &Default::default()).expect("profile");
    let opts = AggregateOptions {
        band_limit: 2,
        ..AggregateOptions::default()
    };
    let needs = Needs {
        data: true,
        band_table: true,
        ..Needs::default()
    };
    let agg = aggregate(p, None, &opts, &needs);
    let shades = vec![0.0; agg.bands.len()];
    let chart = chart(&agg, &shades, &LayoutOptions::default(), &needs, None);
    let data = chart.data.as_ref().expect("data");
    assert_eq!(data.times, [0.0, 1.0]);
    assert_eq!(data.samples, 2);
    // OTHER (a + b) at the bottom, then c.
    assert_eq!(data.values, [vec![30.0, 32.0], vec![30.0, 31.0]]);
    assert_eq!(data.rows[0], None, "OTHER has no row");
    let c = data.rows[1].expect("c has a row");
    assert_eq!(data.table[c].name, b"c");
    assert_eq!(data.table.len(), 3);
    assert_eq!(data.marks, [1.5]);
}
