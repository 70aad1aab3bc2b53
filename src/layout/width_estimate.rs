//! hp2ps's estimate of a string's printed width, which decides the key width (and so
//! the graph width) and which ticks are drawn.

/// Points per width unit: 2.834646 × 0.6, as hp2ps computes it.
const POINTS_PER_UNIT: f64 = 2.834646 * 0.6;

/// Width units of a byte. Bytes outside 0x20–0x7e read past the end of hp2ps's table; the
/// values here are what that read yields in the real binary (§4.3 of `docs/reference/hp2ps-behaviour.md`), where 0x14
/// yields the `-t` threshold.
fn units(b: u8, trace_percent: f64) -> f64 {
    match b {
        b'!' | b'"' | b'\'' | b',' | b'.' | b':' | b';' | b'I' | b'^' | b'i' | b'l' | b'`'
        | b'|' => 1.0,
        b'*' | b'?' | b'[' | b']' | b'j' | b'r' | b't' | b'{' | b'}' | b'~' => 2.0,
        b' ' | b'#' | b'$' | b'%' | b'&' | b'(' | b')' | b'+' | b'-' | b'/' | b'<' | b'='
        | b'>' | b'@' | b'_' | b'\\' => 3.0,
        b'm' => 5.0,
        b'a'..=b'z' => 3.0,
        b'0'..=b'9' => 4.0,
        b'A'..=b'Z' => 5.0,
        0x14 => trace_percent,
        0x16 => 432.0,
        0x17 => 648.0,
        0x18 => 5.0,
        0x19 => 0.5,
        0x1a => 638.0,
        0x1b => 6.0,
        0x1c => 45.0,
        0x1d => 20.0,
        _ => 0.0,
    }
}

/// hp2ps's estimated width of `text` in points (Helvetica 10-ish).
pub(crate) fn estimated_width(text: &[u8], trace_percent: f64) -> f64 {
    let total = text
        .iter()
        .fold(0.0, |sum, &b| sum + units(b, trace_percent));
    total * POINTS_PER_UNIT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_is_thirty_units() {
        assert_eq!(
            crate::num::fixed(estimated_width(b"SYSTEM", 1.0), 6),
            "51.023628"
        );
    }

    #[test]
    fn classes() {
        let w = |s: &[u8]| estimated_width(s, 1.0) / POINTS_PER_UNIT;
        assert_eq!(w(b"Il!"), 3.0);
        assert_eq!(w(b"jrt"), 6.0);
        assert_eq!(w(b"ab_"), 9.0);
        assert_eq!(w(b"m9M"), 14.0);
        assert_eq!(w("é€".as_bytes()), 0.0);
        assert_eq!(w(b"\x16"), 432.0);
        assert_eq!(estimated_width(b"\x14", 3.0), 3.0 * POINTS_PER_UNIT);
    }
}
