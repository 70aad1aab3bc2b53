//! `-c` of a long mapped `.hp` as PostScript draws its bands from a spill file in TMPDIR
//! rather than from points kept in memory (issue 39, `src/profile/spill.rs`), and EPS,
//! SVG, PDF, PostScript of few points and the page thin them from it: the same
//! bytes as every point kept, for a named file and a regular file on stdin (against a
//! stream, which keeps every point); no file of it left in TMPDIR; and a TMPDIR that is
//! full refused in one line, with nothing written. The library-level tests (both ways
//! for every golden input, the stack's arithmetic, a refused write) are in
//! `src/run/two_pass/tests.rs`, `src/paint/ps/spilled_bands.rs` and `src/profile/spill.rs`.

mod support;

use std::path::Path;

use support::run::Sink;
use support::{Cmd, Input, Ran, TempDir};

/// A 2-3 MB profile (mapped: over 1 MiB) of 60 bands over 5,000 censuses (the long
/// bands' way of painting), whole values, some bands twice in a census, with a cut
/// last census.
fn long_profile() -> Vec<u8> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut s = String::from("JOB \"long\"\nDATE \"today\"\n");
    s += "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";
    for c in 0..5000 {
        s += &format!("BEGIN_SAMPLE {}.{:02}\n", c / 10, c % 10 * 10);
        for b in 0..60u64 {
            if next() % 3 != 0 {
                s += &format!("(b{b})band/{}\t{}\n", b % 7, next() % (1000 * (b + 1)));
            }
        }
        if c % 97 == 5 {
            s += "(b2)band/2\t12345\n";
        }
        s += &format!("END_SAMPLE {}.{:02}\n", c / 10, c % 10 * 10);
    }
    s += "BEGIN_SAMPLE 999.0\n(b1)band/1\t5\n";
    s.into_bytes()
}

fn run(cmd: Cmd) -> Ran {
    cmd.try_run().unwrap_or_else(|e| panic!("hp2ps: {e}"))
}

fn ok(ran: Ran, what: &str) -> Vec<u8> {
    assert_eq!(ran.code, Some(0), "{what}: {}", ran.describe());
    ran.stdout
}

#[test]
fn a_spilled_chart_is_the_chart_of_every_point_and_leaves_nothing() {
    let dir = TempDir::in_tmp("spill");
    let input = dir.join("long.hp");
    std::fs::write(&input, long_profile()).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    // PostScript (its painter reads the spill), then the charts whose thinning reads it
    // back at the samples it keeps, and the page read in parts.
    let thinned: [&[&str]; 5] = [
        &["-c", "--format", "eps"],
        &["-c", "--format", "svg"],
        &["-m5", "--format", "pdf"],
        &["-c", "--max-points", "300"],
        &["--format", "html"],
    ];
    let flags_sets = [&["-c"][..], &[], &["-m5", "-t0"], &["-m0", "-y"]];
    for flags in flags_sets.into_iter().chain(thinned) {
        let what = format!("{flags:?}");
        let named = |cmd: Cmd| cmd.args(flags).args(["-o", "-"]).arg(&input);
        // Every point kept: the file read as a stream.
        let whole = ok(run(named(Cmd::hp2ps()).env("HP2PS_NO_MMAP", "1")), &what);
        let spilled = ok(run(named(Cmd::hp2ps()).env("TMPDIR", &tmp)), &what);
        assert!(
            spilled == whole,
            "{what}: named, spilled and kept whole differ"
        );
        let piped = Cmd::hp2ps().args(flags).stdin(Input::Bytes(long_profile()));
        let stdin_file = Cmd::hp2ps()
            .args(flags)
            .stdin_file(&input)
            .env("TMPDIR", &tmp);
        let (piped, mapped) = (ok(run(piped), &what), ok(run(stdin_file), &what));
        assert!(mapped == piped, "{what}: stdin, spilled and piped differ");
        assert_eq!(support::files_in(&tmp).len(), 0, "{what}: left in TMPDIR");
    }
}

/// A tmpfs mounted for one test, unmounted on drop; `None` without the privilege.
struct Mount(std::path::PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Cmd::new("umount").arg(&self.0).try_run();
    }
}

fn tmpfs(dir: &Path, size: &str) -> Option<Mount> {
    let ok = Cmd::new("mount")
        .args(["-t", "tmpfs", "-o", size, "tmpfs"])
        .arg(dir)
        .stderr(Sink::Null)
        .try_run()
        .is_ok_and(|r| r.status.success());
    if !ok {
        let ci = matches!(std::env::var("CI").as_deref(), Ok("true"));
        assert!(!ci, "cannot mount a tmpfs (needs root) under CI");
        eprintln!(
            "SKIPPED: cannot mount a tmpfs at {} (needs root)",
            dir.display()
        );
    }
    ok.then(|| Mount(dir.to_path_buf()))
}

#[test]
fn a_full_tmpdir_is_refused_in_one_line_and_nothing_is_written() {
    let dir = TempDir::in_tmp("spill-full");
    let input = dir.join("long.hp");
    std::fs::write(&input, long_profile()).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let Some(_mount) = tmpfs(&tmp, "size=64k") else {
        return;
    };
    let out = dir.join("out");
    std::fs::create_dir(&out).unwrap();
    let ran = run(Cmd::hp2ps()
        .current_dir(&out)
        .args(["-c", "-o", "long.ps"])
        .arg(&input)
        .env("TMPDIR", &tmp));
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    // The warning of the cut last census, then the error.
    let text = ran.stderr_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let line = lines[1];
    assert!(
        line.contains("long.hp: cannot write the drawn bands to a temporary file")
            && line.contains("No space left on device"),
        "{line}"
    );
    assert_eq!(
        support::files_in(&out).len(),
        0,
        "written: {:?}",
        support::files_in(&out)
    );
    assert_eq!(support::files_in(&tmp).len(), 0, "left in TMPDIR");
}
