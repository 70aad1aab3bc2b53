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
//! * **Elements.** What the PostScript draws, in the same order and with the same
//!   vertices: border, title box (plus the divider of the big box) and its three texts,
//!   x axis with legend and ticks, y axis with its rotated legend and ticks, key entries,
//!   bands (filled, then stroked black), marks (white carets). Line width 0.5; PDF's
//!   default joins and caps are PostScript's.
//! * **Colours.** Greys as DeviceGray, colour shades as DeviceRGB through
//!   [`shade::rgb`]; components are clamped to [0, 1] as PostScript clamps them.
//! * **Text.** The base-14 `Helvetica`, not embedded, with WinAnsiEncoding and its
//!   widths written out, so centred and right-aligned texts are placed with the same
//!   widths the viewer uses. Names are re-encoded by [`metrics::to_winansi`]: characters
//!   WinAnsi lacks become a visible `?`.
//! * **Numbers.** An element with a coordinate that is not finite (hp2ps's arithmetic
//!   gives NaN for some degenerate profiles) is left out, as in the SVG; finite
//!   coordinates beyond ±1e6 pt, far off the page, are clamped so they stay valid PDF
//!   numbers.
//! * **Bytes.** Deterministic: no dates, no file ID, uncompressed content streams. The
//!   document info holds the JOB as title and `hp2ps <version>` as creator.

use std::io::{self, Write};

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

use super::metrics::{self, to_winansi, winansi_text_width};
use crate::chart::*;
use crate::shade;

