//! How the C allocator hands out large blocks, set once at start-up.
//!
//! A big profile's bands are hundreds of vectors of a few hundred kilobytes each. glibc
//! maps every block above 128 KiB on its own and unmaps it when it is freed: dropping the
//! bands that trace elimination and the OTHER band take away then costs a system call
//! each (10 ms for the 200 bands of the 400 MB benchmark profile), and the next
//! allocations (the chart, the output buffers) fault in fresh pages instead of reusing
//! that memory. With blocks up to 32 MiB taken from the allocator's heaps, freed bands
//! go back to the heap, and what follows reuses them: aggregation and layout of that
//! profile take 25 instead of 40 ms, and 10^6 identifiers use 232 instead of 245 MiB.

#![allow(unsafe_code)]

/// Blocks up to this size come from the allocator's heaps (glibc's largest setting).
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Free memory at the top of a heap is given back to the system only beyond this size.
/// glibc's own rule, when it raises its threshold after a large block is freed, is twice
/// the threshold; a fixed threshold leaves it at 128 KiB, and then a large block freed
/// at the top of a heap is given back and faulted in again by the next one (the
/// summary of the 400 MB profile took 62,000 page faults instead of 34,000).
const TRIM_THRESHOLD: libc::c_int = 64 << 20;

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
