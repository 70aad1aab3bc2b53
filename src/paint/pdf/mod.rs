//! The PDF painter: the same picture as the EPS, one PDF page per chart page.
//!
//! * **Size.** The border box (648 × 432 pt) is scaled to [`PdfOptions::width`]. The
//!   page holds everything drawn: normally that is the border box grown by half the
//!   border's line width on every side (so the whole stroke shows), but when hp2ps's
//!   layout pushes drawing out of the box (key labels wider than its width estimate,
//!   the graph of a negative graph width), the page grows to show it, as the EPS
//!   bounding box does, by at most one box size on each side. Every page of a document
//!   has the same size and scale (the PostScript's quirk of dropping the EPS scale after
//!   page 1 is not copied), and pages are unrotated.
//! * **Elements.** What the PostScript draws, in the same order (the page walk both
//!   follow) and with the same vertices: border, title box (plus the divider of the big box) and its three texts,
//!   x axis with legend and ticks, y axis with its rotated legend and ticks, key entries,
//!   bands (filled, then stroked black), marks (white carets). Line width 0.5; PDF's
//!   default joins and caps are PostScript's.
//! * **Colours.** Greys as DeviceGray, colour shades as DeviceRGB through
//!   [`hp2ps_colours::rgb`]; components are clamped to [0, 1] as PostScript clamps them.
//! * **Text.** The base-14 `Helvetica`, not embedded, with WinAnsiEncoding and its
//!   widths written out, so centred and right-aligned texts are placed with the same
//!   widths the viewer uses. Names are re-encoded by [`fonts::to_winansi`]: characters
//!   WinAnsi lacks become a visible `?`.
//! * **Numbers.** An element with a coordinate that is not finite (hp2ps's arithmetic
//!   gives NaN for some degenerate profiles) is left out, as in the SVG; finite
//!   coordinates beyond ±1e6 pt, far off the page, are clamped so they stay valid PDF
//!   numbers.
//! * **Bytes.** Deterministic: no dates, no file ID, uncompressed content streams. The
//!   document info holds the JOB as title and `hp2ps <version>` as creator.

use std::io::{self, Write};

use pdf_writer::{Content, Finish, Name, Pdf, Ref, Str, TextStr};

use super::geometry::{band_outline, box_corners, caret, text_left, Extent};
use super::hatch::pattern_ink;
use super::walk::{walk, BoxKind, Line, LineKind, Painter, Text, TextRole};
use crate::fonts::{self, to_winansi, winansi_text_width, INK};
use crate::layout::chart::*;
use crate::layout::hp2ps_colours;

/// PDF output settings.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PdfOptions {
    /// Width in points of the border box (648 pt scaled to this; the `-e` width). Values
    /// that are not finite and positive fall back to 648. Default: `648.0`.
    pub width: f64,
    /// The document's `/Creator`. Default: `hp2ps <version>`.
    pub creator: String,
}

