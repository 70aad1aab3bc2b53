//! The `hp2ps` command: files, stdin and exit codes. Everything else is in the library.

/// Writes one line to stderr. Unlike `eprintln!`, it does not panic when stderr cannot be
/// written (`2>/dev/full`, a closed pipe): the exit status still tells what happened.
/// Control characters (from file names or arguments) are escaped, so a message is always
/// exactly one line.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", crate::one_line(&text));
    }};
}

/// `text` with every control character written as an escape (`\n`, `\x1b`, …).
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

mod batch;
mod cli;
mod job;
mod output;
mod watch;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use cli::{Command, Generate, GenerateKind, Invocation};
use output::AtomicFile;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            say!("hp2ps: {e}");
            say!("Try 'hp2ps --help' for more information.");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => print_or_fail(cli::help().as_bytes()),
        Command::Version => print_or_fail(
            format!(
                "hp2ps {} (compatible with GHC's hp2ps 0.25)\n",
                env!("CARGO_PKG_VERSION")
            )
            .as_bytes(),
        ),
        Command::Generate(g) => report(generate(&g)),
        Command::Render(inv) if inv.files.is_empty() => filter(&inv),
        Command::Render(inv) => match (&inv.watch, inv.files.as_slice()) {
            (Some(opts), [file]) => watch::run(&inv, file, opts),
            _ => batch::run(&inv),
        },
    }
}

fn print_or_fail(text: &[u8]) -> ExitCode {
    let mut out = io::stdout().lock();
    report(
        out.write_all(text)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to stdout: {e}")),
    )
}

fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say!("hp2ps: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Filter mode: stdin to stdout (or `-o`), no `.aux`.
fn filter(inv: &Invocation) -> ExitCode {
    match job::filter(inv) {
        Ok(done) => {
            for w in done.warning_lines() {
                say!("{w}");
            }
            match (&done.summary, inv.summary) {
                (Some(summary), Some(format)) => report(job::print_summary(summary, format)),
                _ => ExitCode::SUCCESS,
            }
        }
        Err(failure) => {
            for w in &failure.warnings {
                say!("{w}");
            }
            report(Err(failure.message))
        }
    }
}

/// `--generate KIND [DIR]`: the man page or completions, from the same definition as
/// `--help`.
fn generate(g: &Generate) -> Result<(), String> {
    let mut bytes = Vec::new();
    let mut cmd = cli::command();
    let shell = match g.kind {
        GenerateKind::Man => None,
        GenerateKind::Bash => Some(clap_complete::Shell::Bash),
        GenerateKind::Zsh => Some(clap_complete::Shell::Zsh),
        GenerateKind::Fish => Some(clap_complete::Shell::Fish),
    };
    match shell {
        None => clap_mangen::Man::new(cmd)
            .render(&mut bytes)
            .map_err(|e| format!("cannot render the man page: {e}"))?,
        Some(shell) => clap_complete::generate(shell, &mut cmd, "hp2ps", &mut bytes),
    }
    let Some(dir) = &g.dir else {
        let mut out = io::stdout().lock();
        return out
            .write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to stdout: {e}"));
    };
    let dir = Path::new(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(g.kind.file_name());
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = AtomicFile::create(&path).map_err(failed)?;
    file.writer().write_all(&bytes).map_err(failed)?;
    file.commit().map_err(failed)
}
