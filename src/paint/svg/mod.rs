//! The SVG painter: the same picture as the EPS, as one standalone SVG document.
//!
//! * **Size.** The 648 × 432 pt border box is the `viewBox` (in chart points) and is
//!   scaled to [`SvgOptions::width`] points (the `-e` width); the `width` and `height`
//!   attributes are in `pt`. As in the EPS, the outer half of the border's stroke lies
//!   outside the box.
//! * **Coordinates.** The chart is y-up with its origin at the lower-left corner of the
//!   border box; SVG is y-down, so every y is written as `432 − y`. Text is never
//!   mirrored.
//! * **Pages.** A chart of several pages (`-M`, or `-m` above 20) becomes ONE picture with
//!   the pages stacked vertically, page 1 on top: page *k* (from 0) occupies the viewBox
//!   rows `432·k … 432·(k+1)` and the height attribute grows accordingly. The PostScript's
//!   placement quirk (the EPS scale is lost after page 1) has no equivalent here: every
//!   page has the same scale.
//! * **Elements.** Exactly what the PostScript draws, in the same order (the page walk
//!   both follow): border, title box
//!   (plus the divider of the big box) and its three texts, x axis with legend and ticks,
//!   y axis with its rotated legend and ticks, key entries, bands (fill then stroke, the
//!   same vertex sequence), marks. Strokes are black, 0.5 wide, with PostScript's default
//!   joins (miter, miter limit 10, where SVG's default is 4) and butt caps. The full JOB
//!   is the document's `<title>` (like `%%Title`; not drawn). In a large document a long
//!   band is several elements instead of one polygon, so that libxml2 reads it (see
//!   `pieces.rs`).
//! * **Text.** Helvetica at 10 pt (axes, key) and 12 pt (title). PostScript's `show` does
//!   not kern, SVG renderers do, so text whose characters all have Helvetica widths (ASCII,
//!   Latin-1 and the rest of WinAnsi) is placed glyph by glyph, each glyph in its own
//!   `<tspan x>` exactly where `show` puts it, and centred or right-aligned with the
//!   widths `stringwidth` uses. Other text (CJK, Greek, ...; PostScript cannot show it
//!   anyway, it prints the UTF-8 bytes as Latin glyphs) is aligned with `text-anchor`
//!   and laid out by the viewer. Spaces are kept (`xml:space="preserve"`).
//! * **Fonts.** `'Nimbus Sans', 'Nimbus Sans L', Helvetica, Arial, 'Liberation Sans',
//!   sans-serif`. Nimbus Sans (URW's Helvetica, the font ghostscript draws the EPS with)
//!   comes first because Chromium on Linux resolves `Helvetica` to Liberation Sans (an
//!   Arial design) even when Nimbus Sans is installed; where Nimbus is missing, Helvetica
//!   (macOS) or Arial (Windows) follow. All have Helvetica's widths.
//! * **Names.** Names are bytes. Valid UTF-8 shows as its characters; invalid sequences
//!   (GHC writes `-hd`/`-hy` names in Latin-1, `-L` cuts UTF-8 names mid-character) show
//!   as U+FFFD, one per bad sequence. See [`escape`] for the XML side.
//! * **Colours.** Greys and colour shades are clamped to [0, 1] as PostScript clamps them
//!   (hp2ps's colour formula can give components above 1), then written as `#rrggbb`
//!   (every rasteriser works in 8 bits; hex is the most portable colour syntax).
//! * **Numbers** are written with at most 3 decimals (1/1000 pt), trailing zeros trimmed,
//!   so the output is deterministic and compact. An element with a coordinate that is not
//!   finite (hp2ps's arithmetic gives NaN for some degenerate profiles) is left out: the
//!   PostScript cannot draw it either (its interpreter stops at `nan`).
//!
//! The XML is written by hand: the document uses a handful of element kinds, and one
//! small, tested escape function ([`escape`]) is all the XML knowledge needed, which is
//! simpler to audit than a dependency.

use std::io::{self, Write};

use super::buffer::Buffered;
use super::geometry::{band_outline, box_corners, caret};
use super::walk::{walk, BoxKind, Line, LineKind, Painter, Rect, Text, TextRole};
use crate::layout::chart::*;
use glyphs::glyph_positions;
pub(crate) use glyphs::helvetica_advance;
pub use painter::escape;
use painter::SvgPainter;
pub(crate) use painter::{hex, number};

