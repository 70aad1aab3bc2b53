//! The data-line fast path: GHC's `name<TAB>digits` lines, found and read in one pass
//! (this runs over every line of a large profile), and the TAB-line rule for real GHC names
//! that hp2ps's tokens cannot read.

use super::byte_masks::{low_mask, WIDTH};
use super::tokens::{is_space, keyword, LONGEST_KEYWORD, MAX_NUMBER_LEN};
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
    /// The value as a whole number when it is below [`WHOLE_BELOW`] (exact as a double
    /// and as a sum's term), else `u64::MAX`: what the readers that add values up take,
    /// without a conversion back from the double.
    pub whole: u64,
    /// Bytes up to and including the LF (or to the end of the bytes).
    pub len: usize,
}

/// Values from here on have no [`DataLine::whole`] (2^53: a double holds every whole
/// number below it exactly).
pub(crate) const WHOLE_BELOW: u64 = 1 << 53;

/// Scans `bytes` from the start of a line for `name<TAB>digits` and the line end (`\n`,
/// `\r\n`, a lone `\r` before the end, or with `end_is_line_end` the end of `bytes`).
#[inline(always)]
pub(crate) fn scan_data_line(bytes: &[u8], end_is_line_end: bool) -> Option<DataLine> {
    let tab = first_at_or_below_space(bytes)?;
    if tab == 0 || bytes[tab] != b'\t' {
        return None;
    }
    let name = &bytes[..tab];
    let (mut value, swar) = leading_digits(&bytes[tab + 1..]);
    let mut i = tab + 1 + swar;
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
    // Below 2^53: through `i64`, one instruction where `u64` takes several.
    let whole = match value < WHOLE_BELOW as f64 {
        true => value as i64 as u64,
        false => u64::MAX,
    };
    Some(DataLine {
        name_len: tab,
        value,
        whole,
        len,
    })
}

/// [`scan_data_line`] of the line at the start of the window `w` (a line's first
/// [`WIDTH`] bytes) when it ends within the window, has at most [`WINDOW_DIGITS`]
/// digits and ends in `\n`, from the window's mask of the bytes at or below space
/// ([`super::byte_masks`]) rather than loops; `None` for any other line, which the
/// caller then hands to [`scan_data_line`]. Where it gives a line, it is that line.
#[inline(always)]
pub(crate) fn line_in_window(w: &[u8; WIDTH]) -> Option<DataLine> {
    let low = low_mask(w);
    // The first byte at or below space must be the TAB, the second the line end.
    let tab = low.trailing_zeros() as usize;
    let end = (low & low.wrapping_sub(1)).trailing_zeros() as usize;
    if end >= WIDTH || tab == 0 || w[tab] != b'\t' || w[end] != b'\n' {
        return None;
    }
    let count = end - tab - 1;
    if count == 0 || count > WINDOW_DIGITS {
        return None;
    }
    let name = &w[..tab];
    // Keywords are short and upper-case: names that are neither (most) skip the call,
    // tested with `&` rather than `&&` so that one jump decides.
    let maybe_keyword = (tab <= LONGEST_KEYWORD) & name[0].is_ascii_uppercase();
    let keyword = maybe_keyword && keyword(name).is_some();
    if name[0] == b'"' || keyword {
        return None;
    }
    let whole = digits_before(w, end, count)?;
    Some(DataLine {
        name_len: tab,
        // Below 2^53: through `i64`, one instruction where `u64` takes several.
        value: whole as i64 as f64,
        whole,
        len: end + 1,
    })
}

/// The most digits [`line_in_window`] reads: every such number is below 2^53, so
/// it is exact as a double and as a sum's term.
pub(crate) const WINDOW_DIGITS: usize = 15;

/// The value of the `count` (1 to [`WINDOW_DIGITS`]) bytes that end before `w[end]`;
/// `None` unless they are all ASCII digits.
#[inline(always)]
fn digits_before(w: &[u8; WIDTH], end: usize, count: usize) -> Option<u64> {
    let word = |to: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&w[to - 8..to]);
        u64::from_le_bytes(b) ^ 0x3030_3030_3030_3030
    };
    if end < 16 {
        // Too near the window's start for whole words before the end: rare and short.
        return w[end - count..end].iter().try_fold(0, |v, &d| {
            let d = d.wrapping_sub(b'0');
            (d <= 9).then(|| v * 10 + u64::from(d))
        });
    }
    // The last (up to) eight digits in the top bytes of the word that ends at `end`.
    let low = count.min(8);
    let last = word(end);
    if !top_are_digits(last, low) {
        return None;
    }
    let last = top_digits(last, low);
    if count <= 8 {
        return Some(last);
    }
    let first = word(end - 8);
    if !top_are_digits(first, count - 8) {
        return None;
    }
    Some(top_digits(first, count - 8) * 100_000_000 + last)
}

