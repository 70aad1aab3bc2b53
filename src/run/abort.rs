//! The SIGABRT handler that removes the run's temporary files ([`super::cleanup`]'s list,
//! which hands it what to do) when it aborts: Rust's end when an allocation fails
//! (`memory allocation of N bytes failed`), or any other abort. It runs inside the signal
//! handler, so it may only do what is safe there: the list's lock (atomics), a path
//! copied onto the stack, and `unlink`. Registering a handler and `unlink` are the system
//! calls std does not make safe here, hence this module's `unsafe`.

#![allow(unsafe_code)]

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Registers `on_abort` as the handler for SIGABRT: it must be async-signal-safe (the
/// cleanup's removal of every listed file it can, with [`unlink`]).
pub(super) fn watch(on_abort: fn()) -> Result<(), String> {
    // SAFETY: `on_abort` is async-signal-safe: atomics (the list's lock), stack copies
    // and unlink; it allocates nothing and waits for no lock forever.
    unsafe { signal_hook::low_level::register(signal_hook::consts::SIGABRT, on_abort) }
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `unlink(path)` without allocating: the path is copied onto the stack with its NUL (a
/// path longer than the buffer stays).
pub(super) fn unlink(path: &Path) {
    let mut buf = [0u8; 4096];
    let bytes = path.as_os_str().as_bytes();
    if bytes.len() < buf.len() && !bytes.contains(&0) {
        buf[..bytes.len()].copy_from_slice(bytes);
        // SAFETY: `buf` holds the path and its NUL; unlink is async-signal-safe.
        unsafe {
            libc::unlink(buf.as_ptr().cast());
        }
    }
}