/// PDF output settings.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfOptions {
    /// Width in points of the border box (648 pt scaled to this; the `-e` width). Values
    /// that are not finite and positive fall back to 648.
    pub width: f64,
    /// The document's `/Creator`.
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
const FONT: Name<'static> = Name(b"F1");
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
    write_font(&mut pdf);
    pdf.document_info(INFO)
        .title(TextStr(&String::from_utf8_lossy(&chart.job)))
        .creator(TextStr(&opts.creator));

    // Paint first: every page gets the size of what all of them draw.
    let painted: Vec<(Vec<u8>, Extent)> = chart
        .pages
        .iter()
        .map(|page| paint_page(chart, page))
        .collect();
    let extent = painted
        .iter()
        .fold(Extent::EMPTY, |all, (_, e)| all.union(e))
        .limited();
    let media = Rect::new(
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

/// One page's drawing operators, and the extent of what they draw.
fn paint_page(chart: &Chart, page: &Page) -> (Vec<u8>, Extent) {
    let mut painter = Painter::new(chart);
    painter.page(page);
    (painter.content.finish().into_vec(), painter.extent)
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

/// A rectangle in chart points holding everything drawn so far.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Extent {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Extent {
    const EMPTY: Extent = Extent {
        x0: f64::INFINITY,
        y0: f64::INFINITY,
        x1: f64::NEG_INFINITY,
        y1: f64::NEG_INFINITY,
    };

    /// Grows to hold a point; points that are not finite are never drawn.
    fn add(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.x0 = self.x0.min(x);
            self.y0 = self.y0.min(y);
            self.x1 = self.x1.max(x);
            self.y1 = self.y1.max(y);
        }
    }

    fn union(self, other: &Extent) -> Extent {
        Extent {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// Always the whole border (with its stroke), and at most one box size past it on
    /// each side: that keeps the page under PDF's 14,400 pt limit for widths up to
    /// 4,800 pt, while showing what hp2ps's layout pushes out of the box (key labels
    /// wider than estimated, the graph of a negative graph width).
    fn limited(self) -> Extent {
        let h = LINE_WIDTH / 2.0;
        let (w, ht) = (BORDER_WIDTH, BORDER_HEIGHT);
        let border = Extent {
            x0: -h,
            y0: -h,
            x1: w + h,
            y1: ht + h,
        };
        let e = self.union(&border);
        Extent {
            x0: e.x0.max(-w),
            y0: e.y0.max(-ht),
            x1: e.x1.min(2.0 * w),
            y1: e.y1.min(2.0 * ht),
        }
    }
}

/// Helvetica, base-14 and not embedded, with WinAnsi and explicit widths so viewers
/// that substitute another font still advance as we measured.
fn write_font(pdf: &mut Pdf) {
    pdf.type1_font(FONT_DICT)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"))
        .first_char(FIRST_CHAR)
        .last_char(u8::MAX)
        .widths((FIRST_CHAR..=u8::MAX).map(|c| f32::from(metrics::winansi_width(c))));
}

/// A coordinate as a PDF number, or `None` when it is not finite.
fn coord(v: f64) -> Option<f32> {
    v.is_finite()
        .then(|| v.clamp(-COORD_LIMIT, COORD_LIMIT) as f32)
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
    /// Filled with a shade, then stroked black.
    FillStroke(f64),
    /// Filled white, then stroked black (the marks).
    WhiteStroke,
}

/// Paints one page into a content stream.
struct Painter<'a> {
    content: Content,
    chart: &'a Chart,
    extent: Extent,
}

impl<'a> Painter<'a> {
    fn new(chart: &'a Chart) -> Self {
        Painter {
            content: Content::new(),
            chart,
            extent: Extent::EMPTY,
        }
    }

    fn page(&mut self, page: &Page) {
        self.content.set_line_width(LINE_WIDTH as f32);
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
            }
            for &x in &graph.marks {
                self.mark(x, graph.y0);
            }
        }
    }

    /// A path through `points`, closed or open, painted as asked. Left out when a
    /// coordinate is not finite.
    fn path(&mut self, points: &[(f64, f64)], closed: bool, paint: Paint) {
        let Some(pts) = points
            .iter()
            .map(|&(x, y)| Some((coord(x)?, coord(y)?)))
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        let Some((&(x0, y0), rest)) = pts.split_first() else {
            return;
        };
        // Every path is stroked: its ink reaches half a line width past each vertex.
        let h = LINE_WIDTH / 2.0;
        for &(x, y) in points {
            self.extent.add(x - h, y - h);
            self.extent.add(x + h, y + h);
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
            Paint::FillStroke(shade) if self.chart.colour => {
                let [r, g, b] = shade::rgb(shade).map(unit);
                self.content.set_fill_rgb(r, g, b);
            }
            Paint::FillStroke(shade) => {
                self.content.set_fill_gray(unit(shade));
            }
            Paint::WhiteStroke => {
                self.content.set_fill_gray(1.0);
            }
            Paint::Stroke => {}
        }
    }

    fn rectangle(&mut self, x: f64, y: f64, w: f64, h: f64, paint: Paint) {
        // Drawn as the PostScript draws it: up, right, down, close.
        let corners = [(x, y), (x, y + h), (x + w, y + h), (x + w, y)];
        self.path(&corners, true, paint);
    }

    /// Text with its anchor at (x, y).
    fn text(&mut self, raw: &[u8], size: f64, (x, y): (f64, f64), anchor: Anchor) {
        let text = to_winansi(raw);
        let x = x - anchor_offset(&text, size, anchor);
        let (Some(px), Some(py)) = (coord(x), coord(y)) else {
            return;
        };
        let (below, above) = ink_below_above(size);
        let w = winansi_text_width(&text, size);
        self.extent.add(x, y - below);
        self.extent.add(x + w, y + above);
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
        // Turned a quarter left: the ascent points to -x, the descent to +x.
        let (below, above) = ink_below_above(size);
        self.extent.add(x - above, y);
        self.extent
            .add(x + below, y + winansi_text_width(text, size));
        self.content.begin_text();
        self.content.set_font(FONT, size as f32);
        self.content.set_text_matrix([0.0, 1.0, -1.0, 0.0, px, py]);
        self.content.show(Str(text));
        self.content.end_text();
    }

    fn border(&mut self) {
        self.rectangle(0.0, 0.0, BORDER_WIDTH, BORDER_HEIGHT, Paint::Stroke);
    }

    fn title(&mut self) {
        let t = &self.chart.title;
        self.rectangle(t.x, t.y, t.width, t.height, Paint::Stroke);
        if t.big {
            let divider = t.y + t.height / 2.0;
            self.path(
                &[(t.x, divider), (t.x + t.width, divider)],
                false,
                Paint::Stroke,
            );
        }
        let job = shown_job(&t.job, &self.chart.job);
        self.text(job, TITLE_FONT, t.job_at, Anchor::Start);
        self.text(&t.area_text, TITLE_FONT, t.area_at, t.area_anchor);
        self.text(&t.date, TITLE_FONT, t.date_at, Anchor::End);
    }

    fn x_axis(&mut self, a: &Axes) {
        self.path(
            &[(a.x0, a.y0), (a.x0 + a.width, a.y0)],
            false,
            Paint::Stroke,
        );
        let legend_at = (a.x0 + a.width, a.x_legend_y);
        self.text(&a.x_legend, SMALL_FONT, legend_at, Anchor::End);
        for tick in &a.x_ticks {
            let tip = (tick.at, a.y0 - TICK_LENGTH);
            self.path(&[(tick.at, a.y0), tip], false, Paint::Stroke);
            let label_at = (tick.at, a.x_legend_y);
            self.text(&tick.label, SMALL_FONT, label_at, Anchor::Middle);
        }
    }

    fn y_axis(&mut self, a: &Axes) {
        self.path(
            &[(a.x0, a.y0), (a.x0, a.y0 + a.height)],
            false,
            Paint::Stroke,
        );
        // The legend ends at the top of the axis.
        let legend = to_winansi(&a.y_legend);
        let start = a.y0 + a.height - winansi_text_width(&legend, SMALL_FONT);
        self.text_upwards(&legend, SMALL_FONT, a.y_label_x, start);
        for tick in &a.y_ticks {
            let tip = (a.x0 - TICK_LENGTH, tick.at);
            self.path(&[(a.x0, tick.at), tip], false, Paint::Stroke);
            let label_at = (a.y_label_x, tick.at);
            self.text(&tick.label, SMALL_FONT, label_at, Anchor::End);
        }
    }

    fn key_entry(&mut self, e: &KeyEntry) {
        self.rectangle(
            e.box_x,
            e.box_y,
            KEY_BOX,
            KEY_BOX,
            Paint::FillStroke(e.shade),
        );
        let label_at = (e.label_x, e.label_y);
        self.text(&e.label, SMALL_FONT, label_at, Anchor::Start);
    }

    fn band(&mut self, g: &Graph, i: usize) {
        let (Some(&last_x), Some(band)) = (g.xs.last(), g.bands.get(i)) else {
            return;
        };
        let bottom = g.bottom_of(i);
        let n = g.xs.len().min(band.top.len());
        // The PostScript's vertex sequence, repeated points included: along the bottom
        // left to right, up at the right end, back along the top.
        let mut points = Vec::with_capacity(2 * n + 2);
        points.push((g.xs[0], bottom.at(0)));
        points.extend((0..n).map(|k| (g.xs[k], bottom.at(k))));
        if let Some(&top_last) = band.top.last() {
            points.push((last_x, top_last));
        }
        points.extend((0..n).rev().map(|k| (g.xs[k], band.top[k])));
        self.path(&points, true, Paint::FillStroke(band.shade));
    }

    fn mark(&mut self, x: f64, y0: f64) {
        let h = MARK_HALF_WIDTH;
        let caret = [(x - h, y0), (x, y0 - h), (x + h, y0)];
        self.path(&caret, true, Paint::WhiteStroke);
    }
}

