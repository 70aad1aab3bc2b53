//! `--serve`: a page that follows a running program's heap in the browser.
//!
//! Four threads: the input's ([`source`]: a growing file, a FIFO, stdin or an
//! eventlog-socket socket), which pushes what it reads into the library's live reader
//! and keeps the whole run ([`record`]); the publisher ([`hub`]), which makes the page's
//! updates; the HTTP server ([`http`]), with a thread per viewer; and this one, which
//! prints the page's address and waits for Ctrl-C (`cleanup`'s gentle first signal).
//! The design is in `docs/live.md`.

mod answers;
mod deadline;
mod delta;
mod http;
mod hub;
mod options;
mod ranged;
mod record;
mod routes;
mod saved;
mod scrape;
mod source;
mod spool;
mod status;
mod update;
pub(crate) mod whole;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::live::{LiveReader, LiveRun};
use crate::read::kind::InputKind;
use crate::TimeAxis;

use super::atomic::AtomicFile;
use super::cleanup;
use crate::cli::{Invocation, ServeOptions};
use hub::{lock, Hub, Output, State};
use options::live_options;
use record::Record;
use source::{Heard, Input};

/// How often `--time mutator`'s clock is worked out again from the whole run so far.
const CLOCK_EVERY: Duration = Duration::from_secs(1);

