//! Nothing on disk is lost when the disk itself fails: an unwritable stdout or stderr,
//! a read-only or full file system, a failed rename are refused in one line, earlier
//! outputs kept and without a temporary file left behind; the library's painters
//! report a failing writer as an error. (Runs that fail or succeed on a sound disk:
//! `atomic.rs`.)
//!
//! The read-only and full file systems are small tmpfs mounts, which need root (as in
//! CI); without the privilege those tests skip loudly, and the library-level test with
//! a failing writer still covers the error path.

mod support;

use support::kept::{one_error_line, temporaries, OLD};
use support::run::{hp2ps, Input, Sink};
use support::scratch::{assert_same_files, snapshot};
use support::{golden, Cmd, TempDir};

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use hp2ps::internals::write_chart;
use hp2ps::{prepare, Format, RenderOptions};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/inputs");

// ---------------------------------------------------------------------------------------
// Unwritable destinations.

/// A sink into `/dev/full`, where every write fails with "no space left on device".
fn dev_full() -> Sink {
    Sink::File(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

#[test]
fn stdout_that_cannot_be_written_is_an_error_not_a_crash() {
    let dir = TempDir::in_tmp("devfull");
    let input = golden("spec7-01-manpage.hp");
    std::fs::write(dir.join("t.hp"), &input).unwrap();
    for args in [
        &[][..],
        &["--format", "svg"],
        &["--format", "pdf"],
        &["--help"],
        &["--version"],
    ] {
        let status = Cmd::hp2ps()
            .args(args)
            .current_dir(dir.path())
            .stdin_file(dir.join("t.hp"))
            .stdout(dev_full())
            .output();
        assert_eq!(status.status.code(), Some(1), "{args:?} > /dev/full");
        let text = String::from_utf8_lossy(&status.stderr);
        assert!(
            text.starts_with("hp2ps: ") && text.lines().count() == 1,
            "{args:?}: {text:?}"
        );
    }
    // `-o -` in file mode writes the chart to stdout, and writes the .aux only then.
    let out = Cmd::hp2ps()
        .args(["-o", "-", "t.hp"])
        .current_dir(dir.path())
        .stdout(dev_full())
        .output();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stderr_that_cannot_be_written_still_gives_exit_status_1() {
    let dir = TempDir::in_tmp("stderr-full");
    for args in [&["missing.hp"][..], &["-x"]] {
        let status = Cmd::hp2ps()
            .args(args)
            .current_dir(dir.path())
            .stderr(dev_full())
            .status();
        assert!(
            matches!(status.code(), Some(1 | 2)),
            "{args:?} 2>/dev/full: {status:?}"
        );
    }
}

/// A tmpfs mounted for one test, unmounted on drop; `None` without the privilege.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, options: &str) -> Option<Mount> {
        let ok = Cmd::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir)
            .stderr(Sink::Null)
            .try_run()
            .is_ok_and(|r| r.status.success());
        if !ok {
            eprintln!(
                "SKIPPED: cannot mount a tmpfs at {} (needs root): the library-level \
                 failing-writer test still covers the error path",
                dir.display()
            );
        }
        ok.then(|| Mount(dir.to_path_buf()))
    }

    fn remount_read_only(&self) {
        let ok = Cmd::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .try_run()
            .is_ok_and(|r| r.status.success());
        assert!(ok, "remount read-only");
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Cmd::new("umount").arg(&self.0).try_run();
    }
}

#[test]
fn a_read_only_output_directory_is_refused_in_one_line_and_changes_nothing() {
    let scratch = TempDir::in_tmp("ro");
    let out = scratch.join("out");
    std::fs::create_dir(&out).unwrap();
    let Some(mount) = Mount::tmpfs(&out, "size=1m") else {
        return;
    };
    std::fs::write(out.join("t.ps"), OLD).unwrap();
    std::fs::write(out.join("t.aux"), OLD).unwrap();
    mount.remount_read_only();
    let input = scratch.join("t.hp");
    std::fs::write(&input, golden("spec7-01-manpage.hp")).unwrap();
    let before = snapshot(&out);
    for args in [&[][..], &["--format", "svg"], &["-o", "x.pdf"]] {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
        all.push(input.as_os_str());
        let ran = hp2ps(&out, &all, Input::Null);
        assert_eq!(ran.code, Some(1), "{args:?}: {}", ran.describe());
        let line = one_error_line(&ran);
        assert!(line.contains("Read-only"), "{args:?}: {line}");
        assert_same_files(&before, &snapshot(&out), &format!("{args:?}"));
    }
}

