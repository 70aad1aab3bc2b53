//! Damaged and hostile eventlogs: every cut of a real log, seeded random mutations, and
//! the damage the spec lists (undeclared ids, short and long layouts, no end marker).
//! Nothing may panic; complete samples survive a cut.

mod support;

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning};
use support::eventlog::recorder::{dir, Recorder};
use support::eventlog::writer::{Layout, RawLog, TypeDecl};
use support::read_eventlog_profile;

fn read(bytes: &[u8]) -> (Result<EventlogReport, EventlogError>, Recorder) {
    let mut rec = Recorder::default();
    let r = read_eventlog(bytes, &EventlogOptions::default(), &mut rec);
    if let Ok(report) = &r {
        for w in &report.warnings {
            assert!(!w.to_string().contains('\n'), "{w}");
        }
    }
    if let Err(e) = &r {
        assert!(!e.to_string().contains('\n'), "{e}");
        assert!(
            !matches!(e, EventlogError::Io(_)),
            "I/O error from memory: {e}"
        );
    }
    (r, rec)
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(dir().join(name)).unwrap()
}

/// Offsets to cut at: every byte of the header, every `dense`-th byte of the last
/// `tail` bytes (the global block with the samples: events there are 11 to 60 bytes
/// long, so each is cut at several places), every `stride`-th byte elsewhere, and the
/// last 64 bytes each.
fn cuts(len: usize, header: usize, tail: usize, dense: usize, stride: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..header.min(len)).collect();
    v.extend((header..len.saturating_sub(tail)).step_by(stride));
    v.extend((len.saturating_sub(tail)..len.saturating_sub(64)).step_by(dense));
    v.extend(len.saturating_sub(64)..=len);
    v
}

#[test]
fn every_cut_keeps_the_complete_samples() {
    every_cut_keeps(&corpus("keywords-hd.eventlog"), 8_000, 500);
}

/// A GHC 9.10.3 log: its IPE events declared a byte long, its end marker inside its last
/// block.
#[test]
fn every_cut_of_a_ghc_9_10_log_keeps_the_complete_samples() {
    let path = dir().join("../ghc-9.10/textproc-hi.eventlog");
    every_cut_keeps(&std::fs::read(path).unwrap(), 42_200, 1000);
}

/// Cuts `full` everywhere in its header, densely in its last `tail` bytes (the global
/// block), sparsely elsewhere: each reads its complete censuses (at least `reads` cuts
/// do), with a truncation warning, or is refused cleanly.
fn every_cut_keeps(full: &[u8], tail: usize, reads: usize) {
    let (r, whole) = read(full);
    r.unwrap();
    let n = whole.samples.len();
    let mut kept_some = 0;
    let header = full.windows(4).position(|w| w == b"datb").unwrap() + 4;
    for cut in cuts(full.len(), header, tail, 5, 257) {
        let (r, rec) = read(&full[..cut]);
        match r {
            Ok(report) => {
                kept_some += 1;
                assert!(
                    cut == full.len()
                        || report
                            .warnings
                            .iter()
                            .any(|w| matches!(w, EventlogWarning::Truncated { .. })),
                    "cut {cut}: no truncation warning"
                );
                let k = rec.samples.len();
                assert!(k >= 3 && k <= n, "cut {cut}: {k} samples");
                assert!(rec.samples[0].1.is_empty() && rec.samples[k - 1].1.is_empty());
                // Every census kept is the whole log's census, band for band.
                for i in 1..k - 1 {
                    assert_eq!(
                        rec.samples[i].1, whole.samples[i].1,
                        "cut {cut}: sample {i}"
                    );
                    assert_eq!(rec.samples[i].0, whole.samples[i].0, "cut {cut}: time {i}");
                }
            }
            Err(EventlogError::NoSamples { .. })
            | Err(EventlogError::BadHeader { .. })
            | Err(EventlogError::NotEventlog { .. }) => {}
            Err(e) => panic!("cut {cut}: {e}"),
        }
    }
    assert!(kept_some > reads, "{kept_some}");
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_mutations_never_panic() {
    let full = corpus("keywords-hd.eventlog");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..300 {
        let mut b = full.clone();
        // Mostly the global block (the samples) and the header; sometimes anywhere.
        for _ in 0..1 + rng.below(16) {
            let at = match rng.below(4) {
                0 => rng.below(2800),
                1 => rng.below(b.len()),
                _ => b.len() - 1 - rng.below(12_000),
            };
            match rng.below(3) {
                0 => b[at] = rng.next() as u8,
                1 => b[at] ^= 1 << rng.below(8),
                _ => b[at] = [0, 0xFF, 0x7F, 0x80][rng.below(4)],
            }
        }
        if round % 10 == 0 {
            let l = rng.below(b.len());
            b.truncate(l);
        }
        let (r, _) = read(&b);
        // A profile read from damaged input still renders.
        if r.is_ok() {
            let (p, _) = read_eventlog_profile(&b[..], &EventlogOptions::default()).unwrap();
            let _ = hp2ps::prepare(p, None, &hp2ps::RenderOptions::default());
        }
    }
}

fn census(w: &mut RawLog, t: u64, bands: &[(&[u8], u64)]) {
    w.event(162, t, &0u64.to_be_bytes());
    for (label, v) in bands {
        w.string_sample(t, *v, label);
    }
    w.event(165, t + 1, &0u64.to_be_bytes());
}

#[test]
fn an_undeclared_id_is_skipped_and_reading_goes_on() {
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 7, 20_000_000);
    census(&mut w, 10, &[(b"A", 8)]);
    let bad = w.bytes.len() as u64;
    w.event(77, 20, &[]); // undeclared
    census(&mut w, 30, &[(b"B", 8)]);
    w.end();
    let (r, rec) = read(&w.bytes);
    let report = r.unwrap();
    // Both censuses, the empty first and last samples.
    assert_eq!(rec.samples.len(), 4);
    assert_eq!(rec.samples[2].1, vec![(b"B".to_vec(), 8.0)]);
    let damaged = report.warnings.iter().find_map(|w| match w {
        EventlogWarning::Damaged {
            regions,
            censuses_lost,
            ..
        } => Some((regions.clone(), *censuses_lost)),
        _ => None,
    });
    let (regions, lost) = damaged.expect("a damage warning");
    assert_eq!(
        (regions[0].0.clone(), regions[0].1.clone(), lost),
        (bad..bad + 10, 0..0, 0)
    );
    let text = report
        .warnings
        .iter()
        .map(|w| w.to_string())
        .collect::<String>();
    assert!(text.contains(&format!("bytes {bad}-{}", bad + 9)), "{text}");
    // Inside a census, it costs that census, and the warning says which.
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 7, 20_000_000);
    census(&mut w, 10, &[(b"A", 8)]);
    w.event(162, 30, &0u64.to_be_bytes());
    w.string_sample(30, 8, b"B");
    w.event(77, 30, &[]);
    w.string_sample(30, 8, b"C")
        .event(165, 31, &0u64.to_be_bytes());
    census(&mut w, 40, &[(b"D", 8)]);
    w.end();
    let (r, rec) = read(&w.bytes);
    let report = r.unwrap();
    let names: Vec<_> = rec.samples.iter().map(|s| s.1.len()).collect();
    assert_eq!(names, [0, 1, 1, 0]);
    let text = report
        .warnings
        .iter()
        .map(|w| w.to_string())
        .collect::<String>();
    assert!(text.contains("(census 2 lost)"), "{text}");
    assert!(text.contains("1 census lost in all"), "{text}");
}

