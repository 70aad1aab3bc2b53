//! The values of `.hp` number tokens, as hp2ps reads them with C's `atof`, and how long
//! a token may be (the `.hp` and `.aux` readers share the limit).

/// hp2ps splits numbers after 32 characters; we refuse longer ones instead of misreading
/// them (a 33-digit heap size is not real data).
pub(crate) const MAX_NUMBER_LEN: usize = 32;

/// The value of an integer token (digits only), as C's `atof` reads it.
pub fn integer_value(digits: &[u8]) -> f64 {
    if digits.len() <= 19 {
        // Exact in u64; `as f64` rounds to nearest-even like strtod. Wrapping, because
        // the caller's check that these are digits may have read a mapped file that was
        // cut since (its pages now read as zeros): nonsense then, never a panic.
        digits.iter().fold(0u64, |acc, &d| {
            acc.wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')))
        }) as f64
    } else {
        std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(f64::INFINITY)
    }
}

/// [`float_value`] of a prefix `digits[.digits]` of at most 15 digits in all (a
/// sample's time), without the general parse: the digits as a whole number `m` and
/// their count `k` after the dot give `m / 10^k`, both exact as doubles (`m < 2^53`,
/// `k <= 15`), so the one division is rounded once, as the parse rounds the decimal.
/// `None` for anything else.
fn short_decimal(text: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (mut m, mut digits, mut after_dot, mut dot) = (0u64, 0usize, 0usize, false);
    for &b in text {
        match b {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(b - b'0');
                digits += 1;
                after_dot += usize::from(dot);
            }
            b'.' if !dot => dot = true,
            _ => break,
        }
        if digits > 15 {
            return None;
        }
    }
    (digits > 0).then(|| m as f64 / POW10[after_dot])
}

/// The value of a number token with a dot, as C's `atof` reads it: the longest prefix of
/// the form `digits[.digits]` (`1.2.3` is 1.2, `1.` is 1.0).
pub fn float_value(text: &[u8]) -> f64 {
    short_decimal(text).unwrap_or_else(|| parsed_float_value(text))
}

/// [`float_value`] by the general parse.
fn parsed_float_value(text: &[u8]) -> f64 {
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

#[cfg(test)]
mod short_decimal_tests {
    use super::{integer_value, parsed_float_value, short_decimal};

    /// Wherever the short way gives a value, it is the general parse's, bit for bit.
    #[test]
    fn short_decimals_are_the_parsed_values() {
        let mut next = crate::test_rng::xorshift(11);
        let mut taken = 0;
        for round in 0..300_000u32 {
            let len = (next() % 20) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| match next() % 13 {
                    10 => b'.',
                    11 if round % 2 == 0 => b'9',
                    11 | 12 => b"x \n-e"[(next() % 5) as usize],
                    d => b'0' + d as u8,
                })
                .collect();
            if let Some(v) = short_decimal(&text) {
                taken += 1;
                let want = parsed_float_value(&text);
                assert_eq!(
                    v.to_bits(),
                    want.to_bits(),
                    "{:?}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
        assert!(taken > 100_000, "{taken}");
        for (text, want) in [
            (&b"0.019511"[..], 0.019511),
            (b"1.", 1.0),
            (b".5", 0.5),
            (b"1.2.3", 1.2),
        ] {
            assert_eq!(short_decimal(text), Some(want));
        }
        assert_eq!(short_decimal(b"."), None);
        // Digits a cut mapped file turned to zeros or others after they were checked:
        // a value, not a panic.
        let _ = integer_value(&[0; 19]);
        let _ = integer_value(&[0xff; 19]);
        assert_eq!(
            short_decimal(b"1234567890.1234567"),
            None,
            "more than 15 digits"
        );
    }
}