/// SVG output settings.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SvgOptions {
    /// Width of the picture in points (the border box's 648 pt scaled to this; the `-e`
    /// width). Values that are not finite and positive fall back to 648. Default: `648.0`.
    pub width: f64,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            width: BORDER_WIDTH,
        }
    }
}

/// The font list: Helvetica's URW clone first (see the module doc), then Helvetica and
/// the fonts with its widths.
pub(crate) const FONT_FAMILY: &str =
    "'Nimbus Sans', 'Nimbus Sans L', Helvetica, Arial, 'Liberation Sans', sans-serif";

/// Writes the chart as an SVG document.
pub fn write_svg<W: Write>(chart: &Chart, opts: &SvgOptions, out: &mut W) -> io::Result<()> {
    write_svg_with_tags(chart, opts, false, out)
}

/// [`write_svg`], the graph's elements marked with classes when `tagged`, for the HTML
/// page's script, which redraws them, and its style: `page` (a page's group), `xt`/`yt`
/// (an x or y tick and its label), `yl` and `xl` (the y and x legends), `axis` (an axis),
/// `frame` (the border box), `title` (the title box, its divider and its texts), `bands`
/// (the bands' group) and `band` (one band's elements), `series` and `line-N` (the N-th
/// line over the bands, from 0) and `mark`. The picture is the same.
pub(crate) fn write_svg_with_tags<W: Write>(
    chart: &Chart,
    opts: &SvgOptions,
    tagged: bool,
    out: &mut W,
) -> io::Result<()> {
    let mut p = SvgPainter {
        chart,
        out: Buffered::new(out),
        clips: 0,
        tagged,
        series: 0,
    };
    p.header(opts);
    walk(chart, &mut p)?;
    p.raw("</g>\n</svg>\n");
    p.out.pass_on()
}

