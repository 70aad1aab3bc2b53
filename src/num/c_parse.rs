//! C-style number parsing: glibc's `atoi` and `atof`, as hp2ps's `-m`, `-t`, `-e` values and
//! `.aux` numbers are read.

/// C `atoi` as glibc does it (strtol then truncated to int): skip leading C whitespace (space \t \n \v \f \r),
/// optional sign, decimal digits; junk or empty -> 0; stops at the first non-digit. Overflow: glibc atoi is
/// (int)strtol(...), strtol saturates at LONG_MIN/LONG_MAX (64-bit long) then the cast to int wraps.
pub fn c_atoi(s: &[u8]) -> i32 {
    strtol10(s) as i32
}

/// C `atof` (= strtod on the longest valid prefix, glibc semantics): leading whitespace, sign,
/// decimal with optional fraction and exponent, "inf"/"infinity"/"nan"/"nan(chars)" case-insensitive,
/// hex floats "0x1.8p3". Invalid/empty -> 0.0. Correctly rounded.
///
/// The one difference from glibc: `nan(123)` gives the default quiet NaN (with the sign of the
/// input) rather than a NaN carrying the payload 123.
pub fn c_atof(s: &[u8]) -> f64 {
    let (negative, rest) = take_sign(skip_c_space(s));
    match parse_unsigned_float(rest) {
        // strtod applies the sign last, so "-0" is -0.0 and "-nan" is a NaN with the sign bit set.
        Some(magnitude) if negative => -magnitude,
        Some(magnitude) => magnitude,
        // Nothing converted: a plain +0.0 even after a '-' ("- 7", "-x").
        None => 0.0,
    }
}

/// C `isspace` in the "C" locale; unlike `u8::is_ascii_whitespace` it includes '\v'.
fn is_c_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn skip_c_space(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| !is_c_space(c)).unwrap_or(s.len());
    &s[start..]
}

/// Strips one optional '+' or '-'; returns whether it was '-'.
fn take_sign(s: &[u8]) -> (bool, &[u8]) {
    match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    }
}

