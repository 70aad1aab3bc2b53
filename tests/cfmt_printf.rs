//! Checks `hp2ps::internals` against glibc itself: `snprintf` is the oracle for the `%f` family,
//! `atoi`/`atof` for parsing. Everything is compared byte for byte (bit for bit for doubles).

use std::ffi::CString;
use std::os::raw::{c_char, c_int};

use hp2ps::internals as cfmt;

/// A tiny xorshift64* generator, so the tests need no extra dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (the modulo bias is irrelevant here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn sign(&mut self) -> f64 {
        if self.next() & 1 == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// What glibc prints for `printf("%.*f", prec, x)`.
fn glibc_fixed(x: f64, prec: usize) -> Vec<u8> {
    let prec = c_int::try_from(prec).expect("test precision fits an int");
    let mut buf = vec![0u8; 64];
    loop {
        // SAFETY: the buffer is writable for `buf.len()` bytes, the format is NUL-terminated and
        // its conversions match the int and double passed.
        let n = unsafe {
            libc::snprintf(
                buf.as_mut_ptr().cast::<c_char>(),
                buf.len(),
                c"%.*f".as_ptr(),
                prec,
                x,
            )
        };
        let n = usize::try_from(n).expect("snprintf failed");
        if n < buf.len() {
            buf.truncate(n);
            return buf;
        }
        buf.resize(n + 1, 0);
    }
}

/// Compares every entry point that formats `x` with `prec` decimals against glibc.
fn check_fixed(x: f64, prec: usize) {
    let want = glibc_fixed(x, prec);
    let mut got = Vec::new();
    cfmt::push_fixed(&mut got, x, prec);
    assert!(
        got == want,
        "x = {x:e} (bits {:#018x}), prec {prec}: ours {:?}, glibc {:?}",
        x.to_bits(),
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&want),
    );
    assert_eq!(cfmt::fixed(x, prec).as_bytes(), &want[..]);
    if prec == 6 {
        got.clear();
        cfmt::push_f6(&mut got, x);
        assert_eq!(got, want, "push_f6, bits {:#018x}", x.to_bits());
    }
}

/// The precisions hp2ps uses.
const HP2PS_PRECS: [usize; 3] = [6, 1, 2];

fn check_hp2ps_precs(x: f64) {
    for prec in HP2PS_PRECS {
        check_fixed(x, prec);
    }
}

fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

fn next_down(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}

#[test]
fn edge_values() {
    let subnormals = [
        f64::from_bits(1),
        f64::from_bits(2),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::from_bits(0x0008_0000_0000_0000),
    ];
    let mut values = vec![
        0.0,
        0.5,
        1.5,
        2.5,
        0.05,
        0.15,
        0.25,
        0.35,
        0.45,
        0.125,
        0.375,
        1e-7,
        4.999_999_5e-7,
        5e-7,
        5.000_001e-7,
        999_999.999_999_5,
        999_999.999_999_6,
        9.5,
        99.95,
        1e15,
        9_007_199_254_740_992.0,
        9_007_199_254_740_994.0,
        4_503_599_627_370_495.5,
        1.844_674_407_370_955_2e19,
        1e22,
        3.402_823_669_209_385e38, // 2^128
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        f64::NAN,
        f64::INFINITY,
    ];
    values.extend(subnormals);
    for x in values.clone() {
        values.push(-x);
    }
    for x in values {
        for prec in [0, 1, 2, 3, 5, 6, 7, 10, 17, 18, 19, 20, 21, 25, 40, 100] {
            check_fixed(x, prec);
        }
    }
    // The full expansion of the smallest doubles needs over a thousand decimals.
    for x in [f64::from_bits(1), f64::MIN_POSITIVE, 0.1, -1.0 / 3.0] {
        for prec in [1073, 1074, 1075, 1100] {
            check_fixed(x, prec);
        }
    }
}

#[test]
fn exact_ties_and_neighbours() {
    // With `prec` decimals, the exact ties are integer + odd / 2^(prec+1): those are the dyadic
    // values whose decimal expansion ends in a 5 just after the last printed digit.
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for prec in 0..=25usize {
        let denominator = (1u64 << (prec + 1)) as f64;
        for _ in 0..2_000 {
            // Keep integer + fraction exactly representable (below 2^52 in units of the tie).
            let int_bits = 52u32.saturating_sub(prec as u32 + 1).min(40);
            let magnitude_bits = rng.below(u64::from(int_bits) + 1);
            let int = rng.below(1u64 << magnitude_bits) as f64;
            let odd = (2 * rng.below(1u64 << prec.min(30)) + 1) as f64 / denominator;
            let x = rng.sign() * (int + odd);
            for y in [x, next_up(x), next_down(x)] {
                check_fixed(y, prec);
            }
        }
    }
}

#[test]
fn random_bit_patterns() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..200_000 {
        check_hp2ps_precs(f64::from_bits(rng.next()));
    }
}

