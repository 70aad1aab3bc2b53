//! Text placed glyph by glyph, where PostScript's `show` puts each glyph: renderers of
//! SVG kern, `show` does not (see the painter's `write_text`).

use crate::fonts;
use crate::layout::chart::Anchor;

/// The advance of a character in Helvetica, in 1/1000 em: printable ASCII and the rest of
/// the WinAnsi repertoire (Latin-1 and a few typographic characters). `None` for others.
pub(crate) fn helvetica_advance(c: char) -> Option<u16> {
    let code = fonts::char_to_winansi(c);
    let known = code != fonts::REPLACEMENT || c == char::from(fonts::REPLACEMENT);
    known.then(|| fonts::winansi_width(code))
}

/// Every character of `text` with the x of its glyph when shown with Helvetica at
/// `size` and aligned at `x`, as PostScript's `show` after a `stringwidth` shift places
/// it. `None` when a character has no Helvetica width (or the bytes are not UTF-8).
pub(super) fn glyph_positions(
    text: &[u8],
    x: f64,
    size: f64,
    anchor: Anchor,
) -> Option<Vec<(f64, char)>> {
    let text = std::str::from_utf8(text).ok()?;
    let advances: Vec<u16> = text.chars().map(helvetica_advance).collect::<Option<_>>()?;
    let total: u32 = advances.iter().map(|&a| u32::from(a)).sum();
    let em = size / 1000.0;
    let start = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - f64::from(total) * em / 2.0,
        Anchor::End => x - f64::from(total) * em,
    };
    let mut advanced = 0u32;
    let glyphs = text
        .chars()
        .zip(advances)
        .map(|(c, a)| {
            let at = start + f64::from(advanced) * em;
            advanced += u32::from(a);
            (at, c)
        })
        .collect();
    Some(glyphs)
}
