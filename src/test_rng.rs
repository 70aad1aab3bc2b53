//! The unit tests' source of random inputs: a xorshift generator, so that they need no
//! extra dependency and every run sees the same inputs.

/// The xorshift64 sequence (shifts 13, 7, 17) after `seed`, which must not be 0.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
