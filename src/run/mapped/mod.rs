//! Regular files read through a memory map: the reader's workers scan the page cache in
//! place instead of copying 400 MB through `read` (a tenth of the whole render's CPU
//! time), and the pages already read are dropped from the mapping as the reader goes, so
//! the resident memory stays a few chunks, not the file.
//!
//! A map of a file that another program truncates while we read it faults where the file
//! no longer reaches: the kernel sends SIGBUS, which would kill the process. On Linux,
//! [`fault`] catches that signal for our maps, puts zeros where the file's pages were, and
//! notes it; after reading, the render asks [`Mapped::changed_while_read`] and refuses
//! what may mix two versions of the file ("the file changed while it was read").
//!
//! Elsewhere the file is read as a stream ([`Mapped::of`] gives `None`): the same reader
//! over `read`, a little slower on large files. `HP2PS_NO_MMAP=1` does the same on Linux.
//!
//! With [`super::heap`] and [`super::abort`], the only `unsafe` code of the program.

use std::fs::File;

#[cfg(target_os = "linux")]
mod fault;
#[cfg(target_os = "linux")]
mod map;

#[cfg(all(test, target_os = "linux"))]
pub(crate) use map::pages_present;
#[cfg(target_os = "linux")]
pub(crate) use map::Mapped;

/// Where files are not mapped: a type with no values, so that every use of a map
/// compiles everywhere and is never reached.
#[cfg(not(target_os = "linux"))]
pub(crate) enum Mapped {}

#[cfg(not(target_os = "linux"))]
impl Mapped {
    pub(crate) fn of(_file: &File) -> Option<Mapped> {
        None
    }

    pub(crate) fn prefix(_file: &File, _len: u64) -> Option<Mapped> {
        None
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match *self {}
    }

    pub(crate) fn release(&self, _upto: usize) {
        match *self {}
    }

    pub(crate) fn read_again(&self) {
        match *self {}
    }

    pub(crate) fn read_again_sparsely(&self) {
        match *self {}
    }

    pub(crate) fn changed_while_read(&self, _read_failed: bool) -> bool {
        match *self {}
    }
}

/// Whether files may be mapped here: on Linux, unless `HP2PS_NO_MMAP` is set (and not
/// `0`).
pub(crate) fn may_map() -> bool {
    cfg!(target_os = "linux") && !std::env::var_os("HP2PS_NO_MMAP").is_some_and(|v| v != "0")
}

/// The map of the regular file on stdin (`hp2ps < big.hp`), if it is one worth mapping.
pub(crate) fn of_stdin() -> Option<Mapped> {
    stdin_file().and_then(|file| Mapped::of(&file))
}

/// Stdin as a file of its own (a duplicate of the descriptor).
#[cfg(target_os = "linux")]
pub(crate) fn stdin_file() -> Option<File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    Some(File::from(fd))
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn stdin_file() -> Option<File> {
    None
}
