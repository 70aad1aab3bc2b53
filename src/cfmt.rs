//! C-compatible number formatting and C-style number parsing.
//!
//! hp2ps's PostScript has to be byte-identical to what the C original prints through glibc's
//! `printf("%f")`, `"%.1f"`, `"%.2f"` and `"%d"`, and it has to read numbers the way glibc's
//! `atoi` and `atof` do. Rust's own formatting differs in the places that matter (`{}` prints
//! the shortest round-trip digits, not the exact decimal value; NaN is spelled `NaN`, and the
//! sign of a NaN is dropped), so every number the program prints or reads goes through here.
//!
//! Formatting coordinates is the hot path, so [`push_f6`] and [`push_fixed`] with small
//! precisions use exact integer arithmetic on the binary value and never allocate.

/// Powers of ten that fit in a `u64`; `10^19` is the last one.
const POW10: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// The largest precision the exact fast path handles: the scale `10^prec` must fit in a `u64`
/// so that `mantissa * 10^prec` (below `2^53 * 10^19 < 2^117`) fits in a `u128`.
const FAST_MAX_PREC: usize = POW10.len() - 1;

/// `"00" "01" … "99"`: writing two digits per division halves the number of divisions.
const DIGIT_PAIRS: [u8; 200] = {
    let mut table = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        table[2 * i] = b'0' + (i / 10) as u8;
        table[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    table
};

/// Appends `x` as C's `printf("%.*f", prec, x)` would print it with glibc
/// (exact decimal value of the double, rounded half-to-even on the exact binary value;
/// "-0.000000" for negative zero and for negative values that round to zero; "nan"/"-nan", "inf"/"-inf").
pub fn push_fixed(out: &mut Vec<u8>, x: f64, prec: usize) {
    push_fixed_inline(out, x, prec);
}

/// [`push_fixed`] into a new String, for the places that are not hot.
pub fn fixed(x: f64, prec: usize) -> String {
    let mut buf = Vec::with_capacity(24);
    push_fixed(&mut buf, x, prec);
    ascii_to_string(buf)
}

/// C's `printf("%f", x)`: [`push_fixed`] with 6 decimals. Every coordinate goes through this,
/// so it is the hot path: no allocation, no `format!`, a few integer operations for ordinary values.
pub fn push_f6(out: &mut Vec<u8>, x: f64) {
    // A separate inlined copy with the precision as a constant, so that the divisions by 10^6
    // become multiplications.
    push_fixed_inline(out, x, 6);
}

/// hp2ps's thousands-separated integer printing: if n < 1000 print n as a C 32-bit `%d`
/// (i.e. the value truncated to i32 with wrap-around: `n as i32`) — negative numbers always land
/// here unchanged; otherwise print n / 1000 recursively, then ',' then n % 1000 as exactly three digits
/// with leading zeros. Examples: 0 -> "0", 999 -> "999", 1000 -> "1,000", 1485709 -> "1,485,709",
/// 6500000500 -> "6,500,000,500", -5 -> "-5", i64::MIN -> "0" (because (i64::MIN as i32) == 0).
pub fn push_thousands(out: &mut Vec<u8>, n: i64) {
    if n < 1000 {
        // The C original hands the value to `printf("%d")`, which reads it as an `int`.
        push_i32(out, n as i32);
    } else {
        push_thousands(out, n / 1000);
        out.push(b',');
        // n > 0 here, so the remainder is in 0..1000.
        push_padded(out, (n % 1000).unsigned_abs(), 3);
    }
}

/// The same as [`push_thousands`], as a String.
pub fn thousands(n: i64) -> String {
    let mut buf = Vec::with_capacity(16);
    push_thousands(&mut buf, n);
    ascii_to_string(buf)
}

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

// ---------------------------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------------------------

/// `|x|` rounded to `prec` decimals, split at the decimal point.
struct FixedParts {
    int: u128,
    /// The `prec` fractional digits as an integer; always 0 when `prec > FAST_MAX_PREC`.
    frac: u64,
}

#[inline(always)]
fn push_fixed_inline(out: &mut Vec<u8>, x: f64, prec: usize) {
    if !x.is_finite() {
        push_non_finite(out, x);
        return;
    }
    match split_fixed(x.abs(), prec) {
        // glibc prints the sign whenever the sign bit is set, even if the digits are all zero.
        Some(parts) => push_parts(out, x.is_sign_negative(), &parts, prec),
        None => push_fixed_slow(out, x, prec),
    }
}

/// glibc's spellings; Rust would print "NaN" and lose the sign of a NaN.
fn push_non_finite(out: &mut Vec<u8>, x: f64) {
    let text: &[u8] = match (x.is_nan(), x.is_sign_negative()) {
        (true, false) => b"nan",
        (true, true) => b"-nan",
        (false, false) => b"inf",
        (false, true) => b"-inf",
    };
    out.extend_from_slice(text);
}

/// Splits a finite, non-negative `a` as `printf` rounds it, or returns `None` when the value is
/// outside what exact `u128` arithmetic covers (integers of 2^128 and above, or a fractional
/// value with more than [`FAST_MAX_PREC`] decimals requested).
#[inline(always)]
fn split_fixed(a: f64, prec: usize) -> Option<FixedParts> {
    let (mantissa, exp) = decompose(a);
    if exp >= 0 {
        // An integer: no rounding, every decimal is zero. The mantissa has at most 53 bits, so
        // shifting by up to 75 stays below 2^128.
        if exp > 75 {
            return None;
        }
        return Some(FixedParts {
            int: u128::from(mantissa) << exp,
            frac: 0,
        });
    }
    if prec > FAST_MAX_PREC {
        return None;
    }
    // |x| * 10^prec = mantissa * 10^prec / 2^shift exactly; round that quotient to an integer.
    let scale = POW10[prec];
    let shift = exp.unsigned_abs();
    let scaled = round_shift_half_even(u128::from(mantissa) * u128::from(scale), shift);
    // Dividing a u64 is much cheaper than dividing a u128, and covers everything below ~1.8e13
    // at six decimals.
    Some(match u64::try_from(scaled) {
        Ok(n) => FixedParts {
            int: u128::from(n / scale),
            frac: n % scale,
        },
        Err(_) => FixedParts {
            int: scaled / u128::from(scale),
            // The remainder is below 10^prec <= 10^19, so it fits.
            frac: (scaled % u128::from(scale)) as u64,
        },
    })
}

/// `q / 2^shift` rounded to the nearest integer, ties to even — glibc's rounding of the exact
/// binary value in the default rounding mode. Requires `q < 2^127` and `shift >= 1`.
#[inline(always)]
fn round_shift_half_even(q: u128, shift: u32) -> u128 {
    if shift >= 128 {
        // q < 2^127 <= 2^(shift-1): strictly below one half, so it rounds to zero.
        return 0;
    }
    let quotient = q >> shift;
    let remainder = q & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    // Non-short-circuit operators: on real data this condition is a coin flip, so a branch
    // would be mispredicted half of the time.
    let round_up = (remainder > half) | ((remainder == half) & (quotient & 1 == 1));
    quotient + u128::from(round_up)
}

/// Splits a finite, non-negative double into `(m, e)` with value `m * 2^e` and `m < 2^53`.
#[inline(always)]
fn decompose(a: f64) -> (u64, i32) {
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        // Zero and subnormals: no implicit leading bit, fixed exponent.
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    }
}

