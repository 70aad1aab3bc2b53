//! The spool file of a run read from a stream (a pipe, a FIFO, stdin, a socket): the
//! run's bytes as they are read, for the whole run's page (`-o`, the page's save).
//!
//! It is a named file in a directory the user chooses (`--spool DIR`, default the
//! temporary directory), so that `ls` and `du` see what a long run costs on disk (a day
//! of censuses of 200 bands is 7 GB), and its path and size are said on stderr and on
//! the page. It is removed when hp2ps ends: at the run's end by [`Spool::discard`], on
//! any signal that ends a run and on an abort by the list of `run/cleanup.rs`, on which
//! it is put as it is made. A run killed outright (SIGKILL, the OOM killer) cannot
//! remove it: each spool is locked (`flock`) while its hp2ps lives, and the next hp2ps
//! that spools into the same directory removes those no live hp2ps holds
//! ([`sweep`]), and says so.
//!
//! `--spool-max SIZE` bounds it: past SIZE it keeps nothing more, and the whole run's
//! page is of the run up to there and says so (the child is told: it knows where the
//! bytes it read end); the live page goes on.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use super::ranged::{size, Ranged};
use crate::run::cleanup::{self, Listed};

/// The start and end of a spool file's name: `hp2ps-live-PID-SALT.spool`.
const PREFIX: &str = "hp2ps-live-";
const SUFFIX: &str = ".spool";

/// A run's spool file.
pub(super) struct Spool {
    file: File,
    path: PathBuf,
    /// On the cleanup list until removed (`None` once it is).
    listed: Mutex<Option<Listed>>,
    /// Bytes of the run written (a reader reads no further).
    len: AtomicU64,
    /// `--spool-max`.
    max: Option<u64>,
    /// Whether it reached `max`, and where the run stood then, in words.
    capped: AtomicBool,
    capped_at: Mutex<Option<String>>,
    /// Why it could keep no more of the run (a full disk), once that happened.
    failed: Mutex<Option<String>>,
}

