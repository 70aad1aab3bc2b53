//! Proves the test-side eventlog writer (`tests/support/eventlog/writer/`) right, with
//! GHC's own reference parser, ghc-events, as the judge (`tests/support/eventlog/oracle/`):
//!
//! * every golden `.hp` converted with `hp_to_eventlog` decodes to the censuses, band
//!   names, residencies, times, markers, argv and wall clock the `.hp` says;
//! * the 14 real GHC 9.0.2 eventlogs of the corpus decode with the sample counts of the
//!   corpus README.
//!
//! (Each GHC file shape the writer makes: `eventlog_writer_shapes.rs`.)
//!
//! Without ghc/ghc-events the oracle tests print `SKIPPED:` and pass, unless `CI=true`.

mod support;

use std::path::{Path, PathBuf};

use support::eventlog::oracle::{self, string_bands, Band, Kind, Outcome};
use support::eventlog::same_profile;
use support::eventlog::writer::{
    breakdown, convert_hp, format_hp_date, job_from_args, ns_to_seconds, parse_hp, parse_hp_date,
    seconds_to_ns, ConvertOptions, Layout, Loss, KNOWN_PARSE_DIFFERENCES,
};
use support::gen::synthetic_hp;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden_inputs() -> Vec<PathBuf> {
    let dir = manifest().join("golden/inputs");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "hp"))
        .collect();
    v.sort();
    v
}

fn name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

// ----------------------------------------------------------------------------------------
// Pure checks of the conversion rules (no oracle needed)
// ----------------------------------------------------------------------------------------

#[test]
fn six_decimal_times_round_trip_exactly_through_nanoseconds() {
    // Every time GHC can write with 6 decimals up to 10^5 s, plus some 9-decimal ones.
    for micros in (0..100_000_000_000u64).step_by(7_919_993) {
        let text = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
        let t: f64 = text.parse().unwrap();
        let (ns, exact) = seconds_to_ns(t);
        assert!(exact, "{text}");
        assert_eq!(ns, micros * 1000, "{text}");
        assert_eq!(ns_to_seconds(ns), t, "{text}");
    }
    for text in ["0.000000001", "1.123456789", "12345.000000007", "0"] {
        let t: f64 = text.parse().unwrap();
        let (ns, exact) = seconds_to_ns(t);
        assert!(exact && ns_to_seconds(ns) == t, "{text}");
    }
    // No nanosecond count gives back these doubles.
    assert!(!seconds_to_ns(0.1234567891234).1);
    assert!(!seconds_to_ns(-1.0).1);
    assert!(!seconds_to_ns(1e30).1);
}

#[test]
fn dates_round_trip_only_in_ghcs_own_format() {
    let sec = parse_hp_date(b"Sat Nov 21 05:17 2026").expect("GHC's format");
    assert_eq!(format_hp_date(sec), "Sat Nov 21 05:17 2026");
    assert_eq!(sec % 60, 0);
    assert_eq!(format_hp_date(0), "Thu Jan 01 00:00 1970");
    // The corpus run textproc-hT: wall clock 1795242269 s was printed as this DATE.
    assert_eq!(format_hp_date(1_795_242_269), "Sat Nov 21 06:24 2026");
    for bad in [
        &b"Fri Nov 21 05:17 2026"[..], // wrong weekday
        b"Sat Nov 21 5:17 2026",       // not zero-padded
        b"Sat Nov  1 05:17 2026",      // asctime padding
        b"",
        b"2026-11-21",
        b"Thu Dec 31 23:59 1969", // before the epoch
        b"Sat Nov 21 05:17 9223372036854775807",
    ] {
        assert_eq!(parse_hp_date(bad), None, "{}", String::from_utf8_lossy(bad));
    }
}

#[test]
fn job_is_rebuilt_from_argv() {
    let args: [&[u8]; 6] = [b"./leakmap", b"+RTS", b"-hc", b"-l", b"-i0.02", b"-RTS"];
    assert_eq!(job_from_args(&args), b"leakmap +RTS -hc -l -i0.02");
    let c = convert_hp(
        b"JOB \"a  b \"\nDATE \"\"\nBEGIN_SAMPLE 0\nEND_SAMPLE 0\n",
        &ConvertOptions::default(),
    )
    .unwrap();
    assert_eq!(c.args, vec![b"a".to_vec(), vec![], b"b".to_vec(), vec![]]);
    assert!(!c.losses.contains(&Loss::Job));
    assert!(c.losses.contains(&Loss::Date));
    // argv[0] with a directory: the reader keeps only its basename.
    let c = convert_hp(b"JOB \"./prog\"\n", &ConvertOptions::default()).unwrap();
    assert!(c.losses.contains(&Loss::Job));
    // The runtime never writes `-RTS` into JOB, and puts the RTS options last.
    let c = convert_hp(b"JOB \"prog +RTS -hc -RTS\"\n", &ConvertOptions::default()).unwrap();
    assert!(c.losses.contains(&Loss::Job));
    let c = convert_hp(
        b"JOB \"prog +RTS -hc -RTS 5\"\n",
        &ConvertOptions::default(),
    )
    .unwrap();
    assert!(c.losses.contains(&Loss::Job));
    assert_eq!(job_from_args(&c.args), b"prog 5 +RTS -hc");
    let c = convert_hp(b"JOB \"prog 5 +RTS -hc\"\n", &ConvertOptions::default()).unwrap();
    assert!(!c.losses.contains(&Loss::Job));
}

