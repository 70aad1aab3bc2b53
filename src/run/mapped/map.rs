//! The map itself (Linux): a read-only private map of a regular file (whole, or its first
//! bytes while it grows on), watched by a [`Guard`] while it lives.

#![allow(unsafe_code)]

use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::fault::Guard;
use crate::run::version::Version;

/// Files below this size are read with `read`: a map costs more than it saves.
const MIN_MAP: u64 = 1 << 20;

/// The fewest bytes [`Mapped::release`] gives back at once in a reading of every page:
/// each call interrupts every thread of the process to flush its address translations.
const STEP: usize = 16 << 20;

/// The same in a reading that touches a few pages of each chunk
/// ([`Mapped::read_again_sparsely`]): there a step of [`STEP`] held most of its pages.
const SPARSE_STEP: usize = 1 << 20;

/// A read-only private map of a regular file: all of it, or its first bytes.
pub(crate) struct Mapped {
    ptr: *mut libc::c_void,
    len: usize,
    /// Bytes before this offset have been given back.
    released: AtomicUsize,
    /// The fewest bytes given back at once: [`STEP`] or [`SPARSE_STEP`].
    step: AtomicUsize,
    /// Mends faults of the map; taken (ending the watch) before the map goes.
    guard: Option<Guard>,
    /// The file, to see afterwards whether it changed, and its version when mapped.
    file: File,
    mapped: Version,
    /// The whole file was mapped (else a prefix of a file that grows on).
    whole: bool,
}

impl Mapped {
    /// Maps `file` if it is a regular file large enough to be worth it; `None` otherwise
    /// (the caller reads it as a stream).
    pub(crate) fn of(file: &File) -> Option<Mapped> {
        let meta = file.metadata().ok()?;
        Mapped::first(file, meta.len(), true)
    }

    /// Maps the first `len` bytes of `file`, a regular file that another thread or
    /// program appends to meanwhile (a run's record: `--serve`'s whole run), if it holds
    /// them and they are worth mapping; `None` otherwise (the caller reads them as a
    /// stream). Growth past them is no change ([`Mapped::changed_while_read`]).
    pub(crate) fn prefix(file: &File, len: u64) -> Option<Mapped> {
        Mapped::first(file, len, false)
    }

    /// The map of `file`'s first `len` bytes, the whole file (`whole`: the file may not
    /// change at all while read) or a prefix of one that grows (it may grow).
    fn first(file: &File, len: u64, whole: bool) -> Option<Mapped> {
        if !super::may_map() {
            return None;
        }
        let file = file.try_clone().ok()?;
        let meta = file.metadata().ok()?;
        if !meta.is_file() || len < MIN_MAP || meta.len() < len {
            return None;
        }
        let len = usize::try_from(len).ok()?;
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
        let Some(guard) = Guard::watch(ptr.cast::<u8>(), len) else {
            // Unguarded, a cut file would kill the process: read it as a stream instead.
            // SAFETY: unmaps the mapping just made, which nothing else has seen.
            unsafe {
                libc::munmap(ptr, len);
            }
            return None;
        };
        // SAFETY: advice on our own mapping; failure is harmless.
        unsafe {
            libc::madvise(ptr, len, libc::MADV_SEQUENTIAL);
        }
        Some(Mapped {
            ptr,
            len,
            released: AtomicUsize::new(0),
            step: AtomicUsize::new(STEP),
            guard: Some(guard),
            file,
            mapped: Version::of(&meta),
            whole,
        })
    }

