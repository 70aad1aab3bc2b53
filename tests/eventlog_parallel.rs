//! The eventlog reader on every core (a mapped file: runs of whole blocks scanned by
//! worker threads, applied in order) gives exactly what the one-pass streaming reader
//! gives: the same statements to the sink, the same report and warnings, the same errors.
//! Tiny runs put a cut between every pair of blocks; cut and mutated logs make runs whose
//! events do not end where the next run starts, which must hand over to the one-pass
//! reading at the right offset.

mod support;

use std::path::Path;

use hp2ps::internals::eventlog::{read_eventlog, read_eventlog_slice_chunked};
use hp2ps::EventlogOptions;
use support::eventlog::recorder::Recorder;
use support::eventlog::writer::{convert_hp, ConvertOptions, Layout};

/// Everything a read said, as text: the sink's statements and the report, or the error.
fn outcome(r: Result<impl std::fmt::Debug, impl std::fmt::Display>, rec: &Recorder) -> String {
    match r {
        Ok(report) => format!("{rec:?}\n{report:?}"),
        Err(e) => format!("error: {e}"),
    }
}

fn streamed(bytes: &[u8], opts: &EventlogOptions) -> String {
    let mut rec = Recorder::default();
    let r = read_eventlog(bytes, opts, &mut rec);
    outcome(r, &rec)
}

fn in_runs(bytes: &[u8], opts: &EventlogOptions, chunk: usize) -> String {
    let mut rec = Recorder::default();
    let r = read_eventlog_slice_chunked(bytes, opts, &mut rec, chunk);
    outcome(r, &rec)
}

/// Checks `bytes` with runs of several sizes; returns the one-pass outcome.
fn same_both_ways(what: &str, bytes: &[u8], opts: &EventlogOptions) -> String {
    let want = streamed(bytes, opts);
    for chunk in [1, 100, 4096, 1 << 20] {
        let got = in_runs(bytes, opts, chunk);
        assert!(
            got == want,
            "{what}: runs of {chunk} bytes differ from one pass\n--- one pass:\n{}\n--- runs:\n{}",
            &want[..want.len().min(2000)],
            &got[..got.len().min(2000)]
        );
    }
    want
}

/// A `.hp` written as an eventlog in blocks of at most `per_block` events.
fn converted(hp: &Path, layout: Layout, per_block: usize) -> Option<Vec<u8>> {
    let bytes = std::fs::read(hp).unwrap();
    let opts = ConvertOptions {
        layout: layout.with_max_events_per_block(per_block),
        ..ConvertOptions::default()
    };
    convert_hp(&bytes, &opts).ok().map(|c| c.eventlog)
}

/// Every eventlog of the repository, real or a fuzz input: the GHC 9.0.2 and 9.10.3 logs
/// (several capabilities among them, whose thread switches the workers hand over with the
/// capability of their block), the `-hi` logs, the time-axis pairs and the fuzz seeds and
/// regressions, with short and full names in turn.
#[test]
fn every_log_of_the_repository_reads_the_same_in_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut logs = Vec::new();
    every_eventlog(&root.join("tests/data"), &mut logs);
    for folder in ["seeds", "regressions"] {
        every_eventlog(
            &root.join("fuzz").join(folder).join("eventlog_reader"),
            &mut logs,
        );
    }
    logs.sort();
    let mut opts = EventlogOptions::default();
    for log in &logs {
        let bytes = std::fs::read(log).unwrap();
        // A fuzz input is a byte of options, then the log.
        let bytes = match bytes.starts_with(b"hdrb") {
            true => &bytes[..],
            false => &bytes[1..],
        };
        let what = log.strip_prefix(root).unwrap_or(log).display().to_string();
        same_both_ways(&what, bytes, &opts);
        opts.full_names = !opts.full_names;
    }
    assert!(logs.len() >= 42 + 13, "only {} logs", logs.len());
}

