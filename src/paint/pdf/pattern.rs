//! Print patterns in the PDF: the area filled with the background grey, the ink clipped
//! to it, then its outline stroked black, as the PostScript draws it.

use super::{coords, point, unit, PdfPainter};
use crate::paint::hatch::PatternInk;

impl PdfPainter<'_> {
    /// A closed area through `pts` (page-ready numbers) filled with a pattern's ink.
    pub(super) fn patterned(&mut self, pts: &[(f32, f32)], ink: &PatternInk) {
        let c = &mut self.content;
        c.save_state();
        c.set_fill_gray(unit(ink.background));
        trace(c, pts);
        c.close_path().fill_nonzero();
        c.restore_state();

        c.save_state();
        trace(c, pts);
        c.close_path().clip_nonzero().end_path();
        c.set_fill_gray(0.0);
        for lines in &ink.lines {
            c.set_line_width(lines.width as f32);
            for &[a, b] in &lines.segments {
                if let (Some(a), Some(b)) = (point(a), point(b)) {
                    c.move_to(a.0, a.1).line_to(b.0, b.1);
                }
            }
            c.stroke();
        }
        if !ink.dots.is_empty() {
            for dot in &ink.dots {
                if let Some(corners) = coords(dot) {
                    trace(c, &corners);
                    c.close_path();
                }
            }
            c.fill_nonzero();
        }
        c.restore_state();

        trace(c, pts);
        c.close_and_stroke();
    }
}

/// A path through the points.
fn trace(c: &mut pdf_writer::Content, pts: &[(f32, f32)]) {
    if let Some((&(x0, y0), rest)) = pts.split_first() {
        c.move_to(x0, y0);
        for &(x, y) in rest {
            c.line_to(x, y);
        }
    }
}