impl Default for PdfOptions {
    fn default() -> Self {
        PdfOptions {
            width: BORDER_WIDTH,
            creator: format!("hp2ps {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// The font resource name in every page's resources.
pub(crate) const FONT: Name<'static> = Name(b"F1");
/// Beyond this many points from the origin everything is off the page anyway.
const COORD_LIMIT: f64 = 1e6;
/// WinAnsi codes given widths in the font dictionary: the printable ones.
const FIRST_CHAR: u8 = 0x20;

/// Writes the chart as a PDF document.
pub fn write_pdf<W: Write>(chart: &Chart, opts: &PdfOptions, out: &mut W) -> io::Result<()> {
    out.write_all(&pdf_bytes(chart, opts))
}

/// The scale from chart points to page points.
fn scale_of(opts: &PdfOptions) -> f64 {
    if opts.width.is_finite() && opts.width > 0.0 {
        opts.width / BORDER_WIDTH
    } else {
        1.0
    }
}

/// Object numbers: fixed ones first, then a page and its content stream per page.
const CATALOG: Ref = Ref::new(1);
const PAGE_TREE: Ref = Ref::new(2);
const FONT_DICT: Ref = Ref::new(3);
const INFO: Ref = Ref::new(4);

fn page_ref(i: usize) -> Ref {
    Ref::new(5 + 2 * i as i32)
}

fn content_ref(i: usize) -> Ref {
    Ref::new(6 + 2 * i as i32)
}

fn pdf_bytes(chart: &Chart, opts: &PdfOptions) -> Vec<u8> {
    let s = scale_of(opts);
    let mut pdf = Pdf::new();
    pdf.catalog(CATALOG).pages(PAGE_TREE);
    pdf.pages(PAGE_TREE)
        .kids((0..chart.pages.len()).map(page_ref))
        .count(chart.pages.len() as i32);
    write_font(&mut pdf, FONT_DICT);
    pdf.document_info(INFO)
        .title(TextStr(&String::from_utf8_lossy(&chart.job)))
        .creator(TextStr(&opts.creator));

    // Paint first: every page gets the size of what all of them draw.
    let mut painter = PdfPainter {
        chart,
        content: Content::new(),
        extent: Extent::EMPTY,
        painted: Vec::with_capacity(chart.pages.len()),
    };
    walk(chart, &mut painter).expect("painting to memory cannot fail");
    let painted = painter.painted;
    let extent = limited(
        painted
            .iter()
            .fold(Extent::EMPTY, |all, (_, e)| all.union(*e)),
    );
    let media = pdf_writer::Rect::new(
        0.0,
        0.0,
        ((extent.x1 - extent.x0) * s) as f32,
        ((extent.y1 - extent.y0) * s) as f32,
    );
    let to_page = [s, 0.0, 0.0, s, -extent.x0 * s, -extent.y0 * s].map(|v| v as f32);
    for (i, (body, _)) in painted.iter().enumerate() {
        let mut p = pdf.page(page_ref(i));
        p.parent(PAGE_TREE)
            .media_box(media)
            .contents(content_ref(i));
        p.resources().fonts().pair(FONT, FONT_DICT);
        p.finish();
        pdf.stream(content_ref(i), &page_stream(to_page, body));
    }
    pdf.finish()
}

/// A page's content stream: the chart-to-page transform, then the drawing.
fn page_stream(to_page: [f32; 6], body: &[u8]) -> Vec<u8> {
    let mut head = Content::new();
    head.transform(to_page);
    let mut stream = head.finish().into_vec();
    stream.push(b'\n');
    stream.extend_from_slice(body);
    stream
}

/// The extent of a page: always the whole border (with its stroke), and at most one box
/// size past it on each side. That keeps the page under PDF's 14,400 pt limit for widths
/// up to 4,800 pt, while showing what hp2ps's layout pushes out of the box (key labels
/// wider than estimated, the graph of a negative graph width).
fn limited(drawn: Extent) -> Extent {
    let h = LINE_WIDTH / 2.0;
    let (w, ht) = (BORDER_WIDTH, BORDER_HEIGHT);
    let border = Extent {
        x0: -h,
        y0: -h,
        x1: w + h,
        y1: ht + h,
    };
    let e = drawn.union(border);
    Extent {
        x0: e.x0.max(-w),
        y0: e.y0.max(-ht),
        x1: e.x1.min(2.0 * w),
        y1: e.y1.min(2.0 * ht),
    }
}

/// Helvetica, base-14 and not embedded, with WinAnsi and explicit widths so viewers
/// that substitute another font still advance as we measured.
pub(crate) fn write_font(pdf: &mut Pdf, at: Ref) {
    pdf.type1_font(at)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"))
        .first_char(FIRST_CHAR)
        .last_char(u8::MAX)
        .widths((FIRST_CHAR..=u8::MAX).map(|c| f32::from(fonts::winansi_width(c))));
}

/// A coordinate as a PDF number, or `None` when it is not finite.
fn coord(v: f64) -> Option<f32> {
    v.is_finite()
        .then(|| v.clamp(-COORD_LIMIT, COORD_LIMIT) as f32)
}

/// A point's coordinates ([`coord`]), or `None` if one is not finite.
fn point((x, y): (f64, f64)) -> Option<(f32, f32)> {
    Some((coord(x)?, coord(y)?))
}

/// Every point's coordinates, or `None` if one is not finite.
fn coords(points: &[(f64, f64)]) -> Option<Vec<(f32, f32)>> {
    points.iter().map(|&p| point(p)).collect()
}

/// A colour component or grey level, clamped to [0, 1] as PostScript does.
fn unit(v: f64) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0) as f32
    }
}

/// How a closed path is painted.
#[derive(Debug, Clone, Copy)]
enum Paint {
    Stroke,
    /// Filled as the fill says, then stroked black.
    FillStroke(Fill),
    /// Filled white, then stroked black (the marks).
    WhiteStroke,
}

/// Paints each page into a content stream, noting the extent of what it draws.
struct PdfPainter<'a> {
    chart: &'a Chart,
    /// The page being painted.
    content: Content,
    extent: Extent,
    /// The pages painted so far: content and extent.
    painted: Vec<(Vec<u8>, Extent)>,
}

