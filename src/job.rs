//! One render: a file (or stdin) in, the chart and `.aux` out, each written atomically.
//! Nothing here prints: warnings and the summary go back to the caller, so that batch
//! mode can print them past its progress bar and watch mode can quiet them.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use hp2ps::aux_file::{read_aux, Aux};
use hp2ps::hp::{ReadError, ReadOptions, Warning};
use hp2ps::paint::{write_chart_with, Format};
use hp2ps::profile::Profile;
use hp2ps::render::prepare;
use hp2ps::summary::{summarize, Summary};
use hp2ps::window::{read_profile, WindowError};

use crate::cli::Invocation;
use crate::output::AtomicFile;

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

/// The files of one file-mode run (spec §1.4): `foo` and `foo.hp` both read `foo.hp`, and
/// write `./foo.ps` (or `.eps`, `.svg`, `.pdf`) and `./foo.aux` in the current directory,
/// or in `--output-dir`.
#[derive(Debug, Clone, PartialEq)]
pub struct FileNames {
    pub input: PathBuf,
    pub output: PathBuf,
    pub aux: PathBuf,
}

impl FileNames {
    pub fn for_argument(arg: &OsString, format: Format, dir: Option<&Path>) -> FileNames {
        let bytes = arg.as_bytes();
        let path = match bytes.iter().rposition(|&b| b == b'.') {
            Some(dot) if &bytes[dot..] == b".hp" => &bytes[..dot],
            _ => bytes,
        };
        let base = match path.iter().rposition(|&b| b == b'/') {
            Some(slash) => &path[slash + 1..],
            None => path,
        };
        let with = |stem: &[u8], ext: &[u8]| {
            let mut v = stem.to_vec();
            v.extend_from_slice(ext);
            PathBuf::from(OsString::from_vec(v))
        };
        let in_dir = |name: PathBuf| match dir {
            Some(d) => d.join(name),
            None => name,
        };
        let mut ext = b".".to_vec();
        ext.extend_from_slice(format.extension().as_bytes());
        FileNames {
            input: with(path, b".hp"),
            output: in_dir(with(base, &ext)),
            aux: in_dir(with(base, b".aux")),
        }
    }

    /// The names for `arg` under this invocation's format and `--output-dir`.
    pub fn of(inv: &Invocation, arg: &OsString) -> FileNames {
        let dir = inv.output_dir.as_ref().map(Path::new);
        FileNames::for_argument(arg, inv.format(), dir)
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
    let (profile, warnings) = read_profile(input, &ReadOptions::default(), &inv.window)
        .map_err(|e| read_error(name, e))?;
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

/// Whether two paths name the same directory entry, however they are spelled (`t.hp`,
/// `./t.hp`, `d/../t.hp`). Links are different entries: replacing one leaves the other.
fn same_entry(a: &Path, b: &Path) -> bool {
    fn key(p: &Path) -> Option<PathBuf> {
        let name = p.file_name()?;
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(name))
    }
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Refuses an `-o` that would replace the input or be replaced by the `.aux`.
fn check_output(inv: &Invocation, names: &FileNames) -> Result<(), String> {
    let Some(output) = inv.output.as_deref().filter(|o| *o != "-") else {
        return Ok(());
    };
    let output = Path::new(output);
    if same_entry(output, &names.input) {
        return Err(format!(
            "the output {} is the input profile: name another output file",
            output.display()
        ));
    }
    if inv.renders() && same_entry(output, &names.aux) {
        return Err(format!(
            "the output {} is where the .aux file goes: name another output file",
            output.display()
        ));
    }
    Ok(())
}

/// Whether stdin is the regular file at `path` (filter mode with `-o` naming its input).
fn stdin_is(path: &Path) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (File::from(fd).metadata(), std::fs::metadata(path)) {
        (Ok(i), Ok(o)) => i.is_file() && i.dev() == o.dev() && i.ino() == o.ino(),
        _ => false,
    }
}

/// Renders one file argument as a single-file run would.
pub fn render_file(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    check_output(inv, &names)?;
    let input_name = names.input.display().to_string();
    let input = File::open(&names.input).map_err(|e| format!("cannot open {input_name}: {e}"))?;
    let (profile, mut done) = read(inv, input, &input_name)?;
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
            write_stdout(&chart, format, &inv.paint)?;
            None
        }
        target => {
            let path = target.map_or_else(|| names.output.clone(), PathBuf::from);
            let mut out = AtomicFile::create(&path).map_err(|e| write_failed(&path, e))?;
            write_chart_with(&chart, format, &inv.paint, out.writer())
                .map_err(|e| write_failed(&path, e))?;
            out.commit().map_err(|e| write_failed(&path, e))?;
            Some(path)
        }
    };
    aux_file.commit().map_err(|e| write_failed(&names.aux, e))?;
    Ok(output)
}

fn write_stdout(
    chart: &hp2ps::chart::Chart,
    format: Format,
    opts: &hp2ps::paint::PaintOptions,
) -> Result<(), String> {
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
    let stdin = io::stdin().lock();
    let (profile, mut done) = read(inv, stdin, "stdin")?;
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

/// Prints a summary to stdout in the requested form.
pub fn print_summary(summary: &Summary, format: crate::cli::SummaryFormat) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match format {
        crate::cli::SummaryFormat::Json => summary
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n")),
        crate::cli::SummaryFormat::Text => summary.write_text(&mut out),
    }
    .and_then(|()| out.flush())
    .map_err(|e| format!("cannot write to stdout: {e}"))
}
