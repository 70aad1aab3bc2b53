//! Proves the test-side eventlog writer (`tests/support/eventlog/writer/`) right, with
//! GHC's own reference parser, ghc-events, as the judge (`tests/support/eventlog/oracle.rs`):
//!
//! * every golden `.hp` converted with `hp_to_eventlog` decodes to the censuses, band
//!   names, residencies, times, markers, argv and wall clock the `.hp` says;
//! * each GHC file shape the writer makes (8.2, 9.0, 9.2, 9.10; `-hb`, `-hi`, `-he`,
//!   terminator inside the last block, unknown types, oversized declarations, two
//!   capabilities with interleaved blocks) decodes as intended, or fails the way
//!   ghc-events 0.17 is known to fail;
//! * the 14 real GHC 9.0.2 eventlogs of the corpus decode with the sample counts of the
//!   corpus README.
//!
//! Without ghc/ghc-events the oracle tests print `SKIPPED:` and pass, unless `CI=true`.

mod support;

use std::path::{Path, PathBuf};

use support::eventlog::oracle::{self, Band, Dump, Kind, Outcome};
use support::eventlog::same_profile;
use support::eventlog::writer::{
    self, breakdown, convert_hp, format_hp_date, job_from_args, ns_to_seconds, parse_hp,
    parse_hp_date, seconds_to_ns, ConvertOptions, EventlogWriter, GhcVersion, HeapProfBegin,
    InfoTable, Layout, Loss, TypeDecl, KNOWN_PARSE_DIFFERENCES,
};

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

