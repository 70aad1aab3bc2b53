//! The SVG painter's state, and its words: how it writes text (escaped for XML),
//! numbers and colours. The page walk's items are painted by `mod.rs`; a long band of a
//! large document in pieces by `pieces.rs`, a pattern by `pattern.rs`.

use crate::layout::chart::Chart;
use crate::paint::buffer::Buffered;

/// Escapes text for XML character data and attribute values (both quote kinds), from
/// bytes that should be UTF-8:
/// * invalid UTF-8 becomes U+FFFD, one per bad sequence;
/// * `& < > " '` become entity references;
/// * TAB, LF and CR become character references, so the XML parser's line-end and
///   attribute normalisation leaves them as they were;
/// * characters XML 1.0 forbids (the other C0 controls, U+FFFE and U+FFFF) become U+FFFD.
pub fn escape(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let mut out = String::with_capacity(lossy.len() + 8);
    for c in lossy.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Formats a coordinate with at most 3 decimals, trailing zeros trimmed, and no `-0`.
/// The caller checks that `x` is finite.
pub(crate) fn number(x: f64) -> String {
    let mut s = format!("{x:.3}");
    if s.contains('.') {
        let trimmed = s.trim_end_matches('0').trim_end_matches('.').len();
        s.truncate(trimmed);
    }
    if s == "-0" {
        s.remove(0);
    }
    s
}

/// An sRGB colour as `#rrggbb`.
pub(crate) fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Writes each item the walk hands it as an SVG element.
pub(super) struct SvgPainter<'a, W> {
    pub(super) chart: &'a Chart,
    pub(super) out: Buffered<'a, W>,
    /// How many clip paths (of patterned areas) have been written.
    pub(super) clips: usize,
    /// Whether elements carry classes ([`write_svg_with_tags`]).
    pub(super) tagged: bool,
    /// How many lines over the bands have been written.
    pub(super) series: usize,
}

impl<W> SvgPainter<'_, W> {
    /// `attribute` when elements are tagged ([`write_svg_with_tags`]), else nothing.
    pub(super) fn tag(&self, attribute: &'static str) -> &'static str {
        if self.tagged {
            attribute
        } else {
            ""
        }
    }
}
