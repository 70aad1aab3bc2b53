//! The shapes every painter draws, computed once: box corners, the mark caret, a band's
//! outline, and the extent of what is drawn (for the EPS bounding box and the PDF page).

use super::walk::Rect;
use crate::fonts::Ink;
use crate::layout::chart::{Graph, LINE_WIDTH, MARK_HALF_WIDTH};

/// The corners of a rectangle in the order hp2ps draws it: from the lower-left corner
/// up, right, down (the path is then closed).
pub(crate) fn box_corners(r: Rect) -> [(f64, f64); 4] {
    let (x, y, w, h) = (r.x, r.y, r.width, r.height);
    [(x, y), (x, y + h), (x + w, y + h), (x + w, y)]
}

/// The caret of a mark at `x` on the x axis at height `y0`: pointing down, as wide as
/// two [`MARK_HALF_WIDTH`]s.
pub(crate) fn caret(x: f64, y0: f64) -> [(f64, f64); 3] {
    let h = MARK_HALF_WIDTH;
    [(x - h, y0), (x, y0 - h), (x + h, y0)]
}

/// The outline of band `i` with hp2ps's vertex sequence, repeated points included: the
/// first bottom point, the bottom edge left to right (its first point repeating it), up
/// at the right end, then the top edge right to left (its first point repeated): 2n + 2
/// points for n samples.
///
/// `None` when there is nothing to draw: no samples, no such band, or (only in a
/// hand-built chart) a band or the band below it with fewer tops than samples.
pub(crate) fn band_outline(
    g: &Graph,
    i: usize,
) -> Option<impl ExactSizeIterator<Item = (f64, f64)> + '_> {
    let n = g.xs.len();
    let top = &g.bands.get(i)?.top;
    let below_short = i > 0 && g.bands[i - 1].top.len() < n;
    if n == 0 || top.len() < n || below_short {
        return None;
    }
    let bottom = g.bottom_of(i);
    let start = std::iter::once((g.xs[0], bottom.at(0)));
    let along_bottom =
        g.xs.iter()
            .enumerate()
            .map(move |(k, &x)| (x, bottom.at(k)));
    let up = std::iter::once((g.xs[n - 1], top[n - 1]));
    let along_top = (0..n).rev().map(move |k| (g.xs[k], top[k]));
    Some(Outline {
        points: start.chain(along_bottom).chain(up).chain(along_top),
        left: 2 * n + 2,
    })
}

/// An iterator that knows how many points are left, so painters can size buffers.
struct Outline<I> {
    points: I,
    left: usize,
}

impl<I: Iterator<Item = (f64, f64)>> Iterator for Outline<I> {
    type Item = (f64, f64);

    fn next(&mut self) -> Option<(f64, f64)> {
        let p = self.points.next()?;
        self.left -= 1;
        Some(p)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<I: Iterator<Item = (f64, f64)>> ExactSizeIterator for Outline<I> {}

/// A rectangle in chart points holding everything added so far: what a page draws,
/// stroke widths and the ink of texts included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Extent {
    pub(crate) x0: f64,
    pub(crate) y0: f64,
    pub(crate) x1: f64,
    pub(crate) y1: f64,
}

impl Extent {
    /// Holds nothing: adding a point makes it that point.
    pub(crate) const EMPTY: Extent = Extent {
        x0: f64::INFINITY,
        y0: f64::INFINITY,
        x1: f64::NEG_INFINITY,
        y1: f64::NEG_INFINITY,
    };

    /// Grows to hold a point. Points that are not finite are left out: no format draws
    /// them.
    pub(crate) fn add(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.x0 = self.x0.min(x);
            self.y0 = self.y0.min(y);
            self.x1 = self.x1.max(x);
            self.y1 = self.y1.max(y);
        }
    }

    /// Grows to hold a vertex of a stroked path: the stroke reaches half the line width
    /// around it.
    pub(crate) fn add_stroked(&mut self, x: f64, y: f64) {
        let h = LINE_WIDTH / 2.0;
        self.add(x - h, y - h);
        self.add(x + h, y + h);
    }

    /// Grows to hold a horizontal text `width` wide starting at `left` on the baseline
    /// `y`, set at `size` points in a font with `ink`.
    pub(crate) fn add_text(&mut self, left: f64, y: f64, width: f64, size: f64, ink: Ink) {
        self.add(left, y + ink.bottom * size);
        self.add(left + width, y + ink.top * size);
    }

    /// Grows to hold a text turned to read upwards, its baseline on x = `x`, from height
    /// `from` to `to`: its ascent points left, its descent right. (The ends are given,
    /// not a start and a width, because painters compute them in different orders.)
    pub(crate) fn add_text_upwards(&mut self, x: f64, (from, to): (f64, f64), size: f64, ink: Ink) {
        self.add(x - ink.top * size, from);
        self.add(x - ink.bottom * size, to);
    }

    /// The smallest extent holding both.
    pub(crate) fn union(self, other: Extent) -> Extent {
        Extent {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// Scaled about the origin.
    pub(crate) fn scaled(self, s: f64) -> Extent {
        Extent {
            x0: self.x0 * s,
            y0: self.y0 * s,
            x1: self.x1 * s,
            y1: self.y1 * s,
        }
    }
}

/// Where a text anchored at `x` starts, given its width.
pub(crate) fn text_left(x: f64, width: f64, anchor: crate::layout::chart::Anchor) -> f64 {
    use crate::layout::chart::Anchor;
    match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::chart::{BandShape, Fill};

    fn graph(tops: &[&[f64]]) -> Graph {
        Graph {
            xs: vec![10.0, 20.0],
            y0: 5.0,
            bands: tops
                .iter()
                .map(|top| BandShape::test_band(top.to_vec(), Fill::Grey(0.5)))
                .collect(),
            ..Graph::default()
        }
    }

    #[test]
    fn band_outline_has_hp2ps_vertex_sequence() {
        let g = graph(&[&[7.0, 8.0], &[9.0, 11.0]]);
        let bottom: Vec<_> = band_outline(&g, 0).expect("drawn").collect();
        let want = [
            (10.0, 5.0),
            (10.0, 5.0),
            (20.0, 5.0),
            (20.0, 8.0),
            (20.0, 8.0),
            (10.0, 7.0),
        ];
        assert_eq!(bottom, want);
        let upper = band_outline(&g, 1).expect("drawn");
        assert_eq!(upper.len(), 6);
        let upper: Vec<_> = upper.collect();
        assert_eq!(upper[..3], [(10.0, 7.0), (10.0, 7.0), (20.0, 8.0)]);
    }

    #[test]
    fn band_outline_guards_short_tops_and_missing_bands() {
        let g = graph(&[&[7.0], &[9.0, 11.0]]);
        assert!(band_outline(&g, 0).is_none(), "too few tops");
        assert!(
            band_outline(&g, 1).is_none(),
            "the band below has too few tops"
        );
        assert!(band_outline(&g, 2).is_none(), "no such band");
        let mut empty = graph(&[&[]]);
        empty.xs.clear();
        assert!(band_outline(&empty, 0).is_none(), "no samples");
    }

    #[test]
    fn extent_ignores_points_that_are_not_finite() {
        let mut e = Extent::EMPTY;
        e.add(f64::NAN, 1.0);
        assert_eq!(e, Extent::EMPTY);
        e.add_stroked(1.0, 2.0);
        assert_eq!((e.x0, e.y0, e.x1, e.y1), (0.75, 1.75, 1.25, 2.25));
        assert_eq!(caret(10.0, 5.0), [(6.0, 5.0), (10.0, 1.0), (14.0, 5.0)]);
    }
}
