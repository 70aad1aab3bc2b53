//! One damaged byte costs at most the census it falls in: a single-byte change at each of
//! 500 seeded positions in the data sections of the 28 real logs (GHC 9.0.2 and 9.10.3),
//! each read and compared with the undamaged log's reading. For each: nothing panics, at
//! most one census is lost, and a lost census is announced by a warning that names the
//! damaged bytes. The reader on every core gives the one-pass reader's result.
//!
//! The counts are printed (`cargo test --test eventlog_damage -- --nocapture`).

mod support;

use std::path::{Path, PathBuf};

use hp2ps::internals::eventlog::{read_eventlog, read_eventlog_slice_chunked};
use hp2ps::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning, TimeAxis};
use support::eventlog::recorder::{Recorder, Sample};
use support::rng::Rng;

/// Positions tried (`HP2PS_DAMAGE_POSITIONS` tries more; `HP2PS_DAMAGE_SEED` other ones).
fn positions() -> (usize, u64) {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    (
        var("HP2PS_DAMAGE_POSITIONS").map_or(500, |n: u64| n as usize),
        var("HP2PS_DAMAGE_SEED").unwrap_or(0x5eed_da7a_0000_0001),
    )
}

/// The real logs: GHC 9.0.2's and GHC 9.10.3's.
fn real_logs() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut logs = Vec::new();
    for dir in ["eventlog", "ghc-9.10"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eventlog"))
            .collect();
        paths.sort();
        for p in paths {
            let name = format!("{dir}/{}", p.file_name().unwrap().to_string_lossy());
            logs.push((name, std::fs::read(&p).unwrap()));
        }
    }
    assert_eq!(logs.len(), 28);
    logs
}

/// Census times stay put whatever GC events the damage hits; names are whole stacks.
fn options() -> EventlogOptions {
    let mut opts = EventlogOptions::default();
    opts.time = TimeAxis::Elapsed;
    opts.full_names = true;
    opts
}

fn read(bytes: &[u8]) -> (Result<EventlogReport, EventlogError>, Recorder) {
    let mut rec = Recorder::default();
    let r = read_eventlog(bytes, &options(), &mut rec);
    (r, rec)
}

/// The censuses of a reading (without the empty first and last samples).
fn censuses(rec: &Recorder) -> &[Sample] {
    let s = &rec.samples;
    if s.len() < 2 {
        return &[];
    }
    &s[1..s.len() - 1]
}

/// What one damaged byte did.
#[derive(Default)]
struct Outcome {
    /// The undamaged log's censuses missing from the damaged reading.
    lost: usize,
    /// Censuses kept with another time, or other points (a value or a name changed).
    altered: usize,
    /// Censuses the undamaged log does not have.
    extra: usize,
    /// Whether the reading differs in any census.
    changed: bool,
    /// Whether the damage was announced (a warning the undamaged reading has not).
    announced: bool,
    /// Whether a damage warning names a place within an event of the damaged byte.
    named: bool,
    refused: bool,
}

/// The longest event: a variable-size one with the largest payload.
const EVENT: u64 = 12 + 0xFFFF;

fn compare(
    whole: &[Sample],
    whole_warnings: &[EventlogWarning],
    damaged: &(Result<EventlogReport, EventlogError>, Recorder),
    at: u64,
) -> Outcome {
    let mut o = Outcome::default();
    let report = match &damaged.0 {
        Ok(r) => r,
        Err(e) => {
            o.refused = true;
            o.lost = whole.len();
            o.changed = true;
            let why = e.to_string();
            o.announced = why.contains("damage");
            o.named = why.contains("byte");
            return o;
        }
    };
    // Each census of the undamaged reading is kept (the same time and points), altered
    // (the same time or the same points: a value, a name or its time changed) or lost.
    let got = censuses(&damaged.1);
    let mut used = vec![false; got.len()];
    let mut take = |same: &dyn Fn(&Sample) -> bool| -> Option<usize> {
        let i = (0..got.len()).find(|&i| !used[i] && same(&got[i]))?;
        used[i] = true;
        Some(i)
    };
    let mut unmatched = Vec::new();
    for c in whole {
        if take(&|g: &Sample| g == c).is_none() {
            unmatched.push(c);
        }
    }
    for c in unmatched {
        match take(&|g: &Sample| g.0 == c.0 || g.1 == c.1) {
            Some(_) => o.altered += 1,
            None => o.lost += 1,
        }
    }
    o.extra = used.iter().filter(|u| !**u).count();
    o.changed = o.lost + o.altered + o.extra > 0;
    o.announced = report.warnings.iter().any(|w| !whole_warnings.contains(w));
    o.named = report.warnings.iter().any(|w| match w {
        EventlogWarning::Damaged { regions, .. } => regions
            .iter()
            .any(|(r, _)| r.start <= at + EVENT && at < r.end.max(r.start + 1) + EVENT),
        _ => false,
    });
    o
}

