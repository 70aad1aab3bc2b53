//! Nothing on disk is lost: a failed run leaves every output as it was, a successful
//! one replaces its outputs through a rename, in every format and output mode; an output
//! that is the input is refused. (The failures of the disk itself: `disk_failures.rs`.)

mod support;

use support::errors::positioned_error_line;
use support::kept::{one_error_line, temporaries, OLD};
use support::run::{self, hp2ps, Input, Sink};
use support::scratch::{assert_same_files, snapshot};
use support::{golden, Cmd, TempDir};

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

/// A profile the reader refuses (line 5: a MARK without a dot).
const BAD: &[u8] = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\nMARK 1\n";

fn inode(path: &Path) -> u64 {
    std::fs::metadata(path).expect("metadata").ino()
}

// ---------------------------------------------------------------------------------------
// Failed runs keep, successful runs rename, in every output mode.

/// The output modes: arguments before the input name, and the chart file they write.
const MODES: &[(&[&str], &str)] = &[
    (&[], "t.ps"),
    (&["-e6in"], "t.ps"),
    (&["--format", "eps"], "t.eps"),
    (&["--format", "svg"], "t.svg"),
    (&["--format", "pdf"], "t.pdf"),
    (&["-o", "out.ps"], "out.ps"),
    (&["-o", "chart.svg"], "chart.svg"),
    (&["-o", "sub/chart.pdf"], "sub/chart.pdf"),
];

#[test]
fn a_failed_run_leaves_every_output_as_it_was_in_every_mode() {
    for (flags, chart) in MODES {
        let dir = TempDir::in_tmp("keep");
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::fs::write(dir.join("t.hp"), BAD).unwrap();
        std::fs::write(dir.join(chart), OLD).unwrap();
        std::fs::write(dir.join("t.aux"), OLD).unwrap();
        let before = snapshot(dir.path());
        let sub_before = snapshot(&dir.join("sub"));
        let mut args = flags.to_vec();
        args.push("t.hp");
        let ran = hp2ps(dir.path(), &args, Input::Null);
        assert_eq!(ran.code, Some(1), "{flags:?}: {}", ran.describe());
        positioned_error_line(&ran.stderr, "t.hp").unwrap_or_else(|m| panic!("{flags:?}: {m}"));
        assert_same_files(&before, &snapshot(dir.path()), &format!("{flags:?}"));
        assert_same_files(
            &sub_before,
            &snapshot(&dir.join("sub")),
            &format!("{flags:?}"),
        );
    }
}