/// Whether the top `n` (1 to 8) bytes of `t` (bytes minus `'0'`, as `^ 0x30`) were ASCII
/// digits: 0 to 9 now, so a high nibble of 0 and a low one that adding 6 does not carry
/// into the high nibble (the low nibbles alone are added: no carry between bytes).
#[inline(always)]
fn top_are_digits(t: u64, n: usize) -> bool {
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    let other = ((t & HIGH) | ((t & !HIGH) + 0x0606_0606_0606_0606)) & HIGH;
    other & (u64::MAX << (8 * (8 - n))) == 0
}

/// The value of the `n` (1 to 8) digits in the top bytes of `t` (bytes minus `'0'`); the
/// bytes below them are ignored.
#[inline(always)]
fn top_digits(t: u64, n: usize) -> u64 {
    // No branch on `n == 8`: digit counts vary from line to line.
    let mut v = t & (u64::MAX << (8 * (8 - n)));
    // Pairs, quads, octets (as in `leading_digits`); the callers checked the digits, so
    // nothing overflows, and wrapping arithmetic costs no check.
    v = v.wrapping_mul(10).wrapping_add(v >> 8) & 0x00ff_00ff_00ff_00ff;
    v = v.wrapping_mul(100).wrapping_add(v >> 16) & 0x0000_ffff_0000_ffff;
    v = v.wrapping_mul(10_000).wrapping_add(v >> 32) & 0x0000_0000_ffff_ffff;
    v
}