/// Room for a sign, the 39 digits of a u128, the point and 19 decimals.
const FAST_BUF_LEN: usize = 64;

/// Writes the number right to left into one stack buffer, then appends it in one go: the
/// digits of an integer come out least significant first.
#[inline(always)]
fn push_parts(out: &mut Vec<u8>, negative: bool, parts: &FixedParts, prec: usize) {
    if prec > FAST_MAX_PREC {
        push_parts_long(out, negative, parts, prec);
        return;
    }
    let mut buf = [0u8; FAST_BUF_LEN];
    let mut pos = buf.len();
    // Like C, "%.0f" has no decimal point.
    if prec > 0 {
        pos -= prec;
        write_padded(&mut buf[pos..], parts.frac);
        pos -= 1;
        buf[pos] = b'.';
    }
    pos = write_u128_backward(&mut buf, pos, parts.int);
    if negative {
        pos -= 1;
        buf[pos] = b'-';
    }
    out.extend_from_slice(&buf[pos..]);
}

/// Integers printed with more decimals than the buffer holds: the decimals are all zero.
#[cold]
fn push_parts_long(out: &mut Vec<u8>, negative: bool, parts: &FixedParts, prec: usize) {
    push_parts(out, negative, parts, 0);
    out.push(b'.');
    out.resize(out.len() + prec, b'0');
}