#[test]
fn random_magnitudes() {
    // Mantissa uniform, decimal magnitude uniform in 1e-25 .. 1e25.
    let mut rng = Rng(0x5151_aaaa_0f0f_7777);
    for _ in 0..300_000 {
        let exponent = rng.below(51) as i32 - 25;
        let x = rng.sign() * (1.0 + 9.0 * rng.unit()) * 10f64.powi(exponent);
        check_hp2ps_precs(x);
    }
}

#[test]
fn random_in_billion_range() {
    let mut rng = Rng(0x1357_9bdf_2468_ace0);
    for _ in 0..300_000 {
        check_hp2ps_precs((rng.unit() * 2.0 - 1.0) * 1e9);
    }
}

#[test]
fn random_coordinates() {
    // hp2ps coordinates: values like 123.456 computed in floating point, so a few ulps off the
    // decimal they are meant to be.
    let mut rng = Rng(0x0f1e_2d3c_4b5a_6978);
    for _ in 0..300_000 {
        let thousandths = rng.below(20_000_000) as f64 - 10_000_000.0;
        let mut x = thousandths / 1000.0;
        match rng.below(4) {
            0 => {}
            1 => x = next_up(x),
            2 => x = next_down(x),
            _ => x += (rng.unit() - 0.5) * 1e-9,
        }
        check_hp2ps_precs(x);
    }
}