#[test]
fn parse_hp_agrees_with_the_crate_reader_on_ghc_shaped_golden_inputs() {
    // parse_hp is deliberately simple; it must agree with the crate's own reader on
    // everything GHC writes. Inputs crafted to exercise hp2ps's tokenizer may differ;
    // they are listed here so a differential test can leave them out.
    let known_different: &[&str] = KNOWN_PARSE_DIFFERENCES;
    let mut differing = Vec::new();
    for path in golden_inputs() {
        let bytes = std::fs::read(&path).unwrap();
        let ours = parse_hp(&bytes);
        let theirs = support::read_profile(&bytes[..]);
        let same = match (&ours, &theirs) {
            (Ok(a), Ok((b, _))) => same_profile(a, b),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !same {
            differing.push(name(&path));
        }
    }
    assert_eq!(
        differing, known_different,
        "files where parse_hp differs from hp2ps"
    );
}

// ----------------------------------------------------------------------------------------
// Golden .hp → eventlog → ghc-events
// ----------------------------------------------------------------------------------------

/// Checks one conversion against ghc-events; returns a description of the mismatch.
fn check_conversion(exe: &Path, file: &str, hp: &[u8]) -> Result<(), String> {
    let conv = convert_hp(hp, &ConvertOptions::default()).map_err(|e| e.to_string())?;
    let dump = oracle::dump_bytes(exe, &conv.eventlog);
    let p = &conv.profile;
    let err = |m: String| Err(format!("{file}: {m}"));

    // ghc-events stops, with no error, at the first label that is not UTF-8; compare
    // only the censuses before it then.
    if !conv.has_non_utf8_name && !matches!(dump.outcome, Outcome::Done(_)) {
        return err(format!("ghc-events did not finish: {:?}", dump.outcome));
    }

    // Censuses: every sample but the synthetic first and last, same order, same bands.
    let n = p.samples.len();
    let first = usize::from(n >= 1 && p.samples[0].bands.is_empty() && p.samples[0].time == 0.0);
    let last = if n >= 2 && p.samples[n - 1].bands.is_empty() {
        n - 1
    } else {
        n
    };
    let expected = &p.samples[first.min(last)..last];
    let got = dump.censuses();
    if conv.has_non_utf8_name {
        if got.len() > expected.len() {
            return err(format!(
                "{} censuses, expected at most {}",
                got.len(),
                expected.len()
            ));
        }
    } else if got.len() != expected.len() {
        return err(format!(
            "{} censuses, expected {}",
            got.len(),
            expected.len()
        ));
    }
    let exact_times = !conv
        .losses
        .iter()
        .any(|l| matches!(l, Loss::InexactTime(_)));
    for (i, (c, s)) in got.iter().zip(expected).enumerate() {
        if exact_times && ns_to_seconds(c.time) != s.time {
            return err(format!("census {i}: time {} ns for {}", c.time, s.time));
        }
        let complete = i + 1 < got.len() || !conv.has_non_utf8_name;
        if complete && !c.ended {
            return err(format!("census {i} has no END"));
        }
        let want: Vec<Band> = s
            .bands
            .iter()
            .map(|b| Band::Str {
                label: b.name.clone(),
                residency: b.exact.unwrap_or(b.value as u64),
            })
            .collect();
        let ok = if complete {
            c.bands == want
        } else {
            want.starts_with(&c.bands)
        };
        if !ok {
            return err(format!(
                "census {i}: bands {:?}\nexpected {want:?}",
                c.bands
            ));
        }
    }
    if conv.has_non_utf8_name {
        // The remaining checks need the global block's tail, which ghc-events cut off.
        return Ok(());
    }

    // The latest timestamp is the .hp's final sample time.
    if dump.max_time() != Some(conv.end_ns) {
        return err(format!(
            "latest time {:?}, want {}",
            dump.max_time(),
            conv.end_ns
        ));
    }
    if let Some(s) = p.samples.last() {
        if exact_times && ns_to_seconds(conv.end_ns) != s.time {
            return err(format!("end {} ns for {}", conv.end_ns, s.time));
        }
    }
    // Markers, in capability 0, one per MARK.
    let marks: Vec<(u64, Option<u16>, Vec<u8>)> = p
        .marks
        .iter()
        .map(|&m| (seconds_to_ns(m).0, Some(0), Vec::new()))
        .collect();
    if dump.markers() != marks {
        return err(format!("markers {:?}", dump.markers()));
    }
    // Header data.
    if dump.args().as_ref() != Some(&conv.args) {
        return err(format!("args {:?}", dump.args()));
    }
    if !conv.losses.contains(&Loss::Job) && job_from_args(&conv.args) != p.job {
        return err("JOB does not round-trip".into());
    }
    let Some((0, sec, 0)) = dump.wall_clock() else {
        return err(format!("wall clock {:?}", dump.wall_clock()));
    };
    if sec != conv.wall_clock_sec {
        return err(format!("wall clock {sec}"));
    }
    if !conv.losses.contains(&Loss::Date) && format_hp_date(sec).as_bytes() != p.date {
        return err("DATE does not round-trip".into());
    }
    match dump.heap_prof_begin() {
        Some((_, breakdown::CLOSURE_TYPE, _)) => {}
        other => return err(format!("heap profile begin {other:?}")),
    }
    if dump.count(|k| matches!(k, Kind::GcStart | Kind::GcEnd)) != 0 {
        return err("GC events present".into());
    }
    Ok(())
}

#[test]
fn conversions_in_every_layout_decode() {
    let Some(exe) = oracle::oracle() else { return };
    let hp = std::fs::read(manifest().join("golden/inputs/arrays-O1-hT.hp")).unwrap();
    let reference = convert_hp(&hp, &ConvertOptions::default()).unwrap();
    let want = oracle::dump_bytes(exe, &reference.eventlog).censuses();
    assert_eq!(want.len(), 16);
    for layout in [Layout::ghc_8_2(), Layout::ghc_9_2(), Layout::ghc_9_10()] {
        let version = layout.version;
        let opts = ConvertOptions {
            layout,
            ..ConvertOptions::default()
        };
        let c = convert_hp(&hp, &opts).unwrap();
        assert!(c.losses.is_empty(), "{version:?}: {:?}", c.losses);
        let d = oracle::dump_bytes(exe, &c.eventlog);
        assert!(
            matches!(d.outcome, Outcome::Done(_)),
            "{version:?}: {:?}",
            d.outcome
        );
        let got = d.censuses();
        assert_eq!(got.len(), want.len(), "{version:?}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!((g.time, &g.bands), (w.time, &w.bands), "{version:?}");
            assert_eq!(g.ended, version.has_sample_end(), "{version:?}");
        }
        assert_eq!(d.max_time(), Some(c.end_ns), "{version:?}");
    }
}

#[test]
fn every_golden_profile_converts_to_an_eventlog_ghc_events_reads_back() {
    let Some(exe) = oracle::oracle() else { return };
    let mut failures = Vec::new();
    let mut lossy = Vec::new();
    let mut checked = 0;
    for path in golden_inputs() {
        let file = name(&path);
        if KNOWN_PARSE_DIFFERENCES.contains(&file.as_str()) {
            continue;
        }
        let hp = std::fs::read(&path).unwrap();
        match check_conversion(exe, &file, &hp) {
            Ok(()) => checked += 1,
            Err(e) => failures.push(e),
        }
        if let Ok(c) = convert_hp(&hp, &ConvertOptions::default()) {
            if !c.losses.is_empty() {
                lossy.push(format!("{file}: {:?}", c.losses));
            }
        }
    }
    eprintln!("{checked} golden profiles converted and confirmed by ghc-events");
    eprintln!(
        "conversions that cannot round-trip exactly:\n  {}",
        lossy.join("\n  ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 60, "only {checked} golden inputs checked");
}

#[test]
fn synthetic_ghc_shaped_profiles_round_trip_losslessly() {
    let Some(exe) = oracle::oracle() else { return };
    let (mut bands, mut marks) = (0, 0);
    for seed in 0..40 {
        let hp = synthetic_hp(seed);
        let c = convert_hp(&hp, &ConvertOptions::default()).unwrap();
        bands += c
            .profile
            .samples
            .iter()
            .map(|s| s.bands.len())
            .sum::<usize>();
        marks += c.profile.marks.len();
        assert!(c.losses.is_empty(), "seed {seed}: {:?}", c.losses);
        // The crate's own reader sees the same profile as parse_hp.
        let (theirs, _) = support::read_profile(&hp[..]).unwrap();
        assert!(same_profile(&c.profile, &theirs), "seed {seed}");
        if let Err(e) = check_conversion(exe, &format!("seed {seed}"), &hp) {
            panic!("{e}\n{}", String::from_utf8_lossy(&hp));
        }
    }
    assert!(bands > 500 && marks > 20, "{bands} bands, {marks} marks");
}

// ----------------------------------------------------------------------------------------
// The real GHC 9.0.2 corpus
// ----------------------------------------------------------------------------------------

/// (name, breakdown code, eventlog samples, .hp samples) from the corpus README.
const CORPUS: &[(&str, u32, usize, usize)] = &[
    ("leakmap-hc", 1, 20, 22),
    ("leakmap-hd", 3, 19, 21),
    ("leakmap-hm", 2, 18, 20),
    ("leakmap-hr", 5, 20, 22),
    ("leakmap-hb", 6, 4, 6),
    ("leakmap-hy-filtered", 4, 20, 22),
    ("leakmap-noprof-hT", 7, 13, 15),
    ("textproc-hc", 1, 16, 18),
    ("textproc-hy", 4, 17, 19),
    ("textproc-hT", 7, 16, 18),
    ("retainer-hr", 5, 8, 10),
    ("arrays-hc", 1, 51, 53),
    ("unicode-hc-L7", 1, 10, 12),
    ("keywords-hd", 3, 5, 7),
];

#[test]
fn real_ghc_9_0_2_eventlogs_decode_with_the_readme_sample_counts() {
    let Some(exe) = oracle::oracle() else { return };
    let dir = manifest().join("tests/data/eventlog");
    for &(stem, code, el_samples, hp_samples) in CORPUS {
        let d = oracle::dump_file(exe, &dir.join(format!("{stem}.eventlog")));
        assert!(
            matches!(d.outcome, Outcome::Done(_)),
            "{stem}: {:?}",
            d.outcome
        );
        let cs = d.censuses();
        assert_eq!(cs.len(), el_samples, "{stem}: eventlog samples");
        assert!(cs.iter().all(|c| c.ended), "{stem}: every BEGIN has an END");
        assert_eq!(d.heap_prof_begin().map(|h| h.1), Some(code), "{stem}");
        assert!(d.count(|k| *k == Kind::GcStart) > 0, "{stem}: GC events");
        let hp = parse_hp(&std::fs::read(dir.join(format!("{stem}.hp"))).unwrap())
            .unwrap_or_else(|e| panic!("{stem}.hp: {e}"));
        assert_eq!(hp.samples.len(), hp_samples, "{stem}: .hp samples");
        // Eventlog census i is .hp sample i+1, with the same residencies in the same
        // order; string labels are the .hp names byte for byte (FINDINGS §3–4).
        for (i, c) in cs.iter().enumerate() {
            let s = &hp.samples[i + 1];
            let res: Vec<u64> = c
                .bands
                .iter()
                .map(|b| match b {
                    Band::Str { residency, .. } | Band::Ccs { residency, .. } => *residency,
                })
                .collect();
            let want: Vec<u64> = s.bands.iter().map(|b| b.exact.unwrap()).collect();
            assert_eq!(res, want, "{stem}: census {i}");
            if code != breakdown::COST_CENTRE {
                let labels: Vec<&[u8]> = string_bands(c).into_iter().map(|b| b.0).collect();
                let names: Vec<&[u8]> = s.bands.iter().map(|b| &b.name[..]).collect();
                assert_eq!(labels, names, "{stem}: census {i}");
            }
        }
        // DATE is the wall clock in GHC's format, JOB the argv rule (profiled builds).
        let (_, sec, _) = d.wall_clock().expect("wall clock");
        assert_eq!(format_hp_date(sec).as_bytes(), hp.date, "{stem}: DATE");
        if !stem.contains("noprof") {
            assert_eq!(job_from_args(&d.args().unwrap()), hp.job, "{stem}: JOB");
        }
    }
}

/// Not a check: writes every golden conversion to `CARGO_TARGET_TMPDIR/converted/` for
/// inspection with other tools, e.g. the corpus's `read_eventlog.py NAME.eventlog
/// --samples 3 --compare golden/inputs/NAME.hp`.
/// Run with `cargo test --test eventlog_writer -- --ignored write_converted`.
#[test]
#[ignore]
fn write_converted_golden_eventlogs() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("converted");
    std::fs::create_dir_all(&dir).unwrap();
    for path in golden_inputs() {
        let hp = std::fs::read(&path).unwrap();
        if let Ok(c) = convert_hp(&hp, &ConvertOptions::default()) {
            let out = dir.join(name(&path).replace(".hp", ".eventlog"));
            std::fs::write(&out, c.eventlog).unwrap();
        }
    }
    eprintln!("written to {}", dir.display());
}
