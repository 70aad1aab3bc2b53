//! The live stage against the ordinary reader: real GHC 9.10.3 logs and a `.hp` pushed
//! in pieces of every size, with pauses, give the censuses a whole-file reading gives.

use super::*;
use crate::load::{load, Source};
use crate::profile::Profile;
use crate::test_rng::xorshift;

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/ghc-9.10/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The run after `bytes` pushed in pieces of 1 to `most` bytes, pausing after each
/// piece when `pauses`.
fn followed(bytes: &[u8], opts: &LiveOptions, most: u64, pauses: bool, seed: u64) -> LiveRun {
    let mut next = xorshift(seed);
    let mut run = LiveRun::new(opts);
    let mut reader = LiveReader::new(opts);
    let mut at = 0;
    while at < bytes.len() {
        let n = (1 + next() % most) as usize;
        let piece = &bytes[at..(at + n).min(bytes.len())];
        reader.feed(piece, &mut run).unwrap();
        if pauses {
            reader.pause(&mut run).unwrap();
        }
        at += piece.len();
    }
    reader.close(&mut run).unwrap();
    run
}

/// The samples kept, as a profile (every one of them when the levels keep them all).
fn kept(run: &LiveRun, opts: &LiveOptions) -> Profile {
    run.snapshot().loaded(&opts.load).unwrap().profile
}

/// Every sample's value of every band, by name.
fn values(p: &Profile) -> Vec<(Vec<u8>, Vec<f64>)> {
    let mut bands: Vec<(Vec<u8>, Vec<f64>)> = (p.bands.iter())
        .map(|b| {
            let mut v = vec![0.0; p.times.len()];
            for pt in &b.points {
                v[pt.sample as usize] += pt.value;
            }
            (b.name.clone(), v)
        })
        .collect();
    bands.sort_by(|a, b| a.0.cmp(&b.0));
    bands
}

#[test]
fn followed_logs_give_the_censuses_of_a_whole_reading() {
    // Every heap-size point kept, to compare them all.
    let mut opts = LiveOptions {
        detail: 1 << 20,
        ..LiveOptions::default()
    };
    opts.load.heap_size = true;
    for name in [
        "marker-hc.eventlog",
        "leakmap-hc-flush.eventlog",
        "leakmap-hc.eventlog",
        "threads-hT-N2.eventlog",
        "leakmap-hi.eventlog",
        "leakmap-hc.hp",
    ] {
        let bytes = data(name);
        let whole = load(Source::Bytes(&bytes), &opts.load).unwrap().profile;
        for (most, pauses, seed) in [
            (16, false, 1),
            (7, true, 2),
            (4096, true, 3),
            (1 << 20, false, 4),
        ] {
            let run = followed(&bytes, &opts, most, pauses, seed);
            let live = kept(&run, &opts);
            let eventlog = name.ends_with(".eventlog");
            // The whole reading ends with an empty sample at the program's end.
            let whole_times = &whole.times[..whole.times.len() - usize::from(eventlog)];
            assert_eq!(live.times, whole_times, "{name} {most} {pauses}");
            let mut expected = values(&whole);
            for (_, v) in &mut expected {
                v.truncate(whole_times.len());
            }
            assert!(
                values(&live) == expected,
                "{name} {most} {pauses}: values differ"
            );
            assert_eq!(live.job, whole.job, "{name}");
            assert_eq!(live.date, whole.date, "{name}");
            assert_eq!(
                (&live.marks, &live.mark_texts),
                (&whole.marks, &whole.mark_texts),
                "{name}"
            );
            assert_eq!(
                live.series, whole.series,
                "{name}: the heap size and live bytes"
            );
        }
    }
}

#[test]
fn a_census_is_told_when_the_input_pauses_after_it() {
    // Byte by byte, a census is told once the header after its END has come (the
    // framer checks it); cut there, the log holds the census but not that header, and
    // a pause takes the census.
    let opts = LiveOptions::default();
    let bytes = data("leakmap-hc-flush.eventlog");
    let mut run = LiveRun::new(&opts);
    let mut reader = LiveReader::new(&opts);
    let mut told_at = Vec::new();
    for (i, b) in bytes.iter().enumerate() {
        let before = run.censuses();
        reader.feed(std::slice::from_ref(b), &mut run).unwrap();
        if run.censuses() > before {
            told_at.push(i + 1);
        }
    }
    assert!(told_at.len() > 5, "{} censuses", told_at.len());
    for &at in &told_at[..5] {
        // Without the next event's first two bytes: waiting, until a pause.
        let cut = &bytes[..at - 2];
        let mut run = LiveRun::new(&opts);
        let mut reader = LiveReader::new(&opts);
        reader.feed(cut, &mut run).unwrap();
        let waiting = run.censuses();
        reader.pause(&mut run).unwrap();
        assert_eq!(run.censuses(), waiting + 1, "at {at}");
        // And the rest read after the pause gives every census once.
        reader.feed(&bytes[at - 2..], &mut run).unwrap();
        reader.close(&mut run).unwrap();
        assert_eq!(run.censuses() as usize, told_at.len());
    }
}

