//! Text placed glyph by glyph, where PostScript's `show` puts each glyph: renderers of
//! SVG kern, `show` does not (see the painter's `write_text`). Only the glyphs that can
//! be seen are placed: a text is at most a few hundred elements however long it is (a
//! DATE of a megabyte would otherwise be a million `<tspan>`s, which rsvg refuses and a
//! browser takes a minute to lay out).

use crate::fonts;
use crate::layout::chart::Anchor;

pub(crate) use fonts::helvetica_advance;

/// The characters of `text` that show within `seen` (a range along the baseline), each
/// with the position of its glyph when shown with Helvetica at `size` and aligned at
/// `x`, as PostScript's `show` after a `stringwidth` shift places it. `None` when a
/// character has no Helvetica width (or the bytes are not UTF-8).
pub(super) fn glyph_positions(
    text: &[u8],
    x: f64,
    size: f64,
    anchor: Anchor,
    seen: (f64, f64),
) -> Option<Vec<(f64, char)>> {
    let text = std::str::from_utf8(text).ok()?;
    let mut total = 0u64;
    for c in text.chars() {
        total += u64::from(helvetica_advance(c)?);
    }
    let em = size / 1000.0;
    let start = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - total as f64 * em / 2.0,
        Anchor::End => x - total as f64 * em,
    };
    let mut advanced = 0u64;
    let mut glyphs = Vec::new();
    for c in text.chars() {
        let at = start + advanced as f64 * em;
        let advance = u64::from(helvetica_advance(c).unwrap_or(0));
        advanced += advance;
        let end = start + advanced as f64 * em;
        if at > seen.1 {
            break;
        }
        if end >= seen.0 {
            glyphs.push((at, c));
        }
    }
    Some(glyphs)
}

/// At most this many characters of a text the viewer lays out itself (characters
/// Helvetica lacks: CJK, Greek, …): more than a page's width holds at a tenth of an em
/// each.
pub(super) const MOST_UNPLACED: usize = 1024;

/// The part of `text` (not placed glyph by glyph) that can show: at most
/// [`MOST_UNPLACED`] characters from its anchored end (the first for `Start`, the last
/// for `End`, the middle ones for `Middle`). Bytes that are not UTF-8 count as
/// characters of their own, as the escape shows each bad sequence as one U+FFFD.
pub(super) fn unplaced_part(text: &[u8], anchor: Anchor) -> std::borrow::Cow<'_, [u8]> {
    let lossy = String::from_utf8_lossy(text);
    let count = lossy.chars().count();
    if count <= MOST_UNPLACED {
        return std::borrow::Cow::Borrowed(text);
    }
    let skip = match anchor {
        Anchor::Start => 0,
        Anchor::Middle => (count - MOST_UNPLACED) / 2,
        Anchor::End => count - MOST_UNPLACED,
    };
    let part: String = lossy.chars().skip(skip).take(MOST_UNPLACED).collect();
    std::borrow::Cow::Owned(part.into_bytes())
}
