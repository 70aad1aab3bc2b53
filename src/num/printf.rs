//! C's `printf("%f")`, `"%.Nf"` and `"%d"` as glibc prints them, and `%'d`-style thousands.
//!
//! Coordinates are formatted on the hot path, so [`push_f6`] and [`push_fixed`] with small
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

/// The bytes of [`push_f6`] of `x` at the start of a 16-byte slot, and how many they are,
/// when they fit in one and the fast path makes them (finite, below 2^64); else `None`.
/// The painters format every coordinate of a long chart once into such slots: made here,
/// a number is one fixed-size move into its slot, not two copies of a varying length.
#[inline(always)]
pub(crate) fn f6_slot(x: f64) -> Option<([u8; 16], usize)> {
    if !x.is_finite() {
        return None;
    }
    let parts = split_fixed(x.abs(), 6)?;
    let int = u64::try_from(parts.int).ok()?;
    // Written right to left to end at END; a slot's 16 bytes from the number's start stay
    // inside the buffer whenever the number fits in one.
    const END: usize = 32;
    let mut buf = [0u8; END + 16];
    write_padded(&mut buf[END - 6..END], parts.frac);
    buf[END - 7] = b'.';
    let mut pos = write_digits_backward(&mut buf, END - 7, int);
    if x.is_sign_negative() {
        pos -= 1;
        buf[pos] = b'-';
    }
    let len = END - pos;
    if len > 16 {
        return None;
    }
    let mut slot = [0u8; 16];
    slot.copy_from_slice(&buf[pos..pos + 16]);
    Some((slot, len))
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
