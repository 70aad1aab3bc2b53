//! Reading on every core. The calling thread reads the input in large blocks, cut after
//! their last line end, and hands them to worker threads; each worker scans its chunk for
//! the lines GHC writes (see [`super::chunk`]) and interns its names. The calling thread
//! takes the results back in file order: it checks that each scanned prefix fits the
//! state the statement machine is in at that point, passes it to the sink in one go, and
//! reads whatever the worker could not (headers, marks, odd lines, errors) with the
//! statement machine itself. The result is therefore exactly [`super::read_into`]'s,
//! errors and warnings included, and memory stays bounded by a few blocks.
//!
//! A line longer than 8 chunks (8 MiB) (a whole profile may legally sit on one line) ends
//! the parallel reading: the rest of the input is streamed through the statement
//! machine, with memory bounded as in [`super::read_into`].

use std::collections::VecDeque;
use std::io::{self, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use super::chunk::{ChunkScan, Form};
use super::parser::Parser;
use super::recording::Recording;
use super::segments::Segmenter;
use super::serial::drive;
use super::{Pos, ReadError, ReadOptions, Warning};
use crate::profile::keep::RunRoles;
use crate::seam::Sink;

mod source;

use source::{BlockReader, ChunkBytes, Next, SliceSource, Source};

/// Bytes per chunk: big enough that the per-chunk work (a few hundred names to look up)
/// is nothing, small enough that a few in flight cost little memory.
const CHUNK: usize = 1 << 20;

/// The first chunk is small: it holds the header, which the statement machine reads on
/// the calling thread while the workers start.
const FIRST_CHUNK: usize = 64 << 10;

/// Chunks queued or done ahead of the calling thread, per worker: enough that a worker
/// rarely waits for the calling thread, which shares the cores with the workers. A chunk
/// of a mapped file in flight holds its pages: eight a worker made the workers of the
/// first reading of a long `.hp` wait 1 ms instead of 5 to 10 (of 180), but raised the
/// peak of `-c` of the 1.6 GB profile from 44 to 56 MiB.
const IN_FLIGHT: usize = 4;

/// A line longer than this many chunks switches to streaming (8 MiB).
const LONG_LINE_CHUNKS: usize = 8;

/// Like [`super::read_into`], with the lines scanned on every core (see the module docs).
/// Same result, errors and warnings included.
pub fn read_into_parallel<R: Read, S: Sink + Send>(
    input: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Vec<Warning>, ReadError> {
    read_chunked(input, opts, sink, CHUNK)
}

/// [`read_into_parallel`] with chunks of about `chunk` bytes (tests use tiny ones to put
/// chunk boundaries everywhere).
pub fn read_chunked<R: Read, S: Sink + ?Sized>(
    input: R,
    opts: &ReadOptions,
    sink: &mut S,
    chunk: usize,
) -> Result<Vec<Warning>, ReadError> {
    let chunk = chunk.max(1);
    let source = BlockReader {
        input,
        carry: Vec::new(),
        long_line: chunk.saturating_mul(LONG_LINE_CHUNKS),
        eof: false,
        error: None,
    };
    run(source, opts, sink, chunk, &mut |_| {})
}

/// Like [`read_into_parallel`], on input that is already in memory (a mapped file): the
/// workers read their chunks in place, without a copy. `release(n)` is called as soon as
/// the first `n` bytes are no longer needed (a mapping can drop those pages, so memory
/// stays bounded by a few chunks).
pub(crate) fn read_slice_parallel<S: Sink + ?Sized>(
    bytes: &[u8],
    opts: &ReadOptions,
    sink: &mut S,
    release: &mut dyn FnMut(usize),
) -> Result<Vec<Warning>, ReadError> {
    read_slice_chunked(bytes, opts, sink, CHUNK, release)
}

/// The reader of bytes in memory on every core (`read_slice_parallel`), with chunks of
/// about `chunk` bytes (tests use tiny ones to put chunk boundaries everywhere).
pub fn read_slice_chunked<S: Sink + ?Sized>(
    bytes: &[u8],
    opts: &ReadOptions,
    sink: &mut S,
    chunk: usize,
    release: &mut dyn FnMut(usize),
) -> Result<Vec<Warning>, ReadError> {
    let chunk = chunk.max(1);
    let source = SliceSource {
        bytes,
        pos: 0,
        long_line: chunk.saturating_mul(LONG_LINE_CHUNKS),
    };
    run(source, opts, sink, chunk, release)
}

fn run<'a, Src: Source<'a>, S: Sink + ?Sized>(
    mut source: Src,
    opts: &ReadOptions,
    sink: &mut S,
    chunk: usize,
    release: &mut dyn FnMut(usize),
) -> Result<Vec<Warning>, ReadError> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let roles = sink.run_roles().filter(|_| sink.wants_runs_by_band());
    let form = match (sink.wants_run_sums(), sink.wants_runs_by_band(), &roles) {
        (true, _, _) => Form::Sums,
        (false, true, Some(_)) => Form::Split,
        (false, true, None) => Form::ByBand,
        (false, false, _) => Form::Entries,
    };
    let total = source.total_len();
    // A first reading of bytes in memory writes its scans down for the second, which
    // takes them back (`recording.rs`): only chunks of the input in place have a place.
    let recording = opts.recording.as_deref().filter(|_| total.is_some());
    let record = recording.filter(|r| r.open());
    let replay = recording.filter(|r| r.done());
    let mut head = Vec::new();
    let mut driver = Driver {
        parser: Parser::new(opts),
        opts,
        line: 1,
        col: 1,
    };
    let long_line = std::thread::scope(|scope| -> Result<Option<Vec<u8>>, ReadError> {
        // Every worker takes the next chunk from one queue, so none waits while chunks
        // are queued (a queue per worker left one idle whenever the other fell behind);
        // each chunk comes back with its number, and is applied in file order.
        let (jobs, queue) = channel::<(u64, Job<'a>)>();
        let queue = Arc::new(Mutex::new(queue));
        let (done, results) = channel::<(u64, Job<'a>)>();
        for _ in 0..workers {
            let (queue, done, roles) = (Arc::clone(&queue), done.clone(), roles.clone());
            let how = How {
                max_name_len: opts.max_name_len,
                form,
                record: record.is_some(),
                replay,
            };
            scope.spawn(move || worker(&queue, &done, &how, roles.as_deref()));
        }
        drop(done);
        let mut in_order = InOrder::default();
        let mut pool: Vec<(Vec<u8>, ChunkScan)> = Vec::new();
        let (mut sent, mut applied) = (0u64, 0u64);
        let mut long_line = None;
        let max_in_flight = (IN_FLIGHT * workers) as u64;
        loop {
            while sent - applied < max_in_flight && long_line.is_none() {
                let (buf, scan) = pool.pop().unwrap_or_default();
                let size = if sent == 0 {
                    FIRST_CHUNK.min(chunk)
                } else {
                    chunk
                };
                match source.next_chunk(buf, size) {
                    Next::Chunk(bytes) => {
                        let job = Job { bytes, scan };
                        if jobs.send((sent, job)).is_err() {
                            panic!("a reader worker thread panicked");
                        }
                        sent += 1;
                    }
                    Next::LongLine(head) => long_line = Some(head),
                    Next::Done(buf) => {
                        pool.push((buf, scan));
                        break;
                    }
                }
            }
            if sent == applied {
                break;
            }
            let Some(job) = in_order.take(applied, &results) else {
                panic!("a reader worker thread panicked");
            };
            let progress = match job.bytes {
                ChunkBytes::Borrowed(_, end) => total.map(|t| end as f64 / t as f64),
                ChunkBytes::Owned(..) => None,
            };
            driver.apply(job.bytes.as_slice(), &job.scan, progress, sink)?;
            if let (Some(r), ChunkBytes::Borrowed(bytes, end)) = (record, &job.bytes) {
                if job.scan.recorded(&mut head) {
                    r.add(
                        end - bytes.len(),
                        bytes.len(),
                        &head,
                        job.scan.record_body(),
                    );
                }
            }
            applied += 1;
            match job.bytes {
                ChunkBytes::Owned(buf, _) => pool.push((buf, job.scan)),
                ChunkBytes::Borrowed(_, end) => {
                    release(end);
                    pool.push((Vec::new(), job.scan));
                }
            }
        }
        Ok(long_line)
    });
    // Only a reading that went through to the end has every chunk's scan it could.
    if let Some(r) = record {
        r.end(matches!(long_line, Ok(None)));
    }
    let long_line = long_line?;
    if let Some(e) = source.error() {
        return Err(ReadError::Io(e));
    }
    if let Some(head) = long_line {
        let offset = source.offset();
        let rest = Releasing {
            inner: io::Cursor::new(head).chain(source.rest()),
            pos: offset,
            release,
        };
        let mut segments = Segmenter::starting_at(rest, driver.line);
        drive(&mut segments, &mut driver.parser, opts, sink)?;
        (driver.line, driver.col) = segments.end_pos();
    }
    let end = Pos {
        line: driver.line,
        col: driver.col,
    };
    driver.parser.finish(end, sink)
}

/// A reader that reports how far it has been read, so the input in memory behind it can
/// be dropped as the streaming reader goes.
struct Releasing<'r, R> {
    inner: R,
    pos: usize,
    release: &'r mut dyn FnMut(usize),
}

impl<R: Read> Read for Releasing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n;
        (self.release)(self.pos);
        Ok(n)
    }
}