/// The value of the digits at the start of `bytes` and their count, eight bytes at a
/// time; `(0, 0)` when fewer than eight bytes are left, and at most eight digits (the
/// caller reads any further digits, and all of them when fewer than eight bytes are left).
#[inline]
fn leading_digits(bytes: &[u8]) -> (u64, usize) {
    if bytes.len() < 8 {
        return (0, 0);
    }
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    // '0'..='9' become 0..=9; every other byte has a high nibble, or a low one of 10
    // and more (which the +6 carries into the high nibble, never out of the byte).
    let t = u64::from_le_bytes(word) ^ 0x3030_3030_3030_3030;
    let other = ((t & 0xf0f0_f0f0_f0f0_f0f0)
        | ((t & 0x0f0f_0f0f_0f0f_0f0f) + 0x0606_0606_0606_0606))
        & 0xf0f0_f0f0_f0f0_f0f0;
    let n = if other == 0 {
        8
    } else {
        (other.trailing_zeros() / 8) as usize
    };
    if n == 0 {
        return (0, 0);
    }
    // The n digits to the top bytes (leading zeros below), then pairs, quads, octets.
    let mut v = t << (8 * (8 - n));
    v = (v.wrapping_mul(10) + (v >> 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_ffff_0000_ffff;
    v = (v.wrapping_mul(10_000) + (v >> 32)) & 0x0000_0000_ffff_ffff;
    (v, n)
}

/// Index of the first byte <= 0x20 (every whitespace byte, NUL and most controls), eight
/// bytes at a time: this scan runs over every data line of a profile.
fn first_at_or_below_space(bytes: &[u8]) -> Option<usize> {
    const ONES: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    const HIGHS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;
    let n = bytes.len();
    let mut i = 0;
    // Sixteen bytes at a time (names are 30 to 40 bytes in big profiles).
    while i + 16 <= n {
        let mut word = [0u8; 16];
        word.copy_from_slice(&bytes[i..i + 16]);
        let w = u128::from_le_bytes(word);
        // Sets the high bit of each byte below 0x21 (bytes >= 0x80 are masked out by
        // `!w`). A borrow only runs upwards from a byte that is below 0x21, so the lowest
        // bit set marks the first such byte exactly.
        let found = w.wrapping_sub(ONES * 0x21) & !w & HIGHS;
        if found != 0 {
            return Some(i + (found.trailing_zeros() / 8) as usize);
        }
        i += 16;
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

    /// [`line_in_window`] of the line at the start of `bytes`, as the scan takes it.
    fn window_data_line(bytes: &[u8]) -> Option<DataLine> {
        line_in_window(bytes.get(..WIDTH)?.try_into().ok()?)
    }

    #[test]
    fn finds_the_first_byte_at_or_below_space() {
        for len in 0..100 {
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
    fn leading_digits_match_a_digit_loop() {
        let mut next = crate::test_rng::xorshift(99);
        let alphabet = b"0123456789\n\r\t /:;.a\x00\xff\x2f\x3a";
        for _ in 0..200_000 {
            let len = (next() % 14) as usize;
            let digits = (next() % 12) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    if k < digits {
                        b'0' + (next() % 10) as u8
                    } else {
                        alphabet[(next() % alphabet.len() as u64) as usize]
                    }
                })
                .collect();
            let (v, n) = leading_digits(&bytes);
            if bytes.len() < 8 {
                assert_eq!((v, n), (0, 0));
                continue;
            }
            let count = bytes[..8].iter().take_while(|b| b.is_ascii_digit()).count();
            let expected = bytes[..count]
                .iter()
                .fold(0u64, |a, &d| a * 10 + u64::from(d - b'0'));
            assert_eq!((v, n), (expected, count), "{bytes:?}");
        }
    }

    /// Wherever the window's way finds a line, it is [`scan_data_line`]'s, over lines of
    /// every shape near GHC's (names with spaces, quotes, keywords, high bytes; 0 to 20
    /// digits; every line end; the line end inside, at and past the window's end).
    #[test]
    fn window_lines_are_the_scanned_lines() {
        let mut next = crate::test_rng::xorshift(5);
        let names: [&[u8]; 8] = [
            b"(1)a.b",
            b"MAIN",
            b"BEGIN_SAMPLE",
            b"MARK",
            b"\"q",
            b"a b",
            b"\xc3\xbcber",
            b"*",
        ];
        let (mut taken, mut lines) = (0, 0);
        for _ in 0..300_000 {
            let mut line: Vec<u8> = names[(next() % 8) as usize].to_vec();
            for _ in 0..next() % 50 {
                line.push(b"abc()./_9\x80\xff"[(next() % 11) as usize]);
            }
            if next() % 10 == 0 {
                let at = (next() % line.len() as u64) as usize;
                line.insert(at, b"\t \x00"[(next() % 3) as usize]);
            }
            line.push(if next() % 8 == 0 { b' ' } else { b'\t' });
            for _ in 0..next() % 21 {
                line.push(b'0' + (next() % 10) as u8);
            }
            if next() % 16 == 0 {
                line.push(b"x.- "[(next() % 4) as usize]);
            }
            line.extend_from_slice([&b"\n"[..], b"\r\n", b"\r", b""][(next() % 4) as usize]);
            line.extend((0..next() % 80).map(|_| next() as u8));
            lines += 1;
            if let Some(found) = window_data_line(&line) {
                taken += 1;
                assert_eq!(Some(found), scan_data_line(&line, false), "{line:?}");
            }
        }
        assert!(
            taken * 20 > lines,
            "the window's way taken for {taken} of {lines}"
        );
        let ghc = b"(1775)unionWith/adjust/simulate/decode.ac...\t50417528\nnext line to fill";
        let found = window_data_line(ghc).expect("a GHC line");
        assert_eq!(
            (found.name_len, found.value, found.len),
            (44, 50417528.0, 54)
        );
        let long = [&b"(1)x\t123456789012345\n"[..], &[b'.'; 64]].concat();
        assert_eq!(
            window_data_line(&long).map(|l| l.value),
            Some(123456789012345.0)
        );
        let longer = [&b"(1)x\t1234567890123456\n"[..], &[b'.'; 64]].concat();
        assert_eq!(
            window_data_line(&longer),
            None,
            "more than WINDOW_DIGITS digits"
        );
        assert_eq!(
            window_data_line(&long[..63]),
            None,
            "fewer than WIDTH bytes"
        );
    }

    /// A mapped file cut while read turns its bytes to zeros between the masks' look and
    /// the digits' read (CI, `tests/changed_while_read.rs`), and one written meanwhile to
    /// anything: the value is then nonsense (the reader reports the change), but reading
    /// it must not panic (a debug build's overflow checks), near the window's start or
    /// further on, whatever the bytes.
    #[test]
    fn digits_before_reads_digits_and_refuses_anything_else() {
        // Windows of any bytes (a mapped file cut meanwhile reads back as zeros), and of
        // digits with now and then another byte among them.
        let mut next = crate::test_rng::xorshift(3);
        let any = b"0123456789/:\x00\xff\x30\x39\xfa\x0a\x3a\x2f ";
        for round in 0..4_000 {
            let w: [u8; WIDTH] = std::array::from_fn(|_| match round {
                0 => 0,
                1 => 0xff,
                _ if round % 2 == 0 => next() as u8,
                _ if next() % 12 == 0 => any[(next() % any.len() as u64) as usize],
                _ => b'0' + (next() % 10) as u8,
            });
            for end in 1..WIDTH {
                for count in 1..=WINDOW_DIGITS.min(end) {
                    let digits = &w[end - count..end];
                    let want = digits
                        .iter()
                        .all(u8::is_ascii_digit)
                        .then(|| (digits.iter()).fold(0u64, |v, &d| v * 10 + u64::from(d - b'0')));
                    assert_eq!(digits_before(&w, end, count), want, "{w:?} {end} {count}");
                }
            }
        }
    }

    #[test]
    fn no_keyword_is_longer_than_the_longest() {
        for k in [
            &b"BEGIN_SAMPLE"[..],
            b"END_SAMPLE",
            b"JOB",
            b"DATE",
            b"SAMPLE_UNIT",
            b"VALUE_UNIT",
            b"MARK",
        ] {
            assert!(keyword(k).is_some() && k.len() <= LONGEST_KEYWORD, "{k:?}");
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
