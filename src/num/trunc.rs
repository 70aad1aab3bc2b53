//! C's conversions of a double to an integer type, where hp2ps relies on them.

/// C's conversion of a double to int64: truncation, with everything out of range (and
/// NaN) becoming INT64_MIN as on x86.
pub fn c_trunc_i64(x: f64) -> i64 {
    // ±2^63: the range of int64.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if (-LIMIT..LIMIT).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}
