//! Replays a real eventlog at its own pace (or faster), as its program wrote it, for
//! `hp2ps --serve` to follow: into a growing file, a FIFO, or a Unix socket that
//! behaves as the eventlog-socket library's does (the log's header to every client that
//! connects, then the blocks from then on; the replay starts when the first connects).
//!
//! ```text
//! cargo run --release --example live_replay -- LOG file|fifo|socket PATH [SPEED] [events]
//! ```
//!
//! With `events`, the log is written in stretches of 20 ms of its events (as if it were
//! flushed all the time), else block by block as the program wrote it.
//!
//! The blocks are cut by `tests/support/replay.rs`; `scripts/live-latency.sh` uses this
//! with a live GHC program's log too.

#[path = "../tests/support/replay.rs"]
#[allow(dead_code)]
mod replay;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [log, how, path, rest @ ..] = args.as_slice() else {
        eprintln!("usage: live_replay LOG file|fifo|socket PATH [SPEED]");
        return ExitCode::from(2);
    };
    let speed: f64 = rest.first().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let pace = match rest.get(1).map(String::as_str) {
        Some("events") => replay::Pace::Events(20_000_000),
        _ => replay::Pace::Blocks,
    };
    let bytes = match std::fs::read(log) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("live_replay: {log}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = match how.as_str() {
        "file" | "fifo" => std::fs::OpenOptions::new()
            .create(how == "file")
            .truncate(how == "file")
            .write(true)
            .open(path)
            .and_then(|mut out| {
                replay::replay(&bytes, pace, speed, &mut |piece| {
                    out.write_all(piece)?;
                    out.flush()
                })
            }),
        "socket" => socket(&bytes, path, pace, speed),
        _ => {
            eprintln!("live_replay: file, fifo or socket, not {how}");
            return ExitCode::from(2);
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("live_replay: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(unix)]
fn socket(log: &[u8], path: &str, pace: replay::Pace, speed: f64) -> std::io::Result<()> {
    use std::os::unix::net::{UnixListener, UnixStream};
    use std::sync::{Arc, Mutex};
    let _ = std::fs::remove_file(path);
    let listener = UnixListener::bind(path)?;
    let header = replay::pieces(log, pace).header;
    let clients: Arc<Mutex<Vec<UnixStream>>> = Arc::default();
    // As eventlog-socket: every client gets the header, then the events from then on.
    let (first, _) = listener.accept()?;
    let mut first = first;
    first.write_all(&log[..header])?;
    clients
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(first);
    {
        let clients = Arc::clone(&clients);
        let header = log[..header].to_vec();
        std::thread::spawn(move || {
            for mut client in listener.incoming().flatten() {
                let mut clients = clients.lock().unwrap_or_else(|e| e.into_inner());
                if client.write_all(&header).is_ok() {
                    clients.push(client);
                }
            }
        });
    }
    let mut sent_header = false;
    replay::replay(log, pace, speed, &mut |piece| {
        if !sent_header {
            // The header went to each client as it connected.
            sent_header = true;
            return Ok(());
        }
        let mut clients = clients.lock().unwrap_or_else(|e| e.into_inner());
        clients.retain_mut(|c| c.write_all(piece).is_ok());
        Ok(())
    })?;
    let _ = std::fs::remove_file(path);
    Ok(())
}

#[cfg(not(unix))]
fn socket(_: &[u8], _: &str, _: replay::Pace, _: f64) -> std::io::Result<()> {
    Err(std::io::Error::other("Unix sockets only"))
}
