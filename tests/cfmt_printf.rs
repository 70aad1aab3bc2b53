//! Checks `hp2ps::internals` against glibc itself: `snprintf` is the oracle for the `%f` family.
//! Everything is compared byte for byte. (Parsing against `atoi`/`atof`: `cfmt_parse.rs`.)

mod support;

use std::os::raw::{c_char, c_int};

use hp2ps::internals as cfmt;
use support::floats::{next_down, next_up};
use support::rng::Rng;

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
    let mut rng = Rng::from_state(0x0123_4567_89ab_cdef);
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
    let mut rng = Rng::from_state(0xdead_beef_cafe_f00d);
    for _ in 0..200_000 {
        check_hp2ps_precs(f64::from_bits(rng.next_u64()));
    }
}

#[test]
fn random_magnitudes() {
    // Mantissa uniform, decimal magnitude uniform in 1e-25 .. 1e25.
    let mut rng = Rng::from_state(0x5151_aaaa_0f0f_7777);
    for _ in 0..300_000 {
        let exponent = rng.below(51) as i32 - 25;
        let x = rng.sign() * (1.0 + 9.0 * rng.unit()) * 10f64.powi(exponent);
        check_hp2ps_precs(x);
    }
}

#[test]
fn random_in_billion_range() {
    let mut rng = Rng::from_state(0x1357_9bdf_2468_ace0);
    for _ in 0..300_000 {
        check_hp2ps_precs((rng.unit() * 2.0 - 1.0) * 1e9);
    }
}

#[test]
fn random_coordinates() {
    // hp2ps coordinates: values like 123.456 computed in floating point, so a few ulps off the
    // decimal they are meant to be.
    let mut rng = Rng::from_state(0x0f1e_2d3c_4b5a_6978);
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
    let mut rng = Rng::from_state(0x2545_f491_4f6c_dd1d);
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
