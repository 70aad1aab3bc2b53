//! The whole run, kept for the page saved at the end (`-o`, the page's save): each run
//! has its own record, chosen when it starts by what it is read from. A regular file is
//! its own record, through the descriptor it is read with (a file renamed over the path
//! is another run's, and the run's own bytes stay readable); the bytes of a pipe, a
//! FIFO (also one that took a file's place), stdin or a socket go to a spool file of
//! the run as they are read. So a run's page is always made of that run's bytes, and
//! the record of the run before stays readable until its own end's page is made.
//!
//! A file's record keeps a checksum (CRC-32) of the bytes read: a file written again in
//! place (cut, then written by the next run) no longer holds them, and its run's page is
//! then refused with a reason rather than made of the next run's bytes. A spool that could
//! not keep what was read (a full disk) says so, with the system's error.
//!
//! The spool file ([`Spool`]) is a named file of a directory the user sees and may
//! choose (`--spool`), removed when hp2ps ends, and bounded by `--spool-max`; its path
//! and size are said on the page and on stderr.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::ranged::Ranged;
use super::spool::Spool;
use crate::run::mapped::may_map;

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
    sum: Mutex<Sum>,
}

impl Record {
    /// The record of a run read from `file` (a regular file at `name`).
    pub(super) fn file(file: File, name: &Path) -> Record {
        Record::File(FileRecord {
            file,
            name: name.to_path_buf(),
            len: AtomicU64::new(0),
            sum: Mutex::new(Sum::new()),
        })
    }

    /// The record of a run read from a stream: a new spool file in `dir`, of at most
    /// `max` bytes.
    pub(super) fn spool(dir: &Path, max: Option<u64>) -> Record {
        match Spool::create(dir, max) {
            Ok(spool) => Record::Spool(spool),
            Err(e) => Record::Nothing(Some(format!(
                "no file could be made to keep the run in {}: {e}",
                dir.display()
            ))),
        }
    }

    /// Adds bytes read (one writer: the thread that reads the input). Returns an error
    /// the first time the record cannot keep them, and `Ok(true)` when a spool reached
    /// its cap with them.
    pub(super) fn append(&self, bytes: &[u8]) -> Result<bool, String> {
        match self {
            Record::Nothing(_) => Ok(false),
            Record::File(f) => {
                f.sum.lock().unwrap_or_else(|e| e.into_inner()).write(bytes);
                f.len.fetch_add(bytes.len() as u64, Ordering::AcqRel);
                Ok(false)
            }
            Record::Spool(s) => s.append(bytes),
        }
    }

    /// What tells this state of the record from another: the bytes kept.
    pub(super) fn kept(&self) -> Kept {
        match self {
            Record::Nothing(_) => Kept(0),
            Record::File(f) => Kept(f.len.load(Ordering::Acquire)),
            Record::Spool(s) => Kept(s.len()),
        }
    }

    /// Where the run is kept, and how much, in words (for stderr and the page), and the
    /// bytes of its spool file (0 for a file followed: it is the user's).
    pub(super) fn said(&self) -> (String, u64) {
        match self {
            Record::Nothing(None) => (String::new(), 0),
            Record::Nothing(Some(why)) => (why.clone(), 0),
            Record::File(_) => (String::from("kept in the file followed"), 0),
            Record::Spool(s) => (s.describe(), s.len()),
        }
    }

    /// In words only.
    pub(super) fn describe(&self) -> String {
        self.said().0
    }

    /// The run stood at `at` (in words) when its spool reached its cap.
    pub(super) fn capped_at(&self, at: String) {
        if let Record::Spool(s) = self {
            s.capped_at(at);
        }
    }

