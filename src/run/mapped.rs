//! Regular files read through a memory map: the reader's workers scan the page cache in
//! place instead of copying 400 MB through `read` (a tenth of the whole render's CPU
//! time), and the pages already read are dropped from the mapping as the reader goes, so
//! the resident memory stays a few chunks, not the file.
//!
//! With [`super::heap`], the only `unsafe` code of the program. A mapped file that another program truncates
//! while we read it would fault (SIGBUS), so maps are only used for a single render of a
//! file, not by `--watch` (whose files are being written), and `HP2PS_NO_MMAP=1` turns
//! them off.

#![allow(unsafe_code)]

use std::cell::Cell;
use std::fs::File;
use std::os::fd::AsRawFd;

/// Files below this size are read with `read`: a map costs more than it saves.
const MIN_MAP: u64 = 1 << 20;

/// A read-only private map of a whole regular file.
pub(crate) struct Mapped {
    ptr: *mut libc::c_void,
    len: usize,
    /// Bytes before this offset have been given back.
    released: Cell<usize>,
}

impl Mapped {
    /// Maps `file` if it is a regular file large enough to be worth it; `None` otherwise
    /// (the caller reads it as a stream).
    pub(crate) fn of(file: &File) -> Option<Mapped> {
        if std::env::var_os("HP2PS_NO_MMAP").is_some_and(|v| v != "0") {
            return None;
        }
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() < MIN_MAP {
            return None;
        }
        let len = usize::try_from(meta.len()).ok()?;
        // SAFETY: a fresh read-only private mapping of an open file descriptor; the
        // pointer is checked before use and unmapped exactly once, in `drop`.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                file.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: advice on our own mapping; failure is harmless.
        unsafe {
            libc::madvise(ptr, len, libc::MADV_SEQUENTIAL);
        }
        Some(Mapped {
            ptr,
            len,
            released: Cell::new(0),
        })
    }

    /// The file's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping is `len` readable bytes and lives as long as `self`. Pages
        // dropped by `release` read back from the file when touched again.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
    }

    /// Drops the pages wholly before `upto` from memory (they are not needed again).
    pub(crate) fn release(&self, upto: usize) {
        let page = page_size();
        let end = (upto.min(self.len) / page) * page;
        let released = self.released.get();
        // In steps of 16 MiB: each call interrupts every thread of the process to flush
        // its address translations.
        if end <= released || (end - released < 16 << 20 && upto < self.len) {
            return;
        }
        // SAFETY: a page-aligned range inside our own private read-only mapping; with
        // MADV_DONTNEED the pages are re-read from the file if touched again.
        unsafe {
            libc::madvise(
                self.ptr.cast::<u8>().add(released).cast(),
                end - released,
                libc::MADV_DONTNEED,
            );
        }
        self.released.set(end);
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: unmaps the mapping made in `of`, once; no slice of it outlives `self`.
        unsafe {
            libc::munmap(self.ptr, self.len);
        }
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}
