//! The whole run's page: what `-o` writes, what the page's "Save page" gives, and what
//! the live page shows at the run's end. It is the page `--format html` writes of the
//! whole run, made by this program run again as a child (`--serve-whole-run`, with the
//! command line it was given) that reads the run from its stdin and paints the page
//! once: it hands the page builder's [`Page`] back on its stdout as JSON, of which the
//! server writes the saved page and takes the live page's last update.
//!
//! On Linux its stdin is the run's record itself (the followed file, or the spool),
//! opened again, and it is told the run's length there (the file grows on meanwhile):
//! it maps those bytes and reads them as `--format html` reads a mapped file, in parts
//! (`two_pass/page.rs`), in bounded memory (a day of censuses of 200 bands, 7 GB: see
//! docs/performance.md). Elsewhere, or with `HP2PS_NO_MMAP=1`, the record's bytes are
//! piped to it and it keeps every point (2.4 GB for that day).
//!
//! A child, so that what a whole long run's page costs is the child's for the seconds it
//! works, and goes back to the system when it ends: the server keeps only its levels of
//! detail.

use std::io::{self, Read, Write};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;

use crate::paint::html::{Page, RunPage};
use crate::profile::{Profile, ProfileFacts};
use crate::{load, prepare, Chart, Source};

use super::record::{Kept, Record};
use super::source::Input;
use crate::cli::{Invocation, ServeOptions};
use crate::run::mapped::{stdin_file, Mapped};
use crate::run::render::{prepare_done, read_mapped, Origin};

/// The whole run's page, and its parts for the live page.
pub(super) struct Whole {
    /// The page, as `--format html` writes it.
    pub(super) page: Vec<u8>,
    pub(super) live: Arc<Page>,
    /// Made of the run up to the spool's cap (`--spool-max`): the run went on after it.
    pub(super) capped: bool,
}

/// What a whole run's page is made from: the run's number (a new run may keep as many
/// bytes as the last) and the record as it stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MadeFrom {
    pub(super) run: u64,
    pub(super) kept: Kept,
}

/// The whole run's pages, made in one place ([`super::hub::Hub::whole`]) and one at a
/// time: a child reads the whole run (for a day's log, gigabytes for seconds), so a
/// page is made again only when the record changed, and a request that waited for the
/// page being made takes it.
#[derive(Default)]
pub(super) struct Pages {
    /// The newest page made.
    pub(super) last: Option<Made>,
    /// What `-o` was last written from.
    pub(super) output: Option<MadeFrom>,
}

/// A page made.
pub(super) struct Made {
    pub(super) from: MadeFrom,
    /// Its number among the pages begun (1, 2, …).
    pub(super) number: u64,
    pub(super) page: Arc<Whole>,
}

/// This program, as it was when the server started, to run again: on Linux an open
/// descriptor of its file, run through `/proc/self/fd/N`, so that a binary deleted or
/// replaced during a long run (an upgrade, a `cargo build`) is still this one; elsewhere
/// its path, found at the start.
pub(super) struct Program {
    path: std::path::PathBuf,
    /// Keeps the file open (and so the binary there) while the server runs.
    #[cfg(target_os = "linux")]
    _open: std::fs::File,
}

impl Program {
    /// The running program, found now.
    pub(super) fn running() -> Result<Program, String> {
        let cannot = |e: io::Error| format!("cannot find this program to run it again: {e}");
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let open = std::fs::File::open("/proc/self/exe").map_err(cannot)?;
            let path = format!("/proc/self/fd/{}", open.as_raw_fd()).into();
            Ok(Program { path, _open: open })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let path = std::env::current_exe().map_err(cannot)?;
            Ok(Program { path })
        }
    }
}

