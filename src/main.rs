//! The `hp2ps` command: files, stdin and exit codes. Everything else is in the library.

mod cli;
mod output;

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;
use std::process::ExitCode;

use hp2ps::aux_file::{read_aux, Aux};
use hp2ps::hp::{ReadError, ReadOptions, Warning};
use hp2ps::paint::{write_chart, Format};
use hp2ps::profile::Profile;
use hp2ps::render::prepare;

use cli::{Command, Invocation};
use output::AtomicFile;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("hp2ps: {e}\nTry 'hp2ps --help' for more information.");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => {
            print!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Command::Version => {
            println!(
                "hp2ps {} (compatible with GHC's hp2ps 0.25)",
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::SUCCESS
        }
        Command::Render(inv) if inv.files.is_empty() => report(filter(&inv)),
        Command::Render(inv) => {
            let mut failed = false;
            for file in &inv.files {
                failed |= report(render_file(&inv, file)) != ExitCode::SUCCESS;
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("hp2ps: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The files of one file-mode run (spec §1.4): `foo` and `foo.hp` both read `foo.hp`, and
/// write `./foo.ps` (or `.eps`, `.svg`, `.pdf`) and `./foo.aux` in the current directory.
struct FileNames {
    input: PathBuf,
    output: PathBuf,
    aux: PathBuf,
}

impl FileNames {
    fn for_argument(arg: &OsString, format: Format) -> FileNames {
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
        let mut ext = b".".to_vec();
        ext.extend_from_slice(format.extension().as_bytes());
        FileNames {
            input: with(path, b".hp"),
            output: with(base, &ext),
            aux: with(base, b".aux"),
        }
    }
}

fn read_error(name: &str, e: ReadError) -> String {
    match e {
        ReadError::Io(io) => format!("{name}: read error: {io}"),
        other => format!("{name}:{other}"),
    }
}

fn warn(name: &str, warnings: &[Warning]) {
    for w in warnings {
        eprintln!("hp2ps: warning: {name}:{w}");
    }
}

fn render_file(inv: &Invocation, arg: &OsString) -> Result<(), String> {
    let format = inv.format();
    let names = FileNames::for_argument(arg, format);
    let input_name = names.input.display().to_string();
    let input = File::open(&names.input).map_err(|e| format!("cannot open {input_name}: {e}"))?;
    let (profile, warnings) =
        Profile::read(input, &ReadOptions::default()).map_err(|e| read_error(&input_name, e))?;
    warn(&input_name, &warnings);

    let previous = if inv.use_aux {
        Some(load_aux(&names.aux)?)
    } else {
        None
    };
    let (chart, aux) = prepare(profile, previous.as_ref(), &inv.render);

    let write_failed =
        |path: &PathBuf, e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut aux_file = AtomicFile::create(&names.aux).map_err(|e| write_failed(&names.aux, e))?;
    aux.write(aux_file.writer())
        .map_err(|e| write_failed(&names.aux, e))?;
    match inv.output.as_deref() {
        Some(o) if o == "-" => {
            write_stdout(&chart, format)?;
        }
        target => {
            let path = target.map_or(names.output, PathBuf::from);
            let mut out = AtomicFile::create(&path).map_err(|e| write_failed(&path, e))?;
            write_chart(&chart, format, out.writer()).map_err(|e| write_failed(&path, e))?;
            out.commit().map_err(|e| write_failed(&path, e))?;
        }
    }
    aux_file.commit().map_err(|e| write_failed(&names.aux, e))?;
    Ok(())
}

fn write_stdout(chart: &hp2ps::chart::Chart, format: Format) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    write_chart(chart, format, &mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

fn load_aux(path: &PathBuf) -> Result<Aux, String> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| format!("cannot open {name}: {e}"))?;
    read_aux(&text).map_err(|e| format!("{name}:{e}"))
}

/// Filter mode: stdin to stdout (or `-o`), no `.aux` read or written.
fn filter(inv: &Invocation) -> Result<(), String> {
    let stdin = io::stdin().lock();
    let (profile, warnings) =
        Profile::read(stdin, &ReadOptions::default()).map_err(|e| read_error("stdin", e))?;
    warn("stdin", &warnings);
    let (chart, _) = prepare(profile, None, &inv.render);
    match inv.output.as_deref() {
        Some(o) if o != "-" => {
            let path = PathBuf::from(o);
            let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
            let mut out = AtomicFile::create(&path).map_err(failed)?;
            write_chart(&chart, inv.format(), out.writer()).map_err(failed)?;
            out.commit().map_err(failed)
        }
        _ => write_stdout(&chart, inv.format()),
    }
}
