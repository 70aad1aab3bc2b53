//! A profile cut while hp2ps reads it (GHC truncates `prog.hp` and `prog.eventlog` when
//! the program starts again): never a signal; either a correct chart of what was read or
//! the one line "t.hp: the file changed while it was read", exit 1, and the outputs of the
//! earlier run left as they were.
//!
//! Each run renders a large generated profile (mapped, as every regular file of 1 MiB or
//! more is), and cuts the file to nothing or to half its length after a random delay
//! within the time a whole render takes. The outcomes are counted and printed; every
//! one must be one of the good ones. `HP2PS_UNDER_TEST=/path/to/hp2ps` runs another
//! binary (one without the fix dies of SIGBUS in most runs).

mod support;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use support::eventlog::writer::hp_to_eventlog;
use support::gen::realistic::generated;
use support::rng::Rng;
use support::{tools, Cmd, TempDir};

/// What the earlier run left: a cut file must not cost the user these.
const EARLIER_PS: &[u8] = b"%!PS the earlier chart\n";
const EARLIER_AUX: &[u8] = b"X_RANGE 1.00\n";

/// How a cut run ended.
#[derive(Debug, Default)]
struct Tally {
    runs: usize,
    /// A chart of the whole file: read before the cut.
    whole: usize,
    /// A chart of the file as cut (the cut came before hp2ps looked at it).
    as_cut: usize,
    /// "the file changed while it was read".
    changed: usize,
    /// The file's own error as cut, an empty file (the cut came first).
    refused_as_cut: usize,
}

/// One expected outcome: exit status, stderr, and the `.ps`/`.aux` a success writes.
struct Outcome {
    code: i32,
    stderr: Vec<u8>,
    files: Option<(Vec<u8>, Vec<u8>)>,
}

/// hp2ps `-c` on `name` in `dir`.
fn hp2ps(dir: &Path, name: &str) -> Cmd {
    Cmd::new(tools::under_test())
        .args(["-c", name])
        .current_dir(dir)
        .timeout(Duration::from_secs(120))
}

/// The outcome of rendering `bytes` undisturbed, and how long it took.
fn undisturbed(dir: &Path, name: &str, bytes: &[u8]) -> (Outcome, Duration) {
    let stem = name.split('.').next().expect("a stem");
    std::fs::write(dir.join(name), bytes).expect("write the input");
    let _ = std::fs::remove_file(dir.join(format!("{stem}.ps")));
    let started = Instant::now();
    let ran = hp2ps(dir, name).run();
    let took = started.elapsed();
    let code = ran
        .code
        .unwrap_or_else(|| panic!("{name} undisturbed: {ran:?}"));
    let files = (code == 0).then(|| {
        let read = |ext: &str| std::fs::read(dir.join(format!("{stem}.{ext}"))).expect("output");
        (read("ps"), read("aux"))
    });
    let outcome = Outcome {
        code,
        stderr: ran.stderr,
        files,
    };
    (outcome, took)
}

/// Renders `bytes` as `name` `runs` times, cutting the file during each render, and
/// checks every outcome; returns their tally.
fn cut_while_read(name: &str, bytes: &[u8], runs: usize, seed: u64) -> Tally {
    let dir = TempDir::new("changed-while-read");
    let stem = name.split('.').next().expect("a stem");
    let half = bytes.len() / 2;
    // The quickest of three: the cuts then fall early rather than after the read.
    let (whole, took) = undisturbed(dir.path(), name, bytes);
    let took = (0..2).fold(took, |t, _| t.min(undisturbed(dir.path(), name, bytes).1));
    assert_eq!(
        whole.code,
        0,
        "{name}: {}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let (as_half, _) = undisturbed(dir.path(), name, &bytes[..half]);
    let (as_empty, _) = undisturbed(dir.path(), name, b"");
    assert_ne!(as_empty.code, 0, "an empty file renders?");
    let changed_line = format!("hp2ps: {name}: the file changed while it was read\n");

    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let window = took.as_micros() as u64;
    for run in 0..runs {
        let input = dir.join(name);
        std::fs::write(&input, bytes).expect("write the input");
        let (ps, aux) = (
            dir.join(&format!("{stem}.ps")),
            dir.join(&format!("{stem}.aux")),
        );
        std::fs::write(&ps, EARLIER_PS).unwrap();
        std::fs::write(&aux, EARLIER_AUX).unwrap();
        let to_half = run % 2 == 1;
        let delay = Duration::from_micros(rng.below(window + 1));

        let child = hp2ps(dir.path(), name).spawn();
        std::thread::sleep(delay);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&input)
            .unwrap();
        file.set_len(if to_half { half as u64 } else { 0 }).unwrap();
        drop(file);
        let out: Output = child.wait_with_output().expect("wait for hp2ps");

        let what = format!(
            "{name} run {run}, cut to {} after {delay:?}",
            if to_half { "half" } else { "nothing" }
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let Some(code) = out.status.code() else {
            panic!("{what}: {:?}, stderr {stderr:?}", out.status);
        };
        let written = (std::fs::read(&ps).unwrap(), std::fs::read(&aux).unwrap());
        let earlier = (EARLIER_PS.to_vec(), EARLIER_AUX.to_vec());
        let cut = if to_half { &as_half } else { &as_empty };
        let same = |o: &Outcome| {
            code == o.code
                && out.stderr == o.stderr
                && o.files
                    .as_ref()
                    .map_or(written == earlier, |f| *f == written)
        };
        tally.runs += 1;
        if stderr == changed_line && code == 1 {
            assert_eq!(written, earlier, "{what}: the earlier outputs changed");
            tally.changed += 1;
        } else if same(&whole) {
            tally.whole += 1;
        } else if same(cut) && code == 0 {
            tally.as_cut += 1;
        } else if same(cut) {
            tally.refused_as_cut += 1;
        } else {
            panic!(
                "{what}: exit {code}, stderr {stderr:?}, outputs {} the earlier ones \
                 (whole file: exit {}; as cut: exit {})",
                if written == earlier { "still" } else { "not" },
                whole.code,
                cut.code
            );
        }
    }
    eprintln!(
        "{name} ({} MB, a render takes {took:?}): {} runs: {} charts of the whole file, \
         {} of the file as cut, {} 'changed while read', {} refused as cut (empty); \
         no signal, nothing else",
        bytes.len() >> 20,
        tally.runs,
        tally.whole,
        tally.as_cut,
        tally.changed,
        tally.refused_as_cut
    );
    // The cuts must land while the file is read, or the test proved nothing.
    assert!(
        tally.changed >= runs / 4,
        "{name}: only {} of {runs} cuts came while the file was read",
        tally.changed
    );
    tally
}

/// The generated profile: 24 MB, read in a tenth of a second or more.
fn profile() -> Vec<u8> {
    generated(&["--size", "24M", "--bands", "200", "--seed", "21"])
}

/// Runs per input kind: 60, or `HP2PS_CUT_RUNS`.
fn runs() -> usize {
    std::env::var("HP2PS_CUT_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60)
}

#[test]
fn an_hp_file_cut_while_read_never_kills_hp2ps() {
    cut_while_read("t.hp", &profile(), runs(), 1);
}

#[test]
fn an_eventlog_cut_while_read_never_kills_hp2ps() {
    let eventlog = hp_to_eventlog(&profile()).expect("the profile as an eventlog");
    cut_while_read("t.eventlog", &eventlog, runs(), 2);
}
