//! The command itself (`render_file`, `-c` of a long `.hp`) drawing through its spill:
//! the same chart and `.aux` as every point kept, no spill file left behind, and a spill
//! that cannot be written or read back a clean one-line error with nothing written. With
//! the hook these tests give the command's spill ([`SPILL_INTO`], read by
//! `two_pass::spill`). Apart from `tests.rs`, which compares the readings in memory,
//! because these run the command on files and make its spill fail.

use super::tests::{generated, loaded};
use crate::paint::PaintOptions;
use crate::pipeline::prepare;
use crate::{Format, LoadOptions, RenderOptions};

/// What the command's spill is made of in these tests (`two_pass::spill`), when set.
pub(super) type MakeSpill = fn() -> Box<dyn crate::profile::spill::SpillFile>;

thread_local! {
    pub(super) static SPILL_INTO: std::cell::Cell<Option<MakeSpill>> =
        const { std::cell::Cell::new(None) };
}

/// A directory of this test's own, empty.
fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hp2ps-spill-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// The command (`-c --output-dir dir dir/long.hp`: a chart in colour) on a long generated `.hp` in `dir`, its spill made by
/// `make`: its result, and what it wrote.
fn command_with_spill(
    dir: &std::path::Path,
    make: Option<MakeSpill>,
) -> (Result<(), String>, Option<Vec<u8>>) {
    command_with_spill_as(dir, make, "ps")
}

/// [`command_with_spill`] with `--format format` (`ps`: its default).
fn command_with_spill_as(
    dir: &std::path::Path,
    make: Option<MakeSpill>,
    format: &str,
) -> (Result<(), String>, Option<Vec<u8>>) {
    let input = dir.join("long.hp");
    let bytes = generated(60, 3000, false, true);
    assert!(bytes.len() > 2 << 20, "mapped: {}", bytes.len());
    std::fs::write(&input, &bytes).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let output = dir.join(format!("long.{format}"));
    let args = [
        "-c",
        "--format",
        format,
        "--output-dir",
        &dir.display().to_string(),
        &input.display().to_string(),
    ];
    let inv = match crate::cli::parse(args.iter().map(std::ffi::OsString::from)) {
        Ok(crate::cli::Command::Render(inv)) => inv,
        other => panic!("{other:?}"),
    };
    SPILL_INTO.with(|f| f.set(make));
    let done = super::super::render::render_file(&inv, &input.clone().into_os_string());
    SPILL_INTO.with(|f| f.set(None));
    let result = done.map(|_| ()).map_err(|f| f.message);
    (result, std::fs::read(&output).ok())
}

/// The command draws a long `.hp` through its spill the same as from every point kept,
/// and leaves no file of it behind.
#[test]
fn the_command_draws_through_a_spill_that_leaves_nothing() {
    let dir = fresh_dir("command");
    let spills = dir.join("spills");
    std::fs::create_dir_all(&spills).unwrap_or_else(|e| panic!("{e}"));
    // The files made, to see that the reading wrote into one.
    static MADE: std::sync::Mutex<Vec<std::fs::File>> = std::sync::Mutex::new(Vec::new());
    fn make() -> Box<dyn crate::profile::spill::SpillFile> {
        let dir =
            std::env::temp_dir().join(format!("hp2ps-spill-command-{}/spills", std::process::id()));
        let file = super::super::spill_file::spill_file(&dir).unwrap_or_else(|e| panic!("{e}"));
        let seen = file.try_clone().unwrap_or_else(|e| panic!("{e}"));
        MADE.lock().unwrap_or_else(|p| p.into_inner()).push(seen);
        Box::new(file)
    }
    let (result, out) = command_with_spill(&dir, Some(make));
    result.unwrap_or_else(|e| panic!("{e}"));
    let made = std::mem::take(&mut *MADE.lock().unwrap_or_else(|p| p.into_inner()));
    assert_eq!(made.len(), 1, "one spill");
    let size = made[0].metadata().map_or(0, |m| m.len());
    assert!(
        size > 100_000,
        "the drawn bands were written to it: {size} bytes"
    );
    let names = std::fs::read_dir(&spills).map_or(usize::MAX, |d| d.count());
    assert_eq!(names, 0, "a spill file left in its directory");
    // The same chart as every point kept.
    let bytes = std::fs::read(dir.join("long.hp")).unwrap_or_else(|e| panic!("{e}"));
    let whole = loaded(&bytes, &LoadOptions::default()).unwrap_or_else(|| panic!("read"));
    let mut render = RenderOptions::for_format(Format::Ps);
    render.layout.colour = true;
    let (chart, aux) = prepare(whole.profile, None, &render);
    let mut want = Vec::new();
    let paint = PaintOptions {
        source: Some(dir.join("long.hp").display().to_string()),
        ..PaintOptions::default()
    };
    chart
        .write(Format::Ps, &paint, &mut want)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.as_deref() == Some(&want[..]),
        "the chart differs from the spill"
    );
    let aux_out = std::fs::read(dir.join("long.aux")).unwrap_or_else(|e| panic!("{e}"));
    let mut aux_want = Vec::new();
    aux.write(&mut aux_want).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(aux_out, aux_want, ".aux");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A spill that cannot be written (TMPDIR full) is a one-line error, and no chart or
/// `.aux` is written.
#[test]
fn a_spill_that_cannot_be_written_is_a_clean_error() {
    struct Full;
    impl std::io::Read for Full {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Ok(0)
        }
    }
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl std::io::Seek for Full {
        fn seek(&mut self, _: std::io::SeekFrom) -> std::io::Result<u64> {
            Ok(0)
        }
    }
    let dir = fresh_dir("full");
    let (result, out) = command_with_spill(&dir, Some(|| Box::new(Full)));
    let message = result
        .err()
        .unwrap_or_else(|| panic!("a full spill succeeded"));
    assert!(
        message.contains("long.hp: cannot write the drawn bands to a temporary file")
            && message.contains("No space left on device")
            && !message.contains('\n'),
        "{message}"
    );
    assert!(out.is_none(), "a chart was written");
    assert!(!dir.join("long.aux").exists(), "an .aux was written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A spill that takes the points but cannot give them back (SVG, whose thinning reads
/// them): one line that says so, and nothing written.
#[test]
fn a_spill_that_cannot_be_read_back_is_a_clean_error() {
    struct Forgetful;
    impl std::io::Read for Forgetful {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(5))
        }
    }
    impl std::io::Write for Forgetful {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    impl std::io::Seek for Forgetful {
        fn seek(&mut self, _: std::io::SeekFrom) -> std::io::Result<u64> {
            Ok(0)
        }
    }
    let dir = fresh_dir("forgetful");
    let (result, out) = command_with_spill_as(&dir, Some(|| Box::new(Forgetful)), "svg");
    let message = result
        .err()
        .unwrap_or_else(|| panic!("an unreadable spill succeeded"));
    assert!(
        message.contains("long.hp: cannot read the drawn bands back from a temporary file")
            && message.contains("Input/output error")
            && !message.contains('\n'),
        "{message}"
    );
    assert!(out.is_none(), "a chart was written");
    let _ = std::fs::remove_dir_all(&dir);
}
