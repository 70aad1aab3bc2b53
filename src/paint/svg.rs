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
//! * **Elements.** Exactly what the PostScript draws, in the same order: border, title box
//!   (plus the divider of the big box) and its three texts, x axis with legend and ticks,
//!   y axis with its rotated legend and ticks, key entries, bands (fill then stroke, the
//!   same vertex sequence), marks. Strokes are black, 0.5 wide, with PostScript's default
//!   joins (miter, miter limit 10, where SVG's default is 4) and butt caps. The full JOB
//!   is the document's `<title>` (like `%%Title`; not drawn).
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

use super::metrics;
use crate::chart::*;
use crate::shade;

/// SVG output settings.
#[derive(Debug, Clone, PartialEq)]
pub struct SvgOptions {
    /// Width of the picture in points (the border box's 648 pt scaled to this). Values
    /// that are not finite and positive fall back to 648.
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
const FONT_FAMILY: &str =
    "'Nimbus Sans', 'Nimbus Sans L', Helvetica, Arial, 'Liberation Sans', sans-serif";

/// Writes the chart as an SVG document.
pub fn write_svg<W: Write>(chart: &Chart, opts: &SvgOptions, out: &mut W) -> io::Result<()> {
    let mut p = Painter {
        buf: Vec::with_capacity(1 << 16),
        chart,
    };
    p.header(opts);
    for (k, page) in chart.pages.iter().enumerate() {
        p.page(k, page, out)?;
    }
    p.raw("</g>\n</svg>\n");
    out.write_all(&p.buf)
}

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
fn number(x: f64) -> String {
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

/// A colour component clamped to [0, 1] as PostScript clamps it, in 8 bits. NaN (only
/// possible from a damaged `.aux`) is black.
fn channel(c: f64) -> u8 {
    let c = if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) };
    (c * 255.0).round() as u8
}

/// The fill colour of a shade, as `#rrggbb`.
fn colour_of(shade: f64, colour: bool) -> String {
    let [r, g, b] = if colour {
        shade::rgb(shade)
    } else {
        [shade; 3]
    };
    format!("#{:02x}{:02x}{:02x}", channel(r), channel(g), channel(b))
}

/// The advance of a character in Helvetica, in 1/1000 em: printable ASCII and the rest of
/// the WinAnsi repertoire (Latin-1 and a few typographic characters). `None` for others.
fn helvetica_advance(c: char) -> Option<u16> {
    let code = metrics::char_to_winansi(c);
    let known = code != metrics::REPLACEMENT || c == char::from(metrics::REPLACEMENT);
    known.then(|| metrics::winansi_width(code))
}

/// Every character of `text` with the x of its glyph when shown with Helvetica at
/// `size` and aligned at `x`, as PostScript's `show` after a `stringwidth` shift places
/// it. `None` when a character has no Helvetica width (or the bytes are not UTF-8).
fn glyph_positions(text: &[u8], x: f64, size: f64, anchor: Anchor) -> Option<Vec<(f64, char)>> {
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

struct Painter<'a> {
    buf: Vec<u8>,
    chart: &'a Chart,
}

