//! ghc-events, GHC's reference eventlog parser, as a second opinion on our reader
//! (`src/read/eventlog/`): on every eventlog of the repository (the real logs of GHC
//! 9.0.2 in `tests/data/eventlog/` and of GHC 9.10.3 in `tests/data/ghc-9.10/`, the fuzz
//! seeds in `fuzz/seeds/eventlog_reader/`), on generated ones (the test writer's layouts:
//! 8.2, 9.0, 9.2, 9.12, 9.14, `-hb`, `-hi`, `-hc`, two capabilities, unknown types,
//! oversized declarations, init events posted again, converted golden profiles) and on
//! real logs cut at several points, what ghc-events decodes must be what our reader
//! returns:
//!
//! * the censuses: their number, each one's time, and its bands (values and order);
//!   the band names for string breakdowns (`-hi` included) are the labels, and for
//!   `-hc` the cost-centre stack's path built from the cost centres ghc-events decoded
//!   (so the cost centres are compared too);
//! * the IPE entries (169) the report lists: every field, in order of first
//!   appearance, a later entry for an address replacing the earlier one;
//! * the markers: time and text.
//!
//! Documented differences are allowed for: they are listed with the comparison, in
//! `support/eventlog/agree.rs`.
//!
//! Without ghc/ghc-events the tests print `SKIPPED:` and pass, unless `CI=true`. The
//! counts are printed (`cargo test --test eventlog_oracle -- --nocapture`).

mod support;

use std::path::{Path, PathBuf};

use support::eventlog::agree::{check, ends_whole, Counts};
use support::eventlog::oracle;
use support::eventlog::writer::{
    breakdown, convert_hp, ConvertOptions, EventlogWriter, HeapProfBegin, Layout, Stream, TypeDecl,
    KNOWN_PARSE_DIFFERENCES,
};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_in(dir: &Path, ext: Option<&str>) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .filter(|p| ext.map_or(true, |x| p.extension().is_some_and(|e| e == x)))
        .collect();
    v.sort();
    v
}

/// The real logs: GHC 9.0.2's (`tests/data/eventlog`) and GHC 9.10.3's
/// (`tests/data/ghc-9.10`).
fn corpus() -> Vec<(String, Vec<u8>)> {
    ["tests/data/eventlog", "tests/data/ghc-9.10"]
        .iter()
        .flat_map(|dir| files_in(&manifest().join(dir), Some("eventlog")))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn repository_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in corpus() {
        assert!(ends_whole(&bytes), "{what}");
        check(exe, &what, &bytes, true, &mut counts);
    }
    counts.print("repository");
    assert!(counts.files >= 28, "{} corpus logs", counts.files);
    assert!(counts.censuses > 200, "{} censuses", counts.censuses);
}

/// The fuzz target's seed logs (the fuzz crate's own files, which the published crate
/// leaves out).
#[test]
fn fuzz_seed_eventlogs_agree_with_ghc_events() {
    const SEEDS: &str = "fuzz/seeds/eventlog_reader";
    if !support::tools::require_data(&[SEEDS]) {
        return;
    }
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for p in files_in(&manifest().join(SEEDS), None) {
        // A fuzz input is one byte of reader options, then the eventlog.
        let bytes = std::fs::read(&p).unwrap();
        let log = &bytes[1..];
        check(
            exe,
            &p.display().to_string(),
            log,
            ends_whole(log),
            &mut counts,
        );
    }
    counts.print("fuzz seeds");
    assert!(counts.files > 0, "no seeds in {SEEDS}");
}

/// The two real `-hi` logs of GHC 9.10.3: their IPE entries, every field, as
/// ghc-events reads them (and their censuses, as for every log).
#[test]
fn real_info_table_logs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for name in ["leakmap-hi", "textproc-hi"] {
        let path = manifest().join(format!("tests/data/ghc-9.10/{name}.eventlog"));
        let bytes = std::fs::read(&path).unwrap();
        check(exe, &path.display().to_string(), &bytes, true, &mut counts);
    }
    counts.print("real -hi logs");
    // leakmap-hi has 69 entries, textproc-hi 228 (one event each, no address twice).
    assert_eq!(counts.ipe, 69 + 228);
}

