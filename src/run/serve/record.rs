//! The whole run, kept for the page saved at the end (`-o`, the page's save): each run
//! has its own record, chosen when it starts by what it is read from. A regular file is
//! its own record, through the descriptor it is read with (a file renamed over the path
//! is another run's, and the run's own bytes stay readable); the bytes of a pipe, a
//! FIFO (also one that took a file's place), stdin or a socket go to a spool file of
//! the run as they are read. So a run's page is always made of that run's bytes, and
//! the record of the run before stays readable until its own end's page is made.
//!
//! A file's record keeps a checksum of the bytes read: a file written again in place
//! (cut, then written by the next run) no longer holds them, and its run's page is then
//! refused with a reason rather than made of the next run's bytes. A spool that could
//! not keep what was read (a full disk) says so, with the system's error.
//!
//! The spool lives in the temporary directory; on Unix it is unlinked as soon as it is
//! made (only its open descriptor names it), so nothing is left behind whatever ends the
//! program; elsewhere it is removed when the record is dropped. Its directory and size
//! are said on the page and on stderr.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Where a run can be read again whole.
pub(super) enum Record {
    /// No run yet, or its record could not be made (and why).
    Nothing(Option<String>),
    /// The followed regular file, through the descriptor it is read with.
    File(FileRecord),
    /// What was read from a stream.
    Spool(Spool),
}

/// A regular file as a run's record: the bytes read of it, and their checksum.
pub(super) struct FileRecord {
    file: File,
    name: PathBuf,
    len: AtomicU64,
    sum: Mutex<Fnv>,
}

impl Record {
    /// The record of a run read from `file` (a regular file at `name`).
    pub(super) fn file(file: File, name: &Path) -> Record {
        Record::File(FileRecord {
            file,
            name: name.to_path_buf(),
            len: AtomicU64::new(0),
            sum: Mutex::new(Fnv::new()),
        })
    }

    /// The record of a run read from a stream: a new spool file.
    pub(super) fn spool() -> Record {
        match Spool::create() {
            Ok(spool) => Record::Spool(spool),
            Err(e) => Record::Nothing(Some(format!(
                "no file could be made to keep the run in {}: {e}",
                std::env::temp_dir().display()
            ))),
        }
    }

    /// Adds bytes read (one writer: the thread that reads the input). Returns an error
    /// the first time the record cannot keep them.
    pub(super) fn append(&self, bytes: &[u8]) -> Result<(), String> {
        match self {
            Record::Nothing(_) => Ok(()),
            Record::File(f) => {
                f.sum.lock().unwrap_or_else(|e| e.into_inner()).write(bytes);
                f.len.fetch_add(bytes.len() as u64, Ordering::AcqRel);
                Ok(())
            }
            Record::Spool(s) => s.append(bytes),
        }
    }

    /// What tells this state of the record from another: the bytes kept.
    pub(super) fn kept(&self) -> Kept {
        match self {
            Record::Nothing(_) => Kept(0),
            Record::File(f) => Kept(f.len.load(Ordering::Acquire)),
            Record::Spool(s) => Kept(s.len.load(Ordering::Acquire)),
        }
    }

    /// Where the run is kept, and how much, in words (for stderr and the page).
    pub(super) fn describe(&self) -> String {
        match self {
            Record::Nothing(None) => String::new(),
            Record::Nothing(Some(why)) => why.clone(),
            Record::File(_) => String::from("kept in the file followed"),
            Record::Spool(s) => {
                let kept = format!(
                    "kept in a spool file in {} (deleted, open while hp2ps runs): {}",
                    s.dir.display(),
                    size(s.len.load(Ordering::Acquire))
                );
                match s.failure() {
                    Some(e) => format!("{kept}; it could keep no more: {e}"),
                    None => kept,
                }
            }
        }
    }

    /// The whole run so far, as a stream, and a check of what was read through it
    /// ([`Checked::verify`], once it is read to its end).
    pub(super) fn reader(&self) -> Result<Checked<'_>, String> {
        match self {
            Record::Nothing(why) => Err(why
                .clone()
                .unwrap_or_else(|| String::from("no run has begun"))),
            Record::File(f) => {
                let end = f.len.load(Ordering::Acquire);
                let now = f.file.metadata().map_err(|e| e.to_string())?.len();
                if now < end {
                    return Err(f.rewritten());
                }
                let sum = *f.sum.lock().unwrap_or_else(|e| e.into_inner());
                Ok(Checked {
                    read: Ranged {
                        file: &f.file,
                        at: 0,
                        end,
                    },
                    sum: Fnv::new(),
                    expected: Some((sum, f)),
                })
            }
            Record::Spool(s) => match s.failure() {
                Some(e) => Err(format!(
                    "the spool file of the run in {} could not keep all of it: {e}",
                    s.dir.display()
                )),
                None => Ok(Checked {
                    read: s.reader(),
                    sum: Fnv::new(),
                    expected: None,
                }),
            },
        }
    }
}

