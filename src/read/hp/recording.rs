//! The first reading's scans of a long mapped `.hp`, written down for its second
//! reading (issue 39): what `-c` reads twice to keep memory bounded, it scans once.
//!
//! The first reading (its workers adding the points up) writes each chunk's scan
//! (`chunk/record.rs`: the names' places and each line as a short code) to a file the
//! caller gives, about six bytes a line; a second reading of the same bytes
//! takes each chunk's scan from there, in the form it needs, instead of scanning the
//! text again (the scan is most of a reading's work). Chunks are cut the same way from
//! the same bytes, so each is found by its place; one that is not there (past the
//! recording's limit, or a scan that recorded nothing) is scanned from its text. The
//! file is the caller's: a temporary one, gone with the recording.

use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::profile::spill::{read_exact_at, SpillFile};

/// The first reading's scans, for the second ([`super::ReadOptions::recording`]).
pub(crate) struct Recording {
    inner: Mutex<Inner>,
    /// The most bytes written down; the chunks after are scanned again from the text.
    limit: u64,
    /// Another handle on the file, when the caller has one: the second reading's
    /// workers read their records through it at their places, at once, where through
    /// the file under the lock one waited for the other's read (8 of the 22 ms they
    /// spent on records, 400 MB profile).
    at_places: Option<std::fs::File>,
    /// How many records were read back.
    read: AtomicU64,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording").finish_non_exhaustive()
    }
}

struct Inner {
    file: Box<dyn SpillFile>,
    /// Each chunk written down, in file order: where it starts in the input, its
    /// length, where its record starts in the file and its record's length.
    chunks: Vec<(usize, usize, u64, usize)>,
    written: u64,
    state: State,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A first reading may write its scans.
    Open,
    /// A first reading ended well: a second may read them.
    Done,
    /// Writing failed, or a reading ended badly: of no use.
    Spoiled,
}

impl Recording {
    /// A recording into `file` (empty, read and written from its start) of at most
    /// `limit` bytes.
    pub(crate) fn new(file: Box<dyn SpillFile>, limit: u64) -> Recording {
        let inner = Inner {
            file,
            chunks: Vec::new(),
            written: 0,
            state: State::Open,
        };
        Recording {
            inner: Mutex::new(inner),
            limit,
            at_places: None,
            read: AtomicU64::new(0),
        }
    }

    /// The recording, its records read back through `file`, another handle on the file
    /// it writes (read at places, so without the lock).
    pub(crate) fn read_at_places(mut self, file: std::fs::File) -> Recording {
        self.at_places = Some(file);
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A worker that panicked while holding the lock left nothing half done that
        // matters here: a record is indexed only after it is written whole.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a reading may write its scans here (nothing written yet by a reading
    /// that ended).
    pub(crate) fn open(&self) -> bool {
        self.lock().state == State::Open
    }

    /// Whether a reading may take its scans from here.
    pub(crate) fn done(&self) -> bool {
        self.lock().state == State::Done
    }

    /// Writes down the record (`head`, then `body`) of the chunk of `len` bytes at
    /// `start` in the input: the next chunk in file order.
    pub(crate) fn add(&self, start: usize, len: usize, head: &[u8], body: &[u8]) {
        let mut inner = self.lock();
        let size = head.len() + body.len();
        if inner.state != State::Open || inner.written + size as u64 > self.limit {
            return;
        }
        let at = inner.written;
        let wrote = (inner.file.write_all(head)).and_then(|()| inner.file.write_all(body));
        match wrote {
            Ok(()) => {
                inner.chunks.push((start, len, at, size));
                inner.written += size as u64;
            }
            Err(_) => inner.state = State::Spoiled,
        }
    }

    /// The first reading ended: well (its scans may be read back), or not.
    pub(crate) fn end(&self, well: bool) {
        let mut inner = self.lock();
        if inner.state == State::Open {
            let flushed = well && inner.file.flush().is_ok();
            inner.state = if flushed { State::Done } else { State::Spoiled };
        }
    }

    /// Reads the record of the chunk of `len` bytes at `start` into `out`; `false` when
    /// there is none (or it cannot be read).
    pub(crate) fn read(&self, start: usize, len: usize, out: &mut Vec<u8>) -> bool {
        let mut inner = self.lock();
        if inner.state != State::Done {
            return false;
        }
        let Ok(k) = inner.chunks.binary_search_by_key(&start, |c| c.0) else {
            return false;
        };
        let (_, chunk_len, at, size) = inner.chunks[k];
        if chunk_len != len {
            return false;
        }
        // Zeros only where the buffer grows (it is reused chunk after chunk, and read
        // over whole): written first over all of it, they were a seventh of the input
        // written again.
        out.resize(size, 0);
        let read = match &self.at_places {
            Some(file) => {
                // Nothing is written once the recording is done: its chunks stay put.
                drop(inner);
                read_exact_at(file, out, at)
            }
            None => {
                let file = &mut inner.file;
                (file.seek(SeekFrom::Start(at))).and_then(|_| file.read_exact(out))
            }
        };
        self.read
            .fetch_add(u64::from(read.is_ok()), Ordering::Relaxed);
        read.is_ok()
    }

    /// How many bytes were written down, and how many records read back.
    #[cfg(test)]
    pub(crate) fn counts(&self) -> (u64, u64) {
        let inner = self.lock();
        (inner.written, self.read.load(Ordering::Relaxed))
    }
}