/// A GHC-shaped `.hp` from a seed: odd names (blanks, TABs, keywords, punctuation,
/// UTF-8), values up to 2^64-1, 6-decimal times, marks between samples.
fn synthetic_hp(seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*: deterministic, no crate needed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    const NAMES: &[&str] = &[
        "ARR_WORDS",
        "MAIN",
        "(12)main/Main.CAF",
        "JOB",
        "MARK",
        "a b",
        "tab\there",
        "Straße",
        "größe/…",
        "<x.sat_s1>",
        "->>Map",
        "*",
        "%s%n",
        "\"quoted\"",
        "(1)CAF,SYSTEM",
    ];
    let mut hp = format!(
        "JOB \"prog{seed} +RTS -hT -i0.0{}\"\nDATE \"Sat Nov 21 05:17 2026\"\n\
         SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
         BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n",
        1 + seed % 9
    );
    let mut micros = 0u64;
    for _ in 0..(1 + next() % 12) {
        micros += 1 + next() % 3_000_000;
        if next() % 4 == 0 {
            hp += &format!("MARK {}.{:06}\n", micros / 1_000_000, micros % 1_000_000);
            micros += 1 + next() % 1000;
        }
        let t = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for _ in 0..next() % 8 {
            let name = NAMES[(next() % NAMES.len() as u64) as usize];
            let value = match next() % 4 {
                0 => u64::MAX - next() % 3,
                1 => 0,
                _ => next() % 100_000_000,
            };
            hp += &format!("{name}\t{value}\n");
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    micros += 1 + next() % 1000;
    let t = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
    hp += &format!("BEGIN_SAMPLE {t}\nEND_SAMPLE {t}\n");
    hp.into_bytes()
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
// File shapes
// ----------------------------------------------------------------------------------------

fn string_bands(c: &oracle::Census) -> Vec<(&[u8], u64)> {
    c.bands
        .iter()
        .map(|b| match b {
            Band::Str { label, residency } => (&label[..], *residency),
            Band::Ccs { .. } => panic!("unexpected cost-centre band"),
        })
        .collect()
}

/// A small `-hT`-like run in the given layout: two censuses, one marker.
fn small_run(layout: Layout) -> EventlogWriter {
    let mut w = EventlogWriter::new(layout);
    w.startup(0, 1)
        .wall_clock(10, 1_795_242_269, 17_465_000)
        .rts_identifier(11, "GHC-9.0.2 rts_p")
        .program_args(12, &["./prog", "+RTS", "-hT", "-RTS"])
        .heap_prof_begin(13, &HeapProfBegin::new(breakdown::CLOSURE_TYPE, 20_000_000))
        .marker(0, 500, b"phase A")
        .string_census(1_000, &[("ARR_WORDS", 100u64), ("THUNK", 200)])
        .string_census(2_000, &[("ARR_WORDS", 300u64)])
        .shutdown(3_000, 1);
    w
}

fn dump(exe: &Path, w: &EventlogWriter) -> Dump {
    oracle::dump_bytes(exe, &w.finish())
}

fn assert_small_run(d: &Dump, ended: bool) {
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    let cs = d.censuses();
    assert_eq!(cs.len(), 2);
    assert_eq!(
        string_bands(&cs[0]),
        vec![(&b"ARR_WORDS"[..], 100), (&b"THUNK"[..], 200)]
    );
    assert_eq!(string_bands(&cs[1]), vec![(&b"ARR_WORDS"[..], 300)]);
    assert_eq!((cs[0].time, cs[1].time), (1_000, 2_000));
    assert!(cs.iter().all(|c| c.ended == ended));
    assert_eq!(d.markers(), vec![(500, Some(0), b"phase A".to_vec())]);
    assert_eq!(d.wall_clock(), Some((10, 1_795_242_269, 17_465_000)));
    assert_eq!(d.max_time(), Some(3_000));
}

#[test]
fn ghc_9_0_layout_decodes() {
    let Some(exe) = oracle::oracle() else { return };
    let d = dump(exe, &small_run(Layout::ghc_9_0()));
    assert_small_run(&d, true);
    assert_eq!(d.types.len(), 69, "9.0.2 declares 69 types");
    assert_eq!(
        d.args(),
        Some(vec![
            b"./prog".to_vec(),
            b"+RTS".to_vec(),
            b"-hT".to_vec(),
            b"-RTS".to_vec()
        ])
    );
    assert_eq!(
        d.heap_prof_begin().map(|h| (h.0, h.1)),
        Some((20_000_000, 7))
    );
}

#[test]
fn ghc_8_2_layout_has_no_sample_end_and_decodes() {
    let Some(exe) = oracle::oracle() else { return };
    let d = dump(exe, &small_run(Layout::ghc_8_2()));
    assert_small_run(&d, false);
    assert!(!d.types.iter().any(|t| t.id == 165 || t.id == 166));
    assert_eq!(
        d.types.iter().find(|t| t.id == 53).and_then(|t| t.size),
        Some(50)
    );
    assert_eq!(d.count(|k| matches!(k, Kind::End { .. })), 0);
}

#[test]
fn terminator_inside_the_last_block_decodes() {
    let Some(exe) = oracle::oracle() else { return };
    let layout = Layout::ghc_9_2();
    assert!(layout.end_marker_in_block);
    let bytes = small_run(layout.clone()).finish();
    // The last block's size reaches the end of the file, terminator included.
    let outside = small_run(Layout {
        end_marker_in_block: false,
        ..layout
    })
    .finish();
    assert_eq!(bytes.len(), outside.len());
    assert_ne!(bytes, outside);
    assert_small_run(&oracle::dump_bytes(exe, &bytes), true);
}

#[test]
fn biographical_census_carries_its_census_time() {
    let Some(exe) = oracle::oracle() else { return };
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.heap_prof_begin(5, &HeapProfBegin::new(breakdown::BIOGRAPHY, 100_000_000));
    for (k, census_time) in [100_000_000u64, 200_000_000].into_iter().enumerate() {
        let bands = [
            ("VOID", 10u64 * k as u64),
            ("LAG", 20),
            ("USE", 30),
            ("INHERENT_USE", 40),
            ("DRAG", 0),
        ];
        // Written at exit (1.188 s) with the final era, as 9.0.2 does.
        w.bio_census(1_188_000_000, 5, census_time, &bands);
    }
    let d = dump(exe, &w);
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    let cs = d.censuses();
    assert_eq!(cs.len(), 2);
    assert_eq!(cs[0].bio_time, Some(100_000_000));
    assert_eq!(cs[1].bio_time, Some(200_000_000));
    assert!(cs
        .iter()
        .all(|c| c.time == 1_188_000_000 && c.era == 5 && c.ended));
    assert_eq!(string_bands(&cs[1])[4], (&b"DRAG"[..], 0));
    assert_eq!(d.heap_prof_begin().map(|h| h.1), Some(6));
}

#[test]
fn info_table_profile_with_ipe_entries_decodes() {
    let Some(exe) = oracle::oracle() else { return };
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    let it = InfoTable {
        info: 0x409f78,
        table_name: b"sat_s154_info".to_vec(),
        closure_desc: 21,
        ty_desc: b"Integer -> IO ()".to_vec(),
        label: b"main".to_vec(),
        module: b"Main".to_vec(),
        srcloc: b"Test.hs:5:1-30".to_vec(),
    };
    w.info_table(1, &it)
        .heap_prof_begin(2, &HeapProfBegin::new(breakdown::INFO_TABLE, 100_000_000))
        .string_census(10, &[("0x409f78", 64u64), ("0x4c8b10", 32)]);
    let d = dump(exe, &w);
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    let ipe: Vec<&Kind> = d
        .events
        .iter()
        .map(|e| &e.kind)
        .filter(|k| matches!(k, Kind::Ipe { .. }))
        .collect();
    assert_eq!(
        ipe,
        vec![&Kind::Ipe {
            info: 0x409f78,
            table_name: it.table_name.clone(),
            closure_desc: 21,
            ty_desc: it.ty_desc.clone(),
            label: it.label.clone(),
            module: it.module.clone(),
            srcloc: it.srcloc.clone(),
        }]
    );
    assert_eq!(d.heap_prof_begin().map(|h| h.1), Some(8));
    assert_eq!(
        string_bands(&d.censuses()[0]),
        vec![(&b"0x409f78"[..], 64), (&b"0x4c8b10"[..], 32)]
    );
}

#[test]
fn era_profile_breakdown_9_is_beyond_ghc_events_0_17() {
    // ghc-events learnt breakdown 9 (-he, GHC 9.10) after 0.17: Debian's version cannot
    // decode HEAP_PROF_BEGIN with it. Check the file is otherwise sound: with breakdown 7
    // in the same place everything decodes, and with 9 ghc-events stops at that event.
    let Some(exe) = oracle::oracle() else { return };
    let run = |code: u32| {
        let mut w = EventlogWriter::new(Layout::ghc_9_10());
        w.rts_identifier(1, GhcVersion::V9_10.rts_identifier())
            .heap_prof_begin(2, &HeapProfBegin::new(code, 100_000_000))
            .string_census(10, &[("1", 64u64), ("2", 32)])
            .string_census(20, &[("2", 16u64)]);
        oracle::dump_bytes(exe, &w.finish())
    };
    let good = run(breakdown::CLOSURE_TYPE);
    assert!(
        matches!(good.outcome, Outcome::Done(_)),
        "{:?}",
        good.outcome
    );
    assert_eq!(good.censuses().len(), 2);
    assert_eq!(string_bands(&good.censuses()[1]), vec![(&b"2"[..], 16)]);

    let era = run(breakdown::ERA);
    let ok = era.heap_prof_begin().is_none() && era.censuses().is_empty();
    assert!(ok, "ghc-events 0.17 decoded breakdown 9? {:?}", era.events);
    eprintln!("-he (breakdown 9) under ghc-events 0.17: {:?}", era.outcome);
}

#[test]
fn unknown_declared_types_are_skipped() {
    let Some(exe) = oracle::oracle() else { return };
    let layout = Layout::ghc_9_0()
        .with_type(TypeDecl::new(300, Some(5), "Some future fixed event"))
        .with_type(TypeDecl::new(301, None, "Some future variable event"));
    let mut w = small_run(layout);
    // Insert them in the middle of a census in the global block and in cap 0.
    w.raw_event(writer::Stream::Global, 300, 2_100, b"abcde")
        .raw_event(writer::Stream::Global, 301, 2_200, b"variable payload")
        .raw_event(writer::Stream::Cap(0), 300, 600, b"12345")
        .string_census(2_500, &[("PAP", 8u64)]);
    let d = dump(exe, &w);
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    assert_eq!(d.count(|k| *k == Kind::Unknown(300)), 2);
    assert_eq!(d.count(|k| *k == Kind::Unknown(301)), 1);
    let cs = d.censuses();
    assert_eq!(cs.len(), 3);
    assert_eq!(string_bands(&cs[2]), vec![(&b"PAP"[..], 8)]);
}

#[test]
fn oversized_fixed_declarations_are_read_by_their_prefix() {
    let Some(exe) = oracle::oracle() else { return };
    // 162/165 (era) and 43 (wall clock) declared 8 bytes larger than their layout.
    let layout = Layout::ghc_9_0()
        .with_oversized(162, 8)
        .with_oversized(165, 8)
        .with_oversized(43, 8);
    let w = small_run(layout);
    let d = dump(exe, &w);
    assert_eq!(
        d.types.iter().find(|t| t.id == 162).and_then(|t| t.size),
        Some(16)
    );
    assert_small_run(&d, true);
}

#[test]
fn two_capabilities_with_interleaved_blocks_keep_their_events_apart() {
    let Some(exe) = oracle::oracle() else { return };
    let mut w = EventlogWriter::new(Layout::ghc_9_0().with_max_events_per_block(3));
    w.startup(0, 2);
    for k in 0..5u64 {
        let t = 1_000 * (k + 1);
        w.gc_start(0, t)
            .gc_end(0, t + 100)
            .heap_size(0, t + 101, 1 << 20);
        w.gc_start(1, t + 10).gc_end(1, t + 90);
        w.marker(k as u16 % 2, t + 200, format!("m{k}").as_bytes());
    }
    w.heap_live(0, 5_500, 4096)
        .heap_allocated(1, 5_600, 1 << 30);
    w.string_census(6_000, &[("X", 1u64)]).shutdown(7_000, 2);
    let bytes = w.finish();
    // Blocks really interleave: cap 0, cap 1, cap 0, … before the global block.
    let caps = block_caps(&bytes);
    assert!(caps.starts_with(&[0, 1, 0, 1]), "{caps:?}");
    assert_eq!(caps.last(), Some(&0xFFFF));

    let d = oracle::dump_bytes(exe, &bytes);
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    let markers: Vec<(u64, Option<u16>)> = d.markers().iter().map(|m| (m.0, m.1)).collect();
    let mut want: Vec<(u64, Option<u16>)> = (0..5u64)
        .map(|k| (1_000 * (k + 1) + 200, Some(k as u16 % 2)))
        .collect();
    let mut got_sorted = markers.clone();
    got_sorted.sort();
    want.sort();
    assert_eq!(got_sorted, want);
    let on = |cap: u16, kind: Kind| {
        d.events
            .iter()
            .filter(|e| e.cap == Some(cap) && e.kind == kind)
            .count()
    };
    assert_eq!((on(0, Kind::GcStart), on(1, Kind::GcStart)), (5, 5));
    assert_eq!((on(0, Kind::GcEnd), on(1, Kind::GcEnd)), (5, 5));
    assert_eq!(
        d.count(|k| *k
            == Kind::HeapSize {
                capset: 0,
                bytes: 1 << 20
            }),
        5
    );
    assert_eq!(
        d.count(|k| *k
            == Kind::HeapLive {
                capset: 0,
                bytes: 4096
            }),
        1
    );
    assert_eq!(
        d.count(|k| *k
            == Kind::HeapAllocated {
                capset: 0,
                bytes: 1 << 30
            }),
        1
    );
    assert_eq!(d.censuses().len(), 1);
}

/// The `cap` field of every block marker, in file order (walking blocks by their size).
fn block_caps(bytes: &[u8]) -> Vec<u16> {
    let datb = bytes
        .windows(4)
        .position(|w| w == b"datb")
        .expect("data section");
    let mut p = datb + 4;
    let mut caps = Vec::new();
    while p + 24 <= bytes.len() && bytes[p..p + 2] == 18u16.to_be_bytes() {
        let size = u32::from_be_bytes(bytes[p + 10..p + 14].try_into().unwrap()) as usize;
        caps.push(u16::from_be_bytes(
            bytes[p + 22..p + 24].try_into().unwrap(),
        ));
        p += size;
    }
    assert_eq!(&bytes[p..], &[0xFF, 0xFF], "blocks tile the data section");
    caps
}

#[test]
fn cost_centre_profile_decodes() {
    let Some(exe) = oracle::oracle() else { return };
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    // The filters of leakmap-hy-filtered's run (`-hmMain` and `-hc…` land in slots 1 and 4).
    let mut begin = HeapProfBegin::new(breakdown::COST_CENTRE, 20_000_000);
    begin.filters[0] = b"Main".to_vec();
    begin.filters[3] = b"countWords,countWords.step".to_vec();
    begin.filters[6] = b"drag,void".to_vec();
    w.heap_prof_begin(1, &begin);
    w.cost_centre(2, 3, b"CAF", b"Main", b"<entire-module>", true)
        .cost_centre(
            2,
            2,
            b"main",
            b"Main",
            b"programs/LeakMap.hs:14:1-34",
            false,
        )
        .cost_centre(2, 1, "größe".as_bytes(), b"Main", b"x.hs:1:1", false);
    w.cost_centre_census(100, &[(&[1, 2, 3][..], 4096), (&[][..], 160)]);
    let d = dump(exe, &w);
    assert!(matches!(d.outcome, Outcome::Done(_)), "{:?}", d.outcome);
    let ccs: Vec<(u32, Vec<u8>, u8)> = d
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            Kind::CostCentre {
                id, label, flags, ..
            } => Some((*id, label.clone(), *flags)),
            _ => None,
        })
        .collect();
    assert_eq!(
        d.heap_prof_begin(),
        Some((20_000_000, 1, begin.filters.to_vec()))
    );
    assert_eq!(
        ccs,
        vec![
            (3, b"CAF".to_vec(), b'c'),
            (2, b"main".to_vec(), 0),
            (1, "größe".as_bytes().to_vec(), 0)
        ]
    );
    assert_eq!(
        d.censuses()[0].bands,
        vec![
            Band::Ccs {
                stack: vec![1, 2, 3],
                residency: 4096
            },
            Band::Ccs {
                stack: vec![],
                residency: 160
            }
        ]
    );
}

#[test]
fn known_ghc_events_0_17_limits_hold() {
    // These document what the oracle cannot judge, so tests do not misread it.
    let Some(exe) = oracle::oracle() else { return };
    // 1. Truncated file: the events before the cut, and no error.
    let full = small_run(Layout::ghc_9_0()).finish();
    let cut = oracle::dump_bytes(exe, &full[..full.len() - 40]);
    assert!(matches!(cut.outcome, Outcome::Done(_)), "{:?}", cut.outcome);
    assert!(cut.events.len() < oracle::dump_bytes(exe, &full).events.len());
    // 2. A label that is not UTF-8: decoding stops there, silently.
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.string_census(10, &[(&b"ok"[..], 1u64)])
        .string_census(20, &[(&b"bad\xe3"[..], 2u64)])
        .string_census(30, &[(&b"later"[..], 3u64)]);
    let d = dump(exe, &w);
    let labels: Vec<Vec<u8>> = d
        .censuses()
        .iter()
        .flat_map(|c| string_bands(c).into_iter().map(|(l, _)| l.to_vec()))
        .collect();
    assert_eq!(labels, vec![b"ok".to_vec()], "{:?}", d.outcome);
    // 3. An undeclared id: an exception ("index out of range"), events before it kept.
    let mut w = small_run(Layout::ghc_9_0());
    let mut corrupt = 999u16.to_be_bytes().to_vec();
    corrupt.extend_from_slice(&2_500u64.to_be_bytes());
    w.raw_bytes(writer::Stream::Global, &corrupt);
    let d = dump(exe, &w);
    assert!(
        matches!(d.outcome, Outcome::Exception(_) | Outcome::Error(_)),
        "{:?}",
        d.outcome
    );
    assert_eq!(d.censuses().len(), 2);
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
