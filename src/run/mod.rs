//! The edge of the program: files, stdin and stdout. Its way in ([`entry`]: the
//! arguments, then help, the version, the man page, or a render in its mode). One render
//! ([`render`]: the command line's `LoadOptions`, then `load`, `prepare` and the painter;
//! [`painted`]: an HTML page made by the page builder, which says what it left out), file
//! naming and the checks that an output never replaces its input ([`names`]), atomic
//! files ([`atomic`]),
//! batch runs with `--uniform-scale`'s first pass ([`batch`]), one HTML page of several
//! runs ([`compare`]: every file read as batch does, then `prepare_runs` and the page
//! builder; what each run's page left out said on stderr too), watching a growing file ([`watch`]), the live page of a running program ([`serve`]: the input
//! followed, the whole run kept, the publisher of the page's updates, the HTTP server;
//! see `docs/live.md`), the summary on stdout ([`summary`]), the CI gate's verdict
//! ([`check`]: `--check`, its files read as a render reads them), the program binary of a
//! `-hi` profile (`symbols.rs`), the generated man page and completions ([`generate`]),
//! large files read through a memory map that a cut file cannot crash ([`mapped`]: the map
//! in `map.rs`, the SIGBUS handler in `fault.rs`; elsewhere files are read as streams),
//! what tells a file's versions apart ([`version`]) and the C allocator's settings
//! ([`heap`]); a GHC time profile (`.prof`, `-pj`) among the inputs, summarised or
//! compared ([`time_profile`]; read by [`time_read`]), or drawn as its flame graph
//! (`time_render.rs`; a file argument of either kind rendered: `any_file.rs`; one on
//! stdin: `time_stdin.rs`; a heap profile on stdin, filter mode: `stdin_filter.rs`). Hostile files at these edges: what a command writes is checked before
//! anything is read ([`outputs`]: an `-o` that is a directory, files that would write
//! the same output); no temporary outlives a run however it ends, and a chart and its
//! `.aux` are renamed together ([`cleanup`]; on SIGABRT, `abort.rs`); a file that must be
//! a regular one is opened without waiting for a FIFO (`regular.rs`); what is at a
//! watched path is looked at without opening it (`watched.rs`); the program binary is a
//! regular file of at most 2 GiB, opened once and mapped (`symbols.rs`). A long mapped
//! `.hp` drawn as PS, EPS, SVG or PDF is read twice instead of kept whole
//! (`two_pass.rs`: the first reading's totals decide the bands, the second keeps the
//! drawn ones; as PostScript, into a nameless file, `spill_file.rs`); its `--summary` alone is read once keeping no point, only the sums the
//! summary needs. The crate's
//! only `unsafe` is in `mapped/`, `heap.rs` and `abort.rs`.

#[cfg(unix)]
mod abort;
mod any_file;
mod atomic;
mod background;
pub(crate) mod batch;
pub(crate) mod check;
mod check_time;
pub(crate) mod cleanup;
pub(crate) mod compare;
mod done;
pub(crate) mod entry;
pub(crate) mod heap;
mod linked;
mod mapped;
pub mod names;
pub mod outputs;
mod painted;
pub mod regular;
mod render;
pub(crate) mod serve;
mod spill_file;
mod stdin_filter;
mod summary;
mod symbols;
pub(crate) mod time_page;
pub(crate) mod time_profile;
pub(crate) mod time_read;
mod time_render;
mod time_stdin;
mod two_pass;
mod verdict;
pub mod version;
pub(crate) mod watch;
pub mod watched;

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::cli::{self, Generate, GenerateKind, Invocation};
use atomic::AtomicFile;

/// Turns a result into an exit status, printing the error.
pub(crate) fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say!("hp2ps: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Filter mode: stdin to stdout (or `-o`), no `.aux`.
pub(crate) fn filter(inv: &Invocation) -> ExitCode {
    let head = match time_stdin::look(inv) {
        time_stdin::Stdin::Time(status) => return status,
        time_stdin::Stdin::Heap(head) => head,
    };
    match stdin_filter::filter(inv, head) {
        Ok(done) => {
            for w in done.warning_lines() {
                say!("{w}");
            }
            match (&done.summary, inv.summary) {
                (Some(summary), Some(format)) => report(summary::print_summary(summary, format)),
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
pub(crate) fn generate(g: &Generate) -> Result<(), String> {
    let mut bytes = Vec::new();
    let mut cmd = cli::command();
    let shell = match g.kind {
        GenerateKind::Man => None,
        GenerateKind::Bash => Some(clap_complete::Shell::Bash),
        GenerateKind::Zsh => Some(clap_complete::Shell::Zsh),
        GenerateKind::Fish => Some(clap_complete::Shell::Fish),
        GenerateKind::PowerShell => Some(clap_complete::Shell::PowerShell),
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