/// How far text ink can reach below and above the baseline, in points.
fn ink_below_above(size: f64) -> (f64, f64) {
    let em = size / 1000.0;
    (
        -f64::from(metrics::WINANSI_INK_BOTTOM) * em,
        f64::from(metrics::WINANSI_INK_TOP) * em,
    )
}

/// How far left of its anchor a text starts.
fn anchor_offset(winansi: &[u8], size: f64, anchor: Anchor) -> f64 {
    match anchor {
        Anchor::Start => 0.0,
        Anchor::Middle => winansi_text_width(winansi, size) / 2.0,
        Anchor::End => winansi_text_width(winansi, size),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hp::ReadOptions;
    use crate::layout::LayoutOptions;
    use crate::profile::Profile;
    use crate::render::{prepare, RenderOptions};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use crate::paint::metrics::test_tools::command_or_skip as tool;

    const PROFILE: &str = "JOB \"prog +RTS -hT\"\nDATE \"Thu Jan  1 00:00 1970\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\nMAIN\t1000\ncaf\u{e9}\t500\nfoo\u{2192}bar\t300\nEND_SAMPLE 1.0\n\
        MARK 1.5\n\
        BEGIN_SAMPLE 2.0\nMAIN\t2000\ncaf\u{e9}\t800\nfoo\u{2192}bar\t100\nEND_SAMPLE 2.0\n";

    fn chart_of(hp: &[u8], layout: LayoutOptions) -> Chart {
        let (profile, _) = Profile::read(hp, &ReadOptions::default()).expect("profile reads");
        let opts = RenderOptions {
            layout,
            ..RenderOptions::default()
        };
        prepare(profile, None, &opts).0
    }

    fn pdf_of(chart: &Chart, opts: &PdfOptions) -> Vec<u8> {
        let mut out = Vec::new();
        write_pdf(chart, opts, &mut out).expect("writes to a Vec");
        out
    }

    fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hp2ps-pdf-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("temp file");
        path
    }

    /// The `.hp` files of the repository's golden tests.
    fn real_profiles() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("golden/inputs exists")
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "hp"))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn output_is_deterministic() {
        let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        let a = pdf_of(&chart, &PdfOptions::default());
        let b = pdf_of(&chart, &PdfOptions::default());
        assert_eq!(a, b);
        let text = String::from_utf8_lossy(&a);
        assert!(!text.contains("/ID") && !text.contains("CreationDate"));
        assert!(text.contains("/Title (prog +RTS -hT)"));
        assert!(text.contains(&format!("/Creator (hp2ps {})", env!("CARGO_PKG_VERSION"))));
    }

    #[test]
    fn one_pdf_page_per_chart_page() {
        let layout = LayoutOptions {
            multipage: true,
            ..LayoutOptions::default()
        };
        let chart = chart_of(PROFILE.as_bytes(), layout);
        assert_eq!(chart.pages.len(), 2);
        let pdf = pdf_of(&chart, &PdfOptions::default());
        let text = String::from_utf8_lossy(&pdf);
        assert_eq!(
            text.matches("/Type /Page\n").count() + text.matches("/Type /Page ").count(),
            2
        );
        assert!(text.contains("/Count 2"));
    }

    #[test]
    fn page_is_the_scaled_border_box_plus_half_a_line() {
        let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        let opts = PdfOptions {
            width: 324.0,
            ..PdfOptions::default()
        };
        let text = String::from_utf8_lossy(&pdf_of(&chart, &opts)).into_owned();
        assert!(text.contains("/MediaBox [0 0 324.25 216.25]"), "{text}");
        assert!(text.contains("0.5 0 0 0.5 0.125 0.125 cm"));
    }

    #[test]
    fn the_page_grows_to_show_a_label_wider_than_estimated() {
        // hp2ps estimates 5.1 pt for `a`; Helvetica's is 5.56 pt, so this label ends
        // past the border.
        let name = "a".repeat(100);
        let hp = PROFILE.replace("MAIN", &name);
        let chart = chart_of(hp.as_bytes(), LayoutOptions::default());
        let key = chart.pages[0]
            .key
            .iter()
            .find(|k| k.label == name.as_bytes());
        let key = key.expect("the long name is in the key");
        let right = key.label_x + winansi_text_width(name.as_bytes(), SMALL_FONT);
        assert!(right > BORDER_WIDTH + 20.0, "{right}");
        let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
        let media = format!("/MediaBox [0 0 {} 432.5]", (right + 0.25) as f32);
        assert!(text.contains(&media), "{media} not in {text}");
    }

    #[test]
    fn the_page_grows_by_at_most_one_box_size_per_side() {
        let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        chart.pages[0].graph.as_mut().expect("graph").marks[0] = -1e300;
        let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
        assert!(text.contains("/MediaBox [0 0 1296.25 432.5]"), "{text}");
        assert!(text.contains("1 0 0 1 648 0.25 cm"), "{text}");
    }

    #[test]
    fn names_outside_winansi_show_as_question_marks() {
        let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        let pdf = pdf_of(&chart, &PdfOptions::default());
        let has = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
        assert!(has(b"(foo?bar) Tj"));
        // é is WinAnsi 0xE9 (pdf-writer writes non-ASCII strings in hex).
        assert!(has(b"<636166E9> Tj"));
    }

    #[test]
    fn a_cut_multibyte_character_is_left_out_of_the_title() {
        let full = "aé".as_bytes();
        assert_eq!(shown_job(&full[..2], full), b"a");
        assert_eq!(shown_job(b"caf\xe9", b"caf\xe9 au lait"), b"caf\xe9");
        assert_eq!(shown_job(full, full), full);
    }

    #[test]
    fn non_finite_coordinates_leave_the_element_out() {
        let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        let normal = pdf_of(&chart, &PdfOptions::default());
        let page = &mut chart.pages[0];
        let graph = page.graph.as_mut().expect("graph");
        graph.bands[0].top[0] = f64::NAN;
        graph.marks[0] = f64::INFINITY;
        page.key[0].label_x = f64::NEG_INFINITY;
        let pdf = pdf_of(&chart, &PdfOptions::default());
        let text = String::from_utf8_lossy(&pdf);
        let bad = ["NaN", "nan", "inf", "-inf"];
        assert!(!text.split_whitespace().any(|w| bad.contains(&w)), "{text}");
        let count = |pdf: &[u8], op: &str| String::from_utf8_lossy(pdf).matches(op).count();
        // The broken band and the one above it (whose bottom is the broken top) are
        // gone, and so are the mark and the key label.
        assert_eq!(count(&pdf, "\nb\n"), count(&normal, "\nb\n") - 3);
        assert_eq!(count(&pdf, " Tj"), count(&normal, " Tj") - 1);
    }

    #[test]
    fn huge_coordinates_are_clamped_to_valid_numbers() {
        let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        chart.pages[0].graph.as_mut().expect("graph").marks[0] = 1e300;
        let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
        assert!(text.contains("1000000 20 l"), "{text}");
    }

    #[test]
    fn bad_widths_fall_back_to_648() {
        let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        for width in [0.0, -5.0, f64::NAN, f64::INFINITY] {
            let opts = PdfOptions {
                width,
                ..PdfOptions::default()
            };
            let text = String::from_utf8_lossy(&pdf_of(&chart, &opts)).into_owned();
            assert!(text.contains("/MediaBox [0 0 648.5 432.5]"), "{width}");
        }
    }

    #[test]
    fn qpdf_accepts_real_profiles() {
        let Some(_) = tool("qpdf") else { return };
        let files = real_profiles();
        assert!(!files.is_empty());
        for (n, file) in files.iter().enumerate() {
            let Ok(bytes) = std::fs::read(file) else {
                continue;
            };
            let Ok((profile, _)) = Profile::read(&bytes[..], &ReadOptions::default()) else {
                continue; // profiles hp2ps rejects have no chart
            };
            let colour = n % 2 == 1;
            let layout = LayoutOptions {
                colour,
                multipage: n % 3 == 0,
                ..LayoutOptions::default()
            };
            let opts = RenderOptions {
                layout,
                ..RenderOptions::default()
            };
            let chart = prepare(profile, None, &opts).0;
            let path = temp_file("check.pdf", &pdf_of(&chart, &PdfOptions::default()));
            let out = Command::new("qpdf")
                .arg("--check")
                .arg(&path)
                .output()
                .expect("qpdf runs");
            assert!(
                out.status.success(),
                "{}: {}{}",
                file.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    #[test]
    fn pdftotext_finds_the_title_and_key_labels() {
        let Some(mut pdftotext) = tool("pdftotext") else {
            return;
        };
        let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
        let path = temp_file("text.pdf", &pdf_of(&chart, &PdfOptions::default()));
        let out = pdftotext
            .arg(&path)
            .arg("-")
            .output()
            .expect("pdftotext runs");
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        for want in [
            "prog +RTS -hT",
            "Thu Jan 1 00:00 1970",
            "MAIN",
            "café",
            "foo?bar",
            "seconds",
        ] {
            let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(squeezed.contains(want), "{want:?} not in {text}");
        }
    }
}
