//! Eventlog features the 9.0.2 corpus lacks, on small generated logs: markers, several
//! capabilities, `-hi` with IPE, `-hb` census times, LDV-filtered and `-l-a` logs,
//! pre-8.10 logs without END, names of stacks the `-L` cut makes equal.

mod support;

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::{Breakdown, EventlogOptions, EventlogReport, EventlogWarning, TimeAxis};
use support::eventlog::recorder::Recorder;
use support::eventlog::writer::{Layout, RawLog};

const MS: u64 = 1_000_000;

fn read_with(bytes: &[u8], opts: &EventlogOptions) -> (EventlogReport, Recorder) {
    let mut rec = Recorder::default();
    let report = read_eventlog(bytes, opts, &mut rec).unwrap();
    (report, rec)
}

fn read(bytes: &[u8]) -> (EventlogReport, Recorder) {
    read_with(bytes, &EventlogOptions::default())
}

/// A block of capability `cap` (0xFFFF: the global buffer) holding the events `fill`
/// writes, its marker opened at 0 and closed at `end` ns, as the runtime writes them.
fn block(w: &mut RawLog, cap: u16, end: u64, fill: impl FnOnce(&mut RawLog)) {
    let mut events = RawLog::body();
    fill(&mut events);
    let mut p = (24 + events.bytes.len() as u32).to_be_bytes().to_vec();
    p.extend_from_slice(&end.to_be_bytes());
    p.extend_from_slice(&cap.to_be_bytes());
    w.event(18, 0, &p).raw(&events.bytes);
}

fn gc(w: &mut RawLog, start: u64, end: u64) {
    w.event(9, start, &[])
        .event(22, end, &[])
        .event(10, end, &[]);
}

fn times(rec: &Recorder) -> Vec<f64> {
    rec.samples
        .iter()
        .map(|s| (s.0 * 1e6).round() / 1e6)
        .collect()
}

fn has(report: &EventlogReport, f: impl Fn(&EventlogWarning) -> bool) -> bool {
    report.warnings.iter().any(f)
}

#[test]
fn mutator_time_markers_and_heap_size_across_two_capabilities() {
    let mut w = RawLog::ghc_9_2();
    // Cap 0: GC 10–20 ms, a marker at 30 ms, heap size at 20 ms.
    block(&mut w, 0, 30 * MS, |w| {
        gc(w, 10 * MS, 20 * MS);
        let mut hs = 0u32.to_be_bytes().to_vec();
        hs.extend_from_slice(&4096u64.to_be_bytes());
        w.event(50, 20 * MS, &hs);
        w.event(58, 30 * MS, b"phase A");
    });
    // Cap 1: GC 15–25 ms, the same collection: it ends at its first GC_END (20 ms, the
    // leader's; a worker's comes later, as in real parallel collections). A census inside
    // a GC at 45.
    block(&mut w, 1, 50 * MS, |w| {
        w.event(9, 15 * MS, &[]).event(10, 25 * MS, &[]);
        gc(w, 40 * MS, 50 * MS);
    });
    // Global: the profile, one census at 45 ms, the last event at 60 ms.
    block(&mut w, 0xFFFF, 60 * MS, |w| {
        w.event(30, 0, b"\0\0\0\0./prog\0+RTS\0-hT\0-l\0-RTS\0");
        w.event(29, 0, b"\0\0\0\0GHC-9.0.2 rts_l");
        let mut wall = 0u32.to_be_bytes().to_vec();
        wall.extend_from_slice(&1_700_000_000u64.to_be_bytes());
        wall.extend_from_slice(&0u32.to_be_bytes());
        w.event(43, 0, &wall);
        w.heap_prof_begin(1, 7, 20 * MS);
        w.event(162, 45 * MS, &[0; 8])
            .string_sample(45 * MS, 64, b"ARR_WORDS");
        w.event(165, 45 * MS, &[0; 8])
            .event(29, 60 * MS, b"\0\0\0\0GHC-9.0.2 rts_l");
    });
    w.end();
    std::env::set_var("TZ", "UTC");
    let (report, rec) = read(&w.bytes);
    // 45 ms minus 10 ms of GC before 30 and 5 ms of the GC the census is in; GC time
    // counted once, however many capabilities report it.
    assert_eq!(times(&rec), vec![0.0, 0.030, 0.040]);
    assert_eq!(rec.marks, vec![0.020]);
    assert_eq!(report.markers.len(), 1);
    assert_eq!(report.markers[0].text, "phase A");
    assert_eq!(report.line("heap size"), vec![(0.010, 4096)]);
    assert_eq!(report.breakdown, Some(Breakdown::ClosureType));
    assert_eq!(report.time_axis, TimeAxis::Mutator);
    assert_eq!(rec.header[0], b"prog");
    assert_eq!(rec.header[1], b"Tue Nov 14 22:13 2023");
    assert_eq!(rec.header[2], b"seconds");
    assert_eq!(rec.header[3], b"bytes");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    // DATE follows TZ, as the runtime's localtime does (a POSIX rule needs no file).
    std::env::set_var("TZ", "CET-1CEST,M3.5.0,M10.5.0/3");
    let (_, rec) = read(&w.bytes);
    assert_eq!(rec.header[1], b"Tue Nov 14 23:13 2023");
    std::env::set_var("TZ", "UTC");

    // The same log on the elapsed axis.
    let mut opts = EventlogOptions::default();
    opts.time = TimeAxis::Elapsed;
    let (report, rec) = read_with(&w.bytes, &opts);
    assert_eq!(times(&rec), vec![0.0, 0.045, 0.06]);
    assert_eq!(report.markers[0].time, 0.03);
}

