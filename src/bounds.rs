//! The extent of everything a chart draws, for an EPS bounding box that contains it all.
//!
//! hp2ps sizes its layout with estimated text widths, which are too small for names with
//! non-ASCII bytes; the drawing then reaches past the border box. The layout stays
//! hp2ps's, but the bounding box is computed from what is really drawn, with the real
//! Helvetica widths and the font's vertical extent.

use crate::chart::*;
use crate::paint::metrics::ps_text_width;

/// Helvetica's font bounding box, bottom and top, in 1/1000 em: every glyph fits.
const FONT_BOTTOM: f64 = -0.225;
const FONT_TOP: f64 = 0.931;

/// An axis-aligned rectangle in chart points: x0, y0, x1, y1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    fn empty() -> Rect {
        Rect {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        }
    }

    fn add_point(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.x0 = self.x0.min(x);
            self.y0 = self.y0.min(y);
            self.x1 = self.x1.max(x);
            self.y1 = self.y1.max(y);
        }
    }

    /// Adds a stroked point: the stroke reaches half the line width around it.
    fn add_stroked(&mut self, x: f64, y: f64) {
        let h = LINE_WIDTH / 2.0;
        self.add_point(x - h, y - h);
        self.add_point(x + h, y + h);
    }

    /// Adds a horizontal text run at `(x, y)` with the given anchor.
    fn add_text(&mut self, text: &[u8], x: f64, y: f64, anchor: Anchor, size: f64) {
        let w = ps_text_width(text, size);
        let left = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - w / 2.0,
            Anchor::End => x - w,
        };
        self.add_point(left, y + FONT_BOTTOM * size);
        self.add_point(left + w, y + FONT_TOP * size);
    }

    pub fn scaled(self, s: f64) -> Rect {
        Rect {
            x0: self.x0 * s,
            y0: self.y0 * s,
            x1: self.x1 * s,
            y1: self.y1 * s,
        }
    }
}

/// Everything a chart's pages draw, in chart points.
pub fn drawing_bounds(chart: &Chart) -> Rect {
    let mut r = Rect::empty();
    r.add_stroked(0.0, 0.0);
    r.add_stroked(BORDER_WIDTH, BORDER_HEIGHT);
    let t = &chart.title;
    r.add_stroked(t.x, t.y);
    r.add_stroked(t.x + t.width, t.y + t.height);
    r.add_text(&t.job, t.job_at.0, t.job_at.1, Anchor::Start, TITLE_FONT);
    r.add_text(
        &t.area_text,
        t.area_at.0,
        t.area_at.1,
        t.area_anchor,
        TITLE_FONT,
    );
    r.add_text(&t.date, t.date_at.0, t.date_at.1, Anchor::End, TITLE_FONT);
    for page in &chart.pages {
        if let Some(a) = &page.axes {
            add_axes(&mut r, a);
        }
        for e in &page.key {
            r.add_stroked(e.box_x, e.box_y);
            r.add_stroked(e.box_x + KEY_BOX, e.box_y + KEY_BOX);
            r.add_text(&e.label, e.label_x, e.label_y, Anchor::Start, SMALL_FONT);
        }
        if let Some(g) = &page.graph {
            add_graph(&mut r, g);
        }
    }
    r
}

fn add_axes(r: &mut Rect, a: &Axes) {
    r.add_stroked(a.x0, a.y0);
    r.add_stroked(a.x0 + a.width, a.y0);
    r.add_stroked(a.x0, a.y0 + a.height);
    let x_end = a.x0 + a.width;
    r.add_text(&a.x_legend, x_end, a.x_legend_y, Anchor::End, SMALL_FONT);
    for tick in &a.x_ticks {
        r.add_stroked(tick.at, a.y0 - TICK_LENGTH);
        r.add_text(
            &tick.label,
            tick.at,
            a.x_legend_y,
            Anchor::Middle,
            SMALL_FONT,
        );
    }
    for tick in &a.y_ticks {
        r.add_stroked(a.x0 - TICK_LENGTH, tick.at);
        r.add_text(&tick.label, a.y_label_x, tick.at, Anchor::End, SMALL_FONT);
    }
    // The y legend is rotated to read upwards, its end at the top of the axis: the
    // text's ascent points left, its descent right.
    let w = ps_text_width(&a.y_legend, SMALL_FONT);
    let top = a.y0 + a.height;
    r.add_point(a.y_label_x - FONT_TOP * SMALL_FONT, top - w);
    r.add_point(a.y_label_x - FONT_BOTTOM * SMALL_FONT, top);
}

fn add_graph(r: &mut Rect, g: &Graph) {
    for (&x, i) in g.xs.iter().zip(0..) {
        r.add_stroked(x, g.y0);
        for band in &g.bands {
            if let Some(&y) = band.top.get(i) {
                r.add_stroked(x, y);
            }
        }
    }
    for &m in &g.marks {
        r.add_stroked(m - MARK_HALF_WIDTH, g.y0 - MARK_HALF_WIDTH);
        r.add_stroked(m + MARK_HALF_WIDTH, g.y0);
    }
}