#[test]
fn random_six_decimal_ties() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..200_000 {
        let int = rng.below(1 << 30) as f64;
        // An exact tie for %f: odd multiples of 1/128 end in ...5 at the 7th decimal.
        let tie = int + (2 * rng.below(64) + 1) as f64 / 128.0;
        // The nearest double to integer + k/10^6 + 0.5e-6: a near tie, just above or below.
        let near = int + (rng.below(1_000_000) as f64 + 0.5) / 1e6;
        let sign = rng.sign();
        check_fixed(sign * tie, 6);
        check_fixed(sign * near, 6);
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

fn c_string(s: &[u8]) -> CString {
    CString::new(s).expect("test strings have no NUL")
}

fn check_atoi(s: &[u8]) {
    let c = c_string(s);
    // SAFETY: `c` is a valid NUL-terminated string.
    let want = unsafe { libc::atoi(c.as_ptr()) };
    assert_eq!(
        cfmt::c_atoi(s),
        want,
        "atoi({:?})",
        String::from_utf8_lossy(s)
    );
}

fn check_atof(s: &[u8]) {
    let c = c_string(s);
    // SAFETY: `c` is a valid NUL-terminated string.
    let want = unsafe { libc::atof(c.as_ptr()) };
    let got = cfmt::c_atof(s);
    // NaN payloads are not reproduced: compare NaN-ness and the sign bit.
    let same = if want.is_nan() {
        got.is_nan() && got.is_sign_negative() == want.is_sign_negative()
    } else {
        got.to_bits() == want.to_bits()
    };
    assert!(
        same,
        "atof({:?}): ours {got:e} ({:#018x}), glibc {want:e} ({:#018x})",
        String::from_utf8_lossy(s),
        got.to_bits(),
        want.to_bits(),
    );
}

fn check_both(s: &[u8]) {
    check_atoi(s);
    check_atof(s);
}

#[test]
fn parse_listed_strings() {
    let strings: &[&str] = &[
        "",
        "abc",
        "  12",
        "\t\n\x0b\x0c\r 12",
        "-3",
        "+7",
        "+-7",
        "- 7",
        "-x",
        "-.",
        "-0x",
        "+0xp3",
        "3x",
        "1e-1",
        "1E+2",
        "0x1p4",
        "0X1P4",
        "-0x1.8p3",
        "0x.8",
        "0x8.",
        "0x",
        "0xg",
        "0x.p1",
        "0x1p",
        "0x1p+",
        "0x1p-1074",
        "0x1p-1075",
        "0x1.8p-1074",
        "0x1.fffffffffffff8p1023",
        "0x123456789abcdef0123456789p-10",
        "inf",
        "INF",
        "-Infinity",
        "infinit",
        "infinityx",
        "nan",
        "-nan",
        "NaN(123)",
        "nan(abc_1)",
        "nan(",
        "1.2.3",
        "1.",
        "1.e5",
        "..5",
        ".5",
        ".",
        "-.5e1",
        "1e",
        "1e+",
        "1e-",
        "1e5000",
        "1e-5000",
        "-0",
        "0e999999999999999999999",
        "1e999999999999999999999",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "9999999999999999999999",
        "-9999999999999999999",
        "18446744073709551616",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "9007199254740993",
        "0.1",
        "123.456",
        "  -000000000000000000000000000001.5000000000000000000000000000000001",
    ];
    for s in strings {
        check_both(s.as_bytes());
    }
    // Long digit strings, with and without a point and exponent.
    let long_digits = "31415926535897932384626433832795028841971693993751".repeat(20);
    for s in [
        long_digits.clone(),
        format!("{long_digits}e-1000"),
        format!("0.{long_digits}"),
        format!("{}.{long_digits}e5", &long_digits[..300]),
        format!("-{}1", "0".repeat(900)),
        format!("0.{}1e10", "0".repeat(1200)),
    ] {
        check_both(s.as_bytes());
    }
}

#[test]
fn parse_random_junk() {
    const ALPHABET: &[u8] = b"0123456789.+-eExXpPinfaINFA( )\t";
    let mut rng = Rng(0xfeed_face_0bad_f00d);
    let mut s = Vec::new();
    for _ in 0..300_000 {
        s.clear();
        let len = rng.below(17);
        for _ in 0..len {
            s.push(ALPHABET[rng.below(ALPHABET.len() as u64) as usize]);
        }
        check_both(&s);
    }
}

#[test]
fn parse_random_numbers() {
    // Well-formed numbers with random digits, point and exponent: exercises correct rounding.
    let mut rng = Rng(0x7777_1111_3333_9999);
    let mut s = String::new();
    for _ in 0..200_000 {
        s.clear();
        if rng.below(2) == 0 {
            s.push('-');
        }
        let digits = 1 + rng.below(30);
        let point = rng.below(digits + 1);
        for i in 0..digits {
            if i == point {
                s.push('.');
            }
            s.push(char::from(b'0' + rng.below(10) as u8));
        }
        if rng.below(4) != 0 {
            let exponent = rng.below(700) as i64 - 350;
            s.push_str(&format!("e{exponent}"));
        }
        check_both(s.as_bytes());
    }
}

#[test]
fn parse_random_hex_floats() {
    let mut rng = Rng(0xabad_1dea_5eed_0001);
    let mut s = String::new();
    for _ in 0..100_000 {
        s.clear();
        s.push_str(if rng.below(2) == 0 { "0x" } else { "-0X" });
        let digits = 1 + rng.below(24);
        let point = rng.below(digits + 1);
        for i in 0..digits {
            if i == point {
                s.push('.');
            }
            s.push(char::from(
                b"0123456789abcdefABCDEF"[rng.below(22) as usize],
            ));
        }
        // Exponents reaching into the subnormal range and past overflow.
        let exponent = rng.below(2300) as i64 - 1200;
        s.push_str(&format!("p{exponent}"));
        check_atof(s.as_bytes());
    }
}

/// Adds two non-negative decimal strings with the same number of decimals and halves the sum:
/// the exact midpoint, written out.
fn decimal_midpoint(a: &str, b: &str) -> String {
    let digits = |s: &str| -> Vec<u32> {
        s.bytes()
            .filter(|c| *c != b'.')
            .map(|c| u32::from(c - b'0'))
            .collect()
    };
    let (mut a_digits, mut b_digits) = (digits(a), digits(b));
    // Align the integer parts (9.99 and 10.00 have different lengths).
    let width = a_digits.len().max(b_digits.len());
    for v in [&mut a_digits, &mut b_digits] {
        v.splice(0..0, vec![0; width - v.len()]);
    }
    let frac_len = a.len() - a.find('.').expect("fixed notation has a point") - 1;
    // Sum, least significant digit first.
    let mut sum = Vec::with_capacity(a_digits.len() + 1);
    let mut carry = 0;
    for (x, y) in a_digits.iter().rev().zip(b_digits.iter().rev()) {
        let d = x + y + carry;
        sum.push(d % 10);
        carry = d / 10;
    }
    sum.push(carry);
    sum.push(0); // one more fractional digit for the halving
    sum.rotate_right(1);
    // Halve, most significant digit first.
    let mut half = Vec::with_capacity(sum.len());
    let mut rest = 0;
    for d in sum.iter().rev() {
        let v = rest * 10 + d;
        half.push(v / 2);
        rest = v % 2;
    }
    let int_len = half.len() - frac_len - 1;
    let mut out: String = half[..int_len]
        .iter()
        .map(|d| char::from(b'0' + *d as u8))
        .collect();
    out.push('.');
    out.extend(half[int_len..].iter().map(|d| char::from(b'0' + *d as u8)));
    out
}

#[test]
fn parse_halfway_points() {
    // The exact midpoint between two neighbouring doubles must round to the even one; a hair
    // above or below must round away from or towards it.
    let mut rng = Rng(0x0bad_cafe_1234_4321);
    for i in 0..6_000 {
        let x = if i % 10 == 0 {
            // Subnormals and the normal/subnormal boundary.
            f64::from_bits(rng.below(1 << 53))
        } else {
            // Below 2^52, so the midpoint always has a fractional part.
            let exponent = rng.below(45) as i32 - 30;
            (1.0 + rng.unit()) * 10f64.powi(exponent)
        };
        let (lo, hi) = (format!("{x:.1100}"), format!("{:.1100}", next_up(x)));
        let mid = decimal_midpoint(&lo, &hi);
        let trimmed = mid.trim_end_matches('0');
        assert!(trimmed.ends_with('5'), "midpoint {trimmed}");
        let above = format!("{trimmed}000000001");
        let below = format!("{}4999999999", &trimmed[..trimmed.len() - 1]);
        for s in [trimmed, &above, &below] {
            check_atof(s.as_bytes());
        }
    }
}
