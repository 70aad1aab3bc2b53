//! Neighbouring doubles, by their bit patterns, for the `cfmt_*` tests' ties and their
//! neighbours.

/// `x`'s neighbour one unit in the last place further from zero (the next double above
/// a positive `x`).
pub fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

/// `x`'s neighbour one unit in the last place nearer to zero (`x` not zero).
pub fn next_down(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}
