//! Checks `hp2ps::internals`' parsing against glibc itself: `atoi`/`atof` are the oracle,
//! compared bit for bit. (The `%f` family against `snprintf`: `cfmt_printf.rs`.)

mod support;

use std::ffi::CString;

use hp2ps::internals as cfmt;
use support::floats::next_up;
use support::rng::Rng;

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
    let mut rng = Rng::from_state(0xfeed_face_0bad_f00d);
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
    let mut rng = Rng::from_state(0x7777_1111_3333_9999);
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
    let mut rng = Rng::from_state(0xabad_1dea_5eed_0001);
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
    let mut rng = Rng::from_state(0x0bad_cafe_1234_4321);
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
