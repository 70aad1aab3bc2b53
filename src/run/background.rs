//! An output written by a thread of its own: the painter fills one buffer while the
//! buffer before it is being written. The chart of a long profile is 100 MB of
//! PostScript, and putting that into a file (the kernel copying it into the page cache)
//! cost about as much as painting it, on the calling thread, after it.
//!
//! The same bytes in the same order, and at most three buffers (two in the writer's
//! hands, or three during a flush): a painter that gets ahead waits for the writer. A
//! small output (one buffer) is written by the calling thread and no thread is started,
//! and so is every output when no thread can be started (a process at its limit of
//! threads or memory), as `paint/ps/threads.rs` does its work.
//! The writer's first error is said when the next buffer is handed over (a megabyte or
//! two of writes later), or by a flush or [`Background::finish`]. Dropped unfinished,
//! it writes what it holds, as `BufWriter` does (its errors then go unsaid).

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Bytes a buffer holds before it is handed to the writer.
const BUFFER: usize = 1 << 20;

/// A [`Write`] whose bytes reach `W` through a writer thread (see the module docs).
pub(crate) struct Background<W: Write + Send + 'static> {
    buf: Vec<u8>,
    /// The output, until the writer thread is started (for good when none could be).
    out: Option<W>,
    writer: Option<Writer<W>>,
    /// How a writer thread is started ([`std::thread::Builder::spawn`]; the tests' own
    /// one fails).
    spawn: Spawn<W>,
}

/// Starts a writer thread running the function given.
type Spawn<W> = fn(Box<dyn FnOnce() -> Option<W> + Send>) -> io::Result<JoinHandle<Option<W>>>;

/// [`Spawn`] by the standard library, as a thread named `output`.
fn spawn_thread<W: Send + 'static>(
    run: Box<dyn FnOnce() -> Option<W> + Send>,
) -> io::Result<JoinHandle<Option<W>>> {
    std::thread::Builder::new().name("output".into()).spawn(run)
}

/// The writer thread and the way to it.
struct Writer<W> {
    /// Full buffers to write; an empty one asks for the output to be flushed.
    to_write: SyncSender<Vec<u8>>,
    /// Buffers written and emptied, or the writer's error.
    written: Receiver<io::Result<Vec<u8>>>,
    /// Buffers handed over and not back yet.
    out: usize,
    thread: JoinHandle<Option<W>>,
}

impl<W: Write + Send + 'static> Background<W> {
    pub(crate) fn new(out: W) -> Self {
        Background {
            buf: Vec::with_capacity(BUFFER),
            out: Some(out),
            writer: None,
            spawn: spawn_thread::<W>,
        }
    }

    /// Hands the buffer to the writer thread (started the first time), and takes an
    /// empty one back when two are out.
    fn hand_over(&mut self) -> io::Result<()> {
        if self.writer.is_none() {
            match Writer::start(self.out.take().ok_or_else(closed)?, self.spawn) {
                Ok(writer) => self.writer = Some(writer),
                // No thread: the buffer is written here, as every one after it.
                Err(out) => {
                    let out = self.out.insert(out.ok_or_else(closed)?);
                    out.write_all(&self.buf)?;
                    self.buf.clear();
                    return Ok(());
                }
            }
        }
        let writer = self.writer.as_mut().ok_or_else(closed)?;
        let full = std::mem::take(&mut self.buf);
        writer.send(full)?;
        self.buf = match writer.out {
            2.. => writer.take_back()?,
            _ => Vec::with_capacity(BUFFER),
        };
        Ok(())
    }

    /// Writes everything, flushes the output and gives it back; the first error of any
    /// write if there was one.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        match self.writer.take() {
            None => {
                let mut out = self.out.take().ok_or_else(closed)?;
                out.write_all(&self.buf)?;
                out.flush()?;
                Ok(out)
            }
            Some(mut writer) => {
                let last = std::mem::take(&mut self.buf);
                let sent = writer.send(last).and_then(|()| writer.send(Vec::new()));
                let drained = writer.drain();
                let out = writer.join()?;
                sent.and(drained).map(|()| out)
            }
        }
    }
}

fn closed() -> io::Error {
    io::Error::other("the output was closed")
}

