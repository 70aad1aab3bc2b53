//! Helvetica text metrics: the real widths, for the layout that fits key labels to the
//! page and for painters that place text themselves. Below both: it knows no chart and
//! no format.
//!
//! Two encodings matter:
//! * The PostScript painter writes the raw bytes of a name and shows them with
//!   `/Helvetica findfont`, whose encoding is StandardEncoding. [`ps_text_width`] is how
//!   wide ghostscript makes such a string, so an EPS bounding box can contain it.
//! * The PDF painter uses the base-14 Helvetica with WinAnsiEncoding, so names are first
//!   decoded to characters and re-encoded with [`to_winansi`].
//!
//! The widths are Nimbus Sans Regular's (metric-compatible with Helvetica, and the font
//! ghostscript substitutes for it), generated into `helvetica_widths.rs` by
//! `scripts/gen-helvetica-metrics.py`.

mod helvetica_widths;
#[cfg(test)]
mod tests;

use helvetica_widths::{
    STANDARD_ENCODING_WIDTHS, WINANSI_80_9F, WINANSI_INK_BOTTOM, WINANSI_INK_TOP, WINANSI_WIDTHS,
};

/// How far a font's ink reaches below and above the baseline, in em.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Ink {
    pub(crate) bottom: f64,
    pub(crate) top: f64,
}

/// Helvetica's font bounding box (AFM `FontBBox`), bottom and top, in 1/1000 em.
const FONT_BBOX_BOTTOM: i16 = -225;
const FONT_BBOX_TOP: i16 = 931;

/// How far the ink of any text a painter shows can reach below and above the baseline,
/// in em: for the extent of what is drawn (the EPS bounding box, the PDF page). It holds
/// both the font bounding box (a PostScript string can show any byte) and the ink of
/// every WinAnsi glyph (what the PDF shows), whose accented capitals reach above the
/// bounding box.
pub(crate) const INK: Ink = Ink {
    bottom: min(FONT_BBOX_BOTTOM, WINANSI_INK_BOTTOM) as f64 / 1000.0,
    top: max(FONT_BBOX_TOP, WINANSI_INK_TOP) as f64 / 1000.0,
};

const fn min(a: i16, b: i16) -> i16 {
    if a < b {
        a
    } else {
        b
    }
}

const fn max(a: i16, b: i16) -> i16 {
    if a > b {
        a
    } else {
        b
    }
}

/// The character that stands for anything WinAnsi cannot show. WinAnsi has no U+FFFD,
/// and `?` is visible in every viewer.
pub(crate) const REPLACEMENT: u8 = b'?';

/// Advance width, in 1/1000 em, of the glyph at a WinAnsiEncoding code. Codes WinAnsi
/// assigns no glyph (0x00–0x1F, 0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D) give 0:
/// [`to_winansi`] never produces them.
pub(crate) fn winansi_width(code: u8) -> u16 {
    WINANSI_WIDTHS[code as usize]
}

/// Advance width, in 1/1000 em, of the byte `code` shown with `/Helvetica findfont`
/// (StandardEncoding). Codes with no glyph in StandardEncoding (the control bytes, 0x7F,
/// 0x80–0xA0 and the gaps above) draw `.notdef`, which in ghostscript's Helvetica draws
/// nothing but still advances 278.
pub(crate) fn standard_encoding_width(code: u8) -> u16 {
    STANDARD_ENCODING_WIDTHS[code as usize]
}

/// Width in points of WinAnsi-encoded text at `size` points.
pub(crate) fn winansi_text_width(winansi: &[u8], size: f64) -> f64 {
    em_width(winansi.iter().map(|&c| winansi_width(c)), size)
}

/// Width in points of raw bytes shown in PostScript with Helvetica at `size` points.
///
/// This is the font's exact advance. Ghostscript truncates each glyph's advance to
/// 1/256 of a device pixel, so its `stringwidth` can be smaller by up to that much per
/// byte (at 72 dpi: 1/256 pt), never larger.
pub fn ps_text_width(bytes: &[u8], size: f64) -> f64 {
    em_width(bytes.iter().map(|&c| standard_encoding_width(c)), size)
}

fn em_width(widths: impl Iterator<Item = u16>, size: f64) -> f64 {
    let total: u64 = widths.map(u64::from).sum();
    total as f64 * size / 1000.0
}

/// Re-encodes a name from the profile as WinAnsi bytes, one byte per character shown.
///
/// The rule:
/// * Valid UTF-8 sequences are decoded, and each character is mapped to WinAnsi.
/// * Each byte of an invalid UTF-8 sequence is taken alone: 0xA0–0xFF as the Latin-1
///   character of that value (GHC writes some `-hd`/`-hy` names in Latin-1, and Latin-1
///   text rarely forms valid UTF-8), anything else as `REPLACEMENT` (`?`). So Latin-1 text
///   that happens to be valid UTF-8 (such as `Ã©`) is read as UTF-8.
/// * Characters WinAnsi lacks, and control characters (tab included), become
///   `REPLACEMENT`: never dropped, so the text keeps one visible mark per character.
pub fn to_winansi(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for chunk in text.utf8_chunks() {
        out.extend(chunk.valid().chars().map(char_to_winansi));
        out.extend(chunk.invalid().iter().map(|&b| invalid_byte_to_winansi(b)));
    }
    out
}

/// The advance of a character in Helvetica, in 1/1000 em: printable ASCII and the rest of
/// the WinAnsi repertoire (Latin-1 and a few typographic characters). `None` for others.
pub(crate) fn helvetica_advance(c: char) -> Option<u16> {
    let code = char_to_winansi(c);
    let known = code != REPLACEMENT || c == char::from(REPLACEMENT);
    known.then(|| winansi_width(code))
}

/// The WinAnsi code of a character, or [`REPLACEMENT`].
pub(crate) fn char_to_winansi(c: char) -> u8 {
    match c {
        // Printable ASCII and the printable Latin-1 range are the same codes in WinAnsi.
        ' '..='~' | '\u{A0}'..='\u{FF}' => c as u8,
        _ => WINANSI_80_9F
            .iter()
            .find(|(ch, _)| *ch == c)
            .map_or(REPLACEMENT, |&(_, code)| code),
    }
}

/// A byte that is not part of valid UTF-8: Latin-1 when printable there.
fn invalid_byte_to_winansi(b: u8) -> u8 {
    if b >= 0xA0 {
        b
    } else {
        REPLACEMENT
    }
}
