//! Replays every input the fuzz targets ever failed on (`fuzz/regressions/<target>/`)
//! and every committed seed (`fuzz/seeds/<target>/`) through the targets' own checks
//! (`fuzz/fuzz_targets/common.rs`), so a crash found once stays fixed without running
//! the fuzzer. Fuzzing itself never runs here: see docs/robustness.md.

mod support;

// The fuzz targets' own checks: the code under test here, not a test helper, so it is
// mounted from the fuzz crate as it is.
// It mounts `support/pslex.rs` and `support/xmlcheck.rs` too (the fuzz crate has no
// `support`), hence the second copy of those two modules in this test crate.
#[path = "../fuzz/fuzz_targets/common.rs"]
#[allow(clippy::duplicate_mod)]
mod fuzz_targets;

// The `batch_names` and `watch_paths` targets' checks, with the command's parser and file
// handling they exercise at this crate's root, where the targets have them.
#[path = "../fuzz/fuzz_targets/files_check.rs"]
mod files_check;
#[path = "../fuzz/fuzz_targets/run_files.rs"]
mod run;
use hp2ps::internals::cli;

use support::Cmd;

use std::path::PathBuf;

use hp2ps::{prepare, Aux, RenderOptions};

fn inputs(kind: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    // git keeps no empty directory: a target without regressions has none.
    let entries = match std::fs::read_dir(&dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && kind == "regressions" => {
            return Vec::new()
        }
        other => other.unwrap_or_else(|e| panic!("{}: {e}", dir.display())),
    };
    let mut v: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("read input"))
        })
        .collect();
    v.sort();
    v
}

/// Runs `check` on each input, naming the input that fails.
fn replay(kind: &str, target: &str, check: fn(&[u8])) -> usize {
    let all = inputs(kind, target);
    for (name, data) in &all {
        let outcome = std::panic::catch_unwind(|| check(data));
        assert!(outcome.is_ok(), "fuzz/{kind}/{target}/{name} fails");
    }
    all.len()
}

#[test]
fn hp_reader_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "hp_reader", fuzz_targets::hp_reader) > 10);
    replay("regressions", "hp_reader", fuzz_targets::hp_reader);
}

#[test]
fn eventlog_reader_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "eventlog_reader", fuzz_targets::eventlog_reader) >= 5);
    replay(
        "regressions",
        "eventlog_reader",
        fuzz_targets::eventlog_reader,
    );
}

#[test]
fn prof_reader_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "prof_reader", fuzz_targets::prof_reader) >= 10);
    replay("regressions", "prof_reader", fuzz_targets::prof_reader);
}

#[test]
fn aux_reader_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "aux_reader", fuzz_targets::aux_reader) > 10);
    replay("regressions", "aux_reader", fuzz_targets::aux_reader);
}

#[test]
fn binary_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "binary", fuzz_targets::binary) >= 5);
    replay("regressions", "binary", fuzz_targets::binary);
}

#[test]
fn batch_names_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "batch_names", files_check::batch_names) >= 5);
    replay("regressions", "batch_names", files_check::batch_names);
}

#[test]
fn watch_paths_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "watch_paths", files_check::watch_paths) >= 3);
    replay("regressions", "watch_paths", files_check::watch_paths);
}

#[test]
fn cli_seeds_and_regressions_pass_the_target_checks() {
    assert!(replay("seeds", "cli", fuzz_targets::cli_check::check) > 5);
    replay("regressions", "cli", fuzz_targets::cli_check::check);
}

#[test]
fn messages_stay_on_one_line_whatever_the_arguments() {
    let dir = std::env::temp_dir();
    for (args, lines) in [
        // A usage error: the reason, then the hint to try --help.
        (vec!["--v\r\nINJECTED"], 2),
        (vec!["-x\nINJECTED"], 2),
        // A file that cannot be opened: one line.
        (vec!["no\nsuch.hp"], 1),
    ] {
        let out = Cmd::hp2ps().args(&args).current_dir(&dir).output();
        let text = String::from_utf8_lossy(&out.stderr);
        assert_eq!(text.lines().count(), lines, "{args:?}: {text:?}");
        assert!(!text.contains('\r'), "{args:?}: {text:?}");
    }
}

type Names = Vec<Vec<u8>>;

/// The bands' names in the `.aux` a render of `hp` writes, and what reading it back gives.
fn aux_round_trip(hp: &[u8]) -> (Names, Result<Names, String>) {
    let (profile, _) = support::read_profile(hp).expect("profile reads");
    let (_, aux) = prepare(profile, None, &RenderOptions::default());
    let mut text = Vec::new();
    aux.write(&mut text).expect("aux to memory");
    let written = aux.order.iter().map(|(n, _)| n.clone()).collect();
    let read = Aux::read(&text)
        .map(|a| a.order.into_iter().map(|(n, _)| n).collect())
        .map_err(|e| e.to_string());
    (written, read)
}

#[test]
fn an_aux_file_we_wrote_reads_back_whatever_the_names() {
    let header = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n";
    for body in [
        // Found by the hp_reader target: `\0n` is an identifier, stored up to the NUL.
        "BEGIN_SAMPLE 0.\0n\t2\nEND_SAMPLE 0.\n",
        // A line hp2ps's tokens cannot read, so the TAB rule takes all before the TAB.
        "BEGIN_SAMPLE 0.0\n\x0b a b\t5\nEND_SAMPLE 0.0\n",
    ] {
        let (written, read) = aux_round_trip(format!("{header}{body}").as_bytes());
        assert_eq!(read, Ok(written), "{body:?}");
    }
}
