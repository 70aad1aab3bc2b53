//! The ink of a print pattern (`--pattern`) over an area: its hatch lines and dots,
//! computed once for every painter. Painters fill the area with the background grey, clip
//! to it, and draw what this gives; lines run across the area's bounding box and are
//! placed on a grid anchored at the chart's origin, so the same pattern lines up from
//! band to band and from format to format.

use crate::layout::chart::{BORDER_HEIGHT, BORDER_WIDTH};
use crate::layout::patterns::Pattern;

/// One set of parallel lines: a width and the segments, each from one point to another.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lines {
    pub(crate) width: f64,
    pub(crate) segments: Vec<[(f64, f64); 2]>,
}

/// What a pattern draws over an area (before clipping to it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PatternInk {
    /// The background grey.
    pub(crate) background: f64,
    /// The line sets, each stroked black with its width.
    pub(crate) lines: Vec<Lines>,
    /// The dots: squares, each as four corners, filled black.
    pub(crate) dots: Vec<[(f64, f64); 4]>,
}

/// The ink of `pattern` over the bounding box of `points`. Empty when the area has no
/// finite bounding box; the box is cut to one border box around the chart's, beyond which
/// nothing shows.
pub(crate) fn pattern_ink(
    pattern: &Pattern,
    points: impl IntoIterator<Item = (f64, f64)>,
) -> PatternInk {
    let mut ink = PatternInk {
        background: pattern.background,
        lines: Vec::new(),
        dots: Vec::new(),
    };
    let Some([x0, y0, x1, y1]) = bounds(points) else {
        return ink;
    };
    for h in pattern.hatches {
        let (sin, cos) = h.angle.to_radians().sin_cos();
        // Along the lines (d) and across them (n).
        let (d, n) = ((cos, sin), (-sin, cos));
        let corners = [(x0, y0), (x0, y1), (x1, y0), (x1, y1)];
        let range = |v: (f64, f64)| {
            corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), c| {
                let p = c.0 * v.0 + c.1 * v.1;
                (lo.min(p), hi.max(p))
            })
        };
        let ((t0, t1), (p0, p1)) = (range(d), range(n));
        let (first, last) = ((p0 / h.spacing).floor(), (p1 / h.spacing).ceil());
        let mut segments = Vec::new();
        let mut k = first;
        while k <= last {
            let p = k * h.spacing;
            let at = |t: f64| (p * n.0 + t * d.0, p * n.1 + t * d.1);
            segments.push([at(t0 - 1.0), at(t1 + 1.0)]);
            k += 1.0;
        }
        ink.lines.push(Lines {
            width: h.width,
            segments,
        });
    }
    if let Some(d) = pattern.dots {
        let s = d.spacing;
        let half = d.side / 2.0;
        let mut j = (y0 / s).floor();
        while j * s <= y1 + s {
            let shift = if (j as i64) % 2 == 0 { 0.0 } else { s / 2.0 };
            let mut i = (x0 / s).floor() - 1.0;
            while i * s <= x1 + s {
                let (cx, cy) = (i * s + shift, j * s);
                ink.dots.push([
                    (cx - half, cy - half),
                    (cx - half, cy + half),
                    (cx + half, cy + half),
                    (cx + half, cy - half),
                ]);
                i += 1.0;
            }
            j += 1.0;
        }
    }
    ink
}

/// The bounding box of the finite points, cut to the border box grown by its own size on
/// every side.
fn bounds(points: impl IntoIterator<Item = (f64, f64)>) -> Option<[f64; 4]> {
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (x, y) in points {
        if !(x.is_finite() && y.is_finite()) {
            continue;
        }
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    }
    let [x0, y0, x1, y1] = b;
    let cut = [
        x0.max(-BORDER_WIDTH),
        y0.max(-BORDER_HEIGHT),
        x1.min(2.0 * BORDER_WIDTH),
        y1.min(2.0 * BORDER_HEIGHT),
    ];
    (cut[0] <= cut[2] && cut[1] <= cut[3]).then_some(cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::patterns::pattern;

    #[test]
    fn lines_cover_the_box_on_a_grid_from_the_origin() {
        let ink = pattern_ink(&pattern(1), [(10.0, 10.0), (24.0, 24.0)]);
        assert_eq!(ink.background, 0.7);
        let ys: Vec<f64> = ink.lines[0].segments.iter().map(|s| s[0].1).collect();
        assert_eq!(ys, [9.0, 12.0, 15.0, 18.0, 21.0, 24.0]);
        assert!(ink.dots.is_empty());
    }

    #[test]
    fn dots_fill_the_box_and_nothing_is_drawn_without_a_box() {
        let ink = pattern_ink(&pattern(2), [(0.0, 0.0), (14.0, 14.0)]);
        assert!(ink.dots.len() >= 16, "{}", ink.dots.len());
        let none = pattern_ink(&pattern(2), [(f64::NAN, 0.0)]);
        assert!(none.dots.is_empty() && none.lines.is_empty());
    }
}