#[test]
fn a_successful_run_replaces_its_outputs_by_renaming_in_every_mode() {
    for (flags, chart) in MODES {
        let dir = TempDir::in_tmp("replace");
        std::fs::create_dir(dir.join("sub")).unwrap();
        std::fs::write(dir.join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
        std::fs::write(dir.join(chart), OLD).unwrap();
        std::fs::write(dir.join("t.aux"), OLD).unwrap();
        // A second name for the old files: replaced by a rename, they keep the old bytes
        // (written in place, they would change too).
        std::fs::hard_link(dir.join(chart), dir.join("old-chart")).unwrap();
        std::fs::hard_link(dir.join("t.aux"), dir.join("old-aux")).unwrap();
        let mut args = flags.to_vec();
        args.push("t.hp");
        let ran = hp2ps(dir.path(), &args, Input::Null);
        assert_eq!(ran.code, Some(0), "{flags:?}: {}", ran.describe());
        assert!(ran.stderr.is_empty(), "{flags:?}: {}", ran.describe());
        assert_ne!(std::fs::read(dir.join(chart)).unwrap(), OLD, "{flags:?}");
        assert_ne!(std::fs::read(dir.join("t.aux")).unwrap(), OLD, "{flags:?}");
        assert_eq!(
            std::fs::read(dir.join("old-chart")).unwrap(),
            OLD,
            "{flags:?}"
        );
        assert_eq!(
            std::fs::read(dir.join("old-aux")).unwrap(),
            OLD,
            "{flags:?}"
        );
        assert_ne!(inode(&dir.join(chart)), inode(&dir.join("old-chart")));
        assert!(temporaries(dir.path()).is_empty(), "{flags:?}");
        assert!(temporaries(&dir.join("sub")).is_empty(), "{flags:?}");
    }
}

#[test]
fn filter_mode_prints_nothing_before_the_input_is_read_whole() {
    // A refused profile on stdin: nothing on stdout (a redirection keeps no partial
    // chart), one positioned line on stderr.
    let dir = TempDir::in_tmp("filter");
    let ran = hp2ps(dir.path(), &[] as &[&str], Input::Bytes(BAD.to_vec()));
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    assert!(ran.stdout.is_empty());
    positioned_error_line(&ran.stderr, "stdin").unwrap();
    // `-o FILE` in filter mode keeps FILE on failure, and renames on success.
    std::fs::write(dir.join("x.svg"), OLD).unwrap();
    let ran = hp2ps(dir.path(), &["-o", "x.svg"], Input::Bytes(BAD.to_vec()));
    assert_eq!(ran.code, Some(1));
    assert_eq!(std::fs::read(dir.join("x.svg")).unwrap(), OLD);
    let good = golden("spec7-01-manpage.hp");
    let ran = hp2ps(dir.path(), &["-o", "x.svg"], Input::Bytes(good));
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(std::fs::read(dir.join("x.svg"))
        .unwrap()
        .starts_with(b"<?xml"));
    assert_eq!(snapshot(dir.path()).len(), 1, "only x.svg");
}

#[test]
fn one_failing_file_keeps_its_outputs_and_the_others_render() {
    let dir = TempDir::in_tmp("several");
    std::fs::write(dir.join("good.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::write(dir.join("bad.hp"), BAD).unwrap();
    std::fs::write(dir.join("bad.ps"), OLD).unwrap();
    std::fs::write(dir.join("bad.aux"), OLD).unwrap();
    let ran = hp2ps(dir.path(), &["bad.hp", "good.hp"], Input::Null);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    positioned_error_line(&ran.stderr, "bad.hp").unwrap();
    assert_eq!(std::fs::read(dir.join("bad.ps")).unwrap(), OLD);
    assert_eq!(std::fs::read(dir.join("bad.aux")).unwrap(), OLD);
    assert!(std::fs::read(dir.join("good.ps"))
        .unwrap()
        .ends_with(b"showpage\n"));
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn a_parallel_batch_into_an_output_dir_keeps_the_failed_files_outputs() {
    let dir = TempDir::in_tmp("batch");
    std::fs::create_dir(dir.join("out")).unwrap();
    for k in 0..6 {
        let input = if k % 2 == 0 {
            golden("spec7-01-manpage.hp")
        } else {
            BAD.to_vec()
        };
        std::fs::write(dir.join(&format!("f{k}.hp")), input).unwrap();
        std::fs::write(dir.join(&format!("out/f{k}.svg")), OLD).unwrap();
    }
    let args = [
        "-j2",
        "--format",
        "svg",
        "--output-dir",
        "out",
        "f0.hp",
        "f1.hp",
        "f2.hp",
        "f3.hp",
        "f4.hp",
        "f5.hp",
    ];
    let ran = hp2ps(dir.path(), &args, Input::Null);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    for k in 0..6 {
        let svg = std::fs::read(dir.join(&format!("out/f{k}.svg"))).unwrap();
        if k % 2 == 0 {
            assert!(svg.starts_with(b"<?xml"), "f{k} rendered");
        } else {
            assert_eq!(svg, OLD, "f{k} failed: its earlier output stays");
            assert!(!dir.join(&format!("out/f{k}.aux")).exists());
        }
    }
    assert!(temporaries(&dir.join("out")).is_empty());
}

/// A profile of 40,000 bands: with `-m0 -t0` its chart takes long enough to write that
/// kills and signals land mid-render.
fn big_profile() -> Vec<u8> {
    let mut big = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n".to_vec();
    for (s, t) in ["0.0", "1.0", "2.0"].iter().enumerate() {
        big.extend_from_slice(format!("BEGIN_SAMPLE {t}\n").as_bytes());
        for i in 0..40_000 {
            big.extend_from_slice(format!("band{i}\t{}\n", 100 + i + s).as_bytes());
        }
        big.extend_from_slice(format!("END_SAMPLE {t}\n").as_bytes());
    }
    big
}

#[test]
fn a_killed_run_leaves_the_old_output_or_the_whole_new_one() {
    let big = big_profile();
    for delay_ms in [20u64, 100, 300, 700, 1500] {
        let dir = TempDir::in_tmp("killed");
        std::fs::write(dir.join("t.hp"), &big).unwrap();
        std::fs::write(dir.join("t.ps"), OLD).unwrap();
        let mut child = Cmd::hp2ps()
            .args(["-m0", "-t0", "t.hp"])
            .current_dir(dir.path())
            .stdout(Sink::Null)
            .stderr(Sink::Null)
            .spawn();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let ps = std::fs::read(dir.join("t.ps")).unwrap();
        assert!(
            ps == OLD || (ps.starts_with(b"%!PS-Adobe") && ps.ends_with(b"showpage\n")),
            "killed after {delay_ms} ms: t.ps is neither the old file nor a whole chart"
        );
    }
}

/// Names in `dir` of our temporaries of `target` (`.t.ps.PID.N.tmp`).
fn temporaries_of(dir: &Path, target: &str) -> usize {
    let prefix = format!(".{target}.");
    (std::fs::read_dir(dir).unwrap().flatten())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix) && name.ends_with(".tmp")
        })
        .count()
}

/// SIGINT, SIGTERM and SIGHUP while a chart (or its `.aux`) is being written: the run
/// ends by the signal, leaves no temporary file, and the chart and `.aux` are both the
/// old ones (or, had it finished first, both new).
#[test]
fn an_interrupted_run_leaves_no_temporary_and_the_chart_and_aux_together() {
    let big = big_profile();
    const OLD_AUX: &[u8] = b"an earlier .aux\n";
    let mut interrupted = 0;
    let cases = [
        (libc::SIGINT, "t.ps"),
        (libc::SIGTERM, "t.ps"),
        (libc::SIGHUP, "t.ps"),
        (libc::SIGTERM, "t.aux"),
        (libc::SIGQUIT, "t.ps"),
        (libc::SIGUSR1, "t.ps"),
        (libc::SIGUSR2, "t.ps"),
        (libc::SIGALRM, "t.ps"),
        (libc::SIGXCPU, "t.ps"),
        (libc::SIGVTALRM, "t.ps"),
    ];
    for (signal, writing) in cases {
        let dir = TempDir::in_tmp("interrupted");
        std::fs::write(dir.join("t.hp"), &big).unwrap();
        std::fs::write(dir.join("t.ps"), OLD).unwrap();
        std::fs::write(dir.join("t.aux"), OLD_AUX).unwrap();
        let mut child = Cmd::hp2ps()
            .args(["-m0", "-t0", "t.hp"])
            .current_dir(dir.path())
            .stdout(Sink::Null)
            .stderr(Sink::Null)
            .spawn();
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while temporaries_of(dir.path(), writing) == 0 && std::time::Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        // SAFETY: a signal to our own child, which has not been reaped yet.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        let what = format!("signal {signal} while writing {writing}: {status:?}");
        assert!(
            temporaries(dir.path()).is_empty(),
            "{what}: {:?}",
            temporaries(dir.path())
        );
        let ps = std::fs::read(dir.join("t.ps")).unwrap();
        let aux = std::fs::read(dir.join("t.aux")).unwrap();
        if status.signal() == Some(signal) {
            interrupted += 1;
            assert!(ps == OLD && aux == OLD_AUX, "{what}: not both old");
        } else {
            assert!(status.success(), "{what}");
            assert!(
                ps.ends_with(b"showpage\n") && aux != OLD_AUX,
                "{what}: not both new"
            );
        }
    }
    assert!(
        interrupted >= cases.len() - 1,
        "only {interrupted} of {} runs were interrupted",
        cases.len()
    );
}

/// A write past `ulimit -f` (SIGXFSZ, whose default ends the process and dumped its
/// temporary there): the run ends by the signal, its temporaries removed, the old chart
/// and `.aux` kept.
#[test]
fn a_write_past_the_file_size_limit_leaves_no_temporary() {
    use std::os::unix::process::ExitStatusExt;
    let dir = TempDir::in_tmp("file-size-limit");
    std::fs::write(dir.join("t.hp"), big_profile()).unwrap();
    std::fs::write(dir.join("t.ps"), OLD).unwrap();
    let ran = Cmd::hp2ps()
        .args(["-m0", "-t0", "t.hp"])
        .current_dir(dir.path())
        .file_size_limit(256 << 10)
        .timeout(Duration::from_secs(120))
        .run();
    // Two endings race, both right: the signal's thread removes the temporaries and
    // ends the run by SIGXFSZ, or the write that failed with EFBIG ("File too large")
    // ends it first with its one-line error and exit 1 (seen on a loaded machine).
    let by_signal = ran.status.signal() == Some(libc::SIGXFSZ);
    let by_error = ran.status.code() == Some(1) && ran.stderr_text().contains("File too large");
    assert!(by_signal || by_error, "{}", ran.describe());
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
    assert_eq!(std::fs::read(dir.join("t.ps")).unwrap(), OLD);
}

/// A run that runs out of memory while it writes (a PDF of two million marks is built
/// in memory, here under a 256 MiB address-space cap) ends with Rust's allocation
/// failure, but first removes its temporary files; the earlier outputs stay.
#[test]
fn a_run_out_of_memory_leaves_no_temporary() {
    let dir = TempDir::in_tmp("out-of-memory");
    let mut hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n".to_vec();
    hp.extend_from_slice(b"BEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n");
    for i in 0..2_000_000 {
        hp.extend_from_slice(format!("MARK {}.5\n", i % 1000).as_bytes());
    }
    hp.extend_from_slice(b"BEGIN_SAMPLE 1000.0\na\t2\nEND_SAMPLE 1000.0\n");
    std::fs::write(dir.join("t.hp"), hp).unwrap();
    std::fs::write(dir.join("x.pdf"), OLD).unwrap();
    let ran = Cmd::hp2ps()
        .args(["-o", "x.pdf", "t.hp"])
        .current_dir(dir.path())
        .address_space(Some(256 << 20))
        .timeout(Duration::from_secs(120))
        .run();
    assert!(ran.code != Some(0), "{}", ran.describe());
    assert!(
        ran.stderr_text().contains("memory allocation of"),
        "{}",
        ran.describe()
    );
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
    assert_eq!(std::fs::read(dir.join("x.pdf")).unwrap(), OLD);
}

/// A chart drawn again keeps the permissions of the one it replaces (a chart made
/// private stays private), in every output mode, and so does its `.aux`.
#[test]
fn a_replaced_output_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let input = golden("spec7-01-manpage.hp");
    for (args, chart) in MODES {
        let dir = TempDir::in_tmp("permissions");
        std::fs::write(dir.join("t.hp"), &input).unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for (file, mode) in [(*chart, 0o600), ("t.aux", 0o640)] {
            std::fs::write(dir.join(file), OLD).unwrap();
            let perms = std::fs::Permissions::from_mode(mode);
            std::fs::set_permissions(dir.join(file), perms).unwrap();
        }
        let ran = hp2ps(dir.path(), &[*args, &["t.hp"][..]].concat(), Input::Null);
        assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.describe());
        for (file, mode) in [(*chart, 0o600), ("t.aux", 0o640)] {
            let meta = std::fs::metadata(dir.join(file)).unwrap();
            assert_ne!(
                std::fs::read(dir.join(file)).unwrap(),
                OLD,
                "{file} replaced"
            );
            assert_eq!(meta.permissions().mode() & 0o777, mode, "{args:?}: {file}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Input and output the same file.

fn assert_refused_and_input_kept(ran: &run::Ran, dir: &TempDir, input: &[u8], what: &str) {
    assert!(
        matches!(ran.code, Some(1 | 2)),
        "{what}: the run must be refused: {}",
        ran.describe()
    );
    one_error_line(ran);
    assert_eq!(
        std::fs::read(dir.join("t.hp")).unwrap(),
        input,
        "{what}: the input was lost"
    );
    assert!(temporaries(dir.path()).is_empty(), "{what}");
}

#[test]
fn an_output_that_is_the_input_file_is_refused() {
    let input = golden("spec7-01-manpage.hp");
    for args in [
        &["-o", "t.hp", "t.hp"][..],
        &["-o", "./t.hp", "t.hp"],
        &["--format", "svg", "-o", "t.hp", "t.hp"],
    ] {
        let dir = TempDir::in_tmp("same");
        std::fs::write(dir.join("t.hp"), &input).unwrap();
        let ran = hp2ps(dir.path(), args, Input::Null);
        assert_refused_and_input_kept(&ran, &dir, &input, &format!("{args:?}"));
    }
    // Filter mode: stdin is the file that `-o` names.
    let dir = TempDir::in_tmp("same-filter");
    std::fs::write(dir.join("t.hp"), &input).unwrap();
    let ran = Cmd::hp2ps()
        .args(["-o", "t.hp"])
        .current_dir(dir.path())
        .stdin_file(dir.join("t.hp"))
        .run();
    assert_refused_and_input_kept(&ran, &dir, &input, "-o t.hp < t.hp");
}

#[test]
fn an_output_that_is_the_aux_file_is_refused() {
    let dir = TempDir::in_tmp("same-aux");
    let input = golden("spec7-01-manpage.hp");
    std::fs::write(dir.join("t.hp"), &input).unwrap();
    let ran = hp2ps(dir.path(), &["-o", "t.aux", "t.hp"], Input::Null);
    assert_refused_and_input_kept(&ran, &dir, &input, "-o t.aux");
}

#[test]
fn outputs_that_are_links_to_the_input_replace_the_link_not_the_input() {
    let input = golden("spec7-01-manpage.hp");
    let dir = TempDir::in_tmp("links");
    std::fs::write(dir.join("t.hp"), &input).unwrap();
    std::os::unix::fs::symlink("t.hp", dir.join("t.ps")).unwrap();
    std::fs::hard_link(dir.join("t.hp"), dir.join("t.aux")).unwrap();
    let ran = hp2ps(dir.path(), &["t.hp"], Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert_eq!(std::fs::read(dir.join("t.hp")).unwrap(), input);
    assert!(std::fs::read(dir.join("t.ps"))
        .unwrap()
        .starts_with(b"%!PS"));
}
