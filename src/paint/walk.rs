//! The one page walk: the order in which every format draws a chart's items.
//!
//! hp2ps draws border → title → axes → key → bands → marks, and the other formats copy
//! that order so their pictures stack the same way (a band's stroke over the key box it
//! touches, the marks over the bands). The walk hands each item to a [`Painter`], which
//! only decides how that item looks in its format.

use std::io;

use crate::layout::chart::*;

/// What a painter draws; the walk calls these in page order.
///
/// Shapes and texts come with the role they play on the page (a [`BoxKind`], a
/// [`LineKind`], a [`TextRole`]) because the PostScript painter writes each role in
/// hp2ps's own idiom (a literal `0 14 rlineto` for a key box, `%f` for the title box),
/// which its byte-identical output depends on. The other painters look only at the
/// geometry.
pub(crate) trait Painter {
    /// Starts page `index` (0 for the first).
    fn begin_page(&mut self, index: usize);

    /// Ends page `index`.
    fn end_page(&mut self, index: usize);

    /// An unfilled, stroked rectangle, drawn from its lower-left corner: up, right,
    /// down, close.
    fn stroke_box(&mut self, kind: BoxKind, rect: Rect);

    /// A stroked line from `line.from` by `line.by`.
    fn stroke_line(&mut self, kind: LineKind, line: Line);

    /// A key box: filled as `fill` says, stroked black.
    fn fill_box(&mut self, rect: Rect, fill: &Fill);

    /// A text.
    fn text(&mut self, text: &Text<'_>);

    /// Every band of the graph, bottom band first: each its outline
    /// ([`super::geometry::band_outline`]) filled as its [`Fill`] says, stroked black.
    /// One call for all of them, so a painter can write them in its own way (the
    /// PostScript painter formats pairs of long bands on two threads).
    fn bands(&mut self, graph: &Graph) -> io::Result<()>;

    /// A line over the bands, or a key entry's line sample: an open path through
    /// `points`, stroked in `style`. `tooltip` names it (SVG only).
    fn series_line(&mut self, style: LineStyle, points: &[(f64, f64)], tooltip: Option<&[u8]>);

    /// A mark: a caret below the x axis at `x`, filled white and stroked
    /// ([`super::geometry::caret`]). `text` is the mark's text, if it has one (SVG shows
    /// it as a tooltip).
    fn mark(&mut self, x: f64, y0: f64, text: Option<&[u8]>);

    /// A point where a painter that buffers its output can pass it on. The default does
    /// nothing.
    fn checkpoint(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A rectangle from its lower-left corner and size, in chart points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

/// Which rectangle is stroked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BoxKind {
    /// The border box, at the origin.
    Border,
    /// The title box.
    Title,
}

/// A straight line from a point by an offset. The offset is kept, not the end point,
/// because hp2ps prints the offset (`<width> 0 rlineto`), and `end − start` need not
/// give back the same number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Line {
    pub(crate) from: (f64, f64),
    pub(crate) by: (f64, f64),
}

impl Line {
    /// The end point.
    pub(crate) fn to(self) -> (f64, f64) {
        (self.from.0 + self.by.0, self.from.1 + self.by.1)
    }
}

/// Which line is stroked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// The line across the middle of the big title box.
    Divider,
    /// The x axis.
    XAxis,
    /// The y axis.
    YAxis,
    /// A tick below the x axis.
    XTick,
    /// A tick left of the y axis.
    YTick,
}

/// Which text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextRole {
    /// The JOB, in the title.
    Job,
    /// The area, in the title.
    Area,
    /// The DATE, in the title.
    Date,
    /// SAMPLE_UNIT, at the end of the x axis.
    XLegend,
    /// An x tick label.
    XTick,
    /// VALUE_UNIT, reading upwards along the y axis.
    YLegend,
    /// A y tick label.
    YTick,
    /// A key label.
    Key,
}

impl TextRole {
    /// The font size: the title's texts are larger.
    pub(crate) fn size(self) -> f64 {
        match self {
            TextRole::Job | TextRole::Area | TextRole::Date => TITLE_FONT,
            _ => SMALL_FONT,
        }
    }

    /// Whether the text reads upwards (turned a quarter left about its anchor).
    pub(crate) fn upwards(self) -> bool {
        self == TextRole::YLegend
    }
}

/// A text and where it goes: aligned by `anchor` at `at` (for upward text, along the
/// turned baseline).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Text<'a> {
    pub(crate) role: TextRole,
    pub(crate) bytes: &'a [u8],
    pub(crate) at: (f64, f64),
    pub(crate) anchor: Anchor,
    /// The full text when `bytes` is shortened (a key label with `--key-labels fit`),
    /// for a tooltip.
    pub(crate) tooltip: Option<&'a [u8]>,
}