impl<W: Write> SvgPainter<'_, W> {
    fn raw(&mut self, s: &str) {
        self.out.buf.extend_from_slice(s.as_bytes());
    }

    fn header(&mut self, opts: &SvgOptions) {
        let width = if opts.width.is_finite() && opts.width > 0.0 {
            opts.width
        } else {
            BORDER_WIDTH
        };
        let pages = self.chart.pages.len().max(1) as f64;
        let view_height = BORDER_HEIGHT * pages;
        let height = width * view_height / BORDER_WIDTH;
        self.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.raw(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{}pt\" \
             height=\"{}pt\" viewBox=\"0 0 {} {}\">\n",
            number(width),
            number(height),
            number(BORDER_WIDTH),
            number(view_height)
        ));
        // The full JOB, as the PostScript's %%Title; not drawn.
        let title = escape(&self.chart.job);
        self.raw(&format!("<title>{title}</title>\n"));
        // Defaults for every shape: PostScript's stroke; shapes set their own fill.
        self.raw(&format!(
            "<g stroke=\"#000\" stroke-width=\"{}\" stroke-linejoin=\"miter\" \
             stroke-miterlimit=\"10\" stroke-linecap=\"butt\" fill=\"none\" \
             font-family=\"{FONT_FAMILY}\">\n",
            number(LINE_WIDTH)
        ));
    }

    /// A `points` attribute value: the chart points as `x,y` pairs, y flipped to SVG's
    /// downward axis. `None` when a number is not finite, so the caller can leave the
    /// element out.
    fn points(pairs: &[(f64, f64)]) -> Option<String> {
        let mut s = String::with_capacity(pairs.len() * 16);
        for (i, &(x, y)) in pairs.iter().enumerate() {
            let y = BORDER_HEIGHT - y;
            if !(x.is_finite() && y.is_finite()) {
                return None;
            }
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&number(x));
            s.push(',');
            s.push_str(&number(y));
        }
        Some(s)
    }

    /// A closed polygon through the given chart points, filled with `fill` (or unfilled)
    /// and stroked, with a `<title>` child (a tooltip; draws nothing) when `title` is
    /// given, and `attributes` (empty, or starting with a space).
    fn titled_polygon(
        &mut self,
        pairs: &[(f64, f64)],
        fill: Option<&str>,
        title: Option<&[u8]>,
        attributes: &str,
    ) {
        let Some(points) = Self::points(pairs) else {
            return;
        };
        self.raw("<polygon");
        self.raw(attributes);
        self.raw(" points=\"");
        self.raw(&points);
        self.raw("\"");
        if let Some(fill) = fill {
            self.raw(&format!(" fill=\"{fill}\""));
        }
        self.close_with_title("polygon", title);
    }

    /// Ends an element's start tag: `/>`, or a `<title>` child and the end tag.
    fn close_with_title(&mut self, element: &str, title: Option<&[u8]>) {
        match title {
            None => self.raw("/>\n"),
            Some(title) => {
                let title = escape(title);
                self.raw(&format!("><title>{title}</title></{element}>\n"));
            }
        }
    }

    /// An open stroked path through the given chart points, with `attributes`.
    fn polyline(&mut self, pairs: &[(f64, f64)], attributes: &str) {
        let Some(points) = Self::points(pairs) else {
            return;
        };
        self.raw(&format!("<polyline{attributes} points=\"{points}\"/>\n"));
    }

    /// A text: `size` is the font size, `anchor` the alignment at (x, y), `rotate` turns
    /// it to read upwards about (x, y). Spaces are kept, as PostScript's `show` keeps them.
    ///
    /// `show` places each glyph at the previous one's advance, without kerning; SVG
    /// renderers kern (rsvg always, browsers by default), which moves text by up to a few
    /// points (`AVATAR To` comes out 4 pt shorter). So text with Helvetica widths gets an
    /// x for every glyph, and its alignment is done here as `stringwidth` does it. Other
    /// text is laid out by the viewer and aligned with `text-anchor`.
    #[allow(clippy::too_many_arguments)]
    fn write_text(
        &mut self,
        text: &[u8],
        (x, y): (f64, f64),
        size: f64,
        anchor: Anchor,
        rotate: bool,
        tooltip: Option<&[u8]>,
        attributes: &str,
    ) {
        let y = BORDER_HEIGHT - y;
        if text.is_empty() || !(x.is_finite() && y.is_finite()) {
            return;
        }
        // Rotated text is placed in its own frame, whose origin is the anchor point.
        let origin = if rotate { 0.0 } else { x };
        // What its page shows, along the baseline: across the page, or (reading
        // upwards from the anchor, which is `height` above the page's bottom) up it.
        let seen = if rotate {
            let height = BORDER_HEIGHT - y;
            (-height, BORDER_HEIGHT - height)
        } else {
            (0.0, BORDER_WIDTH)
        };
        let glyphs = glyph_positions(text, origin, size, anchor, seen);
        if glyphs.as_ref().is_some_and(Vec::is_empty) {
            return;
        }
        self.raw("<text");
        self.raw(attributes);
        self.raw(" xml:space=\"preserve\" stroke=\"none\" fill=\"#000\"");
        self.raw(&format!(" font-size=\"{}\"", number(size)));
        if glyphs.is_none() {
            match anchor {
                Anchor::Start => {}
                Anchor::Middle => self.raw(" text-anchor=\"middle\""),
                Anchor::End => self.raw(" text-anchor=\"end\""),
            }
        }
        if rotate {
            self.raw(&format!(
                " transform=\"translate({} {}) rotate(-90)\"",
                number(x),
                number(y)
            ));
        }
        let first_x = glyphs
            .as_ref()
            .and_then(|g| g.first())
            .map_or(origin, |g| g.0);
        self.raw(&format!(" x=\"{}\"", number(first_x)));
        if !rotate {
            self.raw(&format!(" y=\"{}\"", number(y)));
        }
        self.raw(">");
        if let Some(title) = tooltip {
            self.raw(&format!("<title>{}</title>", escape(title)));
        }
        match glyphs {
            Some(glyphs) => self.glyphs(&glyphs),
            None => self.raw(&escape(&glyphs::unplaced_part(text, anchor))),
        }
        self.raw("</text>\n");
    }

    /// The characters of a text, each after the first in a `<tspan>` at its own x. One
    /// `x` list on the `<text>` would say the same, but rsvg uses only its first value.
    fn glyphs(&mut self, glyphs: &[(f64, char)]) {
        let mut utf8 = [0u8; 4];
        for (i, &(x, c)) in glyphs.iter().enumerate() {
            let shown = escape(c.encode_utf8(&mut utf8).as_bytes());
            if i == 0 {
                self.raw(&shown);
            } else {
                self.raw(&format!("<tspan x=\"{}\">{shown}</tspan>", number(x)));
            }
        }
    }
}