#[test]
fn no_gc_events_fall_back_to_elapsed_time() {
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 3, 20 * MS);
    w.event(162, 45 * MS, &[0; 8])
        .string_sample(45 * MS, 8, b"<x>");
    w.event(165, 50 * MS, &[0; 8]).end();
    let (report, rec) = read(&w.bytes);
    assert_eq!(times(&rec), vec![0.0, 0.045, 0.05]);
    assert_eq!(report.time_axis, TimeAxis::Elapsed);
    assert!(has(&report, |w| matches!(w, EventlogWarning::NoGcEvents)));
}

#[test]
fn biographical_census_time_and_ldv_filtered_estimates() {
    // -hb: 166 carries the census time; all events are stamped at exit.
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 6, 100 * MS);
    for (i, t) in [(1u64, 100 * MS), (2, 200 * MS)] {
        let mut p = 5u64.to_be_bytes().to_vec();
        p.extend_from_slice(&t.to_be_bytes());
        w.event(166, 900 * MS, &p);
        for band in [b"VOID".as_slice(), b"LAG", b"USE", b"INHERENT_USE", b"DRAG"] {
            w.string_sample(900 * MS, 8 * i, band);
        }
        w.event(165, 900 * MS, &5u64.to_be_bytes());
    }
    w.end();
    let (report, rec) = read(&w.bytes);
    assert_eq!(times(&rec), vec![0.0, 0.1, 0.2, 0.9]);
    assert_eq!(rec.samples[1].1.len(), 5);
    assert!(!report.estimated_times);

    // -hc -hbdrag: plain 162, every census at exit: spread by the sampling period.
    let mut w = RawLog::ghc_9_2();
    let mut p = vec![0u8];
    p.extend_from_slice(&(20 * MS).to_be_bytes());
    p.extend_from_slice(&3u32.to_be_bytes());
    p.extend_from_slice(b"\0\0\0\0\0\0drag\0");
    w.event(160, 1, &p);
    for _ in 0..3 {
        w.event(162, 900 * MS, &[0; 8])
            .string_sample(900 * MS, 8, b"<x>");
        w.event(165, 900 * MS, &[0; 8]);
    }
    w.end();
    let (report, rec) = read(&w.bytes);
    assert_eq!(times(&rec), vec![0.0, 0.02, 0.04, 0.06, 0.9]);
    assert!(report.estimated_times);
    assert!(has(&report, |w| matches!(
        w,
        EventlogWarning::TimesUnavailable { .. }
    )));
}

#[test]
fn before_ghc_8_10_a_census_ends_at_the_next_one() {
    let types = Layout::ghc_9_2().declarations();
    let mut w = RawLog::new(types.into_iter().filter(|t| t.id < 165).collect());
    w.heap_prof_begin(1, 4, 20 * MS);
    w.event(162, 10 * MS, &[0; 8])
        .string_sample(10 * MS, 8, b"Int");
    w.event(162, 20 * MS, &[0; 8])
        .string_sample(20 * MS, 16, b"Int");
    w.end();
    let (_, rec) = read(&w.bytes);
    assert_eq!(rec.samples.len(), 4);
    assert_eq!(rec.samples[2].1, vec![(b"Int".to_vec(), 16.0)]);
}