pub(crate) fn run(inv: &Invocation, opts: &ServeOptions) -> ExitCode {
    if opts.whole_run {
        return whole::write(inv, opts);
    }
    let input = Input::of(inv.files.first().map(|f| f.as_os_str()));
    let name = input.name();
    let live = live_options(inv, opts, &input, &name);
    // An -o that cannot be written is found now, not at the run's end (a day later):
    // a temporary file made beside it and removed, as its writing will.
    if let Some(path) = &inv.output {
        if let Err(e) = AtomicFile::create(Path::new(path)) {
            say!("hp2ps: cannot write {}: {e}", Path::new(path).display());
            return ExitCode::FAILURE;
        }
    }
    let spooling = Spooling {
        // Said whole, wherever hp2ps was started: what `du` and `rm` are given.
        dir: (opts.spool.clone())
            .map(|d| std::path::absolute(&d).unwrap_or(d))
            .unwrap_or_else(std::env::temp_dir),
        max: opts.spool_max,
    };
    // A --spool that cannot hold the spool is found now, not when a stream comes.
    if opts.spool.is_some() && !spooling.dir.is_dir() {
        say!("hp2ps: --spool {}: not a directory", spooling.dir.display());
        return ExitCode::FAILURE;
    }
    // Found now: the binary may be deleted or replaced before the run's end.
    let program = match whole::Program::running() {
        Ok(program) => program,
        Err(e) => {
            say!("hp2ps: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = match http::Server::bind(opts.bind, opts.port) {
        Ok(server) => server,
        Err(e) => {
            say!("hp2ps: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The first INT, TERM or HUP writes -o and ends the run (set up now, before the
    // threads start); a second one ends it at once, the way every run ends on a signal
    // (the temporary files gone).
    cleanup::stop_on_first_signal(Arc::new(AtomicBool::new(false)));
    if let Err(e) = cleanup::watch_signals() {
        say!("hp2ps: warning: Ctrl-C will not write -o: {e}");
    }
    let output = inv.output.as_ref().map(PathBuf::from);
    let hub = Arc::new(Hub::new(live, name.clone(), output, program));
    let url = server.url();
    if !routes::is_loopback(opts.bind) {
        say!(
            "hp2ps: warning: serving on {}, beyond this machine: whoever has the address below \
             can read the profile",
            opts.bind
        );
    }
    say!("hp2ps: serving a live page of {name} (Ctrl-C to stop):");
    // The address alone on its line of stdout, for scripts.
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{url}").and_then(|()| out.flush());
    }
    spawn("input", {
        let hub = Arc::clone(&hub);
        move || follow(&input, &hub, &spooling)
    });
    spawn("publisher", {
        let hub = Arc::clone(&hub);
        move || hub.publish()
    });
    spawn("server", {
        let hub = Arc::clone(&hub);
        move || {
            // Whatever ends the server (it cannot accept connections any more, or a
            // bug panics it) ends the run: said, -o written, exit 1; never a server
            // gone while hp2ps runs on and exits 0 on Ctrl-C.
            let served = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                server.serve(Arc::clone(&hub))
            }));
            let why = served.unwrap_or_else(|_| String::from("the server failed"));
            say!("hp2ps: {why}: the page can no longer be served");
            *hub::lock(&hub.failed) = Some(why);
            cleanup::end_wait_for_first_signal();
        }
    });
    cleanup::wait_for_first_signal();
    let stopped = stop(&hub);
    for removed in hub.discard_records() {
        say!("hp2ps: {removed}");
    }
    let failed = hub::lock(&hub.failed).is_some();
    match failed {
        true => ExitCode::FAILURE,
        false => stopped,
    }
}

fn spawn(name: &str, work: impl FnOnce() + Send + 'static) {
    if let Err(e) = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(work)
    {
        say!("hp2ps: cannot start the {name} thread: {e}");
        std::process::exit(1);
    }
}

/// Ctrl-C: the whole run so far to `-o`, unless it was already written from the record
/// as it stands (the run's end). This waits for a page being made: the end's, if the
/// run ended just now, so that `-o` is never left unwritten for a run that ended.
fn stop(hub: &Hub) -> ExitCode {
    let said = |path: &Path| say!("hp2ps: wrote {} (the run so far)", path.display());
    match hub.write_output(said, None) {
        Some(Output::Failed(e)) => {
            say!("hp2ps: {e}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}

/// Where a run read from a stream is kept: `--spool` (or the temporary directory) and
/// `--spool-max`.
struct Spooling {
    dir: PathBuf,
    max: Option<u64>,
}

/// The input's thread: reads for ever, feeding the run.
fn follow(input: &Input, hub: &Hub, spooling: &Spooling) {
    let opts = &hub.opts;
    let mut reader = LiveReader::new(opts);
    let mut runs = 0u64;
    let mut failed = false;
    let mut spool_failed = false;
    // Whether the spools' directory was rid of those killed hp2ps runs left.
    let mut swept = false;
    // The run's first bytes: a stream joined mid-run has no header.
    let mut head: Vec<u8> = Vec::new();
    // Whether the run is read from a pipe (a FIFO, stdin), which has one writer.
    let mut piped = false;
    let mut clock_at = Instant::now();
    let mutator = opts.load.eventlog.time == TimeAxis::Mutator;
    source::follow(input, &mut |heard| match heard {
        Heard::Start(file) => {
            runs += 1;
            reader = LiveReader::new(opts);
            failed = false;
            spool_failed = false;
            head.clear();
            piped = file.is_none() && matches!(input, Input::Path(_) | Input::Stdin);
            // Each run its own record, of what it is read from now.
            let record = match (&input, file) {
                (Input::Path(path), Some(file)) => Record::file(file, path),
                _ => {
                    if !swept {
                        swept = true;
                        for removed in spool::sweep(&spooling.dir) {
                            say!("hp2ps: {removed}");
                        }
                    }
                    Record::spool(&spooling.dir, spooling.max)
                }
            };
            if let Record::Nothing(Some(why)) = &record {
                say!("hp2ps: warning: the run cannot be kept for -o and save: {why}");
            } else if runs == 1 || matches!(record, Record::Spool(_)) {
                say!("hp2ps: the whole run is {}", record.describe());
            }
            hub.start_run(runs, record);
            let mut shared = lock(&hub.shared);
            shared.status.clock.restart();
            if runs > 1 {
                let mut ended = shared.status.clone();
                ended.censuses = shared.run.censuses();
                ended.newest = shared.run.newest();
                shared.superseded.push(ended);
                shared.run = LiveRun::new(opts);
                shared.status.run = runs;
                say!("hp2ps: {}: a new run (run {runs})", hub.name);
            }
            shared.status.state = State::Waiting;
            shared.status.message = String::from("waiting for the first census");
            hub.touch(&mut shared);
        }
        Heard::Bytes(bytes) => {
            if failed {
                return;
            }
            let capped = match hub.record().append(bytes) {
                Ok(capped) => capped,
                Err(e) => {
                    if !spool_failed {
                        spool_failed = true;
                        say!("hp2ps: warning: the run cannot be kept whole for -o and save: {e}");
                    }
                    false
                }
            };
            let first = head.len() < InputKind::HEAD;
            if first {
                head.extend(bytes.iter().take(InputKind::HEAD - head.len()));
            }
            let mut shared = lock(&hub.shared);
            let shared = &mut *shared;
            let before = shared.run.censuses();
            if capped {
                let at = match shared.run.newest() {
                    Some(t) => format!("after census {before} ({} s)", spool::time(t)),
                    None => String::from("before the first census"),
                };
                say!(
                    "hp2ps: {}: the spool file reached --spool-max {at}: -o and save cover the run \
                     up to about there; the live page goes on",
                    hub.name
                );
                hub.record().capped_at(at);
            }
            // An eventlog's middle (binary, no header) is said at once: a .hp reader
            // would wait for lines that never come.
            let middle = piped && first && joined_mid_run(&head) && bytes.contains(&0);
            let fed = match middle {
                true => Err(String::from("an eventlog without its header")),
                false => (reader.feed(bytes, &mut shared.run)).map_err(|e| e.to_string()),
            };
            if let Err(e) = fed {
                failed = true;
                let why = match piped && joined_mid_run(&head) {
                    true => format!("{e} ({MID_RUN})"),
                    false => e,
                };
                shared.status.state = State::Closed;
                shared.status.message = format!("cannot be read: {why}");
                say!("hp2ps: {}: {why}", hub.name);
            }
            moved(&reader, shared, before);
            hub.touch(shared);
        }
        Heard::Pause => {
            let mut shared = lock(&hub.shared);
            let shared = &mut *shared;
            let before = shared.run.censuses();
            if !failed {
                let _ = reader.pause(&mut shared.run);
                if mutator && clock_at.elapsed() >= CLOCK_EVERY {
                    clock_at = Instant::now();
                    reader.refresh_clock(&mut shared.run);
                }
            }
            moved(&reader, shared, before);
            hub.touch(shared);
        }
        Heard::End(how) => {
            let mut shared = lock(&hub.shared);
            let shared = &mut *shared;
            if !failed {
                let _ = reader.close(&mut shared.run);
                if mutator {
                    reader.refresh_clock(&mut shared.run);
                }
            }
            if !reader.ended() && shared.status.state != State::Closed {
                shared.status.state = State::Closed;
                shared.status.message = format!("the input closed: {how}");
                say!("hp2ps: {}: {}", hub.name, shared.status.message);
            }
            let record = hub.record();
            if let Record::Spool(_) = *record {
                say!("hp2ps: {}: the run is {}", hub.name, record.describe());
            }
            hub.touch(shared);
        }
        Heard::Waiting(why) => {
            say!("hp2ps: {why}");
            let mut shared = lock(&hub.shared);
            shared.status.message = why;
            hub.touch(&mut shared);
        }
    });
}

/// Why a stream that starts mid-run cannot be read.
const MID_RUN: &str = "the writer began before this hp2ps: a program writes its log's \
     header once, at its start, so a FIFO or pipe cannot be joined mid-run; follow a file, \
     or eventlog-socket's unix: or tcp: socket, which sends the header to every client";

/// Whether a run read from a pipe began without a log's start (an eventlog's header or
/// a `.hp`'s JOB line): a FIFO opened while its writer was mid-run.
fn joined_mid_run(head: &[u8]) -> bool {
    !InputKind::starts_a_profile(head)
}

/// What the run's state is after a piece was read (`before`: the censuses before it):
/// live once a census has come, ended at the program's end; when a census came.
fn moved(reader: &LiveReader<'_>, shared: &mut hub::Shared, before: u64) {
    let status = &mut shared.status;
    if shared.run.censuses() > before {
        status.clock.census();
    }
    if reader.ended() && status.state != State::Ended {
        status.state = State::Ended;
        status.message = String::from("the program ended");
        say!(
            "hp2ps: {}: the program ended ({} censuses)",
            status.source,
            shared.run.censuses()
        );
    } else if status.state == State::Waiting && shared.run.censuses() > 0 {
        status.state = State::Live;
        status.message = String::from("live");
    }
}