    /// The file's bytes: as the file holds them, or zeros from where a page faulted (see
    /// [`Mapped::changed_while_read`]).
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: the mapping is `len` readable bytes and lives as long as `self`. Pages
        // dropped by `release` read back from the file when touched again; a page past
        // the end of a file cut meanwhile reads as zeros (the guard maps them).
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.len) }
    }

    /// Drops the pages wholly before `upto` from memory (they are not needed again).
    pub(crate) fn release(&self, upto: usize) {
        let page = page_size();
        let end = (upto.min(self.len) / page) * page;
        let released = self.released.load(Ordering::Relaxed);
        let step = self.step.load(Ordering::Relaxed);
        if end <= released || (end - released < step && upto < self.len) {
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
        self.released.store(end, Ordering::Relaxed);
    }

    /// Starts the dropping of pages again from the file's start, for a second reading
    /// (every page was dropped after the first, and those read again are dropped anew).
    pub(crate) fn read_again(&self) {
        self.released.store(0, Ordering::Relaxed);
        self.step.store(STEP, Ordering::Relaxed);
    }

    /// [`Mapped::read_again`], for a reading that touches only a few pages of each chunk
    /// (one that replays a recording of the first's scans: the names at a chunk's start,
    /// the line end that closes it): its pages are given back a chunk at a time. Each
    /// page touched maps the whole folio of the page cache that holds it (up to 2 MiB
    /// on Linux 6.18, ext4), so a 16 MiB step held 8 to 16 MB of a 1.6 GB profile's
    /// pages through that reading, and the calls are few (a few touches a chunk).
    pub(crate) fn read_again_sparsely(&self) {
        self.released.store(0, Ordering::Relaxed);
        self.step.store(SPARSE_STEP, Ordering::Relaxed);
    }

    /// Whether the bytes read may not be one version of the file: a page faulted (the
    /// file was cut below it, and it read as zeros), or the file is now shorter than it
    /// was when mapped (the page holding its new end reads as zeros past it, without a
    /// fault), or, when the read failed, the file changed at all (the failure may be the
    /// change's). A file that only grew was read as it was: its first bytes, as appended
    /// to by a running program. A prefix ([`Mapped::prefix`]) is of a file that grows:
    /// it changed only when faulted or cut below its end.
    pub(crate) fn changed_while_read(&self, read_failed: bool) -> bool {
        if self.guard.as_ref().is_some_and(Guard::faulted) {
            return true;
        }
        let Ok(meta) = self.file.metadata() else {
            return true;
        };
        let now = Version::of(&meta);
        now.len < self.len as u64 || (read_failed && self.whole && now != self.mapped)
    }
}

// SAFETY: the map is read-only and lives until `drop`, which needs `&mut self`; the only
// state changed through `&self` is `released` and `step`, atomics, and the pages `release` gives
// back read again from the file if touched (by any thread). So the map may be read from,
// and moved to, any thread: the program binary's map is shared by a batch's renders.
unsafe impl Send for Mapped {}
// SAFETY: as for `Send`.
unsafe impl Sync for Mapped {}

