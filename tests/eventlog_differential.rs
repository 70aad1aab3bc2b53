//! Converted profiles render byte-identically: every golden `.hp` and the differential
//! test's random profiles, written as the eventlog their run would have written
//! (`support::eventlog::writer::convert_hp`) and read back with
//! the eventlog reader (`support::read_eventlog_profile`), render to the same PostScript file and
//! `.aux` data as the `.hp` itself, under the differential test's flag sets.
//!
//! * Only conversions without losses are compared (`Converted::losses` empty, and not a
//!   golden input that the writer's `.hp` parser reads differently from the crate's);
//!   the others are counted as skipped, by reason, in the summary line each test prints
//!   (`cargo test --test eventlog_differential -- --nocapture`).
//! * The **whole** PostScript file is compared, not only the body after `%%EndComments`
//!   as `differential.rs` does: both sides come from this library, and every header line
//!   (`%%Title` from JOB, `%%CreationDate` from DATE, the bounding box) derives from the
//!   profile, so the header is part of what the eventlog must give back.
//! * DATE: the writer stores the `.hp`'s DATE as a UTC wall clock, and the reader prints
//!   it in local time following `TZ` (as the runtime's `localtime` did). These tests
//!   set `TZ=UTC0` (a POSIX rule, so no zone file is needed) for the process, so that
//!   DATE comes back verbatim.
//! * Times: the converted log has no GC events, so the reader falls back to elapsed
//!   time with a warning; elapsed equals the `.hp`'s time by construction.
//!
//! No external tool is needed.

mod support;

// The command line's parser, so flag sets become options exactly as hp2ps scans them
// (as the `cli` fuzz target does).
use hp2ps::internals::cli;

use hp2ps::profile::Profile;
use hp2ps::{prepare, Aux, EventlogOptions, Format, PaintOptions, RenderOptions};
use support::read_eventlog_profile;

use support::compare::Verdict;
use support::eventlog::same_profile;
use support::eventlog::writer::{
    convert_hp, job_from_args, parse_hp, parse_hp_date, ConvertOptions, KNOWN_PARSE_DIFFERENCES,
};
use support::gen::random::{self as gen};
use support::gen::GOLDEN_FLAG_SETS;
use support::report::Tally;

/// Random profiles compared (each under its own random command line and under every
/// golden flag set); `HP2PS_DIFF_CASES` overrides.
const DEFAULT_RANDOM_CASES: u64 = 300;
/// Not `differential.rs`'s series: these profiles add to its coverage.
const RANDOM_SERIES: u64 = 0xe7e7_1095;

/// The reader prints DATE in local time: make that UTC, where the writer put it.
fn utc() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::env::set_var("TZ", "UTC0"));
}

/// The options a command line gives, from the binary's own parser (`src/cli/`, mounted
/// below); `None` when hp2ps would print usage.
fn options(args: &[&str]) -> Option<(RenderOptions, PaintOptions, bool)> {
    match cli::parse(args.iter().map(std::ffi::OsString::from)) {
        Ok(cli::Command::Render(inv)) => Some((inv.render, inv.paint, inv.use_aux)),
        _ => None,
    }
}

/// The `.ps` file and the `.aux` text of one render.
fn render(
    profile: Profile,
    previous: Option<&[u8]>,
    render: &RenderOptions,
    paint: &PaintOptions,
) -> (Vec<u8>, Vec<u8>) {
    let previous = previous.map(|aux| Aux::read(aux).expect("our own .aux reads back"));
    let (chart, aux) = prepare(profile, previous.as_ref(), render);
    let mut ps = Vec::new();
    chart
        .write(Format::Ps, paint, &mut ps)
        .expect("write to a Vec");
    let mut aux_text = Vec::new();
    aux.write(&mut aux_text).expect("write to a Vec");
    (ps, aux_text)
}

/// The `.hp`'s profile and the converted eventlog's profile, or why they are not
/// compared.
fn both_profiles(name: &str, hp: &[u8]) -> Result<(Profile, Profile), String> {
    if KNOWN_PARSE_DIFFERENCES.contains(&name) {
        return Err("writer's .hp parser reads it differently (KNOWN_PARSE_DIFFERENCES)".into());
    }
    let (from_hp, _) =
        support::read_profile(hp).map_err(|_| "the .hp reader refuses it".to_string())?;
    let conv = convert_hp(hp, &ConvertOptions::default())
        .map_err(|_| "the writer's .hp parser refuses it".to_string())?;
    if let Some(loss) = conv.losses.first() {
        // The variant name only, so that the summary groups them.
        let kind = format!("{loss:?}");
        let kind = kind.split(['(', ' ', '{']).next().unwrap_or_default();
        return Err(format!("conversion loses something: {kind}"));
    }
    // Random profiles use the whole `.hp` language; the writer's simple parser reads a
    // few of them differently from the crate (several statements on one line).
    let parsed = parse_hp(hp).expect("converted above");
    if !same_profile(&parsed, &from_hp) {
        return Err("writer's .hp parser reads it differently".into());
    }
    let (from_log, _) = read_eventlog_profile(&conv.eventlog[..], &EventlogOptions::default())
        .map_err(|e| format!("READER REFUSED the converted eventlog: {e}"))?;
    Ok((from_hp, from_log))
}

