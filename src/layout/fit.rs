//! `--key-labels fit`: key labels too wide for the page lose their middle.
//!
//! Widths are the real Helvetica advances PostScript uses ([`ps_text_width`]), not
//! hp2ps's estimate: the estimate is what makes labels leave the page in the first place
//! (it undercounts wide and non-ASCII characters), and what must fit is what is drawn.
//! The elision mark is ASCII `...`, because PostScript's Helvetica shows bytes in its
//! standard encoding, where a UTF-8 `…` would be three stray glyphs.

use crate::fonts::ps_text_width;

use super::chart::SMALL_FONT;

/// What replaces the middle of a shortened label.
pub(super) const ELLIPSIS: &[u8] = b"...";

/// The real width of a key label, in points.
pub(super) fn label_width(label: &[u8]) -> f64 {
    ps_text_width(label, SMALL_FONT)
}

/// `label` if it is at most `room` points wide; otherwise its start and its end around
/// [`ELLIPSIS`], as many characters of each (the end getting the odd one) as fit in
/// `room`. Characters are UTF-8 characters when the label is valid UTF-8, else bytes, so
/// no character is cut in two.
pub(super) fn elide(label: &[u8], room: f64) -> Option<Vec<u8>> {
    if label_width(label) <= room {
        return None;
    }
    // Byte offsets where a character starts, and the end.
    let bounds: Vec<usize> = match std::str::from_utf8(label) {
        Ok(s) => s
            .char_indices()
            .map(|(i, _)| i)
            .chain([label.len()])
            .collect(),
        Err(_) => (0..=label.len()).collect(),
    };
    let chars = bounds.len() - 1;
    let build = |keep: usize| {
        let head = keep / 2;
        let tail = keep - head;
        let mut out = label[..bounds[head]].to_vec();
        out.extend_from_slice(ELLIPSIS);
        out.extend_from_slice(&label[bounds[chars - tail]..]);
        out
    };
    // The most characters kept that still fit (widths grow with `keep`).
    let (mut lo, mut hi) = (0, chars.saturating_sub(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if label_width(&build(mid)) <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(build(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elides_the_middle_only_when_too_wide() {
        let name = b"Data.Map.Internal.insert/main";
        assert_eq!(elide(name, 1000.0), None);
        let short = elide(name, 80.0).expect("shortened");
        assert!(label_width(&short) <= 80.0);
        assert!(short.starts_with(b"Data."), "{short:?}");
        assert!(short.ends_with(b"main"), "{short:?}");
        assert!(short.windows(3).any(|w| w == ELLIPSIS));
        // One more character would not fit.
        let s = String::from_utf8(short).unwrap();
        assert!(s.len() < name.len());
    }

    #[test]
    fn keeps_utf8_characters_whole() {
        let name = "ÄÖÜäöüßéèêëàâ/ÄÖÜäöüßéèêëàâ".as_bytes();
        let short = elide(name, 60.0).expect("shortened");
        assert!(std::str::from_utf8(&short).is_ok());
        assert!(elide(b"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7", 5.0).is_some());
    }
}