impl<W: Write> Painter for SvgPainter<'_, W> {
    /// Page k (from 0) sits below the k pages before it.
    fn begin_page(&mut self, index: usize) {
        if index == 0 {
            let page = self.tag(" class=\"page\"");
            self.raw(&format!("<g{page}>\n"));
        } else {
            let dy = BORDER_HEIGHT * index as f64;
            let page = self.tag(" class=\"page\"");
            self.raw(&format!(
                "<g{page} transform=\"translate(0 {})\">\n",
                number(dy)
            ));
        }
    }

    fn end_page(&mut self, _index: usize) {
        self.raw("</g>\n");
    }

    fn stroke_box(&mut self, kind: BoxKind, rect: Rect) {
        let class = match kind {
            BoxKind::Border => self.tag(" class=\"frame\""),
            BoxKind::Title => self.tag(" class=\"title\""),
        };
        self.titled_polygon(&box_corners(rect), None, None, class);
    }

    fn stroke_line(&mut self, kind: LineKind, line: Line) {
        let class = match kind {
            LineKind::XTick => self.tag(" class=\"xt\""),
            LineKind::YTick => self.tag(" class=\"yt\""),
            LineKind::XAxis | LineKind::YAxis => self.tag(" class=\"axis\""),
            LineKind::Divider => self.tag(" class=\"title\""),
        };
        self.polyline(&[line.from, line.to()], class);
    }

    fn fill_box(&mut self, rect: Rect, fill: &Fill) {
        self.filled(&box_corners(rect), fill, None);
    }

    fn text(&mut self, t: &Text<'_>) {
        let upwards = t.role.upwards();
        let class = match t.role {
            TextRole::XTick => self.tag(" class=\"xt\""),
            TextRole::YTick => self.tag(" class=\"yt\""),
            TextRole::YLegend => self.tag(" class=\"yl\""),
            TextRole::XLegend => self.tag(" class=\"xl\""),
            TextRole::Job | TextRole::Area | TextRole::Date => self.tag(" class=\"title\""),
            _ => "",
        };
        let (bytes, at, size, anchor) = (t.bytes, t.at, t.size(), t.anchor);
        self.write_text(bytes, at, size, anchor, upwards, t.tooltip, class);
    }

    fn bands(&mut self, g: &Graph) -> io::Result<()> {
        let large = pieces::in_pieces(g.bands.len(), g.xs.len());
        let (group, band_group) = if self.tagged {
            ("<g class=\"bands\">\n", "<g class=\"band\">\n")
        } else {
            ("", "")
        };
        self.raw(group);
        for (i, band) in g.bands.iter().enumerate() {
            self.raw(band_group);
            if let Some(outline) = band_outline(g, i) {
                let points: Vec<(f64, f64)> = outline.collect();
                let tooltip = Some(&band.tooltip[..]);
                match large.then(|| pieces::cut(&points)).flatten() {
                    Some(cut) => self.filled_in_pieces(&points, cut, &band.fill, tooltip),
                    None => self.filled(&points, &band.fill, tooltip),
                }
            }
            if self.tagged {
                self.raw("</g>\n");
            }
            self.checkpoint()?;
        }
        if self.tagged {
            self.raw("</g>\n");
        }
        Ok(())
    }

    fn series_line(&mut self, style: LineStyle, points: &[(f64, f64)], tooltip: Option<&[u8]>) {
        if points.len() < 2 {
            return;
        }
        let Some(points) = Self::points(points) else {
            return;
        };
        // A line of the graph (with a tooltip), not a key entry's sample.
        let class = match tooltip {
            Some(_) if self.tagged => {
                self.series += 1;
                format!(" class=\"series line-{}\"", self.series - 1)
            }
            _ => String::new(),
        };
        self.raw(&format!(
            "<polyline{class} points=\"{points}\" stroke=\"{}\" stroke-width=\"{}\" \
             stroke-linejoin=\"round\"",
            hex(style.srgb()),
            number(style.width)
        ));
        if let Some((on, off)) = style.dash {
            self.raw(&format!(
                " stroke-dasharray=\"{} {}\"",
                number(on),
                number(off)
            ));
        }
        self.close_with_title("polyline", tooltip);
    }

    fn mark(&mut self, x: f64, y0: f64, text: Option<&[u8]>) {
        let class = self.tag(" class=\"mark\"");
        self.titled_polygon(&caret(x, y0), Some("#fff"), text, class);
    }

    fn checkpoint(&mut self) -> io::Result<()> {
        self.out.flush_if_large()
    }
}

mod glyphs;
mod painter;
mod pattern;
mod pieces;
#[cfg(test)]
mod tests;