#[test]
fn longer_layouts_unknown_types_and_no_end() {
    // 162 declared with 12 bytes instead of 8: the extra bytes are skipped.
    let mut types: Vec<TypeDecl> = (Layout::ghc_9_2().declarations().into_iter())
        .filter(|t| t.id != 162)
        .collect();
    types.push(TypeDecl::new(162, Some(12), "Start of heap profile sample"));
    types.push(TypeDecl::new(300, Some(5), "Unknown fixed"));
    types.push(TypeDecl::new(301, None, "Unknown variable"));
    let mut w = RawLog::new(types);
    w.heap_prof_begin(1, 7, 20_000_000);
    w.event(300, 2, b"12345").event(301, 3, b"whatever");
    w.event(162, 10, &[0; 12]).string_sample(10, 8, b"A");
    w.event(300, 2, b"12345");
    w.event(165, 11, &[0; 8]);
    // A pre-8.10 style census without END, then the end marker: kept.
    w.event(162, 20, &[0; 12]).string_sample(20, 9, b"B").end();
    let (r, rec) = read(&w.bytes);
    r.unwrap();
    assert_eq!(rec.samples.len(), 4);
    assert_eq!(rec.samples[2].1, vec![(b"B".to_vec(), 9.0)]);
    // Without the end marker the unfinished census is dropped, with a warning.
    let cut = w.bytes.len() - 2;
    let (r, rec) = read(&w.bytes[..cut]);
    let report = r.unwrap();
    assert_eq!(rec.samples.len(), 3);
    assert!(report.warnings.iter().any(|w| matches!(
        w,
        EventlogWarning::Truncated {
            dropped_sample: true,
            ..
        }
    )));
}

