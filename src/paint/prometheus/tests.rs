//! The metrics of profiles made in the test; `tests/prometheus.rs` has `promtool` and a
//! real Pushgateway read those of real GHC profiles.

use super::*;
use crate::paint::Format;
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::Profile;

fn profile(job: &str, bands: &[(&[u8], &[f64])]) -> Profile {
    Profile::of_columns(job, 1.0, bands)
}

fn metrics(profile: Profile, bands: usize, openmetrics: bool) -> String {
    let opts = RenderOptions {
        needs: Format::Prometheus.needs(),
        ..RenderOptions::default()
    };
    let (chart, _) = prepare(profile, None, &opts);
    let paint = PaintOptions {
        metric_bands: bands,
        openmetrics,
        ..PaintOptions::default()
    };
    let mut out = Vec::new();
    chart.write(Format::Prometheus, &paint, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The samples of one family: `labels value` each.
fn samples<'a>(text: &'a str, family: &str) -> Vec<&'a str> {
    (text.lines())
        .filter_map(|l| l.strip_prefix(family)?.strip_prefix('{'))
        .collect()
}

#[test]
fn the_biggest_bands_are_named_and_the_rest_is_other() {
    // The exit's empty census at the end; c the smallest by area.
    let p = profile(
        "prog +RTS -hc -RTS",
        &[
            (b"(1)a/main", &[10.0, 40.0, 30.0, 0.0]),
            (b"b", &[5.0, 5.0, 50.0, 0.0]),
            (b"c", &[1.0, 2.0, 3.0, 0.0]),
            (b"d", &[0.0, 2.0, 1.0, 0.0]),
        ],
    );
    let text = metrics(p, 2, false);
    assert_eq!(
        samples(&text, "hp2ps_band_bytes"),
        [
            "program=\"prog\",kind=\"-hc\",band=\"a/main\"} 30",
            "program=\"prog\",kind=\"-hc\",band=\"b\"} 50",
            "program=\"prog\",kind=\"-hc\",band=\"OTHER\"} 4",
        ]
    );
    assert_eq!(
        samples(&text, "hp2ps_band_peak_bytes"),
        [
            "program=\"prog\",kind=\"-hc\",band=\"a/main\"} 40",
            "program=\"prog\",kind=\"-hc\",band=\"b\"} 50",
            "program=\"prog\",kind=\"-hc\",band=\"OTHER\"} 4",
        ]
    );
    assert_eq!(
        samples(&text, "hp2ps_residency_bytes"),
        ["program=\"prog\",kind=\"-hc\"} 84"]
    );
    assert_eq!(
        samples(&text, "hp2ps_peak_bytes"),
        ["program=\"prog\",kind=\"-hc\"} 84"]
    );
    assert_eq!(
        samples(&text, "hp2ps_censuses"),
        ["program=\"prog\",kind=\"-hc\"} 4"]
    );
    assert_eq!(
        samples(&text, "hp2ps_elapsed_seconds"),
        ["program=\"prog\",kind=\"-hc\"} 3"]
    );
    // 16 + 49 + 89 / 2 + ... : the summary's trapezoids of the totals 16, 49, 84, 0.
    assert_eq!(
        samples(&text, "hp2ps_area_byte_seconds"),
        ["program=\"prog\",kind=\"-hc\"} 141"]
    );
    assert!(text.starts_with("# HELP hp2ps_censuses "), "{text}");
    assert!(!text.contains("# EOF") && !text.contains("hp2ps_heap_size_bytes"));
}

#[test]
fn stacks_of_one_key_count_together_and_names_stay_utf8() {
    let p = profile(
        "p",
        &[
            (b"(3)cut/stack...", &[1.0, 2.0]),
            (b"(9)cut/stack...", &[4.0, 8.0]),
            (b"gr\xc3", &[1.0, 1.0]),
            (b"gr\xc4", &[2.0, 2.0]),
            (b"say \"hi\\\"\nnow", &[1.0, 0.0]),
            (b"OTHER", &[5.0, 5.0]),
        ],
    );
    let text = metrics(p, 20, false);
    let bands = samples(&text, "hp2ps_band_bytes");
    assert_eq!(
        bands[0], "program=\"p\",kind=\"\",band=\"cut/stack...\"} 10",
        "{text}"
    );
    assert!(
        bands.contains(&"program=\"p\",kind=\"\",band=\"gr\u{fffd}\"} 3"),
        "{bands:?}"
    );
    assert!(
        bands.contains(&"program=\"p\",kind=\"\",band=\"say \\\"hi\\\\\\\"\\nnow\"} 0"),
        "{bands:?}"
    );
    assert_eq!(
        bands.last(),
        Some(&"program=\"p\",kind=\"\",band=\"OTHER\"} 5"),
        "the profile's own OTHER"
    );
    assert_eq!(bands.len(), 4);
}

