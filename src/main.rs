//! The `hp2ps` command: files, stdin and exit codes. Everything else is in the library.
//!
//! No `unsafe` here but in the four modules that allow it, each for a system call the
//! standard library does not make: the memory map of an input (`run/mapped/map.rs`), the
//! SIGBUS handler that survives a mapped file cut meanwhile (`run/mapped/fault.rs`),
//! glibc's allocator setting (`run/heap.rs`), and the SIGABRT handler that removes the
//! temporary files of a run that aborts (`run/abort.rs`). `tests/layers.rs` keeps it to
//! those.
#![deny(unsafe_code)]

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

/// `text` with every control character written as an escape (`\n`, `\x1b`, …), as
/// `--summary` writes the texts of a profile.
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    hp2ps::summary::printable(text)
}

mod cli;
mod run;

use std::io::{self, Write};
use std::process::ExitCode;

use cli::Command;
use run::report;

fn main() -> ExitCode {
    run::heap::tune();
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
        Command::Generate(g) => report(run::generate(&g)),
        Command::Render(inv) => render(&inv),
    }
}

/// Renders as `inv` asks, once its outputs are known not to collide; or judges its
/// profile (`--check`), which writes nothing.
fn render(inv: &cli::Invocation) -> ExitCode {
    if let Some(request) = &inv.check {
        return run::check::run(inv, request);
    }
    if let Err(e) = run::outputs::check(inv) {
        say!("hp2ps: {e}");
        say!("Try 'hp2ps --help' for more information.");
        return ExitCode::from(2);
    }
    // A time profile (.prof) among the inputs: summarised, refused, or drawn as any
    // file is (as its flame graph).
    let time: Vec<bool> = (inv.files.iter())
        .map(|f| run::time_profile::is_time_profile_file(f))
        .collect();
    if time.contains(&true) {
        if let Some(status) = run::time_profile::before_render(inv, &time) {
            return status;
        }
    }
    // The live page ends on Ctrl-C by writing -o with the run so far (it asks for the
    // gentle first signal before it watches signals).
    if let Some(opts) = &inv.serve {
        return run::serve::run(inv, opts);
    }
    if let Err(e) = run::cleanup::watch_signals() {
        say!("hp2ps: warning: an interrupted run may leave temporary files: {e}");
    }
    match (&inv.watch, inv.files.as_slice()) {
        (_, []) => run::filter(inv),
        (Some(opts), [file]) => run::watch::run(inv, file, opts),
        _ if inv.one_page() => run::compare::run(inv),
        _ => run::batch::run(inv),
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