#[test]
fn cut_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in corpus() {
        let data = bytes
            .windows(4)
            .position(|w| w == b"datb")
            .expect("a data section")
            + 4;
        // The censuses are in the global blocks, written late: cut inside each of them
        // (up to 4 points a block), and around the start and the end.
        let mut cuts: Vec<usize> = Vec::new();
        for (start, size, cap) in blocks(&bytes, data) {
            if cap == 0xFFFF {
                cuts.extend((1..=4).map(|k| start + size * k / 5));
            } else if cuts.is_empty() {
                cuts.push(start + size / 2); // inside the first capability block
            }
        }
        cuts.push(bytes.len() - 1); // half the terminator
        cuts.push(bytes.len() - 2); // no terminator
        cuts.push(data - 2); // inside the header
        cuts.sort();
        cuts.dedup();
        for cut in cuts {
            check(
                exe,
                &format!("{what} cut at {cut}"),
                &bytes[..cut],
                false,
                &mut counts,
            );
        }
    }
    counts.print("cut");
    assert!(counts.censuses > 300, "{} censuses", counts.censuses);
}

/// The blocks of a log, (start, size, capability), walking them by their size from
/// `data` (just after `datb`).
fn blocks(bytes: &[u8], data: usize) -> Vec<(usize, usize, u16)> {
    let mut p = data;
    let mut out = Vec::new();
    while p + 24 <= bytes.len() && bytes[p..p + 2] == 18u16.to_be_bytes() {
        let size = u32::from_be_bytes(bytes[p + 10..p + 14].try_into().unwrap()) as usize;
        let cap = u16::from_be_bytes(bytes[p + 22..p + 24].try_into().unwrap());
        if size < 24 || p + size > bytes.len() {
            break;
        }
        out.push((p, size, cap));
        p += size;
    }
    out
}

/// A small run: GC events, markers, three string censuses.
fn small_run(layout: Layout, code: u32) -> EventlogWriter {
    let mut w = small_run_going_on(layout, code);
    w.shutdown(3_000, 1);
    w
}

/// [`small_run`] before its shutdown events, for more censuses.
fn small_run_going_on(layout: Layout, code: u32) -> EventlogWriter {
    let mut w = EventlogWriter::new(layout);
    w.startup(0, 1)
        .wall_clock(10, 1_795_242_269, 17_465_000)
        .rts_identifier(11, "GHC-9.0.2 rts_p")
        .program_args(12, &["./prog", "+RTS", "-hT", "-RTS"])
        .heap_prof_begin(20, &HeapProfBegin::new(code, 20_000_000));
    w.gc_start(0, 400).gc_end(0, 450).marker(0, 500, b"phase A");
    w.string_census(1_000, &[("ARR_WORDS", 100u64), ("THUNK", 200)]);
    w.gc_start(0, 1_400)
        .gc_end(0, 1_450)
        .marker(0, 1_500, "größe\nzwei".as_bytes());
    w.string_census(2_000, &[("ARR_WORDS", 300u64)]);
    w.string_census(2_000, &[("THUNK", 7u64), ("MUT_ARR_PTRS_CLEAN", 0)]);
    w
}

