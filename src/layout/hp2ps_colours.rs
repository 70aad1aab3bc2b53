//! hp2ps's shades: its grey palette, its colour palette (shades that pack red, green and
//! blue), the named palettes' slots, and the colour a colour shade is.

/// Grey levels for monochrome output, handed out in this order and cycled.
pub(crate) const MONO_PALETTE: [f64; 10] = [0.0, 0.2, 0.6, 0.3, 0.9, 0.4, 1.0, 0.7, 0.5, 0.8];

/// The shades a named palette's bands take without `-c`: the hundredths 0.00 to 0.99,
/// which the `.aux` keeps exactly (two decimals), so that `-p` gives each band its slot
/// again, and a chart has 100 slots before two bands share one. (Each is `i / 100`: the
/// nearest double to the decimal, as reading "0.07" gives.)
pub(crate) const SLOT_SHADES: [f64; 100] = {
    let mut shades = [0.0; 100];
    let mut i = 0;
    while i < 100 {
        shades[i] = i as f64 / 100.0;
        i += 1;
    }
    shades
};

/// Colour shades: each packs red, green and blue as decimal digit pairs (see [`rgb`]).
pub(crate) const COLOUR_PALETTE: [f64; 27] = [
    0.000000, 0.000010, 0.001000, 0.001010, 0.100000, 0.100010, 0.101000, 0.101010, 0.000005,
    0.000500, 0.000510, 0.001005, 0.050000, 0.050010, 0.051000, 0.051010, 0.100005, 0.100500,
    0.100510, 0.101005, 0.000505, 0.050005, 0.050500, 0.050510, 0.051005, 0.100505, 0.050505,
];

/// The colour hp2ps emits for a shade. Computed from the shade rather than looked up,
/// because shades read back from an `.aux` file go through the same arithmetic; this is
/// also why palette entry 15 comes out as (0.5, 0.9, 0): 0.051 × 10000 truncates to 509.
/// Components can exceed 1 (a grey of 0.2 gives red 2.0); painters clamp.
pub(crate) fn rgb(shade: f64) -> [f64; 3] {
    [100.0, 10000.0, 1000000.0].map(|factor| {
        let q = c_trunc_to_int(shade * factor);
        (q % 100) as f64 / 10.0
    })
}

/// C's conversion of a double to `int` (truncation); out-of-range values become
/// `INT_MIN`, as on x86.
fn c_trunc_to_int(x: f64) -> i32 {
    if x.is_finite() && x > -2147483649.0 && x < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}