impl Painter<'_> {
    fn raw(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn flush_if_large<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        if self.buf.len() >= 1 << 16 {
            out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
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

    fn page<W: Write>(&mut self, k: usize, page: &Page, out: &mut W) -> io::Result<()> {
        if k == 0 {
            self.raw("<g>\n");
        } else {
            let dy = BORDER_HEIGHT * k as f64;
            self.raw(&format!("<g transform=\"translate(0 {})\">\n", number(dy)));
        }
        self.border();
        self.title();
        if let Some(axes) = &page.axes {
            self.x_axis(axes);
            self.y_axis(axes);
        }
        for entry in &page.key {
            self.key_entry(entry);
        }
        if let Some(graph) = &page.graph {
            for i in 0..graph.bands.len() {
                self.band(graph, i);
                self.flush_if_large(out)?;
            }
            for &x in &graph.marks {
                self.mark(x, graph.y0);
                self.flush_if_large(out)?;
            }
        }
        self.raw("</g>\n");
        self.flush_if_large(out)
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
    /// and stroked.
    fn polygon(&mut self, pairs: &[(f64, f64)], fill: Option<&str>) {
        let Some(points) = Self::points(pairs) else {
            return;
        };
        self.raw("<polygon points=\"");
        self.raw(&points);
        self.raw("\"");
        if let Some(fill) = fill {
            self.raw(&format!(" fill=\"{fill}\""));
        }
        self.raw("/>\n");
    }

    /// An open stroked path through the given chart points.
    fn polyline(&mut self, pairs: &[(f64, f64)]) {
        let Some(points) = Self::points(pairs) else {
            return;
        };
        self.raw(&format!("<polyline points=\"{points}\"/>\n"));
    }

    /// An unfilled, stroked rectangle from its lower-left corner, as a closed path drawn
    /// like the PostScript (up, right, down, close).
    fn rect_outline(&mut self, x: f64, y: f64, w: f64, h: f64) {
        self.polygon(&[(x, y), (x, y + h), (x + w, y + h), (x + w, y)], None);
    }

    /// A text: `size` is the font size, `anchor` the alignment at (x, y), `rotate` turns
    /// it to read upwards about (x, y). Spaces are kept, as PostScript's `show` keeps them.
    ///
    /// `show` places each glyph at the previous one's advance, without kerning; SVG
    /// renderers kern (rsvg always, browsers by default), which moves text by up to a few
    /// points (`AVATAR To` comes out 4 pt shorter). So text with Helvetica widths gets an
    /// x for every glyph, and its alignment is done here as `stringwidth` does it. Other
    /// text is laid out by the viewer and aligned with `text-anchor`.
    fn text(&mut self, text: &[u8], (x, y): (f64, f64), size: f64, anchor: Anchor, rotate: bool) {
        let y = BORDER_HEIGHT - y;
        if text.is_empty() || !(x.is_finite() && y.is_finite()) {
            return;
        }
        // Rotated text is placed in its own frame, whose origin is the anchor point.
        let origin = if rotate { 0.0 } else { x };
        let glyphs = glyph_positions(text, origin, size, anchor);
        self.raw("<text xml:space=\"preserve\" stroke=\"none\" fill=\"#000\"");
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
        match glyphs {
            Some(glyphs) => self.glyphs(&glyphs),
            None => self.raw(&escape(text)),
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

    fn border(&mut self) {
        self.rect_outline(0.0, 0.0, BORDER_WIDTH, BORDER_HEIGHT);
    }

    fn title(&mut self) {
        let t = &self.chart.title;
        self.rect_outline(t.x, t.y, t.width, t.height);
        if t.big {
            let divider = t.y + t.height / 2.0;
            self.polyline(&[(t.x, divider), (t.x + t.width, divider)]);
        }
        self.text(&t.job, t.job_at, TITLE_FONT, Anchor::Start, false);
        self.text(&t.area_text, t.area_at, TITLE_FONT, t.area_anchor, false);
        self.text(&t.date, t.date_at, TITLE_FONT, Anchor::End, false);
    }

    fn x_axis(&mut self, a: &Axes) {
        self.polyline(&[(a.x0, a.y0), (a.x0 + a.width, a.y0)]);
        let legend_at = (a.x0 + a.width, a.x_legend_y);
        self.text(&a.x_legend, legend_at, SMALL_FONT, Anchor::End, false);
        for tick in &a.x_ticks {
            self.polyline(&[(tick.at, a.y0), (tick.at, a.y0 - TICK_LENGTH)]);
            let at = (tick.at, a.x_legend_y);
            self.text(&tick.label, at, SMALL_FONT, Anchor::Middle, false);
        }
    }

    fn y_axis(&mut self, a: &Axes) {
        self.polyline(&[(a.x0, a.y0), (a.x0, a.y0 + a.height)]);
        // Reads upwards, ending at the top of the axis, its baseline on x = y_label_x.
        let legend_at = (a.y_label_x, a.y0 + a.height);
        self.text(&a.y_legend, legend_at, SMALL_FONT, Anchor::End, true);
        for tick in &a.y_ticks {
            self.polyline(&[(a.x0, tick.at), (a.x0 - TICK_LENGTH, tick.at)]);
            // Right-aligned, with the baseline on the tick (hp2ps does not centre it).
            let at = (a.y_label_x, tick.at);
            self.text(&tick.label, at, SMALL_FONT, Anchor::End, false);
        }
    }

    fn key_entry(&mut self, e: &KeyEntry) {
        let (x, y) = (e.box_x, e.box_y);
        let fill = colour_of(e.shade, self.chart.colour);
        let corners = [
            (x, y),
            (x, y + KEY_BOX),
            (x + KEY_BOX, y + KEY_BOX),
            (x + KEY_BOX, y),
        ];
        self.polygon(&corners, Some(&fill));
        let at = (e.label_x, e.label_y);
        self.text(&e.label, at, SMALL_FONT, Anchor::Start, false);
    }

    /// The band's polygon with the PostScript's vertex sequence: the moveto, the bottom
    /// edge left to right (its first point repeating the moveto), then the top edge right
    /// to left (its first point repeated).
    fn band(&mut self, g: &Graph, i: usize) {
        let n = g.xs.len();
        let Some(band) = g.bands.get(i) else {
            return;
        };
        if n == 0 || band.top.len() < n {
            return;
        }
        let bottom = g.bottom_of(i);
        let mut pairs = Vec::with_capacity(2 * n + 2);
        pairs.push((g.xs[0], bottom.at(0)));
        pairs.extend(g.xs.iter().enumerate().map(|(k, &x)| (x, bottom.at(k))));
        pairs.push((g.xs[n - 1], band.top[n - 1]));
        pairs.extend((0..n).rev().map(|k| (g.xs[k], band.top[k])));
        let fill = colour_of(band.shade, self.chart.colour);
        self.polygon(&pairs, Some(&fill));
    }

    fn mark(&mut self, x: f64, y0: f64) {
        let h = MARK_HALF_WIDTH;
        let caret = [(x - h, y0), (x, y0 - h), (x + h, y0)];
        self.polygon(&caret, Some("#fff"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::render::{prepare, RenderOptions};

    fn chart_of(hp: &[u8], opts: &RenderOptions) -> Chart {
        let (profile, _) = Profile::read(hp, &Default::default()).expect("test profile");
        prepare(profile, None, opts).0
    }

    fn svg_of(chart: &Chart) -> String {
        let mut out = Vec::new();
        write_svg(chart, &SvgOptions::default(), &mut out).expect("write to a Vec");
        String::from_utf8(out).expect("SVG is UTF-8")
    }

    const MANPAGE: &[u8] = include_bytes!("../../golden/inputs/spec7-01-manpage.hp");

    #[test]
    fn escapes_the_five_xml_specials() {
        assert_eq!(escape(b"a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
        assert_eq!(escape(b"&amp;"), "&amp;amp;");
    }

    #[test]
    fn escapes_controls() {
        assert_eq!(escape(b"a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
        assert_eq!(
            escape(b"\x00\x01\x1b\x1f \x7f"),
            "\u{fffd}\u{fffd}\u{fffd}\u{fffd} \x7f"
        );
        assert_eq!(
            escape("x\u{fffe}\u{ffff}y".as_bytes()),
            "x\u{fffd}\u{fffd}y"
        );
    }

    #[test]
    fn keeps_valid_utf8_and_marks_invalid_bytes() {
        assert_eq!(escape("λx → café 🙂".as_bytes()), "λx → café 🙂");
        // Latin-1 "café" (GHC's -hd/-hy names): the lone 0xE9 is one bad sequence.
        assert_eq!(escape(b"caf\xe9"), "caf\u{fffd}");
        // Latin-1 letters in a row stay one replacement each.
        assert_eq!(escape(b"\xe0\xe9\xfc"), "\u{fffd}\u{fffd}\u{fffd}");
        // A UTF-8 character cut by -L: one replacement for the incomplete sequence.
        assert_eq!(escape(b"ab\xe2\x86"), "ab\u{fffd}");
        assert_eq!(escape(b"\xff<"), "\u{fffd}&lt;");
    }

    #[test]
    fn numbers_are_short_and_deterministic() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(-0.0001), "0");
        assert_eq!(number(412.0), "412");
        assert_eq!(number(512.976372), "512.976");
        assert_eq!(number(67.75), "67.75");
        assert_eq!(number(-4.5), "-4.5");
        assert_eq!(number(1e20), "100000000000000000000");
    }

    #[test]
    fn colours_are_clamped() {
        assert_eq!(colour_of(0.2, false), "#333333");
        assert_eq!(colour_of(1.0, false), "#ffffff");
        assert_eq!(colour_of(1.5, false), "#ffffff");
        assert_eq!(colour_of(-1.0, false), "#000000");
        assert_eq!(colour_of(0.100005, true), "#ff0080");
        // A mono shade read back under -c: red 2.0 clamps to 1.
        assert_eq!(colour_of(0.2, true), "#ff0000");
        assert_eq!(colour_of(f64::NAN, false), "#000000");
    }

    #[test]
    fn draws_what_the_postscript_draws() {
        let chart = chart_of(MANPAGE, &RenderOptions::default());
        let svg = svg_of(&chart);
        let count = |needle: &str| svg.matches(needle).count();
        let page = &chart.pages[0];
        let axes = page.axes.as_ref().expect("axes");
        let graph = page.graph.as_ref().expect("graph");
        // Border, title box, key boxes, bands, marks.
        let polygons = 2 + page.key.len() + graph.bands.len() + graph.marks.len();
        assert_eq!(count("<polygon "), polygons);
        // Two axes and the ticks.
        assert_eq!(
            count("<polyline "),
            2 + axes.x_ticks.len() + axes.y_ticks.len()
        );
        let texts = 3 + 2 + axes.x_ticks.len() + axes.y_ticks.len() + page.key.len();
        assert_eq!(count("<text "), texts);
        assert!(svg.contains("width=\"648pt\" height=\"432pt\" viewBox=\"0 0 648 432\""));
        // The y legend "bytes" (2390 units wide) reads upwards and ends at the top of the
        // y axis (y = 432 − 402 = 30): in its rotated frame it starts at −23.9.
        assert!(svg.contains(
            " transform=\"translate(40 30) rotate(-90)\" x=\"-23.9\">b<tspan x=\"-18.34\">y\
             </tspan><tspan x=\"-13.34\">t</tspan><tspan x=\"-10.56\">e</tspan>\
             <tspan x=\"-5\">s</tspan></text>"
        ));
        // The y tick label "50": right-aligned to 40 (digits are 556 wide), its baseline on
        // the tick.
        let tick = &axes.y_ticks[1];
        assert_eq!(tick.label, b"50");
        let y = number(432.0 - tick.at);
        let want = format!("x=\"28.88\" y=\"{y}\">5<tspan x=\"34.44\">0</tspan></text>");
        assert!(svg.contains(&want), "{want}");
        // The area text "648 bytes x seconds" (9116 units at 12 pt) is centred on 319.
        assert!(svg.contains(" x=\"264.304\" y=\"19\">6<tspan x=\"270.976\">4</tspan>"));
        assert!(
            !svg.contains("text-anchor"),
            "every text here has Helvetica widths"
        );
    }

    fn xs(glyphs: Option<Vec<(f64, char)>>) -> Option<Vec<f64>> {
        glyphs.map(|g| g.iter().map(|&(x, _)| x).collect())
    }

    #[test]
    fn glyph_positions_follow_helvetica_widths() {
        let close = |got: Option<Vec<f64>>, want: &[f64]| {
            let got = got.expect("positions");
            got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9)
        };
        // "AV": 667 + 667, no kerning.
        let at = |anchor| xs(glyph_positions(b"AV", 10.0, 10.0, anchor));
        assert!(close(at(Anchor::Start), &[10.0, 16.67]));
        assert!(close(at(Anchor::End), &[-3.34, 3.33]));
        assert!(close(at(Anchor::Middle), &[3.33, 10.0]));
        // Latin-1 and WinAnsi's extras have widths; a space too; so has a real `?`.
        let latin = xs(glyph_positions("é €?".as_bytes(), 0.0, 10.0, Anchor::Start));
        assert!(close(latin, &[0.0, 5.56, 8.34, 13.9]));
        // Characters outside Helvetica, controls and bad UTF-8 leave it to the viewer.
        assert_eq!(
            glyph_positions("a→b".as_bytes(), 0.0, 10.0, Anchor::Start),
            None
        );
        assert_eq!(glyph_positions(b"a\tb", 0.0, 10.0, Anchor::Start), None);
        assert_eq!(glyph_positions(b"a\x7f", 0.0, 10.0, Anchor::Start), None);
        assert_eq!(glyph_positions(b"caf\xe9", 0.0, 10.0, Anchor::Start), None);
    }

    #[test]
    fn glyphs_are_escaped_one_by_one() {
        let mut chart = chart_of(MANPAGE, &RenderOptions::default());
        chart.pages[0].key[0].label = b"a<&".to_vec();
        let svg = svg_of(&chart);
        // The key label starts at 45 + 512.976 + 24; `a` is 556 wide, `<` 584.
        let want = "x=\"581.976\" y=\"369.25\">a<tspan x=\"587.536\">&lt;</tspan>\
                    <tspan x=\"593.376\">&amp;</tspan></text>";
        assert!(svg.contains(want), "{want}");
    }

    #[test]
    fn text_without_helvetica_widths_is_aligned_by_the_viewer() {
        let mut chart = chart_of(MANPAGE, &RenderOptions::default());
        chart.title.date = "1992 → now".as_bytes().to_vec();
        let svg = svg_of(&chart);
        assert!(svg.contains("text-anchor=\"end\" x=\"637\" y=\"19\">1992 → now</text>"));
    }

    #[test]
    fn band_polygons_follow_the_postscript_vertex_sequence() {
        let chart = chart_of(MANPAGE, &RenderOptions::default());
        let graph = chart.pages[0].graph.as_ref().expect("graph");
        let n = graph.xs.len();
        let svg = svg_of(&chart);
        let polygons: Vec<&str> = svg
            .lines()
            .filter(|l| l.starts_with("<polygon") && l.contains("fill=\"#"))
            .collect();
        let key = chart.pages[0].key.len();
        // After the key boxes come the bands, each with 2n + 2 vertices.
        let first_band = polygons[key];
        let points = first_band.split('"').nth(1).expect("points attribute");
        assert_eq!(points.split(' ').count(), 2 * n + 2);
        let first = format!("{},{}", number(graph.xs[0]), number(432.0 - graph.y0));
        assert!(points.starts_with(&format!("{first} {first} ")), "{points}");
    }

    #[test]
    fn output_is_deterministic() {
        let opts = RenderOptions {
            layout: crate::layout::LayoutOptions {
                colour: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let a = svg_of(&chart_of(MANPAGE, &opts));
        let b = svg_of(&chart_of(MANPAGE, &opts));
        assert_eq!(a, b);
        assert!(a.contains("fill=\"#0000ff\""), "colour shades are used");
    }

    #[test]
    fn pages_are_stacked_vertically() {
        let opts = RenderOptions {
            layout: crate::layout::LayoutOptions {
                multipage: true,
                ..Default::default()
            },
            ..Default::default()
        };
        let chart = chart_of(MANPAGE, &opts);
        assert_eq!(chart.pages.len(), 2, "-M: key page, then graph page");
        let svg = svg_of(&chart);
        assert!(svg.contains("width=\"648pt\" height=\"864pt\" viewBox=\"0 0 648 864\""));
        assert!(svg.contains("<g transform=\"translate(0 432)\">"));
        // Each page has its border, and the graph (with its axes) is on page 2 only.
        let (page1, page2) = svg.split_at(svg.find("translate(0 432)").expect("page 2"));
        assert_eq!(
            page1.matches("points=\"0,432 0,0 648,0 648,432\"").count(),
            1
        );
        assert_eq!(
            page2.matches("points=\"0,432 0,0 648,0 648,432\"").count(),
            1
        );
        assert!(!page1.contains("rotate(-90)") && page2.contains("rotate(-90)"));
    }

    #[test]
    fn width_scales_the_picture_only() {
        let chart = chart_of(MANPAGE, &RenderOptions::default());
        let mut out = Vec::new();
        write_svg(&chart, &SvgOptions { width: 432.0 }, &mut out).expect("write");
        let svg = String::from_utf8(out).expect("UTF-8");
        assert!(svg.contains("width=\"432pt\" height=\"288pt\" viewBox=\"0 0 648 432\""));
    }

    #[test]
    fn names_with_bad_bytes_and_specials_stay_well_formed() {
        let hp = b"JOB \"a<&>\"\"b\x01\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
                   BEGIN_SAMPLE 0.0\ncaf\xe9 10\nx\xe2\x86 5\na<b>&\"' 3\nEND_SAMPLE 0.0\n\
                   BEGIN_SAMPLE 1.0\ncaf\xe9 10\nEND_SAMPLE 1.0\n";
        let svg = svg_of(&chart_of(hp, &RenderOptions::default()));
        assert!(svg.contains(">caf\u{fffd}</text>"));
        assert!(svg.contains(">x\u{fffd}</text>"));
        assert!(svg.contains("\">&apos;</tspan></text>"));
        assert!(svg.contains("<title>a&lt;&amp;&gt;&quot;b\u{fffd}</title>"));
        xmllint_accepts(&svg, "bad-bytes");
    }

    #[test]
    fn non_finite_coordinates_leave_the_element_out() {
        let mut chart = chart_of(MANPAGE, &RenderOptions::default());
        let graph = chart.pages[0].graph.as_mut().expect("graph");
        graph.bands[0].top[0] = f64::NAN;
        let svg = svg_of(&chart);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let (bands, marks) = chart.pages[0]
            .graph
            .as_ref()
            .map_or((0, 0), |g| (g.bands.len(), g.marks.len()));
        // The broken band and the one above it (whose bottom is the broken top) are gone.
        let filled = svg.matches("<polygon points=").count();
        let unbroken = 2 + chart.pages[0].key.len() + bands - 2 + marks;
        assert_eq!(filled, unbroken);
    }

    #[test]
    fn a_real_profile_passes_xmllint() {
        let opts = RenderOptions {
            layout: crate::layout::LayoutOptions {
                colour: true,
                ..Default::default()
            },
            ..Default::default()
        };
        for name in [
            "spec7-01-manpage.hp",
            "unicode-O0-hc.hp",
            "oddnames-O0-hd.hp",
        ] {
            let path = format!("{}/golden/inputs/{name}", env!("CARGO_MANIFEST_DIR"));
            let Ok(hp) = std::fs::read(&path) else {
                panic!("missing test input {path}");
            };
            xmllint_accepts(&svg_of(&chart_of(&hp, &opts)), name);
        }
    }

    /// Runs `xmllint --noout` on the document. Without xmllint, skips loudly, or fails
    /// when `CI` is set (CI installs it).
    fn xmllint_accepts(svg: &str, tag: &str) {
        use std::process::{Command, Stdio};
        let child = Command::new("xmllint")
            .args(["--noout", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => {
                let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0");
                let message = format!(
                    "SKIPPED: xmllint not runnable ({e}) \
                     (apt-get install libxml2-utils)"
                );
                assert!(!ci, "{message}; CI is set, so this fails");
                eprintln!("{message}");
                return;
            }
        };
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin.write_all(svg.as_bytes()).expect("feed xmllint");
        drop(stdin);
        let result = child.wait_with_output().expect("xmllint runs");
        assert!(
            result.status.success(),
            "xmllint rejects the SVG of {tag}: {}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
}