impl<W: Write + Send + 'static> Writer<W> {
    /// A writer thread writing to `out`; `out` back when no thread could be started.
    fn start(out: W, spawn: Spawn<W>) -> Result<Self, Option<W>> {
        // One buffer queued while one is written: two out at most.
        let (to_write, queued) = sync_channel::<Vec<u8>>(1);
        let (give_back, written) = sync_channel::<io::Result<Vec<u8>>>(2);
        // Held by both sides: a thread that is not started leaves the output here.
        let held = Arc::new(Mutex::new(Some(out)));
        let theirs = Arc::clone(&held);
        let take = |cell: &Mutex<Option<W>>| cell.lock().unwrap_or_else(|e| e.into_inner()).take();
        let run = Box::new(move || {
            let mut out = take(&theirs)?;
            for mut buf in queued {
                let done = match buf.is_empty() {
                    true => out.flush(),
                    false => out.write_all(&buf),
                };
                buf.clear();
                let failed = done.is_err();
                if give_back.send(done.map(|()| buf)).is_err() || failed {
                    break;
                }
            }
            Some(out)
        });
        let thread = match spawn(run) {
            Ok(thread) => thread,
            // The function was dropped unrun: the output is still held here.
            Err(_) => return Err(take(&held)),
        };
        Ok(Writer {
            to_write,
            written,
            out: 0,
            thread,
        })
    }

    fn send(&mut self, buf: Vec<u8>) -> io::Result<()> {
        if self.to_write.send(buf).is_err() {
            return Err(self.why_stopped());
        }
        self.out += 1;
        Ok(())
    }

    /// The error the writer stopped at.
    fn why_stopped(&mut self) -> io::Error {
        while let Ok(back) = self.written.recv() {
            if let Err(e) = back {
                return e;
            }
        }
        self.failure()
    }

    /// An emptied buffer, once the writer is done with one.
    fn take_back(&mut self) -> io::Result<Vec<u8>> {
        let back = self.written.recv().map_err(|_| self.failure())?;
        self.out -= 1;
        back
    }

    /// Waits for every buffer handed over.
    fn drain(&mut self) -> io::Result<()> {
        while self.out > 0 {
            self.take_back()?;
        }
        Ok(())
    }

    /// The writer thread stopped without saying why (it reports its errors, so only a
    /// panic ends it so).
    fn failure(&self) -> io::Error {
        io::Error::other("the output's writer thread stopped")
    }

    /// Waits for the writer to write what it was given and stop.
    fn join(self) -> io::Result<W> {
        drop(self.to_write);
        // Taking back what it gives back until it stops, so that it is never kept from
        // writing a buffer by a full channel.
        while self.written.recv().is_ok() {}
        match self.thread.join() {
            Ok(Some(out)) => Ok(out),
            Ok(None) => Err(io::Error::other("the output's writer thread had no output")),
            Err(_) => Err(io::Error::other("the output's writer thread panicked")),
        }
    }
}

impl<W: Write + Send + 'static> Write for Background<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.buf.len() >= BUFFER {
            self.hand_over()?;
        }
        let room = BUFFER.saturating_sub(self.buf.len()).max(1);
        let n = bytes.len().min(room);
        self.buf.extend_from_slice(&bytes[..n]);
        Ok(n)
    }

    /// Everything written so far reaches the output, and it is flushed.
    fn flush(&mut self) -> io::Result<()> {
        match self.writer.as_mut() {
            None => {
                let out = self.out.as_mut().ok_or_else(closed)?;
                out.write_all(&self.buf)?;
                self.buf.clear();
                out.flush()
            }
            Some(writer) => {
                let last = std::mem::replace(&mut self.buf, Vec::with_capacity(BUFFER));
                writer.send(last)?;
                writer.send(Vec::new())?;
                writer.drain()
            }
        }
    }
}

