//! Tests of the C-compatible formatting and parsing against hand-checked values.

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

/// A slot holds `push_f6`'s bytes exactly, for every number that fits in one, and no
/// number that does not fit is given one.
#[test]
fn a_slot_holds_what_push_f6_writes() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let mut values = vec![
        0.0,
        -0.0,
        0.5e-6,
        0.4999999e-6,
        -0.4e-6,
        1e-300,
        999_999_999.999_999_5,
        9_999_999.999_999,
        99_999_999.999_999,
        -9_999_999.9999995,
        1e15,
        1.8e19,
        2e19,
        f64::NAN,
        -f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN_POSITIVE,
    ];
    for _ in 0..200_000 {
        let r = rng.next();
        values.push(match r % 4 {
            0 => f64::from_bits(rng.next()),
            1 => (rng.next() % 100_000_000) as f64 / 1e6 * if r & 4 == 0 { 1.0 } else { -1.0 },
            2 => (rng.next() % 1_000_000) as f64 * 0.2591 + 72.0,
            _ => (rng.next() >> (r % 64)) as f64 / 7.0,
        });
    }
    let (mut fitted, mut not) = (0, 0);
    for x in values {
        let mut want = Vec::new();
        push_f6(&mut want, x);
        match f6_slot(x) {
            Some((slot, len)) => {
                assert_eq!(&slot[..len], &want[..], "{x:e}");
                fitted += 1;
            }
            None => {
                // Too long, or not a number the fast path makes.
                assert!(
                    want.len() > 16 || !x.is_finite() || x.abs() >= 1.8e19,
                    "{x:e}"
                );
                not += 1;
            }
        }
    }
    assert!(fitted > 100_000 && not > 10_000, "{fitted} {not}");
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
