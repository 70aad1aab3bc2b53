//! A second opinion on our folded stacks: inferno's `inferno-collapse-ghcprof`
//! (`cargo install inferno`; skipped loudly without it, failing under CI) on every text
//! report of `tests/data/prof/` and `../shared/corpus/prof/public/` that it reads, with
//! `--time`, `--ticks` and `--bytes`: its output and ours are the same bytes.
//!
//! inferno reads the reports of GHC 8.0 and later (with a SRC column) and refuses the
//! older ones and, rightly, `--ticks`/`--bytes` of a report without those columns. Where
//! it reads a file, it is wrong in two ways, which the comparison undoes on our side
//! (and counts, so that each stays what it is):
//!
//! - a label holding a TAB (`tab<TAB>separated<TAB>label`, GHC's `oddnamestabs`): inferno
//!   keeps only what comes before the first TAB;
//! - a `%time` of `100.0` (all of a run's time in one stack) that starts a column to the
//!   left of the header's `%time`, as some GHC 8 reports print it (`prof-doc-fib`,
//!   `scc002`, `scc003`, `T5559` of GHC's testsuite): inferno reads it by the header's
//!   position and gets 0, not 1000.

mod support;

use std::path::Path;
use std::process::Command;

use hp2ps::internals::calltree::Measure;
use support::prof::{generated, is_json, name, public, read, tree_of};
use support::tools::{require, INFERNO_GHCPROF};

/// inferno's folded stacks of `file` with `flag`, `None` when it does not read it.
fn inferno(file: &Path, flag: &str) -> Option<String> {
    let out = Command::new(INFERNO_GHCPROF)
        .arg(flag)
        .arg(file)
        .output()
        .expect("inferno runs");
    (out.status.success() && !out.stdout.is_empty())
        .then(|| String::from_utf8(out.stdout).expect("UTF-8 stacks"))
}

/// Our folded stacks of `m` with inferno's TAB flaw applied, as (path, value) lines;
/// and how many lines it changed.
fn ours_as_inferno_reads(file: &Path, m: Measure) -> (Vec<(String, String)>, usize) {
    let p = read(file);
    let mut text = Vec::new();
    tree_of(&p).write_folded(m, &mut text).expect("to memory");
    let text = String::from_utf8(text).expect("UTF-8");
    let mut tabs = 0;
    let lines = (text.lines())
        .map(|line| {
            let (path, value) = line.rsplit_once(' ').expect("path and value");
            let mut path = path.to_string();
            if path.contains('\t') {
                let frames: Vec<&str> = path
                    .split(';')
                    .map(|f| f.split('\t').next().unwrap_or(f))
                    .collect();
                path = frames.join(";");
                tabs += 1;
            }
            (path, value.to_string())
        })
        .collect();
    (lines, tabs)
}

/// inferno's output as (path, value) lines.
fn lines_of(text: &str) -> Vec<(String, String)> {
    (text.lines())
        .map(|l| {
            let (path, value) = l.rsplit_once(' ').expect("path and value");
            (path.to_string(), value.to_string())
        })
        .collect()
}

#[test]
fn our_folded_stacks_are_infernos_on_every_file_it_reads() {
    if !require(INFERNO_GHCPROF) {
        return;
    }
    let mut files: Vec<_> = generated().into_iter().filter(|f| !is_json(f)).collect();
    let public = public();
    let with_public = public.is_some();
    files.extend(
        public
            .unwrap_or_default()
            .into_iter()
            .filter(|f| !is_json(f)),
    );
    let (mut compared, mut read_by_inferno, mut tabs, mut hundreds) = (0, 0, 0, 0);
    for file in &files {
        let mut read_any = false;
        for (flag, m) in [
            ("--time", Measure::Time),
            ("--ticks", Measure::Ticks),
            ("--bytes", Measure::Bytes),
        ] {
            let Some(theirs) = inferno(file, flag) else {
                continue;
            };
            read_any = true;
            let (ours, t) = ours_as_inferno_reads(file, m);
            let theirs = lines_of(&theirs);
            assert_eq!(ours.len(), theirs.len(), "{} {flag}", name(file));
            for (a, b) in ours.iter().zip(&theirs) {
                // inferno's misread 100.0 % (see the module doc).
                if m == Measure::Time && (a.1.as_str(), b.1.as_str()) == ("1000", "0") && a.0 == b.0
                {
                    hundreds += 1;
                    continue;
                }
                assert_eq!(a, b, "{} {flag}", name(file));
            }
            (compared, tabs) = (compared + 1, tabs + t);
        }
        read_by_inferno += usize::from(read_any);
    }
    eprintln!(
        "inferno read {read_by_inferno} of {} reports: {compared} foldings the same \
         ({tabs} lines of TAB labels, {hundreds} of 100.0 % undone)",
        files.len()
    );
    // The generated reports alone give 145 read and 253 foldings; the public
    // ones of ../shared, when it is there (it is skipped with a word
    // otherwise), give 202 and 316.
    let (least_read, least_compared) = if with_public { (200, 310) } else { (144, 250) };
    assert!(read_by_inferno >= least_read, "{read_by_inferno}");
    assert!(compared >= least_compared, "{compared}");
    assert_eq!(tabs, 18, "the oddnamestabs files' TAB labels");
}