impl<W: Write + Send + 'static> Drop for Background<W> {
    fn drop(&mut self) {
        // Not finished (an error on the way): what is held is written, as a `BufWriter`
        // would, and the writer waited for, so that nothing writes to the output once
        // it is dropped.
        let last = std::mem::take(&mut self.buf);
        match (self.writer.take(), self.out.as_mut()) {
            (Some(mut writer), _) => {
                let _ = writer.send(last);
                let _ = writer.join();
            }
            (None, Some(out)) => {
                let _ = out.write_all(&last);
            }
            (None, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// An output that keeps what it is given in writes of any size, and fails once it
    /// holds `fail_after` bytes.
    #[derive(Clone, Default)]
    struct Kept {
        bytes: Arc<Mutex<Vec<u8>>>,
        flushes: Arc<Mutex<usize>>,
        fail_after: Option<usize>,
    }

    impl Write for Kept {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            let mut bytes = self.bytes.lock().unwrap();
            if self.fail_after.is_some_and(|n| bytes.len() >= n) {
                return Err(io::Error::other("disk full"));
            }
            let n = b.len().min(7919);
            bytes.extend_from_slice(&b[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            *self.flushes.lock().unwrap() += 1;
            Ok(())
        }
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n).map(|k| (k * 31 % 251) as u8).collect()
    }

    /// Small and large outputs, in pieces of every size: the same bytes, flushed.
    #[test]
    fn every_byte_arrives_in_order() {
        for size in [
            0,
            1,
            1000,
            BUFFER - 1,
            BUFFER,
            BUFFER + 1,
            5 * BUFFER + 12_345,
        ] {
            let kept = Kept::default();
            let mut out = Background::new(kept.clone());
            let want = text(size);
            let mut at = 0;
            let mut piece = 1;
            while at < want.len() {
                let n = piece.min(want.len() - at);
                out.write_all(&want[at..at + n]).unwrap();
                at += n;
                piece = piece * 3 % 200_003 + 1;
            }
            out.finish().unwrap();
            assert!(*kept.bytes.lock().unwrap() == want, "{size}");
            assert_eq!(*kept.flushes.lock().unwrap(), 1, "{size}");
        }
    }

    /// A flush in the middle puts everything so far in the output.
    #[test]
    fn a_flush_writes_everything_so_far() {
        let kept = Kept::default();
        let mut out = Background::new(kept.clone());
        let want = text(3 * BUFFER + 5);
        out.write_all(&want).unwrap();
        out.flush().unwrap();
        assert!(*kept.bytes.lock().unwrap() == want);
        out.write_all(b"more").unwrap();
        out.finish().unwrap();
        assert!(kept.bytes.lock().unwrap().ends_with(b"more"));
    }

    /// Dropped unfinished, small or large, it writes everything it was given.
    #[test]
    fn dropped_it_writes_what_it_holds() {
        for size in [10, 4 * BUFFER + 5] {
            let kept = Kept::default();
            let mut out = Background::new(kept.clone());
            let want = text(size);
            out.write_all(&want).unwrap();
            drop(out);
            assert!(*kept.bytes.lock().unwrap() == want, "{size}");
        }
    }

    /// The output's error is a later write's or the finish's, and nothing is written
    /// after it.
    #[test]
    fn the_outputs_error_is_said() {
        for fail_after in [0, 10, BUFFER + 3, 2 * BUFFER] {
            let kept = Kept {
                fail_after: Some(fail_after),
                ..Kept::default()
            };
            let mut out = Background::new(kept.clone());
            let mut failed = None;
            for _ in 0..8 {
                if let Err(e) = out.write_all(&text(BUFFER / 2 + 1)) {
                    failed = Some(e);
                    break;
                }
            }
            let e = match failed {
                Some(e) => e,
                None => out.finish().err().expect("an error"),
            };
            assert_eq!(e.to_string(), "disk full", "{fail_after}");
            assert!(kept.bytes.lock().unwrap().len() < fail_after + 7919);
        }
    }

    /// A spawn that fails, as in a process at its limit of threads.
    fn refused<W>(_: Box<dyn FnOnce() -> Option<W> + Send>) -> io::Result<JoinHandle<Option<W>>> {
        Err(io::Error::other("no thread"))
    }

    /// When no thread can be started, the buffers are written by the calling thread: the
    /// same bytes in order, a flush that writes everything so far, the output's error
    /// said, and no output lost.
    #[test]
    fn without_a_thread_every_byte_arrives_here() {
        for size in [0, BUFFER + 1, 5 * BUFFER + 12_345] {
            let kept = Kept::default();
            let mut out = Background::new(kept.clone());
            out.spawn = refused::<Kept>;
            let want = text(size);
            for piece in want.chunks(100_003) {
                out.write_all(piece).unwrap();
            }
            assert!(out.writer.is_none(), "{size}: no writer");
            out.flush().unwrap();
            assert!(*kept.bytes.lock().unwrap() == want, "{size}: flushed");
            out.write_all(b"more").unwrap();
            out.finish().unwrap();
            assert!(kept.bytes.lock().unwrap().ends_with(b"more"), "{size}");
            assert_eq!(*kept.flushes.lock().unwrap(), 2, "{size}");
        }
        let kept = Kept {
            fail_after: Some(BUFFER + 3),
            ..Kept::default()
        };
        let mut out = Background::new(kept.clone());
        out.spawn = refused::<Kept>;
        let failed = (0..8).find_map(|_| out.write_all(&text(BUFFER / 2 + 1)).err());
        assert_eq!(failed.expect("an error").to_string(), "disk full");
    }
}