/// Values the fast path does not cover. Rust's precision formatting prints the exact decimal
/// value of finite doubles, like glibc (the printf comparison tests check this).
#[cold]
fn push_fixed_slow(out: &mut Vec<u8>, x: f64, prec: usize) {
    out.extend_from_slice(format!("{x:.prec$}").as_bytes());
}

/// Writes the digits of `n` so that they end just before `buf[end]`; returns where they start.
fn write_u128_backward(buf: &mut [u8], end: usize, n: u128) -> usize {
    match u64::try_from(n) {
        Ok(small) => write_digits_backward(buf, end, small),
        Err(_) => {
            // Peel off the low 19 digits; the rest is below 2^128 / 10^19 < 2^65, so this
            // recurses at most twice.
            let base = u128::from(POW10[FAST_MAX_PREC]);
            let start = end - FAST_MAX_PREC;
            // The remainder is below 10^19, so it fits.
            write_padded(&mut buf[start..end], (n % base) as u64);
            write_u128_backward(buf, start, n / base)
        }
    }
}

fn push_i32(out: &mut Vec<u8>, n: i32) {
    if n < 0 {
        out.push(b'-');
    }
    // unsigned_abs: i32::MIN has no positive i32 counterpart.
    push_u64(out, u64::from(n.unsigned_abs()));
}

/// Writes the decimal digits of `n` (no padding).
fn push_u64(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20]; // every u64 has at most 20 digits
    let start = write_digits_backward(&mut buf, 20, n);
    out.extend_from_slice(&buf[start..]);
}

/// Writes `n` as exactly `width` digits with leading zeros; requires `n < 10^width`.
fn push_padded(out: &mut Vec<u8>, n: u64, width: usize) {
    let mut buf = [0u8; 20];
    write_padded(&mut buf[..width], n);
    out.extend_from_slice(&buf[..width]);
}

