//! One render: a file (or stdin) in, the chart and `.aux` out, each written atomically.
//! Nothing here prints: warnings and the summary go back to the caller, so that batch
//! mode can print them past its progress bar and watch mode can quiet them.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use hp2ps::chart::Chart;
use hp2ps::paint::{write_chart, Format};
use hp2ps::pipeline::prepare;
use hp2ps::profile::Profile;
use hp2ps::read::aux::{read_aux, Aux};
use hp2ps::read::hp::{ReadError, ReadOptions, Warning};
use hp2ps::read::window::{read_profile, read_profile_slice, WindowError};
use hp2ps::summary::{summarize, Summary};

use super::atomic::AtomicFile;
use super::mapped::Mapped;
use super::names::{check_output, stdin_is, FileNames};
use crate::cli::Invocation;

/// What a successful render has to report.
#[derive(Debug, Default)]
pub struct Done {
    /// The reader's warnings (the incomplete last sample of a live profile).
    pub warnings: Vec<(String, Warning)>,
    pub summary: Option<Summary>,
    /// The chart file written, if any (not for stdout).
    pub output: Option<PathBuf>,
    /// The number of samples drawn.
    pub samples: usize,
}

impl Done {
    pub fn warning_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.warnings
            .iter()
            .map(|(name, w)| format!("hp2ps: warning: {name}:{w}"))
    }
}

/// A failed render: the one-line message, and the warnings printed before it.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub warnings: Vec<String>,
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure {
            message,
            warnings: Vec::new(),
        }
    }
}

fn read_error(name: &str, e: WindowError) -> String {
    match e {
        WindowError::Read(ReadError::Io(io)) => format!("{name}: read error: {io}"),
        WindowError::Read(other) => format!("{name}:{other}"),
        other => format!("{name}: {other}"),
    }
}

fn read(inv: &Invocation, input: impl io::Read, name: &str) -> Result<(Profile, Done), String> {
    let read = read_profile(input, &ReadOptions::default(), &inv.window);
    finish_read(inv, read, name)
}

/// [`read`] on a regular file through a memory map (see [`Mapped`]), dropping the pages
/// read as the reader goes.
fn read_mapped(inv: &Invocation, map: &Mapped, name: &str) -> Result<(Profile, Done), String> {
    let read = read_profile_slice(
        map.bytes(),
        &ReadOptions::default(),
        &inv.window,
        &mut |n| map.release(n),
    );
    finish_read(inv, read, name)
}

fn finish_read(
    inv: &Invocation,
    read: Result<(Profile, Vec<Warning>), WindowError>,
    name: &str,
) -> Result<(Profile, Done), String> {
    let (profile, warnings) = read.map_err(|e| read_error(name, e))?;
    let summary = inv.summary.map(|_| {
        let mut s = summarize(&profile, &inv.summary_options);
        s.file = Some(name.to_string()).filter(|_| name != "stdin");
        s
    });
    let done = Done {
        warnings: warnings
            .into_iter()
            .map(|w| (name.to_string(), w))
            .collect(),
        summary,
        output: None,
        samples: profile.times.len(),
    };
    Ok((profile, done))
}

/// Renders one file argument as a single-file run would.
pub fn render_file(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    check_output(inv, &names)?;
    let input_name = names.input.display().to_string();
    let input = File::open(&names.input).map_err(|e| format!("cannot open {input_name}: {e}"))?;
    // A file being written (--watch) is read as a stream: a map of it could fault.
    let map = if inv.watch.is_none() {
        Mapped::of(&input)
    } else {
        None
    };
    let (profile, mut done) = match map {
        Some(map) => read_mapped(inv, &map, &input_name)?,
        None => read(inv, input, &input_name)?,
    };
    if !inv.renders() {
        return Ok(done);
    }
    match draw_file(inv, &names, profile) {
        Ok(output) => {
            done.output = output;
            Ok(done)
        }
        Err(message) => Err(Failure {
            message,
            warnings: done.warning_lines().collect(),
        }),
    }
}

/// Draws the chart and writes it and the `.aux`; returns the chart's file.
fn draw_file(
    inv: &Invocation,
    names: &FileNames,
    profile: Profile,
) -> Result<Option<PathBuf>, String> {
    let format = inv.format();

    let previous = if inv.use_aux {
        Some(load_aux(&names.aux)?)
    } else {
        None
    };
    let (chart, aux) = prepare(profile, previous.as_ref(), &inv.render);

    let write_failed = |path: &Path, e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut aux_file = AtomicFile::create(&names.aux).map_err(|e| write_failed(&names.aux, e))?;
    aux.write(aux_file.writer())
        .map_err(|e| write_failed(&names.aux, e))?;
    let output = match inv.output.as_deref() {
        Some(o) if o == "-" => {
            write_stdout(&chart, format)?;
            None
        }
        target => {
            let path = target.map_or_else(|| names.output.clone(), PathBuf::from);
            let mut out = AtomicFile::create(&path).map_err(|e| write_failed(&path, e))?;
            write_chart(&chart, format, out.writer()).map_err(|e| write_failed(&path, e))?;
            out.commit().map_err(|e| write_failed(&path, e))?;
            Some(path)
        }
    };
    aux_file.commit().map_err(|e| write_failed(&names.aux, e))?;
    Ok(output)
}

fn write_stdout(chart: &Chart, format: Format) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    write_chart(chart, format, &mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

fn load_aux(path: &Path) -> Result<Aux, String> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| format!("cannot open {name}: {e}"))?;
    read_aux(&text).map_err(|e| format!("{name}:{e}"))
}

/// Filter mode: stdin to stdout (or `-o`), no `.aux` read or written.
pub fn filter(inv: &Invocation) -> Result<Done, Failure> {
    if let Some(o) = inv.output.as_deref().filter(|o| *o != "-") {
        if inv.renders() && stdin_is(Path::new(o)) {
            return Err(Failure::from(format!(
                "the output {} is the input profile (stdin): name another output file",
                Path::new(o).display()
            )));
        }
    }
    let stdin = io::stdin().lock();
    // `hp2ps < big.hp`: a regular file on stdin is mapped like a named one.
    let map = stdin
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .and_then(|fd| Mapped::of(&File::from(fd)));
    let (profile, mut done) = match map {
        Some(map) => read_mapped(inv, &map, "stdin")?,
        None => read(inv, stdin, "stdin")?,
    };
    if !inv.renders() {
        return Ok(done);
    }
    let (chart, _) = prepare(profile, None, &inv.render);
    let drawn = match inv.output.as_deref() {
        Some(o) if o != "-" => {
            let path = PathBuf::from(o);
            let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
            let mut out = AtomicFile::create(&path).map_err(failed)?;
            write_chart(&chart, inv.format(), out.writer()).map_err(failed)?;
            out.commit().map_err(failed).map(|()| Some(path))
        }
        _ => write_stdout(&chart, inv.format()).map(|()| None),
    };
    match drawn {
        Ok(output) => {
            done.output = output;
            Ok(done)
        }
        Err(message) => Err(Failure {
            message,
            warnings: done.warning_lines().collect(),
        }),
    }
}
