//! Labels fitted to their room with Helvetica's widths: whole when they fit, else cut
//! with an ellipsis (`…`) after as many characters as fit with it, else nothing. A
//! character Helvetica has no glyph for (CJK, Greek, …: the viewer draws it from
//! another font) is taken as an em wide, which such glyphs rarely exceed.

use crate::fonts::helvetica_advance;

/// The ellipsis a cut label ends with.
const ELLIPSIS: char = '\u{2026}';

/// A character's advance in 1/1000 em.
fn advance(c: char) -> u32 {
    u32::from(helvetica_advance(c).unwrap_or(1000))
}

/// The width of `text` at `size` points.
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    let em: u32 = text.chars().map(advance).sum();
    f64::from(em) * size / 1000.0
}

/// `text` as it fits in `room` points at `size`: whole, or its first characters and an
/// ellipsis (at least one of them), or empty.
pub(crate) fn fit_text(text: &str, room: f64, size: f64) -> String {
    if !(room > 0.0 && size > 0.0) {
        return String::new();
    }
    let room_em = room * 1000.0 / size;
    let mut used = 0.0;
    // The characters that fit with an ellipsis after them.
    let with_ellipsis = room_em - f64::from(advance(ELLIPSIS));
    let mut cut = None;
    for (i, c) in text.char_indices() {
        let next = used + f64::from(advance(c));
        if cut.is_none() && next > with_ellipsis {
            cut = Some(i);
        }
        if next > room_em {
            return match cut {
                Some(0) | None => String::new(),
                Some(at) => format!("{}{ELLIPSIS}", text[..at].trim_end()),
            };
        }
        used = next;
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_fits_whole_cut_or_not_at_all() {
        let size = 10.0;
        let whole = text_width("countWords", size);
        assert_eq!(fit_text("countWords", whole, size), "countWords");
        let cut = fit_text("countWords", whole - 1.0, size);
        assert!(
            cut.ends_with('…') && cut.len() < "countWords…".len(),
            "{cut}"
        );
        assert!(text_width(&cut, size) <= whole - 1.0);
        assert_eq!(fit_text("countWords", 5.0, size), "");
        assert_eq!(fit_text("countWords", 0.0, size), "");
        // A wide glyph Helvetica lacks counts as an em.
        assert_eq!(text_width("日本", 10.0), 20.0);
        assert_eq!(fit_text("日本語", 25.0, 10.0), "日…");
    }
}
