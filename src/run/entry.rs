//! The command's way in: the arguments parsed ([`crate::cli`]), then help, the version,
//! the man page and completions, or a render in the mode the arguments ask for.

use std::io::{self, Write};
use std::process::ExitCode;

use crate::cli::{self, Command};
use crate::run::{self, report};
use crate::Format;

/// The command: its arguments, what they ask for, its exit status.
pub fn main() -> ExitCode {
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
    // A time profile (.prof) among the inputs: summarised, refused, on a page with its
    // heap profile or others, or drawn as any file is (as its flame graph).
    // An eventlog of a time profile alone is told before reading where the inputs make
    // one page or one summary together (a batch finds out file by file).
    let together = inv.files.len() > 1
        && (inv.format() == Format::Html || (inv.summary.is_some() && !inv.renders()));
    let time: Vec<bool> = (inv.files.iter())
        .map(|f| {
            run::time_read::is_time_profile_file(f)
                || (together && run::time_read::is_time_profile_eventlog(f))
        })
        .collect();
    if time.contains(&true) {
        if let Some(status) = run::time_profile::before_render(inv, &time) {
            return status;
        }
    }
    if let Err(e) = run::outputs::check(inv) {
        say!("hp2ps: {e}");
        say!("Try 'hp2ps --help' for more information.");
        return ExitCode::from(2);
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
