//! The gate's rules on profiles made in the test; `tests/check.rs` runs them on real
//! GHC profiles from the command line.

use super::*;

/// A profile of one band per `(name, values)`, a census a second from 0.
fn profile(bands: &[(&str, &[f64])]) -> Profile {
    Profile::of_columns("", 1.0, bands)
}

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

#[test]
fn the_default_rules_pass_an_unchanged_run_and_name_a_grown_band() {
    let old = profile(&[
        ("(1)a", &[0.0, 100.0, 100.0, 0.0]),
        ("b", &[0.0, 50.0, 50.0, 0.0]),
    ]);
    let same = check(&old, Some(&old), &Rules::default());
    assert!(same.passed, "{same:?}");
    // b held at 60 is 20 % above: the peak (160) is under 10 % above 150, b is not.
    let new = profile(&[
        ("(7)a", &[0.0, 100.0, 100.0, 0.0]),
        ("b", &[0.0, 60.0, 60.0, 0.0]),
    ]);
    let v = check(&new, Some(&old), &Rules::default());
    assert!(!v.passed);
    assert!(v.rules[0].passed, "the peak grew 6.7 %");
    let bands = &v.rules[1];
    assert_eq!(bands.judged, Some(2));
    assert_eq!(bands.findings.len(), 1);
    let b = &bands.findings[0];
    assert_eq!(
        b.band.as_deref(),
        Some("b"),
        "a is matched without its stack number"
    );
    assert_eq!((b.value, b.baseline), (60.0, Some(50.0)));
    assert_eq!(b.limit, Some(50.0 * 1.1));
    assert!((b.growth.unwrap() - 0.2).abs() < 1e-12);
}

#[test]
fn a_spike_of_one_census_and_growth_under_the_noise_floor_are_not_judged() {
    let old = profile(&[
        ("big", &[1000.0, 1000.0, 1000.0]),
        ("small", &[1.0, 1.0, 1.0]),
    ]);
    // small triples (under 1 % of the baseline's peak of 1001); big spikes in one census.
    let new = profile(&[
        ("big", &[1000.0, 5000.0, 1000.0]),
        ("small", &[3.0, 3.0, 3.0]),
    ]);
    let v = check(&new, Some(&old), &rules("bands:10%"));
    assert!(v.passed, "{v:?}");
    assert_eq!(v.rules[0].noise, Some(10.01));
    // With no noise floor, small fails; big's spike still is not held.
    let v = check(&new, Some(&old), &rules("bands:10%,noise:0"));
    let failing: Vec<_> = v.rules[0]
        .findings
        .iter()
        .map(|f| f.band.clone().unwrap())
        .collect();
    assert_eq!(failing, ["small"]);
    // A new band counts from 0.
    let new = profile(&[
        ("big", &[1000.0; 3]),
        ("small", &[1.0; 3]),
        ("new", &[0.0, 50.0, 50.0]),
    ]);
    let v = check(&new, Some(&old), &Rules::default());
    let f = &v.rules[1].findings[0];
    assert_eq!(
        (f.band.as_deref(), f.baseline, f.growth),
        (Some("new"), Some(0.0), None)
    );
}

#[test]
fn ceilings_need_no_baseline_and_growth_without_one_fails() {
    let new = profile(&[("a", &[10.0, 30.0, 20.0, 0.0])]);
    let v = check(&new, None, &rules("peak:30,end:19,area:55"));
    let passed: Vec<bool> = v.rules.iter().map(|r| r.passed).collect();
    assert_eq!(passed, [true, false, true], "{v:?}");
    assert_eq!(
        v.rules[1].findings[0].time,
        Some(2.0),
        "the end leaves the exit aside"
    );
    assert_eq!(v.rules[2].findings[0].value, 20.0 + 25.0 + 10.0);
    let v = check(&new, None, &Rules::default());
    assert!(!v.passed && v.rules.iter().all(|r| !r.passed));
    assert_eq!(v.rules[0].findings[0].limit, None);
}

#[test]
fn a_leak_suspect_is_a_floor_that_rises_through_every_quarter() {
    // Censuses 0..=8: quarters {0,1}, {2,3}, {4,5}, {6,7,8}.
    let leak: &[f64] = &[1.0, 20.0, 21.0, 40.0, 41.0, 60.0, 61.0, 80.0, 90.0];
    let saw: &[f64] = &[50.0, 90.0, 50.0, 95.0, 50.0, 99.0, 50.0, 99.0, 50.0];
    let spent: &[f64] = &[0.0, 30.0, 31.0, 60.0, 61.0, 90.0, 91.0, 95.0, 0.0];
    let p = profile(&[("leak", leak), ("saw", saw), ("spent", spent)]);
    let v = check(&p, None, &rules("leak"));
    let found: Vec<_> = v.rules[0]
        .findings
        .iter()
        .map(|f| f.band.clone().unwrap())
        .collect();
    assert_eq!(
        found,
        ["leak"],
        "the sawtooth and a band given back at the end are not"
    );
    assert_eq!(v.rules[0].findings[0].floors, Some([1.0, 21.0, 41.0, 61.0]));
    // A step larger than the floors' rise clears it.
    assert!(check(&p, None, &rules("leak:25")).passed);
}

#[test]
fn the_verdict_reads_as_text_and_json() {
    let old = profile(&[("a", &[0.0, 100.0, 100.0, 0.0])]);
    let new = profile(&[("a", &[0.0, 200.0, 200.0, 0.0])]);
    let mut v = check(&new, Some(&old), &rules("peak:10%,bands:10%,leak"));
    v.file = Some("new.hp".into());
    v.baseline_file = Some("old.hp".into());
    let mut text = Vec::new();
    v.write_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.starts_with("new.hp against old.hp: 2 of 3 rules fail\n"),
        "{text}"
    );
    assert!(text.contains("FAIL peak:10%: the peak is 200 bytes at 1 seconds, 100% above the baseline's 100 (at most 110)"), "{text}");
    assert!(
        text.contains(
            "    a: held 200 bytes (peak 200), 100% above the baseline's 100 (at most 110)"
        ),
        "{text}"
    );
    assert!(text.contains("pass leak:1%: 0 of 1 bands grow"), "{text}");
    let mut json = Vec::new();
    v.write_json(&mut json).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["passed"], false);
    assert_eq!(json["rules"][1]["findings"][0]["band"], "a");
    assert_eq!(json["rules"][0]["findings"][0]["baseline"], 100.0);
}