impl FileRecord {
    fn rewritten(&self) -> String {
        format!(
            "{} was written again from its start (a new run): this run can no longer be read whole",
            self.name.display()
        )
    }
}

/// A run's record read from its start, checked against what was read as it came.
pub(super) struct Checked<'a> {
    read: Ranged<'a>,
    sum: Fnv,
    expected: Option<(Fnv, &'a FileRecord)>,
}

impl Read for Checked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.read.read(buf)?;
        if self.expected.is_some() {
            self.sum.write(&buf[..n]);
        }
        Ok(n)
    }
}

impl Checked<'_> {
    /// Whether every byte was read, and they were the bytes the run was read from.
    pub(super) fn verify(&self) -> Result<(), String> {
        if self.read.at < self.read.end {
            return Err(String::from("the run's record was not read to its end"));
        }
        match &self.expected {
            Some((sum, f)) if *sum != self.sum => Err(f.rewritten()),
            _ => Ok(()),
        }
    }
}

/// FNV-1a, 64 bits: a checksum of the bytes of a run read from a file, as they come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// One state of a record ([`Record::kept`]): the bytes kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Kept(u64);

/// A number of bytes for people: `316.0 MB`.
pub(super) fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ => format!("{value:.1} {}", UNITS[unit]),
    }
}

/// A temporary file of the bytes read.
pub(super) struct Spool {
    file: File,
    /// Bytes of the run written (a reader reads no further).
    len: AtomicU64,
    /// Where the platform keeps it named until it is dropped (not on Unix).
    #[cfg_attr(unix, allow(dead_code))]
    path: Option<PathBuf>,
    /// The directory it is in (the temporary directory: `TMPDIR`).
    dir: PathBuf,
    /// Why it could keep no more of the run (a full disk), once that happened.
    failed: Mutex<Option<String>>,
}

impl Spool {
    pub(super) fn create() -> io::Result<Spool> {
        let dir = std::env::temp_dir();
        let mut last = None;
        for _ in 0..8 {
            let mut salt = [0u8; 8];
            getrandom::fill(&mut salt).map_err(|e| io::Error::other(e.to_string()))?;
            let name = format!(
                "hp2ps-live-{}-{}.spool",
                std::process::id(),
                u64::from_le_bytes(salt)
            );
            let path = dir.join(name);
            match File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => return Ok(Spool::named(file, path, dir)),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no spool file")))
    }

    #[cfg(unix)]
    fn named(file: File, path: PathBuf, dir: PathBuf) -> Spool {
        // Only the descriptor names it from now on.
        let _ = std::fs::remove_file(&path);
        Spool {
            file,
            len: AtomicU64::new(0),
            path: None,
            dir,
            failed: Mutex::new(None),
        }
    }

    #[cfg(not(unix))]
    fn named(file: File, path: PathBuf, dir: PathBuf) -> Spool {
        Spool {
            file,
            len: AtomicU64::new(0),
            path: Some(path),
            dir,
            failed: Mutex::new(None),
        }
    }

    /// Appends `bytes` (one writer: the thread that reads the input); after a failure,
    /// nothing more (the record has a hole).
    fn append(&self, bytes: &[u8]) -> Result<(), String> {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if failed.is_some() {
            return Ok(());
        }
        let at = self.len.load(Ordering::Acquire);
        match write_at(&self.file, bytes, at) {
            Ok(()) => {
                self.len.store(at + bytes.len() as u64, Ordering::Release);
                Ok(())
            }
            Err(e) => {
                let why = e.to_string();
                *failed = Some(why.clone());
                Err(why)
            }
        }
    }

    fn failure(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The bytes written so far.
    fn reader(&self) -> Ranged<'_> {
        Ranged {
            file: &self.file,
            at: 0,
            end: self.len.load(Ordering::Acquire),
        }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Reads a file from its start to where it stood when the reader was made (a spool, or a
/// followed file), while the input's thread goes on after it.
pub(super) struct Ranged<'a> {
    file: &'a File,
    at: u64,
    end: u64,
}

impl Read for Ranged<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = (self.end - self.at).min(buf.len() as u64) as usize;
        if room == 0 {
            return Ok(0);
        }
        let n = read_at(self.file, &mut buf[..room], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(windows)]
fn write_at(file: &File, mut bytes: &[u8], mut at: u64) -> io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(file, bytes, at)?;
        bytes = &bytes[n..];
        at += n as u64;
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::other("no positioned reads on this platform"))
}

#[cfg(not(any(unix, windows)))]
fn write_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
    Err(io::Error::other("no positioned writes on this platform"))
}