/// The eventlogs under `folder` (any file that starts as one, or after one byte as a fuzz
/// input does), at any depth.
fn every_eventlog(folder: &Path, into: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            every_eventlog(&path, into);
        } else if std::fs::read(&path)
            .is_ok_and(|b| b.get(..4) == Some(b"hdrb") || b.get(1..5) == Some(b"hdrb"))
        {
            into.push(path);
        }
    }
}

/// Every golden input written as an eventlog, in turn in each layout the writer knows
/// (GHC 8.2 to 9.14) and in blocks of 1 to 17 events: generated logs of every shape, many
/// of many blocks.
#[test]
fn generated_logs_of_every_layout_read_the_same_in_runs() {
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs");
    let mut files: Vec<_> = std::fs::read_dir(&inputs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let shapes = [
        (Layout::ghc_8_2(), 1),
        (Layout::ghc_9_0(), 3),
        (Layout::ghc_9_2(), 17),
        (Layout::ghc_9_10(), 5),
        (Layout::ghc_9_12(), 2),
        (Layout::ghc_9_14(), 7),
    ];
    let mut checked = 0;
    for (i, hp) in files.iter().enumerate() {
        let (layout, per_block) = shapes[i % shapes.len()].clone();
        let Some(log) = converted(hp, layout, per_block) else {
            continue;
        };
        let what = hp.file_name().unwrap().to_string_lossy().into_owned();
        let out = same_both_ways(&what, &log, &EventlogOptions::default());
        // (A profile without a complete sample is refused both ways.)
        checked += usize::from(!out.starts_with("error"));
    }
    assert!(checked >= 50, "only {checked} inputs read");
}

/// Cuts and damage: every prefix of a many-block log at a stride, and seeded byte
/// mutations (block sizes that lie, undeclared ids, end markers in the middle).
#[test]
fn cut_and_damaged_logs_read_the_same_in_runs() {
    let hp = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs/manycc-O0-hc.hp");
    let log = converted(&hp, Layout::ghc_9_2(), 5).unwrap();
    let opts = EventlogOptions::default();
    let mut outcomes = std::collections::BTreeSet::new();
    for cut in (0..=log.len()).step_by(log.len() / 600 + 1) {
        let want = streamed(&log[..cut], &opts);
        assert_eq!(in_runs(&log[..cut], &opts, 64), want, "cut at {cut}");
        outcomes.insert(want.lines().next().map(str::to_owned));
    }
    assert!(outcomes.len() > 10, "the cuts should read differently");

    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let header = 3000.min(log.len() / 4);
    for round in 0..300 {
        let mut bytes = log.clone();
        for _ in 0..1 + next() % 3 {
            let at = header + (next() as usize) % (bytes.len() - header);
            bytes[at] = match next() % 4 {
                0 => 0xFF,
                1 => 0,
                2 => 18,
                _ => next() as u8,
            };
        }
        let want = streamed(&bytes, &opts);
        assert_eq!(in_runs(&bytes, &opts, 64), want, "mutation round {round}");
    }
}

/// Block sizes that lie in a real log of two capabilities: the events after a block's
/// declared end belong to no capability, for the workers as for the one-pass reading
/// (which reads the rest of the log as one run once a block size leads nowhere).
#[test]
fn lying_block_sizes_in_a_log_of_two_capabilities() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/timeaxis/ghc-9.10.3/par-hT-N2.eventlog");
    let log = std::fs::read(path).unwrap();
    let size_at = |b: &[u8], i: usize| u32::from_be_bytes(b[i + 10..i + 14].try_into().unwrap());
    // Block markers (id 18) whose size leads to the next marker or to the end marker.
    let markers: Vec<usize> = (0..log.len() - 16)
        .filter(|&i| {
            let next = i + size_at(&log, i) as usize;
            log[i..i + 2] == [0, 18]
                && next + 2 <= log.len()
                && matches!(log[next..next + 2], [0, 18] | [0xff, 0xff])
        })
        .collect();
    assert!(markers.len() >= 6, "{} block markers", markers.len());
    let opts = EventlogOptions::default();
    for &m in &markers[1..] {
        for shrink in [2, 300, 4000] {
            let mut bytes = log.clone();
            let size = size_at(&bytes, m).saturating_sub(shrink).max(24);
            bytes[m + 10..m + 14].copy_from_slice(&size.to_be_bytes());
            let want = streamed(&bytes, &opts);
            // Runs of the blocks before this one, then the rest as one run (its size
            // leads nowhere): the workers read the events past its declared end.
            for chunk in [64, m - markers[0]] {
                let got = in_runs(&bytes, &opts, chunk);
                assert_eq!(
                    got, want,
                    "block at {m}, {shrink} bytes short, runs of {chunk}"
                );
            }
        }
    }
}

