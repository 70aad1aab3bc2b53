//! The EPS bounding box: the extent of everything a chart draws.
//!
//! hp2ps sizes its layout with estimated text widths, which are too small for names with
//! non-ASCII bytes; the drawing then reaches past the border box. The layout stays
//! hp2ps's, but the bounding box is computed from what is really drawn, by walking the
//! pages with a painter that only measures: the real Helvetica widths of the bytes
//! PostScript shows, and the font's vertical extent.

use std::io;

use crate::fonts::{ps_text_width, INK};
use crate::layout::chart::{Chart, Fill, Graph, LineStyle, BORDER_WIDTH};
use crate::paint::geometry::{band_outline, box_corners, caret, text_left, Extent};
use crate::paint::walk::{walk, BoxKind, Line, LineKind, Painter, Rect, Text};

/// Bounding box of an EPS of the given width: everything the chart draws (border stroke
/// and the real extent of every label included), scaled, as x0, y0, x1, y1.
pub(crate) fn eps_bounding_box(chart: &Chart, width: f64) -> [f64; 4] {
    // Rasterisers round outward to their pixel grid; a quarter point keeps that inside.
    const PAD: f64 = 0.25;
    let mut measure = Measure {
        extent: Extent::EMPTY,
    };
    walk(chart, &mut measure).expect("measuring writes nothing");
    let r = measure.extent.scaled(width / BORDER_WIDTH);
    [r.x0 - PAD, r.y0 - PAD, r.x1 + PAD, r.y1 + PAD]
}

/// Grows an extent by what each item draws, in chart points.
struct Measure {
    extent: Extent,
}

impl Measure {
    fn stroked(&mut self, points: impl IntoIterator<Item = (f64, f64)>) {
        for (x, y) in points {
            self.extent.add_stroked(x, y);
        }
    }
}

impl Painter for Measure {
    fn begin_page(&mut self, _index: usize) {}

    fn end_page(&mut self, _index: usize) {}

    fn stroke_box(&mut self, _kind: BoxKind, rect: Rect) {
        self.stroked(box_corners(rect));
    }

    fn stroke_line(&mut self, _kind: LineKind, line: Line) {
        self.stroked([line.from, line.to()]);
    }

    fn fill_box(&mut self, rect: Rect, _fill: &Fill) {
        self.stroked(box_corners(rect));
    }

    fn text(&mut self, t: &Text<'_>) {
        let (x, y) = t.at;
        let size = t.size();
        let w = ps_text_width(t.bytes, size);
        if t.role.upwards() {
            // Only the y legend reads upwards, and it ends at its anchor.
            self.extent.add_text_upwards(x, (y - w, y), size, INK);
        } else {
            let left = text_left(x, w, t.anchor);
            self.extent.add_text(left, y, w, size, INK);
        }
    }

    fn bands(&mut self, g: &Graph) -> io::Result<()> {
        // The x axis under every sample, even without bands.
        self.stroked(g.xs.iter().map(|&x| (x, g.y0)));
        for i in 0..g.bands.len() {
            if let Some(outline) = band_outline(g, i) {
                self.stroked(outline);
            }
        }
        Ok(())
    }

    fn series_line(&mut self, style: LineStyle, points: &[(f64, f64)], _tooltip: Option<&[u8]>) {
        // Every format joins these lines round, so the ink stays within half the width.
        let h = style.width / 2.0;
        for &(x, y) in points {
            self.extent.add(x - h, y - h);
            self.extent.add(x + h, y + h);
        }
    }

    fn mark(&mut self, x: f64, y0: f64, _text: Option<&[u8]>) {
        self.stroked(caret(x, y0));
    }
}