#[test]
fn a_page_is_made_once_a_census_has_come() {
    let opts = LiveOptions::default();
    let bytes = data("leakmap-hT.eventlog");
    let mut run = LiveRun::new(&opts);
    assert!(run.profile().unwrap().is_none(), "no census, no page");
    let mut reader = LiveReader::new(&opts);
    reader.feed(&bytes, &mut run).unwrap();
    reader.close(&mut run).unwrap();
    assert!(reader.ended());
    let page = run.profile().unwrap().expect("a page").page(&opts).unwrap();
    assert!(page.sections.contains("<svg"), "a picture");
    let data: serde_json::Value = serde_json::from_str(&page.data).unwrap();
    let samples = data["runs"][0]["samples"].as_u64().unwrap();
    assert_eq!(samples, run.censuses() + 1);
    // The header says what the profile is, as the static page's does.
    let whole = load(Source::Bytes(&bytes), &opts.load).unwrap();
    let report = whole.eventlog.expect("an eventlog");
    let facts = &data["runs"][0]["facts"];
    assert_eq!(facts["breakdown"], "-hT");
    assert_eq!(facts["interval"].as_f64(), report.sampling_period);
    assert_eq!(facts["runtime"].as_str(), report.rts.as_deref());
    let mut html = Vec::new();
    Page::write_live(Some(&page), "x", &mut html).unwrap();
    let html = String::from_utf8(html).unwrap();
    assert!(
        html.contains("connect-src 'self'"),
        "the live page may reach its server"
    );
}

/// The live page says what it left out, as a file's page does (the page builder works it
/// out for both): here the table's smaller bands.
#[test]
fn the_live_page_says_what_it_left_out() {
    let mut opts = LiveOptions::default();
    opts.render.aggregate.band_limit = 3;
    opts.render.needs.table_rows = 4;
    let mut hp = String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    for t in 0..3 {
        hp.push_str(&format!("BEGIN_SAMPLE {t}.0\n"));
        for i in 0..10 {
            hp.push_str(&format!("band{i} {}\n", (i + 1) * 100));
        }
        hp.push_str(&format!("END_SAMPLE {t}.0\n"));
    }
    let run = followed(hp.as_bytes(), &opts, 64, true, 7);
    let page = (run.profile().unwrap().expect("a page"))
        .page(&opts)
        .unwrap();
    let data: serde_json::Value = serde_json::from_str(&page.data).unwrap();
    let notes = &data["runs"][0]["notes"];
    let said = notes[0].as_str().unwrap_or_default();
    assert!(
        said.contains("lists the 4 biggest of the 10 bands"),
        "{notes}"
    );
    assert_eq!(page.notes, [vec![said.to_string()]]);
}

#[test]
fn damage_costs_what_it_costs_a_whole_reading_and_is_announced() {
    let opts = LiveOptions::default();
    let bytes = data("leakmap-hc-flush.eventlog");
    let censuses =
        |b: &[u8]| load(Source::Bytes(b), &opts.load).map_or(0, |l| l.profile.times.len() - 2);
    let clean = censuses(&bytes);
    // A byte whose change costs a whole reading one census (found as that reader sees it).
    let damaged = (bytes.len() / 3..bytes.len())
        .step_by(7)
        .map(|at| {
            let mut d = bytes.clone();
            d[at] ^= 0x5A;
            d
        })
        .find(|d| censuses(d) + 1 == clean)
        .expect("some byte costs one census");
    for (most, pauses) in [(1 << 30, false), (512, true), (61, true)] {
        let run = followed(&damaged, &opts, most, pauses, 5);
        assert_eq!(
            run.censuses() as usize,
            clean - 1,
            "{most} {pauses}: one census lost"
        );
        let notices = run.notices();
        assert!(
            notices.iter().any(|(_, n)| n.contains("1 census lost")),
            "{most} {pauses}: {notices:?}"
        );
    }
}

#[test]
fn on_the_mutator_axis_the_censuses_are_placed_by_the_clock_of_the_run_so_far() {
    let mut opts = LiveOptions::default();
    opts.load.eventlog.time = TimeAxis::Mutator;
    for name in ["leakmap-hT.eventlog", "threads-hT-N2.eventlog"] {
        let bytes = data(name);
        let whole = load(Source::Bytes(&bytes), &opts.load).unwrap().profile;
        let mut run = LiveRun::new(&opts);
        let mut reader = LiveReader::new(&opts);
        for piece in bytes.chunks(4096) {
            reader.feed(piece, &mut run).unwrap();
            reader.pause(&mut run).unwrap();
        }
        reader.close(&mut run).unwrap();
        // Before the clock is worked out, elapsed seconds; with it, the whole run's.
        reader.refresh_clock(&mut run);
        let live = kept(&run, &opts);
        assert_eq!(live.times, whole.times[..whole.times.len() - 1], "{name}");
        assert!(
            run.newest().unwrap() < elapsed_end(&bytes),
            "{name}: mutator time is less"
        );
    }
}

/// The last census's elapsed time.
fn elapsed_end(bytes: &[u8]) -> f64 {
    let mut opts = LiveOptions::default();
    opts.load.eventlog.time = TimeAxis::Elapsed;
    let p = load(Source::Bytes(bytes), &opts.load).unwrap().profile;
    p.times[p.times.len() - 2]
}
