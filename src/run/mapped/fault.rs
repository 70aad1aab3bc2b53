//! SIGBUS from our maps, made harmless.
//!
//! Reading a mapped page that lies wholly past the end of its file (another program cut
//! the file while we read it: GHC truncates `prog.hp` when the program starts again)
//! raises SIGBUS in the thread that read it. The handler here looks the address up among
//! the maps being read ([`Guard`]); when it is in one, it maps zeros over the rest of that
//! map, from the faulting page to its end, notes the fault, and returns: the read is done
//! again and finds zeros, and so does every later read of those pages, without another
//! signal. The reader then sees a damaged file, and the caller, asking
//! [`Guard::faulted`], says that the file changed.
//!
//! A SIGBUS anywhere else is none of ours: the handler puts the previous disposition back
//! and returns, so the fault happens again and is handled as if this module were not
//! there (the default kills the process; Rust's runtime reports a stack overflow).
//!
//! The handler only loads atomics and calls `mmap` and `sigaction`, both plain system
//! calls on Linux (POSIX lists `sigaction` as async-signal-safe; `mmap` is not on its
//! list, but glibc's is the bare system call, as JVMs and sanitizers rely on too).

#![allow(unsafe_code)]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::OnceLock;

/// How many maps may be guarded at once: batch mode reads up to `-j` files at a time.
/// A map beyond this is not made (the file is read as a stream).
const SLOTS: usize = 64;

/// One guarded map: its start and length (0 when the slot is free), and whether a page of
/// it faulted.
struct Slot {
    start: AtomicUsize,
    len: AtomicUsize,
    faulted: AtomicBool,
}

static GUARDED: [Slot; SLOTS] = [const {
    Slot {
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    }
}; SLOTS];

/// The page size, read once before the handler is installed.
static PAGE: AtomicUsize = AtomicUsize::new(0);

/// SIGBUS's disposition before ours, put back for faults that are not ours.
static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

/// Whether the handler is in place (installed on first use, once per process).
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// A map being read, whose faults the handler mends. Dropping it ends the watch: drop it
/// before unmapping.
pub(super) struct Guard {
    slot: &'static Slot,
}

impl Guard {
    /// Watches the `len` bytes mapped at `start` (page-aligned, as `mmap` gives them).
    /// `None` when the handler cannot be installed or every slot is taken: then the map
    /// must not be used.
    pub(super) fn watch(start: *const u8, len: usize) -> Option<Guard> {
        if !*INSTALLED.get_or_init(install) || start.is_null() || len == 0 {
            return None;
        }
        let start = start as usize;
        let slot = GUARDED.iter().find(|slot| {
            slot.start
                .compare_exchange(0, start, SeqCst, SeqCst)
                .is_ok()
        })?;
        slot.faulted.store(false, SeqCst);
        slot.len.store(len, SeqCst);
        Some(Guard { slot })
    }

    /// Whether a page of the map faulted, and now holds zeros instead of the file.
    pub(super) fn faulted(&self) -> bool {
        self.slot.faulted.load(SeqCst)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.slot.len.store(0, SeqCst);
        self.slot.faulted.store(false, SeqCst);
        self.slot.start.store(0, SeqCst);
    }
}

/// Installs the handler; false when the system refuses.
fn install() -> bool {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let Some(page) = usize::try_from(page).ok().filter(|p| p.is_power_of_two()) else {
        return false;
    };
    PAGE.store(page, SeqCst);
    // SAFETY: a zeroed sigaction is a valid value (no handler, empty mask, no flags); the
    // fields are then set, and sigaction reads `action` and writes `previous`, both ours.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        let mut previous: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGBUS, &action, &mut previous) != 0 {
            return false;
        }
        let _ = PREVIOUS.set(previous);
    }
    true
}

/// The SIGBUS handler: see the module doc.
extern "C" fn on_sigbus(
    _signal: libc::c_int,
    info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t; for SIGBUS, si_addr is
    // the faulting address.
    let addr = unsafe { (*info).si_addr() } as usize;
    if mend(addr) {
        return;
    }
    // SAFETY: puts back the disposition saved at installation (or the default), which
    // sigaction copies; the fault then repeats under it.
    unsafe {
        match PREVIOUS.get() {
            Some(previous) => libc::sigaction(libc::SIGBUS, previous, std::ptr::null_mut()),
            None => {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
                0
            }
        };
    }
}

/// Maps zeros from the page of `addr` to the end of the guarded map holding it; false
/// when no guarded map holds it, or the zeros could not be mapped.
fn mend(addr: usize) -> bool {
    let page = PAGE.load(SeqCst);
    for slot in &GUARDED {
        let (start, len) = (slot.start.load(SeqCst), slot.len.load(SeqCst));
        if start == 0 || len == 0 || addr < start || addr - start >= len {
            continue;
        }
        let from = addr & !(page - 1);
        let end = (start + len).next_multiple_of(page);
        // SAFETY: [from, end) lies inside the guarded map (whole pages: the map's last page
        // is whole too), which stays mapped while it is guarded; MAP_FIXED replaces those
        // pages with fresh zero pages, readable as before.
        let zeros = unsafe {
            libc::mmap(
                from as *mut libc::c_void,
                end - from,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if zeros == libc::MAP_FAILED {
            return false;
        }
        slot.faulted.store(true, SeqCst);
        return true;
    }
    false
}
