//! A tiny deterministic RNG (xorshift64*), so the random differential cases are
//! reproducible from a single seed without a dev-dependency.

/// xorshift64* generator. Not cryptographic; only needs to be deterministic
/// and well enough mixed to spread the generated profiles over the input space.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Creates a generator from any seed (0 included): the seed goes through
    /// splitmix64 first so that neighbouring seeds give unrelated streams.
    pub fn new(seed: u64) -> Self {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // xorshift must never hold 0.
        Rng(if z == 0 { 0x2545_f491_4f6c_dd1d } else { z })
    }

    /// A generator whose state is `state` itself (not zero), with no mixing: the fixed
    /// streams of the `cfmt_*` tests.
    pub fn from_state(state: u64) -> Self {
        assert!(state != 0, "xorshift must never hold 0");
        Rng(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`). The modulo bias is irrelevant here.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        self.next_u64() % n
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range({lo}, {hi})");
        lo + self.below((hi - lo) as u64 + 1) as i64
    }

    /// Uniform in `lo..=hi` for sizes and counts.
    pub fn usize_in(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as i64, hi as i64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// Like [`Rng::pick`], returning a copy (for slices of byte strings,
    /// where a reference to a reference confuses type inference).
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        *self.pick(items)
    }

    /// Uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 1.0 or -1.0, evenly.
    pub fn sign(&mut self) -> f64 {
        if self.next_u64() & 1 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}