/// Outputs big enough to fill the 64 KiB file system.
fn fill_disk_case(flags: &[&str], chart: &str) {
    let scratch = TempDir::in_tmp("full");
    let out = scratch.join("out");
    std::fs::create_dir(&out).unwrap();
    let Some(_mount) = Mount::tmpfs(&out, "size=64k") else {
        return;
    };
    std::fs::write(out.join(chart), OLD).unwrap();
    std::fs::write(out.join("longrun-O1-hc.aux"), OLD).unwrap();
    let before = snapshot(&out);
    let input = PathBuf::from(GOLDEN).join("longrun-O1-hc.hp");
    let mut args: Vec<&std::ffi::OsStr> = flags.iter().map(|a| a.as_ref()).collect();
    args.push(input.as_os_str());
    let ran = hp2ps(&out, &args, Input::Null);
    assert_eq!(ran.code, Some(1), "{flags:?}: {}", ran.describe());
    let line = one_error_line(&ran);
    assert!(line.contains("No space left"), "{flags:?}: {line}");
    let what = format!("{flags:?}: a full disk must leave the directory as it was");
    assert_same_files(&before, &snapshot(&out), &what);
}

#[test]
fn a_full_disk_is_refused_in_one_line_and_leaves_no_temporary_file() {
    fill_disk_case(&[], "longrun-O1-hc.ps");
    fill_disk_case(&["--format", "svg"], "longrun-O1-hc.svg");
    fill_disk_case(&["-o", "chart.pdf"], "chart.pdf");
}

/// A rename that cannot be made (a directory where the `.aux` goes) fails the run in one
/// line, leaves no temporary file, and replaces neither the chart nor the `.aux`: they
/// are replaced together.
#[test]
fn a_failed_rename_leaves_no_temporary_file() {
    let dir = TempDir::in_tmp("rename");
    std::fs::write(dir.join("t.hp"), golden("spec7-01-manpage.hp")).unwrap();
    std::fs::create_dir(dir.join("t.aux")).unwrap();
    std::fs::write(dir.join("t.aux/inside"), OLD).unwrap();
    let ran = hp2ps(dir.path(), &["t.hp"], Input::Null);
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    assert!(one_error_line(&ran).contains("t.aux"), "{}", ran.describe());
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        temporaries(dir.path())
    );
    assert_eq!(std::fs::read(dir.join("t.aux/inside")).unwrap(), OLD);
    assert!(!dir.join("t.ps").exists(), "the chart without its .aux");
}

// ---------------------------------------------------------------------------------------
// The library's painters under a failing writer.

/// Accepts `left` bytes, then fails every write as a full disk would.
struct FailingWriter {
    left: usize,
}

impl Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn every_painter_reports_a_failing_writer_as_an_error() {
    let (profile, _) = support::read_profile(golden("longrun-O1-hc.hp").as_slice()).unwrap();
    let (chart, aux) = prepare(profile, None, &RenderOptions::default());
    for format in [Format::Ps, Format::Svg, Format::Pdf] {
        let mut full = Vec::new();
        write_chart(&chart, format, &mut full).unwrap();
        for left in [0, 1, 100, 65_535, 65_536, full.len() / 2, full.len() - 1] {
            let e = write_chart(&chart, format, &mut FailingWriter { left })
                .expect_err("a failing writer fails the paint");
            assert_eq!(e.raw_os_error(), Some(libc::ENOSPC), "{}", format.name());
        }
        write_chart(&chart, format, &mut FailingWriter { left: full.len() })
            .expect("exactly enough room");
    }
    assert!(aux.write(&mut FailingWriter { left: 10 }).is_err());
}