fn count_digits(s: &[u8]) -> usize {
    s.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// glibc `strtol(s, NULL, 10)` with a 64-bit `long`: saturates at the `long` limits.
fn strtol10(s: &[u8]) -> i64 {
    let (negative, rest) = take_sign(skip_c_space(s));
    let digits = &rest[..count_digits(rest)];
    // Saturating at u64::MAX keeps every overflowing input above both limits checked below;
    // `wrapping_sub` because a cut mapped file may have turned the digits to zeros since.
    let magnitude = digits.iter().fold(0u64, |acc, &c| {
        acc.saturating_mul(10)
            .saturating_add(u64::from(c.wrapping_sub(b'0')))
    });
    if negative {
        if magnitude > i64::MIN.unsigned_abs() {
            i64::MIN
        } else {
            // 2^63 itself wraps to i64::MIN, which is the right answer.
            (magnitude as i64).wrapping_neg()
        }
    } else {
        i64::try_from(magnitude).unwrap_or(i64::MAX)
    }
}

/// strtod without the leading whitespace and sign; `None` if no number starts here.
fn parse_unsigned_float(s: &[u8]) -> Option<f64> {
    if starts_with_ignore_case(s, b"inf") {
        // "infinity" or just "inf": the value is the same either way.
        return Some(f64::INFINITY);
    }
    if starts_with_ignore_case(s, b"nan") {
        return Some(f64::NAN);
    }
    if let Some(value) = strip_hex_prefix(s).and_then(parse_hex_float) {
        return Some(value);
    }
    // Also covers "0x" without hex digits, where strtod reads just the "0".
    parse_decimal_float(s)
}

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn strip_hex_prefix(s: &[u8]) -> Option<&[u8]> {
    match s {
        [b'0', b'x' | b'X', rest @ ..] => Some(rest),
        _ => None,
    }
}

/// Length of an exponent part "<marker>[+-]digits" at the start of `s` (marker matched
/// case-insensitively), or 0 if there is none: a marker without digits is not part of the number.
fn exponent_len(s: &[u8], marker: u8) -> usize {
    match s.first() {
        Some(c) if c.eq_ignore_ascii_case(&marker) => {}
        _ => return 0,
    }
    let sign_len = usize::from(matches!(s.get(1), Some(b'+' | b'-')));
    match count_digits(&s[1 + sign_len..]) {
        0 => 0,
        digits => 1 + sign_len + digits,
    }
}

/// Parses the longest decimal number at the start of `s` ("12", "1.", ".5", "1.5e-3").
fn parse_decimal_float(s: &[u8]) -> Option<f64> {
    let int_digits = count_digits(s);
    let mut len = int_digits;
    if s.get(len) == Some(&b'.') {
        let frac_digits = count_digits(&s[len + 1..]);
        if int_digits + frac_digits == 0 {
            return None; // a lone "."
        }
        len += 1 + frac_digits;
    } else if int_digits == 0 {
        return None;
    }
    len += exponent_len(&s[len..], b'e');
    // Rust's parser accepts exactly this grammar and rounds correctly (like glibc), including
    // for arbitrarily long digit strings and out-of-range exponents.
    std::str::from_utf8(&s[..len])
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
}

/// Parses a hex float after its "0x": hex digits with an optional point, then an optional
/// binary exponent "p[+-]digits". Returns `None` if there is no hex digit at all.
fn parse_hex_float(s: &[u8]) -> Option<f64> {
    // The value is (mantissa + a little if `sticky`) * 2^exp2. The mantissa keeps the first
    // 61-64 significant bits; a nonzero digit beyond that only matters as a tie breaker.
    let mut mantissa: u64 = 0;
    let mut exp2: i64 = 0;
    let mut sticky = false;
    let mut seen_digit = false;
    let mut seen_point = false;
    let mut len = 0;
    for &c in s {
        if c == b'.' && !seen_point {
            seen_point = true;
        } else if let Some(digit) = char::from(c).to_digit(16) {
            seen_digit = true;
            if mantissa >> 60 == 0 {
                // Leading zeros leave the mantissa at 0, so they cost no precision.
                mantissa = (mantissa << 4) | u64::from(digit);
                if seen_point {
                    exp2 -= 4;
                }
            } else {
                sticky |= digit != 0;
                if !seen_point {
                    exp2 += 4;
                }
            }
        } else {
            break;
        }
        len += 1;
    }
    if !seen_digit {
        return None;
    }
    let p_len = exponent_len(&s[len..], b'p');
    if p_len > 0 {
        exp2 = exp2.saturating_add(parse_exponent(&s[len + 1..len + p_len]));
    }
    Some(round_binary(mantissa, exp2, sticky))
}

/// A decimal exponent "[+-]digits", clamped far beyond the range where the result is 0 or inf.
fn parse_exponent(s: &[u8]) -> i64 {
    const LIMIT: i64 = 1 << 40;
    let (negative, digits) = take_sign(s);
    let magnitude = digits.iter().fold(0i64, |acc, &c| {
        (acc * 10 + i64::from(c.wrapping_sub(b'0'))).min(LIMIT)
    });
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// The double nearest to `(mantissa + ε) * 2^exp2`, ties to even, where ε is some amount
/// strictly between 0 and 1 if `sticky` and 0 otherwise. Handles subnormals and overflow.
fn round_binary(mantissa: u64, exp2: i64, sticky: bool) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let bits = i64::from(64 - mantissa.leading_zeros());
    let top = exp2 + bits - 1; // exponent of the leading bit
    if top > 1023 {
        return f64::INFINITY;
    }
    // Exponent of the last bit the double keeps: 53 significant bits, but nothing below 2^-1074.
    let lsb = (top - 52).max(-1074);
    let drop = lsb - exp2; // how many low bits of the mantissa do not fit
    let kept = if drop <= 0 {
        // Fits exactly (sticky is only ever set with more than 60 bits, so it is false here).
        mantissa << drop.unsigned_abs()
    } else if drop > 64 {
        // mantissa < 2^64 <= 2^(drop-1): below half the smallest subnormal, so zero.
        return 0.0;
    } else {
        let wide = u128::from(mantissa);
        let quotient = wide >> drop;
        let remainder = wide & ((1u128 << drop) - 1);
        let half = 1u128 << (drop - 1);
        let round_up = remainder > half || (remainder == half && (sticky || quotient & 1 == 1));
        // quotient <= 2^53 after rounding, so it fits.
        (quotient + u128::from(round_up)) as u64
    };
    compose_f64(kept, lsb)
}

/// Builds `m * 2^e` from `m <= 2^53` and `e >= -1074`, where `m < 2^52` only if `e == -1074`.
fn compose_f64(m: u64, e: i64) -> f64 {
    // Rounding up may have carried into a 54th bit.
    let (m, e) = if m >> 53 != 0 {
        (m >> 1, e + 1)
    } else {
        (m, e)
    };
    if m >> 52 == 0 {
        // Subnormal (or zero): the bit pattern is the mantissa itself.
        return f64::from_bits(m);
    }
    let biased = e + 1075;
    if biased > 2046 {
        return f64::INFINITY;
    }
    // 1 <= biased <= 2046 here, since e >= -1074.
    f64::from_bits(((biased as u64) << 52) | (m & ((1u64 << 52) - 1)))
}