impl PdfPainter<'_> {
    /// A path through `points`, closed or open, painted as asked. Left out when a
    /// coordinate is not finite.
    fn path(&mut self, points: &[(f64, f64)], closed: bool, paint: Paint) {
        let Some(pts) = coords(points) else {
            return;
        };
        let Some((&(x0, y0), rest)) = pts.split_first() else {
            return;
        };
        if let Paint::FillStroke(Fill::Pattern(pattern)) = paint {
            for &(x, y) in points {
                self.extent.add_stroked(x, y);
            }
            let ink = pattern_ink(&pattern, points.iter().copied());
            return self.patterned(&pts, &ink);
        }
        // Every path is stroked: its ink reaches half a line width past each vertex.
        for &(x, y) in points {
            self.extent.add_stroked(x, y);
        }
        let filled = !matches!(paint, Paint::Stroke);
        if filled {
            // Like the PostScript's gsave around `fill`: the colour must not leak into
            // the stroke or later text.
            self.content.save_state();
            self.set_fill(paint);
        }
        self.content.move_to(x0, y0);
        for &(x, y) in rest {
            self.content.line_to(x, y);
        }
        match (closed, filled) {
            (true, true) => self.content.close_fill_nonzero_and_stroke(),
            (true, false) => self.content.close_and_stroke(),
            (false, _) => self.content.stroke(),
        };
        if filled {
            self.content.restore_state();
        }
    }

    fn set_fill(&mut self, paint: Paint) {
        match paint {
            Paint::FillStroke(Fill::Rgb(rgb)) => {
                let [r, g, b] = rgb.map(|c| f32::from(c) / 255.0);
                self.content.set_fill_rgb(r, g, b);
            }
            Paint::FillStroke(Fill::Shade(shade)) => {
                let [r, g, b] = hp2ps_colours::rgb(shade).map(unit);
                self.content.set_fill_rgb(r, g, b);
            }
            Paint::FillStroke(Fill::Grey(shade)) => {
                self.content.set_fill_gray(unit(shade));
            }
            // Drawn by `patterned` instead.
            Paint::FillStroke(Fill::Pattern(_)) => {}
            Paint::WhiteStroke => {
                self.content.set_fill_gray(1.0);
            }
            Paint::Stroke => {}
        }
    }

    /// Text with its anchor at (x, y).
    fn write_text(&mut self, raw: &[u8], size: f64, (x, y): (f64, f64), anchor: Anchor) {
        let text = to_winansi(raw);
        let w = winansi_text_width(&text, size);
        let x = text_left(x, w, anchor);
        let (Some(px), Some(py)) = (coord(x), coord(y)) else {
            return;
        };
        self.extent.add_text(x, y, w, size, INK);
        self.content.begin_text();
        self.content.set_font(FONT, size as f32);
        self.content.next_line(px, py);
        self.content.show(Str(&text));
        self.content.end_text();
    }

    /// Text reading upwards, its baseline on x = `x`, starting at height `y`.
    fn text_upwards(&mut self, text: &[u8], size: f64, x: f64, y: f64) {
        let (Some(px), Some(py)) = (coord(x), coord(y)) else {
            return;
        };
        let end = y + winansi_text_width(text, size);
        self.extent.add_text_upwards(x, (y, end), size, INK);
        self.content.begin_text();
        self.content.set_font(FONT, size as f32);
        self.content.set_text_matrix([0.0, 1.0, -1.0, 0.0, px, py]);
        self.content.show(Str(text));
        self.content.end_text();
    }
}

