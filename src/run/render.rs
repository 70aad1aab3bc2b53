//! One render: a file (or stdin) in, the chart and `.aux` out, each written atomically.
//! Nothing here prints: warnings and the summary go back to the caller, so that batch
//! mode can print them past its progress bar and watch mode can quiet them.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use hp2ps::aux_file::{read_aux, Aux};
use hp2ps::layout::chart::Chart;
use hp2ps::paint::{write_chart_with, Format, PaintOptions};
use hp2ps::pipeline::prepare;
use hp2ps::profile::Profile;
use hp2ps::profile::Series;
use hp2ps::read::eventlog::EventlogReport;
use hp2ps::read::hp::ReadError;
use hp2ps::read::window::WindowError;
use hp2ps::read::{read_input, read_input_slice, InputError, InputOptions, Notes};
use hp2ps::summary::{summarize, BreakdownSummary, Summary};

use super::atomic::AtomicFile;
use super::mapped::{self, Mapped};
use super::names::{check_output, stdin_is, FileNames};
use super::symbols;
use super::version::Version;
use crate::cli::Invocation;

/// What a successful render has to report.
#[derive(Debug, Default)]
pub struct Done {
    /// The reader's warnings (the incomplete last sample of a live profile, a cut
    /// eventlog, …), each a whole line.
    pub warnings: Vec<String>,
    pub summary: Option<Summary>,
    /// The chart file written, if any (not for stdout).
    pub output: Option<PathBuf>,
    /// The number of samples drawn.
    pub samples: usize,
}

impl Done {
    pub fn warning_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.warnings.iter().cloned()
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

fn read_error(name: &str, e: InputError) -> String {
    match e {
        InputError::Hp(WindowError::Read(ReadError::Io(io))) => {
            format!("{name}: read error: {io}")
        }
        InputError::Hp(WindowError::Read(other)) => format!("{name}:{other}"),
        InputError::Hp(other) => format!("{name}: {other}"),
        InputError::Eventlog(e) => format!("{name}: {e}"),
    }
}

/// The file an input is read from (`None` for stdin), and its name in messages.
#[derive(Clone, Copy)]
struct Source<'a> {
    path: Option<&'a Path>,
    name: &'a str,
}

fn read(
    inv: &Invocation,
    input: impl io::Read,
    src: Source<'_>,
) -> Result<(Profile, Done), String> {
    finish_read(inv, read_input(input, &input_options(inv)), src)
}

/// The one line for a file that changed while it was read (a program writing it again:
/// GHC truncates `prog.hp` and `prog.eventlog` when it starts).
fn changed_while_read(name: &str) -> String {
    format!("{name}: the file changed while it was read")
}

/// [`read`] on an open file: through a map when it is a regular file worth mapping and
/// `may_map`, else as a stream. A read that fails while the file changes under it (a
/// regular file cut or rewritten meanwhile) gives [`changed_while_read`] instead of the
/// damage the reader saw.
fn read_file(
    inv: &Invocation,
    input: &File,
    src: Source<'_>,
    may_map: bool,
) -> Result<(Profile, Done), String> {
    if let Some(map) = may_map.then(|| Mapped::of(input)).flatten() {
        return read_mapped(inv, &map, src);
    }
    let version = || {
        input
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| Version::of(&m))
    };
    let before = version();
    let read = read_input(input, &input_options(inv));
    if read.is_err() && before.is_some() && version() != before {
        return Err(changed_while_read(src.name));
    }
    finish_read(inv, read, src)
}

fn input_options(inv: &Invocation) -> InputOptions {
    let mut opts = InputOptions::default();
    opts.window = inv.window;
    opts.eventlog = inv.eventlog.clone();
    opts
}

/// [`read`] on a regular file through a memory map (see [`Mapped`]), dropping the pages
/// read as the reader goes.
fn read_mapped(inv: &Invocation, map: &Mapped, src: Source<'_>) -> Result<(Profile, Done), String> {
    let read = read_input_slice(map.bytes(), &input_options(inv), &mut |n| map.release(n));
    if map.changed_while_read(read.is_err()) {
        return Err(changed_while_read(src.name));
    }
    finish_read(inv, read, src)
}

