//! A time profile on stdin (`hp2ps --summary < prog.prof`, `cat prog.prof | hp2ps -o
//! flame.svg`): filter mode looks at stdin's first bytes before it reads a heap profile
//! there. A regular file on stdin is looked at through its map (nothing is consumed); a
//! pipe's first bytes are read and handed back to the heap profile's reader when they are
//! not a time profile's.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use crate::cli::{Invocation, SummaryFormat};
use crate::summary::TimeSummary;
use crate::{Source, TimeProfile, TimeProfileError};

use super::atomic::write_output;
use super::mapped;

/// How many of a pipe's first bytes are looked at: a report's title is its first line,
/// and `-pj`'s keys come first.
const HEAD: usize = 4096;

/// What stdin holds, for filter mode.
pub(crate) enum Stdin {
    /// A time profile, done with: the command's status.
    Time(ExitCode),
    /// A heap profile (or anything else, for its reader to say what): the bytes already
    /// read from a pipe, which come before the rest of stdin.
    Heap(Vec<u8>),
}

/// Looks at stdin and, when it holds a time profile, does what `inv` asks of it.
pub(crate) fn look(inv: &Invocation) -> Stdin {
    if let Some(map) = mapped::of_stdin() {
        let bytes = map.bytes();
        if !TimeProfile::sniff(&bytes[..bytes.len().min(HEAD)]) {
            return Stdin::Heap(Vec::new());
        }
        let source = Source::Mapped {
            bytes,
            release: &mut |n| map.release(n),
        };
        let read = TimeProfile::read(source, &Default::default());
        if map.changed_while_read(read.is_err()) {
            return Stdin::Time(failed("stdin: the file changed while it was read"));
        }
        return Stdin::Time(act(inv, read));
    }
    let mut head = Vec::with_capacity(HEAD);
    let mut stdin = io::stdin().lock();
    if let Err(e) = (&mut stdin).take(HEAD as u64).read_to_end(&mut head) {
        return Stdin::Time(failed(&format!("cannot read stdin: {e}")));
    }
    if !TimeProfile::sniff(&head) {
        return Stdin::Heap(head);
    }
    if let Err(e) = stdin.read_to_end(&mut head) {
        return Stdin::Time(failed(&format!("cannot read stdin: {e}")));
    }
    Stdin::Time(act(
        inv,
        TimeProfile::read(Source::Bytes(&head), &Default::default()),
    ))
}

/// Says `message` as the command's one-line error; exit 1.
fn failed(message: &str) -> ExitCode {
    say!("hp2ps: {message}");
    ExitCode::FAILURE
}

/// Summarises or draws the time profile read from stdin, as for a file named `stdin`.
fn act(inv: &Invocation, read: Result<TimeProfile, TimeProfileError>) -> ExitCode {
    let profile = match read {
        Ok(p) => p,
        Err(e @ TimeProfileError::NotAProfile { .. }) => return failed(&format!("stdin:{e}")),
        Err(e) => return failed(&format!("stdin: {e}")),
    };
    for w in profile.warnings() {
        say!("hp2ps: warning: {}", w.line("stdin"));
    }
    if let Err(why) = super::time_render::refusal(inv) {
        say!("hp2ps: stdin: {why}");
        return ExitCode::from(2);
    }
    let summary = (inv.summary).map(|format| {
        (
            format,
            TimeSummary::of(&profile, Some("stdin"), &inv.summary_options),
        )
    });
    if inv.renders() {
        // Filter mode writes to stdout unless `-o` names a file.
        let output = Some(inv.output.as_deref().unwrap_or("-".as_ref()));
        let drawn = write_output(output, "stdin".as_ref(), |out| {
            super::time_render::paint(inv, profile, "stdin", out)
        });
        if let Err(message) = drawn {
            return failed(&message);
        }
    }
    let Some((format, summary)) = summary else {
        return ExitCode::SUCCESS;
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let printed = match format {
        SummaryFormat::Json => summary
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n")),
        SummaryFormat::Text => summary.write_text(&mut out),
    };
    match printed.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => failed(&format!("cannot write to stdout: {e}")),
    }
}
