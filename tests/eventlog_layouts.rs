//! Layouts no real log in the repository has, made by the test writer
//! (`support/eventlog/writer/`, `layout.rs`): GHC 9.12 and 9.14's (IPE events declared
//! one byte longer than their fields, as from 9.10 on; an IPE location of `:`; the 14-byte
//! nonmoving census; the init events, the heap profile's start with its cost centres and
//! IPE entries, posted again mid-log when an eventlog writer restarts), and heap events
//! with bytes after their known fields, as a newer GHC may append fields. Each reads as
//! the same run written in GHC 9.2's plain layout; the reader on every core agrees.

mod support;

use hp2ps::internals::eventlog::{read_eventlog, read_eventlog_slice_chunked};
use hp2ps::{Breakdown, EventlogOptions, EventlogReport, EventlogWarning};
use support::eventlog::late_client_run;
use support::eventlog::recorder::Recorder;
use support::eventlog::writer::{convert_hp, ConvertOptions, Layout};

fn read(what: &str, bytes: &[u8]) -> (EventlogReport, Recorder) {
    let mut rec = Recorder::default();
    let report = read_eventlog(bytes, &EventlogOptions::default(), &mut rec)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut runs = Recorder::default();
    let in_runs = read_eventlog_slice_chunked(bytes, &EventlogOptions::default(), &mut runs, 64)
        .unwrap_or_else(|e| panic!("{what}, in runs: {e}"));
    assert_eq!(
        format!("{report:?} {rec:?}"),
        format!("{in_runs:?} {runs:?}"),
        "{what}: in runs"
    );
    (report, rec)
}

/// The extra-bytes warning: (first offset, type, count).
fn extra_bytes(report: &EventlogReport) -> Option<(u64, u16, u64)> {
    report.warnings.iter().find_map(|w| match *w {
        EventlogWarning::ExtraBytes { offset, id, count } => Some((offset, id, count)),
        _ => None,
    })
}

#[test]
fn ghc_9_12_and_9_14_logs_read_as_the_plain_layout() {
    let (plain_report, plain) = read("9.2", &late_client_run(Layout::ghc_9_2(), false));
    assert_eq!(plain.samples.len(), 6, "four censuses");
    // The IPE location ":" (no file, no span) is read as it stands, as the entries
    // before and after it are.
    let locations: Vec<&str> = plain_report
        .ipe
        .iter()
        .map(|e| e.src_loc.as_str())
        .collect();
    assert_eq!(
        locations,
        ["Main.hs:5:1-30", "Main.hs:(7,1)-(9,20)", ":"],
        "9.2"
    );
    for (what, layout) in [("9.12", Layout::ghc_9_12()), ("9.14", Layout::ghc_9_14())] {
        for restarted in [false, true] {
            let what = format!("{what}, restarted: {restarted}");
            let log = late_client_run(layout.clone(), restarted);
            let (report, rec) = read(&what, &log);
            // The same samples, bands and names: a repeated heap-profile start neither
            // starts the profile again nor splits it.
            assert_eq!(rec.header, plain.header, "{what}");
            assert_eq!(rec.samples, plain.samples, "{what}");
            assert_eq!(report.breakdown, Some(Breakdown::InfoTable), "{what}");
            assert_eq!(report.ipe, plain_report.ipe, "{what}: the IPE entries");
            assert_eq!((report.censuses, report.bands), (4, 4), "{what}");
            // Every IPE event read by its fields (three, and three more when reposted),
            // without a warning: the runtime's own layout.
            let count = report.ipe_one_byte_long;
            assert_eq!(count, if restarted { 6 } else { 3 }, "{what}");
            assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
        }
    }
}

#[test]
fn bytes_after_the_known_fields_are_skipped() {
    let hp = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs/arrays-O1-hT.hp"),
    )
    .unwrap();
    let convert = |layout: Layout| {
        let opts = ConvertOptions {
            layout,
            ..ConvertOptions::default()
        };
        convert_hp(&hp, &opts).unwrap().eventlog
    };
    let (_, plain) = read("plain", &convert(Layout::ghc_9_14()));
    // A newer GHC's samples, each with a field appended (counted in its length): some
    // ending in a NUL (which reads like the end of a label), some not.
    for tail in [&[0, 0, 0, 7][..], &[1, 2, 3, 0], &[0xFF]] {
        let log = convert(Layout::ghc_9_14().with_appended(164, tail));
        let (report, rec) = read(&format!("{tail:?}"), &log);
        assert_eq!(rec.samples, plain.samples, "{tail:?}");
        // Every sample noted, the first named.
        let samples: usize = rec.samples.iter().map(|s| s.1.len()).sum();
        let (_, id, count) = extra_bytes(&report).unwrap();
        assert_eq!((id, count as usize), (164, samples), "{tail:?}");
    }
}