impl Drop for Mapped {
    fn drop(&mut self) {
        // The watch ends before the pages go: their addresses may be mapped again.
        self.guard.take();
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

/// How many of the pages of `bytes` are in this process's page tables
/// (`/proc/self/pagemap`: bit 63 of each page's entry).
#[cfg(test)]
pub(crate) fn pages_present(bytes: &[u8]) -> usize {
    use std::os::unix::fs::FileExt;
    let page = page_size();
    let first = bytes.as_ptr() as usize / page;
    let pages = bytes.len() / page;
    let mut entries = vec![0u8; pages * 8];
    let pagemap = File::open("/proc/self/pagemap").expect("pagemap");
    (pagemap.read_exact_at(&mut entries, (first * 8) as u64)).expect("read pagemap");
    (entries.chunks_exact(8))
        .filter(|e| u64::from_le_bytes((*e).try_into().unwrap()) >> 63 == 1)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scratch(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hp2ps-map-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    /// A file of `len` bytes, `b'x'` each, and a map of it.
    fn mapped_file(dir: &std::path::Path, len: usize) -> (File, Mapped) {
        let path = dir.join("t.hp");
        std::fs::write(&path, vec![b'x'; len]).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let map = Mapped::of(&file).expect("a large regular file is mapped");
        (file, map)
    }

    #[test]
    fn a_file_cut_while_mapped_reads_as_zeros_past_its_end_and_says_so() {
        let dir = scratch("cut");
        let len = 4 << 20;
        let (file, map) = mapped_file(&dir, len);
        assert_eq!(map.bytes()[..4096], [b'x'; 4096]);
        assert!(!map.changed_while_read(false));
        file.set_len(1 << 20).unwrap();
        // Without the guard, this loop dies of SIGBUS at the first page past 1 MiB.
        let xs = map.bytes().iter().filter(|&&b| b == b'x').count();
        let zeros = map.bytes().iter().filter(|&&b| b == 0).count();
        assert_eq!(xs, 1 << 20);
        assert_eq!(zeros, len - (1 << 20));
        assert!(map.changed_while_read(false));
        drop(map);
        // The slot is free again: the next map starts unfaulted.
        let (_file, again) = mapped_file(&dir, len);
        assert!(!again.changed_while_read(false));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_cut_to_the_middle_of_a_page_is_changed_without_a_fault() {
        let dir = scratch("mid-page");
        let (file, map) = mapped_file(&dir, 2 << 20);
        // Cut after the whole file was read: no page faults, but it is shorter now.
        let sum: u64 = map.bytes().iter().map(|&b| u64::from(b)).sum();
        assert_eq!(sum, u64::from(b'x') * (2 << 20));
        file.set_len((1 << 20) + 100).unwrap();
        assert!(map.changed_while_read(false));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_that_only_grows_was_read_as_it_was() {
        let dir = scratch("grown");
        let (_file, map) = mapped_file(&dir, 2 << 20);
        std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join("t.hp"))
            .and_then(|mut f| f.write_all(b"appended"))
            .unwrap();
        let _ = map.bytes().iter().map(|&b| u64::from(b)).sum::<u64>();
        assert!(!map.changed_while_read(false), "growth after a good read");
        assert!(
            map.changed_while_read(true),
            "growth explains a failed read"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_prefix_is_the_files_first_bytes_and_growth_past_it_is_no_change() {
        let dir = scratch("prefix");
        let path = dir.join("t.hp");
        let len = (3 << 20) + 5;
        let bytes: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let end = (2 << 20) + 7;
        let map = Mapped::prefix(&file, end as u64).expect("a prefix is mapped");
        assert!(map.bytes() == &bytes[..end], "exactly the first bytes");
        // The file grows on, as a run's record does: even a failed read of the prefix
        // is no change of it (a whole file's would be: see `a_file_that_only_grows_…`).
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"more of the run"))
            .unwrap();
        assert!(!map.changed_while_read(false));
        assert!(
            !map.changed_while_read(true),
            "a prefix of a file that grew"
        );
        // Cut past the prefix's end: still no change of it.
        file.set_len(end as u64 + 1).unwrap();
        assert!(!map.changed_while_read(true));
        // Cut below it: changed, and the cut pages read as zeros, guarded.
        file.set_len(1 << 20).unwrap();
        assert!(map.changed_while_read(false));
        assert!(map.bytes()[(1 << 20) + 4096..].iter().all(|&b| b == 0));
        assert!(map.bytes()[..1 << 20] == bytes[..1 << 20]);
        drop(map);
        // A prefix the file does not hold, or one too small to be worth a map, is not
        // mapped (read as a stream).
        assert!(Mapped::prefix(&file, (1 << 20) + 1).is_none());
        assert!(Mapped::prefix(&file, 1000).is_none());
        assert!(Mapped::prefix(&file, 1 << 20).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_sparse_reading_gives_its_pages_back_a_chunk_at_a_time() {
        let dir = scratch("sparse");
        let (_file, map) = mapped_file(&dir, 8 << 20);
        let mb = (1 << 20) / page_size();
        let touch = |map: &Mapped| {
            map.bytes()
                .iter()
                .step_by(512)
                .map(|&b| b as u64)
                .sum::<u64>()
        };
        assert!(touch(&map) > 0);
        assert_eq!(pages_present(&map.bytes()[..2 << 20]), 2 * mb);
        // A reading of every page gives them back 16 MiB at a time (or at the end).
        map.read_again();
        map.release(2 << 20);
        assert_eq!(pages_present(&map.bytes()[..2 << 20]), 2 * mb);
        // A sparse one as soon as a chunk is read, and from the start again.
        map.read_again_sparsely();
        map.release(1 << 20);
        assert_eq!(pages_present(&map.bytes()[..1 << 20]), 0);
        // (The next MiB may have gone too: a 2 MiB folio of the page cache may be mapped
        // whole, and unmapped whole; it is read again from the cache if touched.)
        map.release(2 << 20);
        assert_eq!(pages_present(&map.bytes()[..2 << 20]), 0);
        // The next reading of every page is back to the long step.
        assert!(touch(&map) > 0);
        map.read_again();
        map.release(4 << 20);
        assert_eq!(pages_present(&map.bytes()[..4 << 20]), 4 * mb);
        map.release(8 << 20);
        assert_eq!(pages_present(map.bytes()), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn many_maps_are_guarded_at_once() {
        let dir = scratch("many");
        let maps: Vec<(File, Mapped)> = (0..8)
            .map(|i| {
                let sub = dir.join(i.to_string());
                std::fs::create_dir_all(&sub).unwrap();
                mapped_file(&sub, 1 << 20)
            })
            .collect();
        // Cut the last one: only it faults.
        let (file, map) = &maps[7];
        file.set_len(0).unwrap();
        assert!(map.bytes().iter().all(|&b| b == 0));
        let faulted: Vec<bool> = maps
            .iter()
            .map(|(_, m)| m.changed_while_read(false))
            .collect();
        assert_eq!(
            faulted,
            [false, false, false, false, false, false, false, true]
        );
        drop(maps);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