/// Compares the renders of both profiles under one command line (and, for `-p`, a first
/// command line that writes the `.aux`; `filter`: the run reads stdin, where `-p` does
/// nothing).
fn compare(
    from_hp: &Profile,
    from_log: &Profile,
    first: Option<&[&str]>,
    args: &[&str],
    filter: bool,
) -> Verdict {
    let Some((ropts, popts, use_aux)) = options(args) else {
        return Verdict::Skipped("hp2ps prints usage".into());
    };
    let previous = match (use_aux, first) {
        (false, _) => (None, None),
        // Filter mode: `-p` neither reads nor writes an `.aux`.
        (true, None) if filter => (None, None),
        (true, None) => return Verdict::Skipped("-p without a first run".into()),
        (true, Some(first)) => {
            let Some((r1, p1, _)) = options(first) else {
                return Verdict::Skipped("hp2ps prints usage".into());
            };
            let (_, a) = render(from_hp.clone(), None, &r1, &p1);
            let (_, b) = render(from_log.clone(), None, &r1, &p1);
            (Some(a), Some(b))
        }
    };
    let (ps_a, aux_a) = render(from_hp.clone(), previous.0.as_deref(), &ropts, &popts);
    let (ps_b, aux_b) = render(from_log.clone(), previous.1.as_deref(), &ropts, &popts);
    let mut diffs = Vec::new();
    if previous.0 != previous.1 {
        diffs.push("first run's .aux differs".to_string());
    }
    if ps_a != ps_b {
        diffs.push(format!(
            "PostScript differs: {}",
            first_difference(&ps_a, &ps_b)
        ));
    }
    if aux_a != aux_b {
        diffs.push(format!(
            ".aux differs: {}",
            first_difference(&aux_a, &aux_b)
        ));
    }
    if from_hp != from_log {
        diffs.push("(the profiles differ too)".to_string());
    }
    if diffs.is_empty() {
        Verdict::Identical
    } else {
        Verdict::Mismatch(diffs)
    }
}