struct Job<'a> {
    bytes: ChunkBytes<'a>,
    scan: ChunkScan,
}

/// How the workers scan their chunks.
struct How<'r> {
    max_name_len: usize,
    form: Form,
    /// Whether the lines are written down (`ChunkScan::recorded`).
    record: bool,
    /// Where the chunks' scans are taken from, when they are there.
    replay: Option<&'r Recording>,
}

fn worker<'a>(
    queue: &Mutex<Receiver<(u64, Job<'a>)>>,
    done: &Sender<(u64, Job<'a>)>,
    how: &How<'_>,
    roles: Option<&RunRoles>,
) {
    let mut record = Vec::new();
    // Every chunk taken goes back (the driver waits for each in turn, and another worker
    // keeps the channel open): nothing here can panic outside the scan's `catch_unwind`.
    loop {
        // The lock is held while waiting for a chunk: the other workers would wait anyway.
        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok((number, mut job)) = next else {
            return;
        };
        let (bytes, scan) = (job.bytes.as_slice(), &mut job.scan);
        let start = match job.bytes {
            ChunkBytes::Borrowed(bytes, end) => Some(end - bytes.len()),
            ChunkBytes::Owned(..) => None,
        };
        let scanned = panic::catch_unwind(AssertUnwindSafe(|| {
            let replayed = match (how.replay, start) {
                (Some(r), Some(start)) => {
                    r.read(start, bytes.len(), &mut record)
                        && scan.replay(bytes, &record, how.form, roles)
                }
                _ => false,
            };
            if !replayed {
                scan.scan(bytes, how.max_name_len, how.form, roles, how.record);
            }
        }));
        if scanned.is_err() {
            // A bug in the scan must not lose data: the driver reads the chunk itself.
            job.scan = ChunkScan::default();
        }
        if done.send((number, job)).is_err() {
            return;
        }
    }
}

/// The chunks that came back before the one to apply next: a worker may finish chunk
/// `k + 1` before another finishes chunk `k`.
#[derive(Default)]
struct InOrder<'a> {
    early: VecDeque<Option<Job<'a>>>,
    /// The number of the chunk at `early`'s front.
    first: u64,
}

