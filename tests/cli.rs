//! The command line as a user meets it: file naming, filter mode, `-p`, several files,
//! exit codes, and the guarantee that a failed run leaves earlier output untouched.

mod support;

use std::path::Path;
use std::process::Output;

use support::tools::{require_reference, REFERENCE};
use support::TempDir;
use support::{files_in, run_in};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/inputs");

fn sample() -> Vec<u8> {
    std::fs::read(Path::new(GOLDEN).join("spec7-01-manpage.hp")).expect("sample input")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    run_in(env!("CARGO_BIN_EXE_hp2ps"), dir, args, None)
}

fn after_comments(ps: &[u8]) -> &[u8] {
    let marker = b"%%EndComments\n";
    let at = ps
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("%%EndComments");
    &ps[at + marker.len()..]
}

#[test]
fn foo_and_foo_hp_read_foo_hp_and_write_in_the_current_directory() {
    let dir = TempDir::new("cli-names");
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("foo.hp"), sample()).unwrap();
    let out = run(dir.path(), &["sub/foo.hp"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(files_in(dir.path()), ["foo.aux", "foo.ps", "sub"]);
    let first = std::fs::read(dir.path().join("foo.ps")).unwrap();
    std::fs::remove_file(dir.path().join("foo.ps")).unwrap();
    let out = run(dir.path(), &["sub/foo"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(std::fs::read(dir.path().join("foo.ps")).unwrap(), first);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn only_a_final_dot_hp_is_cut() {
    let dir = TempDir::new("cli-ext");
    std::fs::write(dir.path().join("x.hp.hp"), sample()).unwrap();
    std::fs::write(dir.path().join("y.txt.hp"), sample()).unwrap();
    assert!(run(dir.path(), &["x.hp.hp"]).status.success());
    assert!(run(dir.path(), &["y.txt"]).status.success());
    let names = files_in(dir.path());
    for f in ["x.hp.ps", "x.hp.aux", "y.txt.ps", "y.txt.aux"] {
        assert!(names.contains(&f.to_string()), "{f} in {names:?}");
    }
}

#[test]
fn filter_mode_reads_stdin_writes_stdout_and_no_aux() {
    let dir = TempDir::new("cli-filter");
    let out = run_in(
        env!("CARGO_BIN_EXE_hp2ps"),
        dir.path(),
        &["-c"],
        Some(&sample()),
    );
    assert!(out.status.success(), "{out:?}");
    assert!(out.stdout.starts_with(b"%!PS-Adobe-2.0\n"));
    assert!(out.stdout.ends_with(b"showpage\n"));
    assert!(files_in(dir.path()).is_empty(), "filter mode wrote files");
    // The same PostScript as file mode.
    std::fs::write(dir.path().join("t.hp"), sample()).unwrap();
    assert!(run(dir.path(), &["-c", "t.hp"]).status.success());
    assert_eq!(std::fs::read(dir.path().join("t.ps")).unwrap(), out.stdout);
}

#[test]
fn p_reuses_order_and_ranges_from_the_aux_file() {
    let dir = TempDir::new("cli-p");
    std::fs::write(dir.path().join("t.hp"), sample()).unwrap();
    assert!(run(dir.path(), &["t.hp"]).status.success());
    // A previous run with a bigger range and a reversed order.
    let aux = "X_RANGE 10.00\nY_RANGE 1000.00\nORDER elim 1\nORDER disin 2\nORDER SYSTEM 3\n\
               ORDER insert 4\nORDER main 5\nORDER intersect 6\nORDER reduce 7\n\
               SHADE elim 0.90\n";
    std::fs::write(dir.path().join("t.aux"), aux).unwrap();
    let out = run(dir.path(), &["-p", "t.hp"]);
    assert!(out.status.success(), "{out:?}");
    let new_aux = std::fs::read_to_string(dir.path().join("t.aux")).unwrap();
    assert!(
        new_aux.starts_with("X_RANGE 10.00\nY_RANGE 1000.00\nORDER elim 1\nORDER disin 2\n"),
        "{new_aux}"
    );
    assert!(
        new_aux.contains("SHADE elim 0.90\nSHADE disin 0.00\n"),
        "{new_aux}"
    );
}

#[test]
fn p_round_trips_with_the_real_hp2ps_both_ways() {
    if !require_reference() {
        return;
    }
    for flags in [&["-c"][..], &["-m3"], &["-i"], &["-d", "-t0"]] {
        let ours = TempDir::new("cli-p-ours");
        let theirs = TempDir::new("cli-p-theirs");
        for d in [&ours, &theirs] {
            std::fs::write(d.path().join("t.hp"), sample()).unwrap();
        }
        // Both make an aux, then each reads the other's.
        assert!(run(ours.path(), &[flags, &["t.hp"]].concat())
            .status
            .success());
        assert!(
            run_in(REFERENCE, theirs.path(), &[flags, &["t.hp"]].concat(), None)
                .status
                .success()
        );
        let our_aux = std::fs::read(ours.path().join("t.aux")).unwrap();
        let their_aux = std::fs::read(theirs.path().join("t.aux")).unwrap();
        assert_eq!(our_aux, their_aux, "{flags:?}");
        std::fs::write(ours.path().join("t.aux"), &their_aux).unwrap();
        std::fs::write(theirs.path().join("t.aux"), &our_aux).unwrap();
        let second = [&["-p"][..], flags, &["-y", "t.hp"]].concat();
        assert!(run(ours.path(), &second).status.success());
        assert!(run_in(REFERENCE, theirs.path(), &second, None)
            .status
            .success());
        let read = |d: &TempDir, f: &str| std::fs::read(d.path().join(f)).unwrap();
        assert_eq!(
            after_comments(&read(&ours, "t.ps")),
            after_comments(&read(&theirs, "t.ps")),
            "{flags:?}"
        );
        assert_eq!(read(&ours, "t.aux"), read(&theirs, "t.aux"), "{flags:?}");
    }
}

#[test]
fn p_without_an_aux_file_fails_and_writes_nothing() {
    let dir = TempDir::new("cli-p-missing");
    std::fs::write(dir.path().join("t.hp"), sample()).unwrap();
    let out = run(dir.path(), &["-p", "t.hp"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("hp2ps: cannot open t.aux"), "{err}");
    assert_eq!(files_in(dir.path()), ["t.hp"]);
}

#[test]
fn usage_errors_exit_2_with_a_hint_and_help_goes_to_stdout() {
    let dir = TempDir::new("cli-usage");
    for bad in ["-t6", "-e1in", "-x", "--foo", "-tnan", "-enan", "-einf"] {
        let out = run(dir.path(), &[bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad) && err.contains("--help"), "{bad}: {err}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
    for help in ["-?", "-h", "--help"] {
        let out = run(dir.path(), &[help]);
        assert_eq!(out.status.code(), Some(0), "{help}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("usage: hp2ps"));
    }
    let out = run(dir.path(), &["--version"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn input_errors_exit_1_with_one_positioned_line_and_keep_earlier_output() {
    let dir = TempDir::new("cli-error");
    let bad = String::from_utf8(sample())
        .unwrap()
        .replace("  main 12\n", "  main 1.5\n");
    std::fs::write(dir.path().join("t.hp"), bad).unwrap();
    std::fs::write(dir.path().join("t.ps"), "earlier ps").unwrap();
    std::fs::write(dir.path().join("t.aux"), "earlier aux").unwrap();
    let out = run(dir.path(), &["t.hp"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("hp2ps: t.hp:")
            && err.contains(": number 1.5, expected an integer value after identifier \"main\""),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.ps")).unwrap(),
        "earlier ps"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("t.aux")).unwrap(),
        "earlier aux"
    );
    assert_eq!(
        files_in(dir.path()),
        ["t.aux", "t.hp", "t.ps"],
        "no temporary files left"
    );
    let out = run(dir.path(), &["missing.hp"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("hp2ps: cannot open missing.hp"));
}

#[test]
fn a_successful_run_replaces_output_through_a_rename() {
    use std::os::unix::fs::MetadataExt;
    let dir = TempDir::new("cli-atomic");
    std::fs::write(dir.path().join("t.hp"), sample()).unwrap();
    std::fs::write(dir.path().join("t.ps"), "old").unwrap();
    let before = std::fs::metadata(dir.path().join("t.ps")).unwrap().ino();
    assert!(run(dir.path(), &["t.hp"]).status.success());
    let after = std::fs::metadata(dir.path().join("t.ps")).unwrap().ino();
    assert_ne!(
        before, after,
        "the old file was overwritten in place, not replaced"
    );
    assert_eq!(files_in(dir.path()), ["t.aux", "t.hp", "t.ps"]);
}

#[test]
fn several_files_render_each_and_one_failure_does_not_stop_the_others() {
    let dir = TempDir::new("cli-many");
    std::fs::write(dir.path().join("a.hp"), sample()).unwrap();
    std::fs::write(dir.path().join("b.hp"), "JOB 1\n").unwrap();
    std::fs::write(dir.path().join("c.hp"), sample()).unwrap();
    let out = run(dir.path(), &["-c", "a.hp", "b.hp", "c"]);
    assert_eq!(out.status.code(), Some(1));
    let names = files_in(dir.path());
    for f in ["a.ps", "a.aux", "c.ps", "c.aux"] {
        assert!(names.contains(&f.to_string()), "{f} missing from {names:?}");
    }
    assert!(!names.contains(&"b.ps".to_string()));
    let a = std::fs::read(dir.path().join("a.ps")).unwrap();
    assert_eq!(a, std::fs::read(dir.path().join("c.ps")).unwrap());
    assert!(
        a.windows(11).any(|w| w == b"setrgbcolor"),
        "flags apply to every file"
    );
}