#[test]
fn one_damaged_byte_costs_at_most_its_census() {
    let logs = real_logs();
    let wholes: Vec<(Vec<Sample>, Vec<EventlogWarning>, usize)> = logs
        .iter()
        .map(|(name, bytes)| {
            let (r, rec) = read(bytes);
            let report = r.unwrap_or_else(|e| panic!("{name}: {e}"));
            let data = bytes.windows(4).position(|w| w == b"datb").unwrap() + 4;
            (censuses(&rec).to_vec(), report.warnings, data)
        })
        .collect();
    let (positions, seed) = positions();
    let mut rng = Rng::new(seed);
    let (mut unchanged, mut announced, mut silent) = (0, 0, 0);
    let (mut all_lost, mut several_lost, mut one_lost) = (0, 0, 0);
    let (mut altered, mut extra) = (0, 0);
    let mut failures = Vec::new();
    for round in 0..positions {
        let i = rng.below(logs.len() as u64) as usize;
        let (name, bytes) = &logs[i];
        let (whole, whole_warnings, data) = &wholes[i];
        let at = data + rng.below((bytes.len() - data) as u64) as usize;
        let mut damaged = bytes.clone();
        damaged[at] ^= 1 + rng.below(255) as u8;
        let reading = read(&damaged);
        if let Err(EventlogError::Io(e)) = &reading.0 {
            panic!("{name}: I/O error from memory: {e}");
        }
        // The reader on every core agrees, warnings and errors included.
        let mut rec = Recorder::default();
        let in_runs = read_eventlog_slice_chunked(&damaged, &options(), &mut rec, 4096);
        assert_eq!(
            format!("{:?} {:?}", reading.0, reading.1),
            format!("{in_runs:?} {rec:?}"),
            "{name}, byte {at}: the reader in runs differs"
        );
        let o = compare(whole, whole_warnings, &reading, at as u64);
        let what = format!(
            "round {round}: {name} byte {at} (of {}): {} lost, {} altered, {} extra; {:?}",
            bytes.len(),
            o.lost,
            o.altered,
            o.extra,
            reading.0.as_ref().map(|r| &r.warnings)
        );
        match (o.changed, o.announced) {
            (false, _) => unchanged += 1,
            (true, true) => announced += 1,
            (true, false) => silent += 1,
        }
        if o.refused {
            all_lost += 1;
        }
        match o.lost {
            0 => {}
            1 => one_lost += 1,
            _ => several_lost += 1,
        }
        altered += o.altered;
        extra += o.extra;
        if o.lost > 1 || (o.lost > 0 && !o.named) {
            failures.push(what);
        } else if o.changed && std::env::var_os("HP2PS_DAMAGE_VERBOSE").is_some() {
            eprintln!("{what}");
        }
    }
    eprintln!(
        "eventlog damage: {positions} single-byte changes in the data of 28 real logs: \
         {unchanged} read as before, {announced} changed and announced, {silent} changed \
         silently (a value, a name or a time); every census lost: {all_lost}, more than \
         one census lost: {several_lost}, one census lost: {one_lost}; censuses altered: \
         {altered}, added: {extra}"
    );
    for f in &failures {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
}