/// The warnings, the names of `-hi` bands, the eventlog's lines over the bands, the
/// filter and the summary of what was read.
fn finish_read(
    inv: &Invocation,
    read: Result<(Profile, Notes), InputError>,
    src: Source<'_>,
) -> Result<(Profile, Done), String> {
    let name = src.name;
    let (mut profile, notes) = read.map_err(|e| read_error(name, e))?;
    let mut warnings: Vec<String> = (notes.warning_lines().iter())
        .map(|w| format!("hp2ps: warning: {name}:{w}"))
        .collect();
    let (naming, naming_warnings) = symbols::name_bands(inv, &mut profile, &notes, src.path, name);
    warnings.extend(naming_warnings);
    if inv.heap_size {
        match &notes {
            Notes::Eventlog(report) => profile.series = heap_series(report),
            Notes::Hp(_) => warnings.push(format!(
                "hp2ps: warning: {name}: --heap-size needs an eventlog (prog +RTS -h -l); a .hp has no heap size"
            )),
        }
    }
    // Filtered here already, so that the summary describes what the chart shows.
    let filter = &inv.render.aggregate.filter;
    let filtered = (!filter.is_empty()).then(|| filter.take_out(&mut profile));
    let summary = inv.summary.map(|_| {
        let mut s = summarize(&profile, &inv.summary_options);
        s.file = Some(name.to_string()).filter(|_| name != "stdin");
        s.filtered = filtered;
        if let Notes::Eventlog(report) = &notes {
            s.breakdown = report.breakdown.map(BreakdownSummary::from);
        }
        s.names = naming.clone();
        s
    });
    let done = Done {
        warnings,
        summary,
        output: None,
        samples: profile.times.len(),
    };
    Ok((profile, done))
}

/// The heap size and live bytes an eventlog recorded, as lines to draw over the bands.
fn heap_series(report: &EventlogReport) -> Vec<Series> {
    let line = |name: &str, points: &[(f64, u64)]| Series {
        name: name.as_bytes().to_vec(),
        points: points.iter().map(|&(t, b)| (t, b as f64)).collect(),
    };
    [
        line("heap size", &report.heap_size),
        line("live bytes", &report.heap_live),
    ]
    .into_iter()
    .filter(|s| !s.points.is_empty())
    .collect()
}

/// The x and y ranges the chart of one file argument would have, for `--uniform-scale`;
/// `None` when the file cannot be read (its render reports why).
pub(crate) fn ranges(inv: &Invocation, arg: &OsString) -> Option<(f64, f64)> {
    let names = FileNames::of(inv, arg);
    let input = File::open(&names.input).ok()?;
    let src = Source {
        path: Some(&names.input),
        name: "",
    };
    let (profile, _) = read(inv, input, src).ok()?;
    let previous = if inv.use_aux {
        Some(load_aux(&names.aux).ok()?)
    } else {
        None
    };
    let (_, aux) = prepare(profile, previous.as_ref(), &inv.render);
    Some((aux.x_range, aux.y_range))
}

/// Renders one file argument as a single-file run would.
pub fn render_file(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    let (profile, mut done) = read_named(inv, &names)?;
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

/// Reads the profile of one file argument, once `-o` is known not to name it.
pub(super) fn read_named(inv: &Invocation, names: &FileNames) -> Result<(Profile, Done), Failure> {
    check_output(inv, names)?;
    let input_name = names.input.display().to_string();
    let input = File::open(&names.input).map_err(|e| format!("cannot open {input_name}: {e}"))?;
    // A file being written (--watch) is read as a stream, where its growth cannot fault.
    let src = Source {
        path: Some(&names.input),
        name: &input_name,
    };
    Ok(read_file(inv, &input, src, inv.watch.is_none())?)
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
    // The page names its profile (as the command line gave it).
    let mut paint = inv.paint.clone();
    paint.source = Some(names.input.display().to_string());
    let output = match inv.output.as_deref() {
        Some(o) if o == "-" => {
            write_stdout(&chart, format, &paint)?;
            None
        }
        target => {
            let path = target.map_or_else(|| names.output.clone(), PathBuf::from);
            let mut out = AtomicFile::create(&path).map_err(|e| write_failed(&path, e))?;
            write_chart_with(&chart, format, &paint, out.writer())
                .map_err(|e| write_failed(&path, e))?;
            out.commit().map_err(|e| write_failed(&path, e))?;
            Some(path)
        }
    };
    aux_file.commit().map_err(|e| write_failed(&names.aux, e))?;
    Ok(output)
}

fn write_stdout(chart: &Chart, format: Format, opts: &PaintOptions) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    write_chart_with(chart, format, opts, &mut out)
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
    // `hp2ps < big.hp`: a regular file on stdin is mapped like a named one.
    let src = Source {
        path: None,
        name: "stdin",
    };
    let (profile, mut done) = match mapped::of_stdin() {
        Some(map) => read_mapped(inv, &map, src)?,
        None => read(inv, io::stdin().lock(), src)?,
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
            write_chart_with(&chart, inv.format(), &inv.paint, out.writer()).map_err(failed)?;
            out.commit().map_err(failed).map(|()| Some(path))
        }
        _ => write_stdout(&chart, inv.format(), &inv.paint).map(|()| None),
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
