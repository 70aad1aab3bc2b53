//! Masks of a 64-byte window at the start of a line, for the data-line fast path
//! ([`super::data_line::line_in_window`]): which bytes are at or below space (the TAB
//! and the line end among them), and which are equal to another window's (a name
//! compared with a known one). With them, a line of GHC's `name<TAB>digits` shape is
//! found without a loop whose length varies from line to line: such loops' mispredicted
//! exits were most of the scan of a long profile. (The digits are checked eight at a
//! time where they are read, `data_line.rs`: cheaper than a third mask.)
//!
//! On x86-64 the masks are SSE2's (part of every x86-64 processor, so no detection at run
//! time): sixteen bytes a compare. This is the library's only `unsafe`: the loads read
//! 16-byte parts of a `[u8; 64]` that the caller holds a reference to, so they are in
//! bounds by the type; and a prefetch ([`prefetch`]), which touches nothing. Elsewhere, a
//! loop over the bytes gives the same masks, and there is no prefetch.

/// The window's width in bytes; a line that does not end within it takes the general path.
pub(crate) const WIDTH: usize = 64;

/// Bit `k` is set when `w[k] <= b' '`.
#[inline(always)]
pub(crate) fn low_mask(w: &[u8; WIDTH]) -> u64 {
    imp::low_mask(w)
}

/// Bit `k` is set when `a[k] == b[k]`.
#[inline(always)]
pub(crate) fn equal_mask(a: &[u8; WIDTH], b: &[u8; WIDTH]) -> u64 {
    imp::equal_mask(a, b)
}

/// Asks for the cache line at `bytes[at]` to be loaded (nothing when `at` is past the
/// end): a hint, which changes no result. A prefetch never faults, so a page not yet
/// mapped is simply not loaded.
#[inline(always)]
pub(crate) fn prefetch(bytes: &[u8], at: usize) {
    if at < bytes.len() {
        imp::prefetch(bytes, at);
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod imp {
    use super::WIDTH;
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_set1_epi8,
    };

    /// The four 16-byte parts of `w`.
    #[inline(always)]
    fn parts(w: &[u8; WIDTH]) -> [__m128i; 4] {
        // SAFETY: `w` is 64 readable bytes, and each load reads 16 of them from offset
        // 0, 16, 32 or 48 (`loadu` needs no alignment). SSE2 is always there on x86-64.
        [0, 1, 2, 3].map(|k| unsafe { _mm_loadu_si128(w.as_ptr().add(16 * k).cast::<__m128i>()) })
    }

    /// The top bits of `v`'s bytes as 16 bits.
    #[inline(always)]
    fn bits(v: __m128i) -> u64 {
        // SAFETY: SSE2 is always there on x86-64; no memory is touched.
        u64::from(unsafe { _mm_movemask_epi8(v) } as u16)
    }

    #[inline(always)]
    pub(super) fn low_mask(w: &[u8; WIDTH]) -> u64 {
        let v = parts(w);
        let mut low = 0u64;
        for (k, &x) in v.iter().enumerate() {
            // SAFETY: SSE2 is always there on x86-64; no memory is touched. An unsigned
            // `x <= c` is `min(x, c) == x`.
            let at_or_below_space =
                unsafe { _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x20)), x) };
            low |= bits(at_or_below_space) << (16 * k);
        }
        low
    }

    #[inline(always)]
    pub(super) fn prefetch(bytes: &[u8], at: usize) {
        // SAFETY: a prefetch never faults; `at` is in bounds anyway.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                bytes.as_ptr().add(at).cast::<i8>(),
            )
        }
    }

    #[inline(always)]
    pub(super) fn equal_mask(a: &[u8; WIDTH], b: &[u8; WIDTH]) -> u64 {
        let (a, b) = (parts(a), parts(b));
        let mut same = 0u64;
        for k in 0..4 {
            // SAFETY: SSE2 is always there on x86-64; no memory is touched.
            same |= bits(unsafe { _mm_cmpeq_epi8(a[k], b[k]) }) << (16 * k);
        }
        same
    }
}

#[cfg(not(target_arch = "x86_64"))]
use portable as imp;

/// The masks by a loop over the bytes: the way elsewhere than x86-64, and what the tests
/// hold SSE2's to.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    use super::WIDTH;

    #[allow(dead_code)]
    pub(super) fn prefetch(_bytes: &[u8], _at: usize) {}

    pub(super) fn low_mask(w: &[u8; WIDTH]) -> u64 {
        let mut low = 0u64;
        for (k, &b) in w.iter().enumerate() {
            low |= u64::from(b <= b' ') << k;
        }
        low
    }

    pub(super) fn equal_mask(a: &[u8; WIDTH], b: &[u8; WIDTH]) -> u64 {
        let mut same = 0u64;
        for k in 0..WIDTH {
            same |= u64::from(a[k] == b[k]) << k;
        }
        same
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masks against a loop over the bytes, and the two ways against each other, for
    /// windows of every byte value.
    #[test]
    fn masks_match_a_loop_over_the_bytes() {
        let mut next = crate::test_rng::xorshift(7);
        for round in 0..20_000u32 {
            let mut w = [0u8; WIDTH];
            for (k, b) in w.iter_mut().enumerate() {
                *b = match round % 3 {
                    0 => next() as u8,
                    1 => b"09/:\t\n\r \x00\x1f\x20\x21\x7f\x80\xffa"[(next() % 16) as usize],
                    _ => (k as u32 + round) as u8,
                };
            }
            let low = low_mask(&w);
            let mut other = w;
            other[(next() % 64) as usize] ^= 1 + (next() % 255) as u8;
            let same = equal_mask(&w, &other);
            assert_eq!(low, portable::low_mask(&w));
            assert_eq!(same, portable::equal_mask(&w, &other));
            for k in 0..WIDTH {
                assert_eq!(low >> k & 1 == 1, w[k] <= b' ', "{w:?} {k}");
                assert_eq!(same >> k & 1 == 1, w[k] == other[k], "{w:?} {k}");
            }
        }
    }
}