fn generated() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let t = breakdown::CLOSURE_TYPE;
    for (name, layout) in [
        ("9.0", Layout::ghc_9_0()),
        ("8.2", Layout::ghc_8_2()),
        ("9.2", Layout::ghc_9_2()),
        (
            "9.0, 2 events per block",
            Layout::ghc_9_0().with_max_events_per_block(2),
        ),
        (
            "9.0, oversized 162/165/43/58",
            Layout::ghc_9_0()
                .with_oversized(162, 8)
                .with_oversized(165, 8)
                .with_oversized(43, 8),
        ),
    ] {
        out.push((format!("small run, {name}"), small_run(layout, t).finish()));
    }
    for code in [2, 3, 4, 5] {
        let w = small_run(Layout::ghc_9_0(), code);
        out.push((format!("small run, breakdown {code}"), w.finish()));
    }

    // Unknown types, fixed and variable, in the global block (inside a census) and cap 0.
    let layout = Layout::ghc_9_0()
        .with_type(TypeDecl::new(300, Some(5), "Some future fixed event"))
        .with_type(TypeDecl::new(301, None, "Some future variable event"));
    let mut w = small_run_going_on(layout, t);
    w.sample_begin(2_100, 0)
        .raw_event(Stream::Global, 300, 2_100, b"abcde")
        .string_sample(2_150, 8, b"PAP")
        .raw_event(Stream::Global, 301, 2_200, b"variable payload")
        .raw_event(Stream::Cap(0), 300, 1_600, b"12345")
        .string_sample(2_250, 9, b"FUN")
        .sample_end(2_300, 0)
        .shutdown(3_000, 1);
    out.push(("unknown types".into(), w.finish()));

    // -hb: every census written at exit, with its census time.
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.heap_prof_begin(5, &HeapProfBegin::new(breakdown::BIOGRAPHY, 100_000_000));
    for (k, census_time) in [100_000_000u64, 200_000_000, 250_000_000]
        .into_iter()
        .enumerate()
    {
        let bands = [
            ("VOID", 10u64 * k as u64),
            ("LAG", 20),
            ("USE", 30 + k as u64),
            ("INHERENT_USE", 40),
            ("DRAG", 0),
        ];
        w.bio_census(1_188_000_000, 5, census_time, &bands);
    }
    w.shutdown(1_200_000_000, 1);
    out.push(("-hb (166)".into(), w.finish()));

    // -hi: IPE entries name some addresses; a later entry for an address replaces the
    // earlier one.
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    let it =
        |info: u64, name: &[u8]| support::eventlog::main_info_table(info, name, b"Test.hs:5:1-30");
    w.info_table(1, &it(0x409f78, b"sat_s154_info"))
        .info_table(1, &it(0x4c8b11, b"Main.go_info"))
        .info_table(1, &it(0x409f78, b"sat_s154_again_info"))
        .heap_prof_begin(2, &HeapProfBegin::new(breakdown::INFO_TABLE, 100_000_000))
        .string_census(10, &[("0x409f78", 64u64), ("0x4c8b10", 32)])
        .string_census(20, &[("0x4c8b11", 16u64), ("0x409f78", 8)])
        .shutdown(30, 1);
    out.push(("-hi (169)".into(), w.finish()));

    // -hc: a CAF, nested stacks, the empty stack, an undefined cost centre.
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.program_args(0, &["./prog", "+RTS", "-hc", "-L7", "-RTS"])
        .heap_prof_begin(1, &HeapProfBegin::new(breakdown::COST_CENTRE, 20_000_000))
        .cost_centre(2, 3, b"CAF", b"Main", b"<entire-module>", true)
        .cost_centre(2, 2, b"main", b"Main", b"LeakMap.hs:14:1-34", false)
        .cost_centre(2, 1, "größe".as_bytes(), b"Main", b"x.hs:1:1", false)
        .cost_centre(2, 4, b"CAF", b"GHC.IO", b"<entire-module>", false);
    w.cost_centre_census(
        100,
        &[(&[1, 2, 3][..], 4096), (&[][..], 160), (&[4][..], 8)],
    );
    w.cost_centre_census(
        200,
        &[(&[2, 3][..], 1), (&[9, 3][..], 2), (&[1, 2, 3][..], 3)],
    );
    w.shutdown(300, 1);
    out.push(("-hc (161/163)".into(), w.finish()));

    // Two capabilities, interleaved blocks, markers on both.
    let mut w = support::eventlog::two_capability_rounds(|w, k, t| {
        w.string_census(t + 300, &[("X", k), ("Y", 2 * k)]);
    });
    w.shutdown(7_000, 2);
    out.push(("two capabilities".into(), w.finish()));

    // GHC 9.12 and 9.14: IPE events declared one byte long, a location of ":", a 14-byte
    // nonmoving census, and the init events posted again mid-log.
    for (name, layout) in [("9.12", Layout::ghc_9_12()), ("9.14", Layout::ghc_9_14())] {
        for restarted in [false, true] {
            let log = support::eventlog::late_client_run(layout.clone(), restarted);
            out.push((format!("-hi {name}, restarted: {restarted}"), log));
        }
    }

    // Converted golden profiles in three layouts.
    for (name, hp) in support::golden_inputs() {
        if KNOWN_PARSE_DIFFERENCES.contains(&name.as_str()) {
            continue;
        }
        for (lname, layout) in [
            ("9.0", Layout::ghc_9_0()),
            ("8.2", Layout::ghc_8_2()),
            ("9.2", Layout::ghc_9_2().with_max_events_per_block(50)),
        ] {
            let opts = ConvertOptions {
                layout,
                marker_text: b"mark".to_vec(),
                ..ConvertOptions::default()
            };
            let Ok(c) = convert_hp(&hp, &opts) else {
                continue;
            };
            out.push((format!("{name} as {lname}"), c.eventlog));
        }
    }
    out
}

#[test]
fn generated_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in generated() {
        check(exe, &what, &bytes, true, &mut counts);
    }
    counts.print("generated");
    assert!(counts.files > 100, "{} files", counts.files);
}
