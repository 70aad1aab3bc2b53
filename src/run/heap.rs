//! How the C allocator hands out large blocks, set once at start-up.
//!
//! A big profile's bands are hundreds of vectors of a few hundred kilobytes each. glibc
//! maps every block above 128 KiB on its own and unmaps it when it is freed: dropping the
//! bands that trace elimination and the OTHER band take away then costs a system call
//! each (10 ms for the 200 bands of the 400 MB benchmark profile), and the next
//! allocations (the chart, the output buffers) fault in fresh pages instead of reusing
//! that memory. With blocks up to 32 MiB taken from the allocator's heaps, freed bands
//! go back to the heap, and what follows reuses them: aggregation and layout of that
//! profile take 25-34 instead of 40-49 ms.

#![allow(unsafe_code)]

/// Blocks up to this size come from the allocator's heaps (glibc's largest setting).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Free memory at the top of a heap is given back to the system only beyond this size.
/// At glibc's 128 KiB, a block of a few hundred kilobytes freed at the top of a heap is
/// given back and faulted in again by the next one (the summary of the 400 MB profile
/// took 62,000 page faults instead of 34,000); much higher (64 MiB), memory freed on one
/// thread stays while others allocate (10^6 identifiers: 296 MiB at the peak instead of
/// 241 MiB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 2 << 20;

/// Applies the settings above; a no-op where the C library is not glibc.
pub(crate) fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes glibc's allocation parameters; it is called before any
    // other thread starts, and a refusal (a 0 return) leaves the defaults.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}

/// Gives the memory freed so far back to the system: every heap's free pages, not only
/// those at its top. Called once a long profile is read and before its chart is made
/// (`render::prepare_done`): the readings' threads freed their buffers into heaps of
/// their own, which the chart's largest blocks (the edges thinning prices the samples
/// with) would otherwise be allocated beside, not in. A no-op where the C library is
/// not glibc.
pub(crate) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; what is allocated is
    // untouched, and it is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
