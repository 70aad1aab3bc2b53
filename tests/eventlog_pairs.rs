//! The 14 real GHC 9.0.2 eventlog/.hp pairs in `tests/data/eventlog/` (one run wrote
//! both files): the eventlog reader must give the `.hp`'s samples, band values in the
//! same order, names, JOB, DATE, marks, and times within 5 ms.

mod support;

use std::fs::File;
use std::io::BufReader;

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::internals::hp::read_into;
use hp2ps::{EventlogOptions, ReadOptions};
use support::eventlog::recorder::{by_first_appearance, dir, names, Recorder};

/// `(295)Main.CAF` → `Main.CAF` (the .hp's cost-centre-stack id).
fn strip_id(name: &[u8]) -> &[u8] {
    if name.first() == Some(&b'(') {
        if let Some(i) = name.iter().position(|&b| b == b')') {
            if i > 1 && name[1..i].iter().all(u8::is_ascii_digit) {
                return &name[i + 1..];
            }
        }
    }
    name
}

/// `name #2` → `name` (the reader's mark on stacks the -L cut made equal).
fn strip_suffix(name: &[u8]) -> &[u8] {
    if let Some(i) = name.windows(2).rposition(|w| w == b" #") {
        if name.len() > i + 2 && name[i + 2..].iter().all(u8::is_ascii_digit) {
            return &name[..i];
        }
    }
    name
}

fn read_pair(name: &str) -> (Recorder, Recorder) {
    // The .hp DATEs were written on a machine whose local time is UTC.
    std::env::set_var("TZ", "UTC");
    let mut ev = Recorder::default();
    let f = File::open(dir().join(format!("{name}.eventlog"))).unwrap();
    let report = read_eventlog(BufReader::new(f), &EventlogOptions::default(), &mut ev)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    for w in &report.warnings {
        let text = w.to_string();
        assert!(!text.contains('\n'), "{name}: {text}");
        assert!(
            name.contains("-hr"),
            "{name}: unexpected warning on a clean file: {text}"
        );
    }
    let mut hp = Recorder::default();
    let f = File::open(dir().join(format!("{name}.hp"))).unwrap();
    read_into(BufReader::new(f), &ReadOptions::default(), &mut hp).unwrap();
    (ev, hp)
}

#[test]
fn all_fourteen_pairs_match() {
    let all = names();
    assert_eq!(all.len(), 14, "{all:?}");
    let mut worst = 0.0f64;
    let mut worst_end = 0.0f64;
    for name in &all {
        let (ev, hp) = read_pair(name);
        assert_eq!(ev.header, hp.header, "{name}: header strings");
        assert_eq!(ev.marks, hp.marks, "{name}: marks");
        assert_eq!(ev.samples.len(), hp.samples.len(), "{name}: sample count");
        for (i, ((et, _), (ht, _))) in ev.samples.iter().zip(&hp.samples).enumerate() {
            let d = (et - ht).abs();
            // The end is CPU time in the .hp; the eventlog only estimates it (census work).
            let tolerance = if i + 1 == hp.samples.len() {
                0.015
            } else {
                0.005
            };
            assert!(d <= tolerance, "{name}: sample {i}: time {et} vs .hp {ht}");
            if i + 1 < hp.samples.len() {
                worst = worst.max(d);
            } else {
                worst_end = worst_end.max(d);
            }
        }
        // The same bands, first appearing in the same order, with the same values in
        // every sample.
        let points = |r: &Recorder| r.samples.iter().map(|s| s.1.clone()).collect::<Vec<_>>();
        let (ev_bands, ev_samples) = by_first_appearance(&points(&ev));
        let (hp_bands, hp_samples) = by_first_appearance(&points(&hp));
        assert_eq!(ev_bands.len(), hp_bands.len(), "{name}: band count");
        for (en, hn) in ev_bands.iter().zip(&hp_bands) {
            let hp_name = if name.contains("-hc") {
                strip_id(hn)
            } else {
                hn
            };
            assert_eq!(
                String::from_utf8_lossy(strip_suffix(en)),
                String::from_utf8_lossy(hp_name),
                "{name}: band name"
            );
        }
        for (i, (e, h)) in ev_samples.iter().zip(&hp_samples).enumerate() {
            assert_eq!(e, h, "{name}: sample {i}: (band, value) points");
        }
    }
    eprintln!("largest time difference: censuses {worst:.6} s, end {worst_end:.6} s");
}