/// Fills `dst` with the last `dst.len()` digits of `n`, zero-padded on the left.
#[inline(always)]
fn write_padded(dst: &mut [u8], mut n: u64) {
    let mut pos = dst.len();
    while pos >= 2 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        pos -= 2;
        dst[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if pos == 1 {
        dst[0] = b'0' + (n % 10) as u8;
    }
}

/// Writes the digits of `n` (a single "0" for zero) so that they end just before `buf[end]`;
/// returns where they start.
#[inline(always)]
fn write_digits_backward(buf: &mut [u8], end: usize, mut n: u64) -> usize {
    let mut pos = end;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        pos -= 2;
        buf[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        pos -= 2;
        buf[pos..pos + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        pos -= 1;
        buf[pos] = b'0' + n as u8;
    }
    pos
}

/// Everything this module writes is ASCII, so each byte is its own char.
fn ascii_to_string(bytes: Vec<u8>) -> String {
    bytes.into_iter().map(char::from).collect()
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

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
    // Saturating at u64::MAX keeps every overflowing input above both limits checked below.
    let magnitude = digits.iter().fold(0u64, |acc, &c| {
        acc.saturating_mul(10).saturating_add(u64::from(c - b'0'))
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
    let magnitude = digits
        .iter()
        .fold(0i64, |acc, &c| (acc * 10 + i64::from(c - b'0')).min(LIMIT));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny xorshift64* generator so the tests need no extra dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    #[test]
    fn fixed_basic_values() {
        let cases: &[(f64, usize, &str)] = &[
            (0.0, 6, "0.000000"),
            (-0.0, 6, "-0.000000"),
            (-0.0, 0, "-0"),
            (1.0, 0, "1"),
            (0.5, 0, "0"),
            (1.5, 0, "2"),
            (2.5, 0, "2"),
            (0.25, 1, "0.2"),
            (0.35, 1, "0.3"), // 0.35 is really 0.34999999999999997779...
            (0.125, 2, "0.12"),
            (0.375, 2, "0.38"),
            (-1e-7, 6, "-0.000000"),
            (5e-7, 6, "0.000000"), // 5e-7 is really 4.99999999999999977e-7
            (0.0078125, 6, "0.007812"),
            (0.0234375, 6, "0.023438"),
            (123.456, 6, "123.456000"),
            (-72.5, 1, "-72.5"),
            (999_999.999_999_5, 6, "999999.999999"), // really ...9994999962
            (1e15, 2, "1000000000000000.00"),
            (9_007_199_254_740_992.0, 1, "9007199254740992.0"),
            (1e22, 1, "10000000000000000000000.0"),
            (0.1, 20, "0.10000000000000000555"),
            (1.0, 25, "1.0000000000000000000000000"),
        ];
        for &(x, prec, want) in cases {
            assert_eq!(fixed(x, prec), want, "x = {x:e}, prec = {prec}");
        }
    }

    #[test]
    fn fixed_huge_and_non_finite() {
        // Beyond 2^128 the digits come from the exact slow path.
        let big = fixed(1e300, 0);
        assert_eq!(big.len(), 301);
        assert!(big.starts_with("10000000000000000525"), "{big}");
        assert_eq!(fixed(f64::MAX, 1).len(), 311);
        assert_eq!(fixed(f64::NAN, 6), "nan");
        assert_eq!(fixed(-f64::NAN, 2), "-nan");
        assert_eq!(fixed(f64::INFINITY, 6), "inf");
        assert_eq!(fixed(f64::NEG_INFINITY, 1), "-inf");
    }

    #[test]
    fn push_f6_appends() {
        let mut out = b"x=".to_vec();
        push_f6(&mut out, 1.25);
        out.push(b' ');
        push_f6(&mut out, -3.0);
        assert_eq!(out, b"x=1.250000 -3.000000");
    }

    #[test]
    fn fast_path_agrees_with_exact_formatting() {
        // Rust's precision formatting is exact for finite doubles, so it is an independent
        // check on the integer arithmetic (the printf tests check both against glibc).
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..20_000 {
            let x = f64::from_bits(rng.next());
            if !x.is_finite() || x.abs() > 1e30 {
                continue;
            }
            for prec in [0, 1, 2, 6, 19] {
                assert_eq!(
                    fixed(x, prec),
                    format!("{x:.prec$}"),
                    "bits {:#x}",
                    x.to_bits()
                );
            }
        }
    }

    /// Groups the plain decimal string from the right: an independent formulation.
    fn thousands_reference(n: i64) -> String {
        if n < 1000 {
            return (n as i32).to_string();
        }
        let digits = n.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        grouped
    }

    #[test]
    fn thousands_examples() {
        let cases: &[(i64, &str)] = &[
            (0, "0"),
            (7, "7"),
            (999, "999"),
            (1000, "1,000"),
            (1001, "1,001"),
            (999_999, "999,999"),
            (1_000_000, "1,000,000"),
            (1_485_709, "1,485,709"),
            (6_500_000_500, "6,500,000,500"),
            (i64::MAX, "9,223,372,036,854,775,807"),
            (-5, "-5"),
            (-1000, "-1000"),
            (-2_147_483_648, "-2147483648"),
            (-2_147_483_649, "2147483647"),
            (i64::MIN, "0"),
        ];
        for &(n, want) in cases {
            assert_eq!(thousands(n), want, "n = {n}");
            assert_eq!(thousands_reference(n), want, "reference, n = {n}");
        }
    }

    #[test]
    fn thousands_matches_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for i in 0..200_000 {
            // Vary the magnitude so every group count and both signs are covered.
            let n = (rng.next() as i64) >> (i % 64);
            assert_eq!(thousands(n), thousands_reference(n), "n = {n}");
        }
    }

    #[test]
    fn atoi_examples() {
        let cases: &[(&[u8], i32)] = &[
            (b"", 0),
            (b"abc", 0),
            (b"  12", 12),
            (b"\t\n\x0b\x0c\r 42z", 42),
            (b"-3", -3),
            (b"+7", 7),
            (b"+-7", 0),
            (b"- 7", 0),
            (b"3x", 3),
            (b"1e5", 1),
            (b"2147483647", i32::MAX),
            (b"2147483648", i32::MIN),
            (b"4294967297", 1),
            (b"9999999999999999999999", -1), // LONG_MAX truncated to int
            (b"-9999999999999999999", 0),    // LONG_MIN truncated to int
            (b"-9223372036854775808", 0),
            (b"9223372036854775807", -1),
        ];
        for &(s, want) in cases {
            assert_eq!(c_atoi(s), want, "{:?}", String::from_utf8_lossy(s));
        }
    }

    #[test]
    fn atof_examples() {
        let cases: &[(&[u8], f64)] = &[
            (b"", 0.0),
            (b"abc", 0.0),
            (b" \t1.5", 1.5),
            (b"-2.5e3x", -2500.0),
            (b"1.", 1.0),
            (b".5", 0.5),
            (b"..5", 0.0),
            (b"1.2.3", 1.2),
            (b"1e", 1.0),
            (b"1e+", 1.0),
            (b"1.e2", 100.0),
            (b"0x1.8p3", 12.0),
            (b"0X10", 16.0),
            (b"0x", 0.0),
            (b"0x.p1", 0.0),
            (b"- 7", 0.0),
            (b"-x", 0.0),
            (b"-.", 0.0),
            (b"0x1p", 1.0),
            (b"0x1p-1074", 5e-324),
            (b"0x1p-1075", 0.0),
            (b"0x1.8p-1074", 1e-323),
            (b"0x1p1024", f64::INFINITY),
            (b"1e400", f64::INFINITY),
            (b"1e-400", 0.0),
            (b"inf", f64::INFINITY),
            (b"-Infinity", f64::NEG_INFINITY),
            (b"INFINITE", f64::INFINITY),
        ];
        for &(s, want) in cases {
            let got = c_atof(s);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{:?}: {got:e}",
                String::from_utf8_lossy(s)
            );
        }
        assert_eq!(c_atof(b"-0").to_bits(), (-0.0f64).to_bits());
        assert_eq!(c_atof(b"-0x").to_bits(), (-0.0f64).to_bits());
        let nan = c_atof(b"NaN(123)");
        assert!(nan.is_nan() && nan.is_sign_positive());
        let negative_nan = c_atof(b" -nan");
        assert!(negative_nan.is_nan() && negative_nan.is_sign_negative());
    }

    #[test]
    fn hex_float_rounding() {
        // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: ties to even.
        assert_eq!(c_atof(b"0x20000000000001"), 9_007_199_254_740_992.0);
        assert_eq!(c_atof(b"0x20000000000003"), 9_007_199_254_740_996.0);
        // A nonzero digit far beyond the mantissa breaks the tie upwards.
        assert_eq!(
            c_atof(b"0x20000000000001000000001"),
            c_atof(b"0x20000000000002000000000")
        );
        // The largest double, and the first value that rounds to infinity.
        assert_eq!(c_atof(b"0x1.fffffffffffffp1023"), f64::MAX);
        assert_eq!(c_atof(b"0x1.fffffffffffff8p1023"), f64::INFINITY);
        // Subnormal rounding up into the normal range.
        assert_eq!(c_atof(b"0x0.fffffffffffff8p-1022"), f64::MIN_POSITIVE);
    }
}
