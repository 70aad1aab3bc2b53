//! The hashes of names: every byte ([`hash_bytes`], the one the profile's index and the
//! readers' workers agree on), or a few words ([`quick_hash`], a worker's first try;
//! [`line_hash`], the `.hp` reader's for each data line); and [`same`], the name compare
//! of every table.

use std::hash::Hasher;

/// A cheap multiplicative hash with a strong finaliser: identifiers are interned once per
/// data line, and the std SipHash is a large share of the reading time.
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    fn finish(&self) -> u64 {
        // The multiply only carries upwards, so names that differ only in their high
        // bytes (`id1234`, `id1235`, …) would share their low bits, which pick the
        // bucket: mix every bit into every other before use (murmur3's finaliser).
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// [`FxHasher`]'s hash of one byte string (as a `HashMap` key of bytes would hash it,
/// minus the length prefix).
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(bytes);
    h.finish()
}

/// A `HashMap` hasher builder for [`FxHasher`].
pub(crate) type FxBuild = std::hash::BuildHasherDefault<FxHasher>;

/// A hash of the length and at most three words of `name` (its first sixteen and last
/// eight bytes): each line's name is hashed when the order of the bands changes from one
/// sample to the next, and hashing every byte was most of the scan. Names that differ only
/// elsewhere collide; the `.hp` reader's chunk scan then falls back to hashing every byte.
#[inline(always)]
pub(crate) fn quick_hash(name: &[u8]) -> u64 {
    let (a, b, c) = words(name);
    mix_words(a, b, c, name.len())
}

/// The words [`quick_hash`] and [`line_hash`] take of `name`: its first sixteen bytes and
/// its last eight when it has sixteen or more; else its first eight and last eight (which
/// overlap), or its bytes (below eight).
#[inline(always)]
fn words(name: &[u8]) -> (u64, u64, u64) {
    let n = name.len();
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&name[i..i + 8]);
        u64::from_le_bytes(w)
    };
    if n >= 16 {
        (word(0), word(8), word(n - 8))
    } else if n >= 8 {
        (word(0), word(n - 8), 0)
    } else {
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(name);
        (u64::from_le_bytes(w), 0, 0)
    }
}

/// The mixing of [`quick_hash`]'s words.
#[inline(always)]
fn mix_words(a: u64, b: u64, c: u64, n: usize) -> u64 {
    let x = (a ^ 0x9e37_79b9_7f4a_7c15).wrapping_mul(0xbf58_476d_1ce4_e5b9)
        ^ (b ^ 0x94d0_49bb_1331_11eb).wrapping_mul(0x2545_f491_4f6c_dd1d)
        ^ (c ^ n as u64).wrapping_mul(0xff51_afd7_ed55_8ccd);
    let m = u128::from(x) * 0x9e37_79b9_7f4a_7c15_u128;
    (m as u64) ^ ((m >> 64) as u64)
}

/// The hash of a data line's name in a `.hp` reader's chunk (`read/hp/chunk/names.rs`):
/// the length and at most three words, as [`quick_hash`], mixed by one multiply (this
/// runs for every line of a long profile whose censuses list their bands in a new order
/// each time; the chunk's table compares names wherever hashes agree, and falls back to
/// hashing every byte when too many collide).
#[inline(always)]
pub(crate) fn line_hash(name: &[u8]) -> u64 {
    let (a, b, c) = words(name);
    mix_line(a, b, c, name.len())
}

/// [`line_hash`] of the name that fills the first `n` (1 to 64) bytes of `w`: below 16
/// bytes, the words are picked by masks, not jumps, since the names' lengths vary from
/// line to line.
#[inline(always)]
pub(crate) fn line_hash_window(w: &[u8; 64], n: usize) -> u64 {
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&w[i..i + 8]);
        u64::from_le_bytes(b)
    };
    // Most of GHC's names are 16 bytes or longer: a jump that is rarely taken, then
    // three words as they are.
    if n >= 16 {
        return mix_line(word(0), word(8), word(n - 8), n);
    }
    let first = word(0) & (u64::MAX >> (8 * (8 - n.min(8))));
    let tail = word(n.max(8) - 8) & 0u64.wrapping_sub(u64::from(n >= 8));
    mix_line(first, tail, 0, n)
}

/// The mixing of [`line_hash`]'s words: rotated apart, so that equal words in different
/// places do not cancel, then one multiply folded.
#[inline(always)]
fn mix_line(a: u64, b: u64, c: u64, n: usize) -> u64 {
    let x = a ^ b.rotate_left(21) ^ c.rotate_left(43) ^ (n as u64) << 56;
    let m = u128::from(x ^ 0x9e37_79b9_7f4a_7c15) * 0xbf58_476d_1ce4_e5b9_u128;
    (m as u64) ^ ((m >> 64) as u64)
}

/// Byte-string equality for short names, without a library call. Names of 16 to 48 bytes
/// (most of GHC's) take three overlapping 16-byte loads from each side and no loop: a
/// loop whose length varies from line to line costs a mispredicted branch.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let wide = |s: &[u8], i: usize| {
        let mut w = [0u8; 16];
        w.copy_from_slice(&s[i..i + 16]);
        u128::from_le_bytes(w)
    };
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    if n < 16 {
        return (word(a, 0) ^ word(b, 0)) | (word(a, n - 8) ^ word(b, n - 8)) == 0;
    }
    if n <= 48 {
        // [0, 16), [mid, mid + 16) and [n - 16, n) cover every byte when n <= 48.
        let mid = (n - 16) / 2;
        let differs = |i: usize| wide(a, i) ^ wide(b, i);
        return differs(0) | differs(mid) | differs(n - 16) == 0;
    }
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    // The last eight bytes, overlapping the words already compared.
    word(a, n - 8) == word(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::{line_hash, line_hash_window, same};

    #[test]
    fn the_window_hash_is_the_line_hash_of_the_name() {
        let mut next = crate::test_rng::xorshift(3);
        for _ in 0..20_000 {
            let mut w = [0u8; 64];
            w.iter_mut().for_each(|b| *b = next() as u8);
            for n in 1..=64 {
                assert_eq!(line_hash_window(&w, n), line_hash(&w[..n]), "{n}");
            }
        }
    }

    /// Names that differ in one byte of the words hashed, or in length only, hash apart
    /// (GHC's names often differ in a digit or share a long prefix).
    #[test]
    fn line_hashes_of_near_names_differ() {
        for n in 1..=40usize {
            let name: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            let hashed = |i: usize| i < 16 || i + 8 >= n;
            for i in (0..n).filter(|&i| hashed(i)) {
                let mut other = name.clone();
                other[i] ^= 1;
                assert_ne!(line_hash(&name), line_hash(&other), "{n} {i}");
            }
            assert_ne!(line_hash(&name), line_hash(&name[..n - 1]), "{n}");
        }
    }

    #[test]
    fn same_agrees_with_slice_equality_at_every_length_and_position() {
        for n in 0..80 {
            let a: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
            assert!(same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x40;
                assert!(!same(&a, &b), "{n} {at}");
            }
            assert!(!same(&a, &a[..n.saturating_sub(1)]) || n == 0, "{n}");
        }
    }
}