/// Points outside censuses where runs start and end: a run that starts outside any
/// census with points before its first census event (read event by event), points after
/// an end (counted, never a band), a census cut by a run's start, and a band first seen
/// outside a census (numbered where it first counts).
#[test]
fn points_outside_censuses_at_run_boundaries() {
    use support::eventlog::writer::RawLog;
    // Each piece becomes one block of the global buffer.
    let pieces: Vec<Vec<u8>> = {
        let piece = |f: &dyn Fn(&mut RawLog)| {
            let mut w = RawLog::body();
            f(&mut w);
            w.bytes
        };
        vec![
            piece(&|w| {
                w.heap_prof_begin(1, 7, 100_000_000);
                w.event(162, 10, &0u64.to_be_bytes());
                w.string_sample(10, 5, b"a").string_sample(10, 6, b"b");
                w.event(165, 11, &0u64.to_be_bytes());
            }),
            // Outside any census from the run's start.
            piece(&|w| {
                w.string_sample(12, 7, b"c").string_sample(12, 8, b"a");
            }),
            piece(&|w| {
                w.event(162, 20, &0u64.to_be_bytes());
                w.string_sample(20, 9, b"c").string_sample(20, 10, b"d");
            }),
            // A census cut by the run's start, a point after its end, another census.
            piece(&|w| {
                w.string_sample(20, 11, b"e").string_sample(20, 12, b"a");
                w.event(165, 21, &0u64.to_be_bytes());
                w.string_sample(22, 13, b"f");
                w.event(162, 30, &0u64.to_be_bytes());
                w.string_sample(30, 14, b"g").string_sample(30, 15, b"f");
                w.event(165, 31, &0u64.to_be_bytes());
            }),
        ]
    };
    let mut log = RawLog::ghc_9_2();
    for piece in &pieces {
        let size = 24 + piece.len() as u32;
        let mut marker = size.to_be_bytes().to_vec();
        marker.extend_from_slice(&40u64.to_be_bytes());
        marker.extend_from_slice(&0xFFFFu16.to_be_bytes());
        log.event(18, 0, &marker).raw(piece);
    }
    log.end();
    let opts = EventlogOptions::default();
    let out = same_both_ways("crafted", &log.bytes, &opts);
    assert!(!out.starts_with("error"), "{out}");
    // What a one-pass read makes of it: c numbered where it first counts, f only for its
    // point inside a census, three points counted as stray.
    let mut builder = hp2ps::internals::ProfileBuilder::default();
    let report = read_eventlog_slice_chunked(&log.bytes, &opts, &mut builder, 1).unwrap();
    let profile = builder.finish();
    let names: Vec<String> = (profile.bands.iter())
        .map(|b| String::from_utf8_lossy(&b.name).into_owned())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "g", "f"]);
    let points = |name: &str| -> Vec<(u32, f64)> {
        let band = profile
            .bands
            .iter()
            .find(|b| b.name == name.as_bytes())
            .unwrap();
        band.points.iter().map(|p| (p.sample, p.value)).collect()
    };
    assert_eq!(points("a"), [(1, 5.0), (2, 12.0)]);
    assert_eq!(points("c"), [(2, 9.0)]);
    assert_eq!(points("e"), [(2, 11.0)]);
    assert_eq!(points("f"), [(3, 15.0)]);
    assert!(
        format!("{:?}", report.warnings).contains("StrayBands { count: 3 }"),
        "{:?}",
        report.warnings
    );
}