#[test]
fn cost_centre_names_cut_at_l_stay_distinct() {
    let mut w = RawLog::ghc_9_2();
    w.event(30, 0, b"\0\0\0\0./p\0+RTS\0-hc\0-L10\0-RTS\0");
    w.event(29, 0, b"\0\0\0\0GHC-9.0.2 rts_p");
    w.cost_centre(1, b"alphabetical", b"Main", false);
    w.cost_centre(2, b"alphabetic", b"Main", false);
    w.cost_centre(3, b"CAF", b"Data.Map", true);
    w.heap_prof_begin(1, 1, 20 * MS);
    w.event(162, 10 * MS, &[0; 8]);
    w.cost_centre_sample(10 * MS, 8, &[1, 3])
        .cost_centre_sample(10 * MS, 16, &[2, 3]);
    w.cost_centre_sample(10 * MS, 24, &[])
        .cost_centre_sample(10 * MS, 32, &[3])
        .cost_centre_sample(10 * MS, 40, &[9]);
    w.event(165, 10 * MS, &[0; 8]).end();
    let (report, rec) = read(&w.bytes);
    let names: Vec<String> = (rec.samples[1].1.iter())
        .map(|(n, _)| String::from_utf8_lossy(n).into_owned())
        .collect();
    assert_eq!(
        names,
        ["alphab... #1", "alphab... #2", "MAIN", "Data.M...", "?9"]
    );
    assert_eq!(rec.header[0], b"p +RTS -hc -L10");
    assert_eq!(report.bands, 5);
    let mut opts = EventlogOptions::default();
    opts.full_names = true;
    let (_, rec) = read_with(&w.bytes, &opts);
    assert_eq!(rec.samples[1].1[0].0, b"alphabetical/Data.Map.CAF");
    assert_eq!(rec.samples[1].1[1].0, b"alphabetic/Data.Map.CAF");
}

/// `-hi` bands keep their address labels (naming them is `hp2ps::symbolize`'s step),
/// and the report lists the IPE entries with all six fields, a later entry for an
/// address replacing the earlier one, and the program's argv[0].
#[test]
fn info_table_bands_keep_their_addresses_and_ipe_entries_are_reported() {
    let mut w = RawLog::ghc_9_2();
    w.event(30, 0, b"\0\0\0\0./leakmap\0+RTS\0-hi\0-RTS\0");
    let ipe = |address: u64, fields: &[u8]| {
        let mut p = address.to_be_bytes().to_vec();
        p.extend_from_slice(fields);
        p
    };
    w.event(
        169,
        0,
        &ipe(0x4c8b10, b"old_info\x0015\0Int\0f\0Main\0T.hs:1:1\0"),
    );
    w.event(169, 0, &ipe(0x4c8b40, b"go_info\x0014\0\0\0Main\0:\0"));
    w.event(
        169,
        0,
        &ipe(
            0x4c8b10,
            b"sat_s154_info\x0021\0Integer -> IO ()\0main\0Main\0T.hs:5:1\0",
        ),
    );
    w.heap_prof_begin(1, 8, 20 * MS);
    w.event(162, 10 * MS, &[0; 8]);
    w.string_sample(10 * MS, 8, b"0x4c8b10")
        .string_sample(10 * MS, 16, b"0x4c8b20");
    w.event(165, 10 * MS, &[0; 8]).end();
    let (report, rec) = read(&w.bytes);
    assert_eq!(rec.samples[1].1[0].0, b"0x4c8b10");
    assert_eq!(rec.samples[1].1[1].0, b"0x4c8b20");
    let entries: Vec<(u64, [&str; 6])> = (report.ipe.iter())
        .map(|e| {
            let fields = [
                &e.table_name,
                &e.closure_desc,
                &e.type_desc,
                &e.label,
                &e.module,
                &e.src_loc,
            ];
            (e.address, fields.map(String::as_str))
        })
        .collect();
    assert_eq!(
        entries,
        [
            (
                0x4c8b10,
                [
                    "sat_s154_info",
                    "21",
                    "Integer -> IO ()",
                    "main",
                    "Main",
                    "T.hs:5:1"
                ]
            ),
            (0x4c8b40, ["go_info", "14", "", "", "Main", ":"]),
        ]
    );
    assert_eq!(report.program.as_deref(), Some("./leakmap"));
    assert_eq!(report.breakdown, Some(Breakdown::InfoTable));
}

#[test]
fn retainer_profiles_warn_about_many() {
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 5, 20 * MS);
    w.event(162, 10 * MS, &[0; 8])
        .string_sample(10 * MS, 8, b"(4)MAIN");
    w.string_sample(10 * MS, 8, b"(5)\xe3");
    w.event(165, 10 * MS, &[0; 8]).end();
    let (report, rec) = read(&w.bytes);
    assert!(has(&report, |w| matches!(w, EventlogWarning::NoManyBand)));
    // Labels are bytes, invalid UTF-8 included.
    assert_eq!(rec.samples[1].1[1].0, b"(5)\xe3");
}