impl Painter for PdfPainter<'_> {
    fn begin_page(&mut self, _index: usize) {
        self.content = Content::new();
        self.extent = Extent::EMPTY;
        self.content.set_line_width(LINE_WIDTH as f32);
    }

    fn end_page(&mut self, _index: usize) {
        let content = std::mem::replace(&mut self.content, Content::new());
        self.painted
            .push((content.finish().into_vec(), self.extent));
    }

    fn stroke_box(&mut self, _kind: BoxKind, rect: super::walk::Rect) {
        self.path(&box_corners(rect), true, Paint::Stroke);
    }

    fn stroke_line(&mut self, _kind: LineKind, line: Line) {
        self.path(&[line.from, line.to()], false, Paint::Stroke);
    }

    fn fill_box(&mut self, rect: super::walk::Rect, fill: &Fill) {
        self.path(&box_corners(rect), true, Paint::FillStroke(*fill));
    }

    fn text(&mut self, t: &Text<'_>) {
        let size = t.size();
        if t.role.upwards() {
            // Ends at its anchor.
            let text = to_winansi(t.bytes);
            let (x, end) = t.at;
            let start = end - winansi_text_width(&text, size);
            self.text_upwards(&text, size, x, start);
        } else {
            let bytes = match t.role {
                TextRole::Job => shown_job(t.bytes, &self.chart.job),
                _ => t.bytes,
            };
            self.write_text(bytes, size, t.at, t.anchor);
        }
    }

    fn bands(&mut self, g: &Graph) -> io::Result<()> {
        for (i, band) in g.bands.iter().enumerate() {
            if let Some(outline) = band_outline(g, i) {
                let points: Vec<(f64, f64)> = outline.collect();
                self.path(&points, true, Paint::FillStroke(band.fill));
            }
        }
        Ok(())
    }

    fn series_line(&mut self, style: LineStyle, points: &[(f64, f64)], _tooltip: Option<&[u8]>) {
        let Some(pts) = coords(points) else {
            return;
        };
        let Some((&(x0, y0), rest)) = pts.split_first() else {
            return;
        };
        if rest.is_empty() {
            return;
        }
        let h = style.width / 2.0;
        for &(x, y) in points {
            self.extent.add(x - h, y - h);
            self.extent.add(x + h, y + h);
        }
        self.content.save_state();
        let [r, g, b] = style.rgb.map(unit);
        self.content.set_stroke_rgb(r, g, b);
        self.content.set_line_width(style.width as f32);
        self.content
            .set_line_join(pdf_writer::types::LineJoinStyle::RoundJoin);
        if let Some((on, off)) = style.dash {
            self.content.set_dash_pattern([on as f32, off as f32], 0.0);
        }
        self.content.move_to(x0, y0);
        for &(x, y) in rest {
            self.content.line_to(x, y);
        }
        self.content.stroke();
        self.content.restore_state();
    }

    fn mark(&mut self, x: f64, y0: f64, _text: Option<&[u8]>) {
        self.path(&caret(x, y0), true, Paint::WhiteStroke);
    }
}

/// The title's JOB, cut to a byte limit by the layout. When the full JOB is valid UTF-8
/// and the cut fell inside a character, the partial character is left out rather than
/// shown as Latin-1 bytes.
fn shown_job<'t>(cut: &'t [u8], full: &[u8]) -> &'t [u8] {
    match std::str::from_utf8(cut) {
        Err(e) if e.error_len().is_none() && std::str::from_utf8(full).is_ok() => {
            &cut[..e.valid_up_to()]
        }
        _ => cut,
    }
}

mod pattern;
#[cfg(test)]
mod tests;