    /// Removes the spool file, if any (hp2ps ends): what was removed, in words.
    pub(super) fn discard(&self) -> Option<String> {
        match self {
            Record::Spool(s) => s.discard(),
            _ => None,
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
                let sum = f.sum.lock().unwrap_or_else(|e| e.into_inner()).value();
                Ok(Checked {
                    read: Ranged::new(&f.file, end),
                    capped: false,
                    sum: Sum::new(),
                    expected: Some((sum, f)),
                    spool: None,
                })
            }
            Record::Spool(s) => match s.failure() {
                Some(e) => Err(spool_failed(&e)),
                None => {
                    let read = s.reader();
                    Ok(Checked {
                        capped: s.cut_at(read.end()),
                        read,
                        sum: Sum::new(),
                        expected: None,
                        spool: Some(s),
                    })
                }
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
    /// It stops at the spool's cap (`--spool-max`): the run went on after it.
    pub(super) capped: bool,
    sum: Sum,
    expected: Option<(u32, &'a FileRecord)>,
    /// The spool read, if it is one (to ask whether it failed meanwhile).
    spool: Option<&'a Spool>,
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
        if !self.read.done() {
            return Err(String::from("the run's record was not read to its end"));
        }
        match &self.expected {
            Some((sum, f)) if *sum != self.sum.value() => Err(f.rewritten()),
            _ => Ok(()),
        }
    }

    /// The bytes of the run: the record's first [`Kept`] bytes.
    pub(super) fn end(&self) -> u64 {
        self.read.end()
    }

    /// The record's file opened again (a description of its own, at offset 0: not a
    /// duplicate sharing the reader's place), for a child to map its first
    /// [`Checked::end`] bytes; `None` where files are not mapped (not Linux,
    /// `HP2PS_NO_MMAP`) or it cannot be opened so (the child then reads a pipe).
    pub(super) fn reopened(&self) -> Option<File> {
        may_map().then(|| reopen(self.read.file())).flatten()
    }

    /// After a child read the record itself ([`Checked::reopened`]): whether what it
    /// read was the run's. A file's bytes are read again now and checked against the
    /// sum made as they came: a file written again in place since they were read (the
    /// next run's bytes, or a cut the child's map read as zeros) differs from them now,
    /// for the next run's bytes only ever go on from its start. A spool is this
    /// program's and only grows, unless it failed (emptied for the disk's sake).
    pub(super) fn verify_again(mut self) -> Result<(), String> {
        if let Some(e) = self.spool.and_then(Spool::failure) {
            return Err(spool_failed(&e));
        }
        if self.expected.is_none() {
            return Ok(());
        }
        let mut buf = vec![0u8; 1 << 20];
        loop {
            match self.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("the run's record could not be read: {e}")),
            }
        }
        self.verify()
    }
}

/// The message of a spool that could not keep all of the run.
fn spool_failed(e: &str) -> String {
    format!("the spool file of the run could not keep all of it: {e}")
}

/// `file` opened again by its descriptor's name in `/proc`: the same file (also one
/// deleted or renamed over since), read only, at offset 0.
#[cfg(target_os = "linux")]
fn reopen(file: &File) -> Option<File> {
    use std::os::fd::AsRawFd;
    let again = File::open(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()?;
    again.metadata().ok()?.is_file().then_some(again)
}

#[cfg(not(target_os = "linux"))]
fn reopen(_file: &File) -> Option<File> {
    None
}

/// A checksum of the bytes of a run read from a file, as they come: CRC-32 (crc32fast:
/// at memory speed, for the server sums every byte it follows and again every byte of
/// the run when its whole page is made).
#[derive(Clone)]
struct Sum(crc32fast::Hasher);

impl Sum {
    fn new() -> Sum {
        Sum(crc32fast::Hasher::new())
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The sum of the bytes written so far.
    fn value(&self) -> u32 {
        self.0.clone().finalize()
    }
}

/// One state of a record ([`Record::kept`]): the bytes kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Kept(u64);

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{Seek, Write};
    use std::os::unix::fs::FileExt;

    /// A followed file's record as the input's thread makes it: `run` read through the
    /// descriptor (its offset at the end), and a record of the bytes read.
    fn followed(dir: &Path, run: &[u8]) -> (File, Record) {
        let path = dir.join("run.hp");
        std::fs::write(&path, run).unwrap();
        let mut read = File::open(&path).unwrap();
        read.seek(io::SeekFrom::End(0)).unwrap();
        let record = Record::file(read.try_clone().unwrap(), &path);
        record.append(run).unwrap();
        let writer = File::options().write(true).open(&path).unwrap();
        (writer, record)
    }

    #[test]
    fn a_file_given_to_the_child_is_checked_again_after_it() {
        let dir = std::env::temp_dir().join(format!("hp2ps-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = b"JOB \"first run\"\nDATE \"d\"\n".repeat(100);
        let (mut writer, record) = followed(&dir, &run);
        let checked = record.reader().unwrap();
        // Opened again: the same bytes from the start, whatever the reader's offset.
        let mut given = checked.reopened().expect("a regular file is given");
        let mut bytes = Vec::new();
        given.read_to_end(&mut bytes).unwrap();
        assert!(bytes == run);
        // The file grew on (the run went on): the record's bytes are still the run's.
        writer.seek(io::SeekFrom::End(0)).unwrap();
        writer.write_all(b"more of the same run").unwrap();
        assert_eq!(checked.verify_again(), Ok(()));
        // Written again in place (the next run, as long or longer): refused.
        let next = b"JOB \"next run!\"\nDATE \"d\"\n".repeat(100);
        writer.write_all_at(&next, 0).unwrap();
        let refused = record.reader().unwrap().verify_again();
        assert_eq!(refused, Err(record_rewritten(&record)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn record_rewritten(record: &Record) -> String {
        match record {
            Record::File(f) => f.rewritten(),
            _ => unreachable!("a file's record"),
        }
    }
}
