//! The data-line fast path: GHC's `name<TAB>digits` lines, found and read in one pass
//! (this runs over every line of a large profile), and the TAB-line rule for real GHC names
//! that hp2ps's tokens cannot read.

use super::tokens::{is_space, keyword, MAX_NUMBER_LEN};
use crate::num::integer_value;

/// The common GHC line `name<TAB>digits`, read in one pass without the general
/// machinery. Only taken when hp2ps's tokens would read it the same way: the name holds
/// no byte at or below space (so no whitespace and no NUL) and is not a keyword, and the
/// value is 1 to 32 digits followed by the line end.
pub(crate) fn simple_data_line(seg: &[u8]) -> Option<(&[u8], f64)> {
    let line = scan_data_line(seg, true)?;
    Some((&seg[..line.name_len], line.value))
}

/// A data line found by [`scan_data_line`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DataLine {
    pub name_len: usize,
    pub value: f64,
    /// Bytes up to and including the LF (or to the end of the bytes).
    pub len: usize,
}

/// Scans `bytes` from the start of a line for `name<TAB>digits` and the line end (`\n`,
/// `\r\n`, a lone `\r` before the end, or with `end_is_line_end` the end of `bytes`).
pub(crate) fn scan_data_line(bytes: &[u8], end_is_line_end: bool) -> Option<DataLine> {
    let tab = first_at_or_below_space(bytes)?;
    if tab == 0 || bytes[tab] != b'\t' {
        return None;
    }
    let name = &bytes[..tab];
    let mut i = tab + 1;
    let mut value: u64 = 0;
    while let Some(&d) = bytes.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        // Exact while it fits; longer numbers are re-read below.
        value = value.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
        i += 1;
    }
    let digits = i - tab - 1;
    let len = match &bytes[i..] {
        [b'\n', ..] => i + 1,
        [b'\r', b'\n', ..] => i + 2,
        [] | [b'\r'] if end_is_line_end => bytes.len(),
        _ => return None,
    };
    if digits == 0 || digits > MAX_NUMBER_LEN || name[0] == b'"' || keyword(name).is_some() {
        return None;
    }
    let value = if digits <= 19 {
        value as f64
    } else {
        integer_value(&bytes[tab + 1..i])
    };
    Some(DataLine {
        name_len: tab,
        value,
        len,
    })
}

/// Index of the first byte <= 0x20 (every whitespace byte, NUL and most controls), eight
/// bytes at a time: this scan runs over every data line of a profile.
fn first_at_or_below_space(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let n = bytes.len();
    let mut i = 0;
    while i + 8 <= n {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let w = u64::from_le_bytes(word);
        // Sets the high bit of each byte below 0x21 (bytes >= 0x80 are masked out by
        // `!w`). A borrow only runs upwards from a byte that is below 0x21, so the lowest
        // bit set marks the first such byte exactly.
        let found = w.wrapping_sub(ONES * 0x21) & !w & HIGHS;
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    bytes[i..].iter().position(|&b| b <= b' ').map(|k| i + k)
}

/// The line rule for real GHC output that hp2ps's tokens cannot read: a line whose text
/// after its last TAB is an integer is a data line, and the identifier is everything
/// before that TAB.
pub(crate) fn tab_data_line(seg: &[u8], max_name_len: usize) -> Option<(&[u8], f64)> {
    let end = seg.iter().rposition(|&b| !is_space(b)).map_or(0, |k| k + 1);
    let body = &seg[..end];
    let tab = body.iter().rposition(|&b| b == b'\t')?;
    let (name, digits) = (&body[..tab], &body[tab + 1..]);
    let ok = !name.is_empty()
        && name.len() <= max_name_len
        && !digits.is_empty()
        && digits.len() <= MAX_NUMBER_LEN
        && digits.iter().all(u8::is_ascii_digit);
    ok.then(|| (name, integer_value(digits)))
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    #[test]
    fn finds_the_first_byte_at_or_below_space() {
        for len in 0..40 {
            for at in 0..len {
                for b in [0u8, b'\t', b' ', 0x14, b'\n'] {
                    let mut v = vec![b'a'; len];
                    v.iter_mut()
                        .skip(at + 1)
                        .for_each(|x| *x = 0x80 + (*x % 64));
                    v[at] = b;
                    assert_eq!(first_at_or_below_space(&v), Some(at), "{len} {at} {b}");
                }
            }
            let high: Vec<u8> = (0..len)
                .map(|i| 0x21 + (i as u8).wrapping_mul(37) % 0xde)
                .collect();
            assert_eq!(first_at_or_below_space(&high), None);
        }
    }

    #[test]
    fn simple_lines_are_exactly_the_token_readable_ones() {
        assert_eq!(
            simple_data_line(b"MAIN\t160\n"),
            Some((&b"MAIN"[..], 160.0))
        );
        assert_eq!(
            simple_data_line(b"(1)a.b\t7\r\n"),
            Some((&b"(1)a.b"[..], 7.0))
        );
        assert_eq!(simple_data_line(b"x\t12"), Some((&b"x"[..], 12.0)));
        let long = b"x\t12345678901234567890123456789012\n";
        assert_eq!(
            simple_data_line(long),
            Some((&b"x"[..], 12345678901234567890123456789012.0))
        );
        let line = scan_data_line(b"ab\t7\r\nnext", false).expect("line");
        assert_eq!((line.name_len, line.value, line.len), (2, 7.0, 6));
        assert_eq!(
            scan_data_line(b"ab\t7", false),
            None,
            "the line end is not in sight"
        );
        for other in [
            &b"JOB\t1\n"[..],
            b"a b\t1\n",
            b"a\t1.5\n",
            b"\"a\t1\n",
            b"a\x00b\t1\n",
            b"\t1\n",
            b"a\t\n",
            b"a\t1 \n",
        ] {
            assert_eq!(simple_data_line(other), None, "{other:?}");
        }
    }
}