/// The server's side: the page of the run kept in `record`, made by a child, `program`.
///
/// Where files are mapped (Linux), the child is given the record's file itself on its
/// stdin, opened again (its own offset), and the run's length in it
/// (`--serve-whole-run-bytes`): it maps those bytes and makes the page in parts, in
/// bounded memory, as `--format html` does of a mapped file. Elsewhere the record's
/// bytes are piped to it, and it keeps every point.
pub(super) fn make(record: &Record, program: &Program) -> Result<Whole, String> {
    // Said as it is when the record cannot be read (a spool that ran out of room, a
    // file written again), not as the child's "end of file" of an empty input.
    let run = record.reader()?;
    let capped = run.capped;
    let file = run.reopened();
    let mut command = Command::new(&program.path);
    // Its own name as it was started (the descriptor's path says nothing to `ps`).
    #[cfg(unix)]
    if let Some(name) = std::env::args_os().next() {
        std::os::unix::process::CommandExt::arg0(&mut command, name);
    }
    command
        .args(std::env::args_os().skip(1))
        .arg("--serve-whole-run")
        .args(run.capped.then_some("--serve-whole-run-capped"))
        .args(
            file.is_some()
                .then(|| format!("--serve-whole-run-bytes={}", run.end())),
        )
        .stdin(file.map_or_else(Stdio::piped, Stdio::from))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A group of its own: the terminal's Ctrl-C, sent to the whole foreground group, is
    // the server's to answer (by writing -o with this very page), not the child's to
    // die of. The child ends anyway when the server does: its input and output close.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run hp2ps again: {e}"))?;
    let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(String::from("cannot talk to the child"));
    };
    // The run is piped to the child, or checked once it is done with the file given.
    let (piped, given) = match child.stdin.take() {
        Some(stdin) => (Some((stdin, run)), None),
        None => (None, Some(run)),
    };
    let (page, errors, fed) = std::thread::scope(|scope| {
        let fed = piped.map(|(mut stdin, mut run)| {
            scope.spawn(move || {
                // A child that stopped reading (it failed) says why on stderr.
                let _ = io::copy(&mut run, &mut stdin);
                drop(stdin);
                run.verify()
            })
        });
        let errors = scope.spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut page = Vec::new();
        let read = stdout.read_to_end(&mut page);
        let fed = fed.map(|fed| {
            fed.join()
                .unwrap_or_else(|_| Err(String::from("the record could not be read")))
        });
        (read.map(|_| page), errors.join().unwrap_or_default(), fed)
    });
    let status = child.wait().map_err(|e| e.to_string())?;
    let page = page.map_err(|e| e.to_string())?;
    // What the child read is the run's, or its page is not this run's page: checked as
    // it was piped, or, the file given, once the child is done with it.
    match (fed, given) {
        (Some(checked), _) => checked?,
        (None, Some(run)) => run.verify_again()?,
        (None, None) => return Err(String::from("the run's record was not checked")),
    }
    if !status.success() {
        let why = errors.lines().last().unwrap_or("it failed").to_string();
        return Err(why.strip_prefix("hp2ps: ").unwrap_or(&why).to_string());
    }
    let whole = parts(page).ok_or_else(|| String::from("the child's page is not whole"))?;
    Ok(Whole { capped, ..whole })
}

/// The child's output: the page, as JSON.
fn parts(out: Vec<u8>) -> Option<Whole> {
    let live: Page = serde_json::from_slice(&out).ok()?;
    let mut page = Vec::new();
    live.write(&mut page).ok()?;
    Some(Whole {
        page,
        live: Arc::new(live),
        capped: false,
    })
}