#[test]
fn openmetrics_has_units_and_an_end() {
    let text = metrics(profile("p", &[(b"a", &[1.0, 2.0])]), 20, true);
    assert!(text.contains(
        "# TYPE hp2ps_band_bytes gauge\n# UNIT hp2ps_band_bytes bytes\n# HELP hp2ps_band_bytes "
    ));
    assert!(text.contains("# UNIT hp2ps_area_byte_seconds byte_seconds\n"));
    assert!(text.ends_with("\n# EOF\n"));
    assert!(!text.contains("# UNIT hp2ps_censuses"));
}

#[test]
fn a_chart_without_every_band_is_refused() {
    let p = profile("p", &[(b"a", &[1.0, 2.0])]);
    let (chart, _) = prepare(p, None, &RenderOptions::default());
    let mut out = Vec::new();
    let e = chart.write(Format::Prometheus, &PaintOptions::default(), &mut out);
    assert_eq!(e.unwrap_err().kind(), io::ErrorKind::InvalidInput);
    assert!(out.is_empty());
}

#[test]
fn an_empty_profile_says_so_in_numbers() {
    let text = metrics(profile("p", &[]), 20, false);
    assert_eq!(
        samples(&text, "hp2ps_censuses"),
        ["program=\"p\",kind=\"\"} 0"]
    );
    assert_eq!(
        samples(&text, "hp2ps_band_bytes"),
        ["program=\"p\",kind=\"\",band=\"OTHER\"} 0"]
    );
    assert!(samples(&text, "hp2ps_residency_bytes").is_empty());
}

/// The metrics of a followed run's successive states, with the names kept between them.
fn followed(states: &[Profile], bands: usize) -> Vec<String> {
    let opts = RenderOptions {
        needs: Format::Prometheus.needs(),
        ..RenderOptions::default()
    };
    let paint = PaintOptions {
        metric_bands: bands,
        ..PaintOptions::default()
    };
    let mut named = Named::default();
    (states.iter())
        .map(|p| {
            let (chart, _) = prepare(p.clone(), None, &opts);
            let mut out = Vec::new();
            write_followed(&chart, &paint, &mut named, 99, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        })
        .collect()
}

#[test]
fn a_followed_runs_series_keep_their_names_as_bands_come_and_go() {
    // a alone, then b bigger than a, then c bigger still and a gone: with two names, a
    // and b keep theirs (a at 0), c is OTHER's.
    let states = [
        profile("p", &[(b"a", &[4.0])]),
        profile("p", &[(b"a", &[4.0, 2.0]), (b"b", &[0.0, 90.0])]),
        profile(
            "p",
            &[
                (b"a", &[4.0, 2.0, 0.0]),
                (b"b", &[0.0, 90.0, 1.0]),
                (b"c", &[0.0, 0.0, 500.0]),
            ],
        ),
    ];
    let texts = followed(&states, 2);
    let band = |text: &str| -> Vec<String> {
        (samples(text, "hp2ps_band_bytes").iter())
            .map(|s| s.split_once("band=").unwrap().1.to_string())
            .collect()
    };
    assert_eq!(band(&texts[0]), ["\"a\"} 4", "\"OTHER\"} 0"]);
    assert_eq!(band(&texts[1]), ["\"a\"} 2", "\"b\"} 90", "\"OTHER\"} 0"]);
    assert_eq!(band(&texts[2]), ["\"a\"} 0", "\"b\"} 1", "\"OTHER\"} 500"]);
    // A name's peak is the highest it was seen with; the census count the run's.
    let peaks = samples(&texts[2], "hp2ps_band_peak_bytes");
    assert!(peaks[0].ends_with("band=\"a\"} 4"), "{peaks:?}");
    assert_eq!(
        samples(&texts[2], "hp2ps_censuses"),
        ["program=\"p\",kind=\"\"} 99"]
    );
    // A file's export names the biggest: c and b.
    let file = metrics(states[2].clone(), 2, false);
    assert_eq!(band(&file), ["\"c\"} 500", "\"b\"} 1", "\"OTHER\"} 0"]);
}