impl Text<'_> {
    /// The font size.
    pub(crate) fn size(&self) -> f64 {
        self.role.size()
    }
}

/// Draws every page of `chart` with `painter`.
pub(crate) fn walk(chart: &Chart, painter: &mut impl Painter) -> io::Result<()> {
    for (index, page) in chart.pages.iter().enumerate() {
        painter.begin_page(index);
        walk_page(chart, page, painter)?;
        painter.end_page(index);
        painter.checkpoint()?;
    }
    Ok(())
}

fn walk_page(chart: &Chart, page: &Page, p: &mut impl Painter) -> io::Result<()> {
    let border = Rect {
        x: 0.0,
        y: 0.0,
        width: BORDER_WIDTH,
        height: BORDER_HEIGHT,
    };
    p.stroke_box(BoxKind::Border, border);
    title(&chart.title, p);
    if let Some(axes) = &page.axes {
        x_axis(axes, p);
        y_axis(axes, p);
    }
    for e in &page.key {
        let rect = Rect {
            x: e.box_x,
            y: e.box_y,
            width: KEY_BOX,
            height: KEY_BOX,
        };
        match e.line {
            None => p.fill_box(rect, &e.fill),
            Some(style) => {
                let y = rect.y + KEY_BOX / 2.0;
                p.series_line(style, &[(rect.x, y), (rect.x + KEY_BOX, y)], None);
            }
        }
        p.text(&Text {
            role: TextRole::Key,
            bytes: &e.label,
            at: (e.label_x, e.label_y),
            anchor: Anchor::Start,
            tooltip: e.full_label.as_deref(),
        });
    }
    if let Some(graph) = &page.graph {
        p.bands(graph)?;
        for line in &graph.lines {
            p.series_line(line.style, &line.points, Some(&line.tooltip));
        }
        for (i, &x) in graph.marks.iter().enumerate() {
            let text = graph.mark_texts.get(i).filter(|t| !t.is_empty());
            p.mark(x, graph.y0, text.map(Vec::as_slice));
            p.checkpoint()?;
        }
    }
    Ok(())
}

fn text(p: &mut impl Painter, role: TextRole, bytes: &[u8], at: (f64, f64), anchor: Anchor) {
    p.text(&Text {
        role,
        bytes,
        at,
        anchor,
        tooltip: None,
    });
}

fn title(t: &Title, p: &mut impl Painter) {
    let rect = Rect {
        x: t.x,
        y: t.y,
        width: t.width,
        height: t.height,
    };
    p.stroke_box(BoxKind::Title, rect);
    if t.big {
        let divider = Line {
            from: (t.x, t.y + t.height / 2.0),
            by: (t.width, 0.0),
        };
        p.stroke_line(LineKind::Divider, divider);
    }
    text(p, TextRole::Job, &t.job, t.job_at, Anchor::Start);
    text(p, TextRole::Area, &t.area_text, t.area_at, t.area_anchor);
    text(p, TextRole::Date, &t.date, t.date_at, Anchor::End);
}

fn x_axis(a: &Axes, p: &mut impl Painter) {
    let axis = Line {
        from: (a.x0, a.y0),
        by: (a.width, 0.0),
    };
    p.stroke_line(LineKind::XAxis, axis);
    let end = (a.x0 + a.width, a.x_legend_y);
    text(p, TextRole::XLegend, &a.x_legend, end, Anchor::End);
    for tick in &a.x_ticks {
        let line = Line {
            from: (tick.at, a.y0),
            by: (0.0, -TICK_LENGTH),
        };
        p.stroke_line(LineKind::XTick, line);
        let at = (tick.at, a.x_legend_y);
        text(p, TextRole::XTick, &tick.label, at, Anchor::Middle);
    }
}

fn y_axis(a: &Axes, p: &mut impl Painter) {
    let axis = Line {
        from: (a.x0, a.y0),
        by: (0.0, a.height),
    };
    p.stroke_line(LineKind::YAxis, axis);
    // Reads upwards, ending at the top of the axis, its baseline on x = y_label_x.
    let top = (a.y_label_x, a.y0 + a.height);
    text(p, TextRole::YLegend, &a.y_legend, top, Anchor::End);
    for tick in &a.y_ticks {
        let line = Line {
            from: (a.x0, tick.at),
            by: (-TICK_LENGTH, 0.0),
        };
        p.stroke_line(LineKind::YTick, line);
        // Right-aligned, with the baseline on the tick (hp2ps does not centre it).
        let at = (a.y_label_x, tick.at);
        text(p, TextRole::YTick, &tick.label, at, Anchor::End);
    }
}