/// The child's side (`--serve-whole-run`): reads the run on stdin (the first
/// `--serve-whole-run-bytes` of the file there, mapped where it can be, else the whole
/// stream), writes its page to stdout.
pub(crate) fn write(inv: &Invocation, opts: &ServeOptions) -> ExitCode {
    let input = Input::of(inv.files.first().map(|f| f.as_os_str()));
    let name = input.name();
    let drawn = match opts.whole_run_bytes {
        // The run is the first `end` bytes of the file on stdin, which grows on after them.
        Some(end) => match stdin_file() {
            Some(file) => match Mapped::prefix(&file, end) {
                Some(map) => mapped(inv, opts, map, &input, &name),
                // Too short to be worth a map (as for --format html), or not mapped.
                None => streamed(inv, opts, &mut (&file).take(end), &input, &name),
            },
            None => streamed(inv, opts, &mut io::stdin().take(end), &input, &name),
        },
        None => streamed(inv, opts, &mut io::stdin().lock(), &input, &name),
    };
    let drawn = match drawn {
        Ok(drawn) => drawn,
        Err(e) => {
            say!("hp2ps: {e}");
            return ExitCode::FAILURE;
        }
    };
    let notes = drawn.capped.into_iter().collect();
    let run = RunPage::heap_noted(
        &drawn.chart,
        Some(&name),
        &drawn.facts,
        1,
        Vec::new(),
        notes,
    );
    let written = run.and_then(|run| {
        let mut out = io::BufWriter::new(io::stdout().lock());
        serde_json::to_writer(&mut out, &Page::of(&[run]))?;
        out.flush()
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say!("hp2ps: cannot write the page: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The whole run's chart, what its input told of it, and where its record stopped (at
/// `--spool-max`), for its page.
struct Drawn {
    chart: Chart,
    facts: ProfileFacts,
    capped: Option<String>,
}

/// The run read from `stream`, every point kept.
fn streamed(
    inv: &Invocation,
    opts: &ServeOptions,
    stream: &mut dyn Read,
    input: &Input,
    name: &str,
) -> Result<Drawn, String> {
    let live = super::options::live_options(inv, opts, input, name);
    let loaded = load(Source::Stream(stream), &live.load).map_err(|e| format!("{name}: {e}"))?;
    // What --format html's page says of its profile and what it left out.
    let facts = loaded.facts();
    let capped = opts
        .whole_run_capped
        .then(|| capped(&loaded.profile, opts.spool_max));
    let (chart, _) = prepare(loaded.profile, None, &live.render);
    Ok(Drawn {
        chart,
        facts,
        capped,
    })
}

/// The run mapped (`map`), read as `--format html` reads a mapped file: in parts,
/// keeping the drawn bands' points and sums of the rest, when the page's options allow
/// (`two_pass::page_reading`), else whole. The same page, in memory bounded by what it
/// draws rather than by the run's length. (The reading's warnings are not said: the
/// server shows the child's last line only, when it fails.)
fn mapped(
    inv: &Invocation,
    opts: &ServeOptions,
    map: Mapped,
    input: &Input,
    name: &str,
) -> Result<Drawn, String> {
    let path = match input {
        Input::Path(p) => Some(p.as_path()),
        _ => None,
    };
    let src = Origin { path, name };
    let (profile, mut done) = read_mapped(inv, map, src, true).map_err(|f| f.message)?;
    let capped = opts
        .whole_run_capped
        .then(|| capped(&profile, opts.spool_max));
    let (chart, _) = prepare_done(inv, profile, &mut done, name, None)?;
    Ok(Drawn {
        chart,
        facts: done.facts,
        capped,
    })
}

/// What the page of a run cut at `--spool-max` says: where it stops.
fn capped(profile: &Profile, max: Option<u64>) -> String {
    let cap = max.map_or_else(String::new, |m| format!(" {}", super::ranged::size(m)));
    let unit = String::from_utf8_lossy(&profile.sample_unit);
    let upto = match profile.times.last() {
        Some(&t) => format!(
            "up to {} {unit} ({} censuses)",
            super::spool::time(t),
            profile.times.len()
        ),
        None => String::from("up to its first census"),
    };
    format!(
        "this page covers the run {upto} only: hp2ps kept at most{cap} of it \
         (--spool-max); the run went on after that, and the live page followed it"
    )
}