impl<'a> InOrder<'a> {
    /// Chunk `number` (every chunk before it taken already), waiting for it on `results`;
    /// `None` when no worker is left to send it (one panicked outside its scan).
    fn take(&mut self, number: u64, results: &Receiver<(u64, Job<'a>)>) -> Option<Job<'a>> {
        debug_assert_eq!(number, self.first);
        while matches!(self.early.front(), None | Some(None)) {
            let (k, job) = results.recv().ok()?;
            let at = usize::try_from(k.checked_sub(self.first)?).ok()?;
            if self.early.len() <= at {
                self.early.resize_with(at + 1, || None);
            }
            self.early[at] = Some(job);
        }
        self.first += 1;
        self.early.pop_front().flatten()
    }
}

/// The calling thread's side: the statement machine and the position in the input.
struct Driver<'o> {
    parser: Parser<'o>,
    opts: &'o ReadOptions,
    /// Position just past what has been applied.
    line: u64,
    col: u64,
}

impl Driver<'_> {
    fn apply<S: Sink + ?Sized>(
        &mut self,
        bytes: &[u8],
        scan: &ChunkScan,
        progress: Option<f64>,
        sink: &mut S,
    ) -> Result<(), ReadError> {
        let mut rest = bytes;
        if scan.fast_len > 0 && self.parser.admits(scan) {
            sink.statements(&scan.run(bytes, progress));
            self.parser.advance(scan);
            self.line += scan.lines;
            self.col = 1;
            rest = &bytes[scan.fast_len..];
        }
        if !rest.is_empty() {
            let mut segments = Segmenter::starting_at(rest, self.line);
            drive(&mut segments, &mut self.parser, self.opts, sink)?;
            (self.line, self.col) = segments.end_pos();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chunks that come back in any order are taken in file order, and a missing one
    /// with no worker left to send it is `None`, not a wait for ever.
    #[test]
    fn chunks_are_taken_in_file_order() {
        let mut next = crate::test_rng::xorshift(5);
        let (done, results) = channel::<(u64, Job<'static>)>();
        let mut order: Vec<u64> = (0..200).collect();
        // Each chunk at most a few places from its own, as two workers return them.
        for k in 0..order.len() - 1 {
            if next() % 2 == 0 {
                order.swap(k, k + 1);
            }
        }
        for &k in &order {
            let bytes = ChunkBytes::Owned(vec![0; k as usize], k as usize);
            let job = Job {
                bytes,
                scan: ChunkScan::default(),
            };
            done.send((k, job)).unwrap();
        }
        drop(done);
        let mut in_order = InOrder::default();
        for k in 0..200 {
            let job = in_order.take(k, &results).expect("every chunk came back");
            assert_eq!(job.bytes.as_slice().len(), k as usize);
        }
        assert!(in_order.take(200, &results).is_none());
    }
}