/// The first differing line of two outputs.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let (la, lb): (Vec<&[u8]>, Vec<&[u8]>) = (a.split(|&c| c == b'\n').collect(), {
        b.split(|&c| c == b'\n').collect()
    });
    for (i, (x, y)) in la.iter().zip(&lb).enumerate() {
        if x != y {
            return format!(
                "line {}: .hp {:?} / eventlog {:?}",
                i + 1,
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
    format!("{} lines / {} lines", la.len(), lb.len())
}

#[test]
fn golden_inputs_converted_to_eventlogs_render_identically() {
    utc();
    let mut tally = Tally::new("eventlog-golden");
    let mut inputs = 0;
    for (name, hp) in support::golden_inputs() {
        match both_profiles(&name, &hp) {
            Err(reason) => {
                assert!(!reason.starts_with("READER"), "{name}: {reason}");
                for _ in GOLDEN_FLAG_SETS {
                    tally.record(&name, &hp, Verdict::Skipped(reason.clone()));
                }
            }
            Ok((from_hp, from_log)) => {
                inputs += 1;
                for flags in GOLDEN_FLAG_SETS {
                    let verdict = compare(&from_hp, &from_log, None, flags, false);
                    tally.record(&format!("{name} {}", flags.join(" ")), &hp, verdict);
                }
            }
        }
    }
    eprintln!("eventlog-golden: {inputs} golden inputs converted losslessly");
    tally.finish(35 * GOLDEN_FLAG_SETS.len());
}

/// A profile's content as GHC would have written it: one statement per line, an empty
/// sample at 0 and an empty one at the end (after every mark), marks in time order
/// before the samples, and JOB, DATE and
/// the units replaced by GHC-shaped ones when an eventlog cannot carry them (the
/// returned list says which were).
fn ghc_shaped(p: &Profile) -> (Vec<u8>, Vec<&'static str>) {
    let mut fixed = Vec::new();
    let mut out = Vec::new();
    let job = if job_from_args(&p.job.split(|&b| b == b' ').collect::<Vec<_>>()) == p.job
        && !p.job.contains(&0)
    {
        p.job.clone()
    } else {
        fixed.push("JOB");
        b"prog +RTS -hT".to_vec()
    };
    let date = if parse_hp_date(&p.date).is_some() {
        p.date.clone()
    } else {
        fixed.push("DATE");
        b"Sat Nov 21 05:17 2026".to_vec()
    };
    if p.sample_unit != b"seconds" || p.value_unit != b"bytes" {
        fixed.push("units");
    }
    for (key, text) in [(&b"JOB"[..], job), (b"DATE", date)] {
        out.extend_from_slice(key);
        out.push(b' ');
        out.extend_from_slice(&support::hp_quoted(&text));
        out.push(b'\n');
    }
    out.extend_from_slice(b"SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    let mut marks = p.marks.clone();
    marks.sort_by(f64::total_cmp);
    for m in &marks {
        out.extend_from_slice(format!("MARK {}\n", decimal(*m)).as_bytes());
    }
    let mut samples: Vec<Vec<(&[u8], f64)>> = vec![Vec::new(); p.times.len()];
    for band in &p.bands {
        for point in &band.points {
            let (i, v) = (point.sample, point.value);
            samples[i as usize].push((&band.name, v));
        }
    }
    let empty_sample = |out: &mut Vec<u8>, t: f64| {
        let t = decimal(t);
        out.extend_from_slice(format!("BEGIN_SAMPLE {t}\nEND_SAMPLE {t}\n").as_bytes());
    };
    if !(p.times.first() == Some(&0.0) && samples[0].is_empty()) {
        empty_sample(&mut out, 0.0);
    }
    for (t, bands) in p.times.iter().zip(&samples) {
        let t = decimal(*t);
        out.extend_from_slice(format!("BEGIN_SAMPLE {t}\n").as_bytes());
        for (name, v) in bands {
            out.extend_from_slice(name);
            if v.fract() == 0.0 && *v >= 0.0 && *v < 1.8e19 {
                out.extend_from_slice(format!(" {}\n", *v as u64).as_bytes());
            } else {
                out.extend_from_slice(format!(" {v}\n").as_bytes());
            }
        }
        out.extend_from_slice(format!("END_SAMPLE {t}\n").as_bytes());
    }
    // The end: after the last sample and the last mark.
    let end = p.times.iter().chain(&marks).copied().fold(0.0, f64::max);
    match (p.times.last(), samples.last()) {
        (Some(&t), Some(last)) if last.is_empty() && p.times.len() > 1 && t == end => {}
        _ => empty_sample(&mut out, end.floor() + 1.0),
    }
    (out, fixed)
}

/// A time as the `.hp` writes it: with a decimal point, and no exponent (Rust's `{}`
/// never writes one, and gives the shortest digits that read back as the same `f64`).
fn decimal(t: f64) -> String {
    let s = format!("{t}");
    if s.contains('.') {
        s
    } else {
        s + ".0"
    }
}

#[test]
fn random_profiles_converted_to_eventlogs_render_identically() {
    utc();
    let count = std::env::var("HP2PS_DIFF_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_RANDOM_CASES);
    // As generated: random profiles use the whole `.hp` language, so few are shaped
    // like GHC's and convert without loss. Each is then also compared in GHC's shape.
    let mut raw = Tally::new("eventlog-random-as-generated");
    let mut shaped = Tally::new("eventlog-random-ghc-shaped");
    let mut fixes: std::collections::BTreeMap<&str, usize> = Default::default();
    let runs = 1 + GOLDEN_FLAG_SETS.len();
    for i in 0..count {
        let case = gen::random_case(gen::case_seed(RANDOM_SERIES, i));
        let label = case.label();
        let own: Vec<&str> = case.run.args.iter().map(String::as_str).collect();
        let first: Option<Vec<&str>> = case
            .first
            .as_ref()
            .map(|r| r.args.iter().map(String::as_str).collect());
        let mut inputs = vec![(&mut raw, case.input.clone())];
        match support::read_profile(&case.input[..]) {
            Ok((p, _)) => {
                let (hp, fixed) = ghc_shaped(&p);
                for f in fixed {
                    *fixes.entry(f).or_default() += 1;
                }
                inputs.push((&mut shaped, hp));
            }
            Err(_) => {
                for _ in 0..runs {
                    shaped.record(
                        &label,
                        &case.input,
                        Verdict::Skipped("the .hp reader refuses it".into()),
                    );
                }
            }
        }
        for (tally, hp) in inputs {
            match both_profiles("", &hp) {
                Err(reason) => {
                    assert!(!reason.starts_with("READER"), "{label}: {reason}");
                    for _ in 0..runs {
                        tally.record(&label, &hp, Verdict::Skipped(reason.clone()));
                    }
                }
                Ok((from_hp, from_log)) => {
                    let verdict =
                        compare(&from_hp, &from_log, first.as_deref(), &own, case.run.stdin);
                    tally.record(&label, &hp, verdict);
                    for flags in GOLDEN_FLAG_SETS {
                        let verdict = compare(&from_hp, &from_log, None, flags, false);
                        let what = format!("seed={:#018x} {}", case.seed, flags.join(" "));
                        tally.record(&what, &hp, verdict);
                    }
                }
            }
        }
    }
    eprintln!("eventlog-random-ghc-shaped: header fields replaced: {fixes:?}");
    raw.finish(0);
    shaped.finish(count as usize / 4 * runs);
}
