//! The values of `.hp` number tokens, as hp2ps reads them with C's `atof`, and how long
//! a token may be (the `.hp` and `.aux` readers share the limit).

/// hp2ps splits numbers after 32 characters; we refuse longer ones instead of misreading
/// them (a 33-digit heap size is not real data).
pub(crate) const MAX_NUMBER_LEN: usize = 32;

/// The value of an integer token (digits only), as C's `atof` reads it.
pub fn integer_value(digits: &[u8]) -> f64 {
    if digits.len() <= 19 {
        // Exact in u64; `as f64` rounds to nearest-even like strtod.
        digits
            .iter()
            .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0')) as f64
    } else {
        std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(f64::INFINITY)
    }
}

/// The value of a number token with a dot, as C's `atof` reads it: the longest prefix of
/// the form `digits[.digits]` (`1.2.3` is 1.2, `1.` is 1.0).
pub fn float_value(text: &[u8]) -> f64 {
    let int_end = text
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(text.len());
    let mut end = int_end;
    if text.get(int_end) == Some(&b'.') {
        end = int_end
            + 1
            + text[int_end + 1..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(text.len() - int_end - 1);
    }
    let prefix = &text[..end];
    let prefix = prefix.strip_suffix(b".").unwrap_or(prefix);
    std::str::from_utf8(prefix)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0)
}
