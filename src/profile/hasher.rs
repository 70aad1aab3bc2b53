//! The hash of the identifier index.

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