impl Spool {
    /// A new spool file in `dir`, of at most `max` bytes.
    pub(super) fn create(dir: &Path, max: Option<u64>) -> io::Result<Spool> {
        let mut last = None;
        for _ in 0..8 {
            let mut salt = [0u8; 8];
            getrandom::fill(&mut salt).map_err(|e| io::Error::other(e.to_string()))?;
            let name = format!(
                "{PREFIX}{}-{:016x}{SUFFIX}",
                std::process::id(),
                u64::from_le_bytes(salt)
            );
            let path = dir.join(name);
            let open = |p: &Path| {
                let mut options = File::options();
                options.read(true).write(true).create_new(true);
                // The run's profile is the user's own: not readable by others in a
                // shared temporary directory.
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let file = options.open(p)?;
                lock(&file);
                Ok(file)
            };
            match cleanup::create_listed(&path, open) {
                Ok((file, listed)) => {
                    return Ok(Spool {
                        file,
                        path,
                        listed: Mutex::new(Some(listed)),
                        len: AtomicU64::new(0),
                        max,
                        capped: AtomicBool::new(false),
                        capped_at: Mutex::new(None),
                        failed: Mutex::new(None),
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no spool file")))
    }

    /// Appends `bytes` (one writer: the thread that reads the input), as much of them
    /// as `--spool-max` leaves room for; after a failure, nothing more (the record has
    /// a hole). `Ok(true)`: the cap was reached now.
    pub(super) fn append(&self, bytes: &[u8]) -> Result<bool, String> {
        let mut failed = lock_of(&self.failed);
        if failed.is_some() || self.capped.load(Ordering::Acquire) {
            return Ok(false);
        }
        let at = self.len.load(Ordering::Acquire);
        let room = self.max.map_or(u64::MAX, |max| max.saturating_sub(at));
        let kept = &bytes[..bytes.len().min(usize::try_from(room).unwrap_or(usize::MAX))];
        match write_at(&self.file, kept, at) {
            Ok(()) => {
                let capped = kept.len() < bytes.len();
                // Capped before the length is seen: a reader that reads up to `max`
                // knows the run goes on past it.
                self.capped.store(capped, Ordering::Release);
                self.len.store(at + kept.len() as u64, Ordering::Release);
                Ok(capped)
            }
            Err(e) => {
                let why = e.to_string();
                // Its bytes are of no use now (the record cannot be read whole): the
                // disk gets them back.
                let _ = self.file.set_len(0);
                self.len.store(0, Ordering::Release);
                *failed = Some(why.clone());
                Err(why)
            }
        }
    }

    /// The cap was reached when the run stood at `at` (in words: its census, its time).
    pub(super) fn capped_at(&self, at: String) {
        *lock_of(&self.capped_at) = Some(at);
    }

    /// Bytes kept.
    pub(super) fn len(&self) -> u64 {
        self.len.load(Ordering::Acquire)
    }

    /// Whether a reader of `end` bytes stops at the cap (the run went on after them).
    pub(super) fn cut_at(&self, end: u64) -> bool {
        self.max.is_some_and(|max| end >= max) && self.capped.load(Ordering::Acquire)
    }

    pub(super) fn failure(&self) -> Option<String> {
        lock_of(&self.failed).clone()
    }

    /// Where it is, its size, its cap, in words (for stderr and the page).
    pub(super) fn describe(&self) -> String {
        let mut said = format!(
            "kept in the spool file {}: {}",
            self.path.display(),
            size(self.len())
        );
        if let Some(e) = self.failure() {
            said.push_str(&format!(
                " (it could keep no more: {e}; emptied, for -o and save cannot be made of it)"
            ));
            return said;
        }
        match (self.max, lock_of(&self.capped_at).as_deref()) {
            (Some(max), _) if !self.capped.load(Ordering::Acquire) => {
                said.push_str(&format!(" of at most {} (--spool-max)", size(max)));
            }
            (_, at) => {
                if self.capped.load(Ordering::Acquire) {
                    said.push_str(&format!(
                        ", its cap (--spool-max), reached {}: -o and save cover the run up \
                         to about there; the live page goes on",
                        at.unwrap_or("during the run")
                    ));
                }
            }
        }
        said.push_str("; removed when hp2ps ends");
        said
    }

    /// The bytes written so far.
    pub(super) fn reader(&self) -> Ranged<'_> {
        Ranged::new(&self.file, self.len())
    }

    /// Removes the file (a reader that has it open reads on), once; what was removed,
    /// in words.
    pub(super) fn discard(&self) -> Option<String> {
        let listed = lock_of(&self.listed).take()?;
        let said = format!(
            "removed the spool file {} ({})",
            self.path.display(),
            size(self.len())
        );
        listed.remove(&self.path);
        Some(said)
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        self.discard();
    }
}

/// A time on the axis for people: at most three decimals, no trailing zeros.
pub(super) fn time(t: f64) -> String {
    let text = format!("{t:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

fn lock_of<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes from `dir` the spool files that no living hp2ps holds (one killed outright
/// left them); says which, in words.
pub(super) fn sweep(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        // Only a name `create` makes: a user's file of a like name is never touched.
        let digits = |t: &str, hex: bool| {
            !t.is_empty()
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || (hex && matches!(b, b'a'..=b'f')))
        };
        let Some(pid) = (name.to_str())
            .and_then(|n| n.strip_prefix(PREFIX)?.strip_suffix(SUFFIX))
            .and_then(|rest| rest.split_once('-'))
            .filter(|(pid, salt)| digits(pid, false) && salt.len() == 16 && digits(salt, true))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let path = entry.path();
        if alive(pid) || !(entry.file_type()).is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if unheld(&file) {
            let len = file.metadata().map_or(0, |m| m.len());
            if std::fs::remove_file(&path).is_ok() {
                removed.push(format!(
                    "removed {} ({}), left by an hp2ps that was killed",
                    path.display(),
                    size(len)
                ));
            }
        }
    }
    removed
}

/// Marks the spool as held while this process lives (the lock goes with the process).
#[cfg(unix)]
fn lock(file: &File) {
    let _ = rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive);
}

#[cfg(not(unix))]
fn lock(_: &File) {}

/// Whether no process holds `file`'s lock (taking it shows it; it goes with `file`).
#[cfg(unix)]
fn unheld(file: &File) -> bool {
    rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok()
}

#[cfg(not(unix))]
fn unheld(_: &File) -> bool {
    false
}

/// Whether process `pid` lives (one of this machine's namespace): signal 0 sends
/// nothing, it only asks.
#[cfg(unix)]
fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

#[cfg(not(unix))]
fn alive(_: u32) -> bool {
    true
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
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
fn write_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
    Err(io::Error::other("no positioned writes on this platform"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_sweep_takes_only_a_dead_hp2ps_spools_and_a_spool_is_the_users_alone() {
        let dir = std::env::temp_dir().join(format!("hp2ps-sweep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // 2,000,000,000 is past every pid_max: no such process.
        let left = "hp2ps-live-2000000000-0123456789abcdef.spool";
        let users = [
            "hp2ps-live-2000000000-notes.spool",
            "hp2ps-live-+2000000000-0123456789abcdef.spool",
            "hp2ps-live-2000000000-0123456789ABCDEF.spool",
        ];
        for name in users.iter().chain([&left]) {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        let removed = sweep(&dir);
        assert_eq!(removed.len(), 1, "{removed:?}");
        assert!(!dir.join(left).exists());
        for name in users {
            assert!(dir.join(name).exists(), "{name} kept");
        }
        let spool = Spool::create(&dir, None).unwrap();
        let mode = std::fs::metadata(&spool.path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A living hp2ps's spool (this one's) is never swept.
        assert!(sweep(&dir).is_empty());
        drop(spool);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
