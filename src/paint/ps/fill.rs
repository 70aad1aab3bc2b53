//! A path filled as its band's fill says (hp2ps's grey, its colour shade, a palette's
//! colour, or a print pattern's background and ink) and stroked black: what a band and
//! a key box have in common, drawn alike by the painter and by the long bands'
//! polygons.

use crate::layout::chart::Fill;
use crate::layout::hp2ps_colours;
use crate::num::push_f6;
use crate::paint::hatch::{pattern_ink, PatternInk};

/// `<x> <y> <op>\n` with both numbers as `%f`.
pub(super) fn xy(buf: &mut Vec<u8>, x: f64, y: f64, op: &str) {
    push_f6(buf, x);
    buf.push(b' ');
    push_f6(buf, y);
    buf.push(b' ');
    buf.extend_from_slice(op.as_bytes());
    buf.push(b'\n');
}

/// Closes the path, fills it as `fill` says (keeping the path for the stroke) and
/// strokes it black. `area` gives the path's points, for a pattern.
pub(super) fn fill_and_stroke(
    buf: &mut Vec<u8>,
    fill: &Fill,
    area: impl FnOnce() -> Vec<(f64, f64)>,
) {
    buf.extend_from_slice(b"closepath\ngsave\n");
    match *fill {
        Fill::Pattern(pattern) => {
            let ink = pattern_ink(&pattern, area());
            return patterned(buf, &ink);
        }
        Fill::Rgb(rgb) => {
            for c in rgb {
                push_f6(buf, f64::from(c) / 255.0);
                buf.push(b' ');
            }
            buf.extend_from_slice(b"setrgbcolor\n");
        }
        Fill::Shade(shade) => {
            let [r, g, b] = hp2ps_colours::rgb(shade);
            push_f6(buf, r);
            buf.push(b' ');
            push_f6(buf, g);
            buf.push(b' ');
            push_f6(buf, b);
            buf.extend_from_slice(b" setrgbcolor\n");
        }
        Fill::Grey(shade) => {
            push_f6(buf, shade);
            buf.extend_from_slice(b" setgray\n");
        }
    }
    buf.extend_from_slice(b"fill\ngrestore\nstroke\n");
}

/// The rest of a patterned fill, after `closepath gsave`: the background, then the ink
/// clipped to the path, then the path stroked black.
fn patterned(buf: &mut Vec<u8>, ink: &PatternInk) {
    push_f6(buf, ink.background);
    buf.extend_from_slice(b" setgray\nfill\ngrestore\ngsave\nclip\nnewpath\n0 setgray\n");
    for lines in &ink.lines {
        push_f6(buf, lines.width);
        buf.extend_from_slice(b" setlinewidth\n");
        for [(x0, y0), (x1, y1)] in &lines.segments {
            xy(buf, *x0, *y0, "moveto");
            xy(buf, *x1, *y1, "lineto");
        }
        buf.extend_from_slice(b"stroke\n");
    }
    for dot in &ink.dots {
        let [first, rest @ ..] = dot;
        xy(buf, first.0, first.1, "moveto");
        for (x, y) in rest {
            xy(buf, *x, *y, "lineto");
        }
        buf.extend_from_slice(b"closepath\n");
    }
    if !ink.dots.is_empty() {
        buf.extend_from_slice(b"fill\n");
    }
    buf.extend_from_slice(b"grestore\nstroke\n");
}
