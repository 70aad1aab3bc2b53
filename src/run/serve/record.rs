//! The whole run, kept for the page saved at the end (`-o`, the page's save): a followed
//! file is its own record; the bytes of a pipe, stdin or a socket go to a spool file as
//! they are read, so that the whole run can be read again the ordinary way
//! (`--format html`'s page) while the live page keeps only its levels of detail.
//!
//! The spool lives in the temporary directory; on Unix it is unlinked as soon as it is
//! made (only its open descriptor names it), so nothing is left behind whatever ends the
//! program; elsewhere it is removed when the record is dropped.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::run::regular::open_regular;
use crate::run::version::Version;

/// Where the whole run can be read again.
pub(super) enum Record {
    /// The followed file itself.
    File(PathBuf),
    /// What was read from a stream.
    Spool(Spool),
}

impl Record {
    /// Adds bytes read from a stream (nothing for a file, which is its own record).
    pub(super) fn append(&self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Record::File(_) => Ok(()),
            Record::Spool(s) => s.append(bytes),
        }
    }

    /// Forgets the run kept (a new run begins).
    pub(super) fn restart(&self) -> io::Result<()> {
        match self {
            Record::File(_) => Ok(()),
            Record::Spool(s) => s.restart(),
        }
    }

    /// What tells this state of the record from another: a spool's length, a file's
    /// version (`None`: nothing there now).
    pub(super) fn kept(&self) -> Kept {
        match self {
            Record::File(path) => Kept::File(std::fs::metadata(path).ok().map(|m| Version::of(&m))),
            Record::Spool(s) => Kept::Spool(s.len.load(Ordering::Acquire)),
        }
    }

    /// Where the run is kept, and how much, in words (for stderr and the page).
    pub(super) fn describe(&self) -> String {
        match self {
            Record::File(_) => String::from("kept in the file followed"),
            Record::Spool(s) => format!(
                "kept in a spool file in {} (deleted, open while hp2ps runs): {}",
                s.dir.display(),
                size(s.len.load(Ordering::Acquire))
            ),
        }
    }

    /// The whole run so far, as a stream.
    pub(super) fn reader(&self) -> io::Result<Box<dyn Read + '_>> {
        match self {
            // Not a plain open: a FIFO put in its place would hold it until a writer came.
            Record::File(path) => match open_regular(path) {
                Ok(file) => Ok(Box::new(io::BufReader::new(file))),
                Err(e) if e.kind() == io::ErrorKind::InvalidInput => Err(io::Error::other(
                    format!("{} is no longer a regular file", path.display()),
                )),
                Err(e) => Err(e),
            },
            Record::Spool(s) => Ok(Box::new(s.reader())),
        }
    }
}

/// One state of a record ([`Record::kept`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kept {
    File(Option<Version>),
    Spool(u64),
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
}

/// A number of bytes for people: `316 MB`.
fn size(bytes: u64) -> String {
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
        }
    }

    #[cfg(not(unix))]
    fn named(file: File, path: PathBuf, dir: PathBuf) -> Spool {
        Spool {
            file,
            len: AtomicU64::new(0),
            path: Some(path),
            dir,
        }
    }

    /// Appends `bytes` (one writer: the thread that reads the input).
    fn append(&self, bytes: &[u8]) -> io::Result<()> {
        let at = self.len.load(Ordering::Acquire);
        write_at(&self.file, bytes, at)?;
        self.len.store(at + bytes.len() as u64, Ordering::Release);
        Ok(())
    }

    fn restart(&self) -> io::Result<()> {
        self.len.store(0, Ordering::Release);
        self.file.set_len(0)
    }

    /// The bytes written so far.
    fn reader(&self) -> SpoolReader<'_> {
        SpoolReader {
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

/// Reads a spool from its start to where it stood when the reader was made, while the
/// input's thread goes on writing after it.
pub(super) struct SpoolReader<'a> {
    file: &'a File,
    at: u64,
    end: u64,
}

impl Read for SpoolReader<'_> {
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