#[test]
fn no_samples_says_why() {
    let header_only = RawLog::ghc_9_2().bytes;
    match read(&header_only).0 {
        Err(EventlogError::NoSamples { why, .. }) => assert!(why.contains("Ctrl-C"), "{why}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let mut w = RawLog::ghc_9_2();
    w.event(18, 0, &[0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFF]);
    w.event(29, 1, b"\0\0\0\0GHC-9.0.2 rts_l").end();
    match read(&w.bytes).0 {
        Err(EventlogError::NoSamples { why, .. }) => {
            assert!(why.contains("-hT -l"), "{why}");
            assert!(why.contains("the run made no heap profile"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // The same log cut (no end marker) before any heap-profile event, as a log copied
    // while its program runs: said so, not "the run made no heap profile".
    let cut = w.bytes.len() - 2;
    match read(&w.bytes[..cut]).0 {
        Err(EventlogError::NoSamples { why, .. }) => {
            assert!(
                why.contains(&format!("the log is cut at byte {cut}")),
                "{why}"
            );
            assert!(!why.contains("made no heap profile"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // A heap profile that began (160) in a run shorter than its interval: said so, not
    // "the run made no heap profile".
    let mut w = RawLog::ghc_9_2();
    w.event(18, 0, &[0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 9, 0xFF, 0xFF]);
    w.event(29, 1, b"\0\0\0\0GHC-9.0.2 rts_l");
    w.heap_prof_begin(2, 7, 20_000_000);
    w.end();
    match read(&w.bytes).0 {
        Err(EventlogError::NoSamples { why, .. }) => {
            assert!(why.contains("began but no census completed"), "{why}");
            assert!(!why.contains("made no heap profile"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    // Damage that costs every census says so, never "the run made no heap profile".
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 7, 20_000_000);
    w.event(162, 10, &0u64.to_be_bytes());
    w.string_sample(10, 8, b"A");
    w.event(77, 11, &[]); // undeclared
    w.event(165, 12, &0u64.to_be_bytes()).end();
    match read(&w.bytes).0 {
        Err(EventlogError::NoSamples { why, .. }) => {
            assert!(why.contains("damage cost every census"), "{why}");
            assert!(why.contains("(census 1 lost)"), "{why}");
            assert!(!why.contains("made no heap profile"), "{why}");
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    assert!(matches!(
        read(b"").0,
        Err(EventlogError::NotEventlog { .. })
    ));
    assert!(matches!(
        read(b"JOB \"x\"").0,
        Err(EventlogError::NotEventlog { .. })
    ));
}

#[test]
fn cuts_of_a_cost_centre_log_keep_whole_stacks() {
    let full = corpus("unicode-hc-L7.eventlog");
    let mut opts = EventlogOptions::default();
    // Whole stacks: names do not depend on which stacks the cut left.
    opts.full_names = true;
    let read_full = |b: &[u8]| {
        let mut rec = Recorder::default();
        (read_eventlog(b, &opts, &mut rec), rec)
    };
    let (r, whole) = read_full(&full);
    r.unwrap();
    let mut kept = 0;
    for cut in (full.len() - 14_000..full.len()).step_by(37) {
        let (r, rec) = read_full(&full[..cut]);
        if r.is_err() {
            continue;
        }
        kept += 1;
        let k = rec.samples.len();
        for i in 1..k - 1 {
            assert_eq!(rec.samples[i], whole.samples[i], "cut {cut}: sample {i}");
        }
    }
    assert!(kept > 100, "{kept}");
}

/// Damage that leaves every event well framed but breaks a census's shape is announced,
/// and costs that census only: an event GHC posts only outside censuses (here the RTS
/// identifier) inside one; a census whose BEGIN became another event; a BEGIN whose END
/// is missing (in a log that declares ENDs); a sample too short for its layout.
#[test]
fn broken_censuses_are_announced() {
    /// A case: what breaks, and the events that break it (after a first census).
    type Case<'a> = (&'a str, &'a dyn Fn(&mut RawLog));
    let cases: [Case; 4] = [
        ("start-up event inside a census", &|w| {
            w.event(162, 20, &0u64.to_be_bytes())
                .string_sample(20, 8, b"A");
            w.event(29, 20, b"\0\0\0\0GHC-9.10.3 rts_v");
            w.event(165, 21, &0u64.to_be_bytes());
        }),
        ("BEGIN lost", &|w| {
            w.event(33, 20, &0u64.to_be_bytes())
                .string_sample(20, 8, b"A");
            w.event(165, 21, &0u64.to_be_bytes());
        }),
        ("END lost", &|w| {
            w.event(162, 20, &0u64.to_be_bytes())
                .string_sample(20, 8, b"A");
        }),
        ("short sample", &|w| {
            w.event(162, 20, &0u64.to_be_bytes())
                .string_sample(20, 8, b"A");
            w.event(164, 20, &[0, 0, 0]);
            w.event(165, 21, &0u64.to_be_bytes());
        }),
    ];
    for (what, broken) in cases {
        let mut w = RawLog::ghc_9_2();
        w.heap_prof_begin(1, 7, 20_000_000);
        census(&mut w, 10, &[(b"A", 8)]);
        broken(&mut w);
        census(&mut w, 30, &[(b"B", 8)]);
        w.end();
        let (r, rec) = read(&w.bytes);
        let report = r.unwrap_or_else(|e| panic!("{what}: {e}"));
        let kept: Vec<_> = rec.samples.iter().map(|s| s.1.clone()).collect();
        let a = vec![(b"A".to_vec(), 8.0)];
        let b = vec![(b"B".to_vec(), 8.0)];
        assert_eq!(kept, [vec![], a, b, vec![]], "{what}");
        let text = report
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect::<String>();
        assert!(text.contains("(census 2 lost)"), "{what}: {text}");
        assert!(text.contains("1 census lost in all"), "{what}: {text}");
    }
}
