//! Long bands of large documents, drawn in pieces that every XML parser reads.
//!
//! libxml2 (rsvg-convert, xmllint, Inkscape) refuses an attribute value over 10 MB, and
//! before version 2.11 also any document in which it has buffered 10 MB since it last
//! shrank its input buffer, which it does only between elements, and then only by
//! chance (when less than 500 bytes remain buffered there): a few elements of several
//! hundred kilobytes in a 15 MB document fail about one time in three ("Huge input
//! lookup"). So in a document whose bands would hold more than [`WHOLE_BANDS_UP_TO`]
//! points, a band longer than a piece is drawn as:
//!
//! * its fill, in polygons of at most [`PIECE_SAMPLES`] samples, each overlapping the
//!   next by at least one sample and up to [`OVERLAP`] points, and stroked in its own
//!   colour 0.5 wide with bevel joins: the stroke covers the seam between two pieces
//!   (where each polygon alone would leave a pixel partly uncovered, and the background
//!   would show through as a hairline), and stays within the black outline drawn over
//!   it;
//! * then its outline, the polygon's own vertex sequence closed, in polylines of at most
//!   [`PIECE_SAMPLES`] points, each starting one segment before the previous one ended,
//!   so that every vertex is inside a polyline and keeps its join.
//!
//! Every element is then below 40 KB: libxml2 2.9 buffers 10 MB without shrinking only
//! if it misses hundreds of chances in a row. Smaller documents are written as before,
//! one polygon per band (they cannot reach 10 MB anywhere).

use std::io::Write;

use super::painter::{escape, hex, SvgPainter};
use crate::layout::chart::Fill;
use crate::paint::hatch::pattern_ink;

/// The most outline points (2 per sample and band, and 2) a chart's bands may have and
/// still be drawn one polygon each: at about 16 bytes a point, a document of 6.5 MB. The
/// default sample limit of SVG (42,000 band vertices) stays far below.
pub(super) const WHOLE_BANDS_UP_TO: usize = 400_000;

/// The most samples of one fill piece (its polygon has twice as many points), and the
/// most points of one outline polyline: about 32 KB of `points` at most.
pub(super) const PIECE_SAMPLES: usize = 1024;

/// How far, in points, consecutive fill pieces overlap at most (at least one sample, at
/// most half a piece): a seam covered by the next piece is invisible at any zoom where
/// this is a pixel or more.
pub(super) const OVERLAP: f64 = 2.0;

/// Whether a chart of `bands` bands over `samples` samples is drawn in pieces.
pub(super) fn in_pieces(bands: usize, samples: usize) -> bool {
    bands.saturating_mul(2 * samples + 2) > WHOLE_BANDS_UP_TO
}

/// A band's outline (as [`crate::paint::geometry::band_outline`] gives it: the first
/// bottom point, the bottom edge left to right, up at the right end, the top edge right
/// to left; 2n + 2 points for n samples) cut into fill polygons and outline polylines.
/// `None` when the outline fits one piece.
pub(super) fn cut(outline: &[(f64, f64)]) -> Option<Pieces> {
    if outline.len() <= 2 * PIECE_SAMPLES + 2 || outline.len() % 2 != 0 {
        return None;
    }
    Some(Pieces {
        fills: fill_pieces(outline),
        runs: outline_runs(outline),
    })
}

/// A long band cut for drawing: its fill polygons and its outline's polylines.
pub(super) struct Pieces {
    fills: Vec<Vec<(f64, f64)>>,
    runs: Vec<Vec<(f64, f64)>>,
}

impl<W: Write> SvgPainter<'_, W> {
    /// [`Self::filled`] for a long band of a large document: `outline` cut (see [`cut`])
    /// into `fills` and `runs`. Nothing is drawn when a point is not finite, as for a
    /// whole band.
    pub(super) fn filled_in_pieces(
        &mut self,
        outline: &[(f64, f64)],
        Pieces { fills, runs }: Pieces,
        fill: &Fill,
        title: Option<&[u8]>,
    ) {
        let values = |shapes: &[Vec<(f64, f64)>]| -> Option<Vec<String>> {
            shapes.iter().map(|s| Self::points(s)).collect()
        };
        let (Some(areas), Some(lines)) = (values(&fills), values(&runs)) else {
            return;
        };
        // One group holds the band's pieces (or, patterned, its outline) with the tooltip.
        let open = match title {
            Some(title) => format!("<g><title>{}</title>\n", escape(title)),
            None => "<g>\n".to_string(),
        };
        if let Fill::Pattern(pattern) = fill {
            let ink = pattern_ink(pattern, outline.iter().copied());
            self.pattern_in(&areas, &ink, true);
            self.raw(&open);
        } else {
            let fill = hex(fill.srgb());
            self.raw(&open);
            self.raw(&format!(
                "<g fill=\"{fill}\" stroke=\"{fill}\" stroke-linejoin=\"bevel\">\n"
            ));
            for area in &areas {
                self.raw(&format!("<polygon points=\"{area}\"/>\n"));
            }
            self.raw("</g>\n");
        }
        // The outline, in the default black stroke.
        for line in &lines {
            self.raw(&format!("<polyline points=\"{line}\"/>\n"));
        }
        self.raw("</g>\n");
    }
}

/// The fill polygons: each a run of samples `a..=b`, the bottom edge left to right then
/// the top edge right to left.
fn fill_pieces(outline: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let n = (outline.len() - 2) / 2;
    let bottom = |k: usize| outline[k + 1];
    let top = |k: usize| outline[2 * n + 1 - k];
    let mut pieces = Vec::with_capacity(n / (PIECE_SAMPLES / 2) + 1);
    let mut a = 0;
    loop {
        let b = (a + PIECE_SAMPLES - 1).min(n - 1);
        let mut piece = Vec::with_capacity(2 * (b - a + 1));
        piece.extend((a..=b).map(bottom));
        piece.extend((a..=b).rev().map(top));
        pieces.push(piece);
        if b == n - 1 {
            return pieces;
        }
        // The next piece starts a sample before this one ends, and further back while
        // that stays within OVERLAP points of its end, but never before the middle of
        // this piece (dense samples would otherwise make pieces advance by little).
        let end_x = bottom(b).0;
        let earliest = a + PIECE_SAMPLES / 2;
        let mut next = b - 1;
        while next > earliest && end_x - bottom(next - 1).0 < OVERLAP {
            next -= 1;
        }
        a = next;
    }
}

/// The outline as polylines: the closed vertex sequence, then its first two points again
/// (closing it, and keeping the join where it closes), cut into runs of at most
/// [`PIECE_SAMPLES`] points, each starting at the previous run's second-to-last point.
fn outline_runs(outline: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let closed: Vec<(f64, f64)> = outline.iter().chain(&outline[..2]).copied().collect();
    let mut runs = Vec::with_capacity(closed.len() / (PIECE_SAMPLES - 1) + 1);
    let mut start = 0;
    loop {
        let end = (start + PIECE_SAMPLES).min(closed.len());
        runs.push(closed[start..end].to_vec());
        if end == closed.len() {
            return runs;
        }
        start = end - 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outline of `n` samples at x = k · `dx`: bottom at 0, top at k + 10.
    fn outline(n: usize, dx: f64) -> Vec<(f64, f64)> {
        let x = |k: usize| k as f64 * dx;
        let top = |k: usize| k as f64 + 10.0;
        let mut o = vec![(x(0), 0.0)];
        o.extend((0..n).map(|k| (x(k), 0.0)));
        o.push((x(n - 1), top(n - 1)));
        o.extend((0..n).rev().map(|k| (x(k), top(k))));
        o
    }

    #[test]
    fn a_short_band_is_not_cut() {
        assert!(cut(&outline(PIECE_SAMPLES, 1.0)).is_none());
        assert!(cut(&outline(PIECE_SAMPLES + 1, 1.0)).is_some());
    }

    #[test]
    fn fill_pieces_cover_every_sample_and_overlap_by_at_least_one() {
        for dx in [0.001, 0.02, 0.5, 3.0] {
            let n = 10 * PIECE_SAMPLES + 17;
            let o = outline(n, dx);
            let fills = cut(&o).expect("cut").fills;
            let mut previous_end: Option<f64> = None;
            let mut covered_to = f64::NEG_INFINITY;
            for piece in &fills {
                assert!(
                    piece.len() <= 2 * PIECE_SAMPLES,
                    "dx {dx}: {} points",
                    piece.len()
                );
                let samples = piece.len() / 2;
                let (first, last) = (piece[0].0, piece[samples - 1].0);
                // Bottom edge left to right, then the top edge back over the same xs.
                let top: Vec<f64> = piece[samples..].iter().rev().map(|p| p.0).collect();
                let bottom: Vec<f64> = piece[..samples].iter().map(|p| p.0).collect();
                assert_eq!(top, bottom);
                if let Some(end) = previous_end {
                    assert!(first < end, "dx {dx}: no overlap at {end}");
                    assert!(
                        end - first <= OVERLAP.max(dx) + 1e-9,
                        "dx {dx}: overlap {}",
                        end - first
                    );
                }
                assert!(first <= covered_to || previous_end.is_none());
                covered_to = last;
                previous_end = Some(last);
            }
            assert_eq!(covered_to, (n - 1) as f64 * dx);
            // Half a piece at least each time: the pieces do not pile up.
            assert!(
                fills.len() <= 2 * n / PIECE_SAMPLES + 1,
                "dx {dx}: {} pieces",
                fills.len()
            );
        }
    }

    #[test]
    fn outline_runs_are_the_closed_outline_with_every_vertex_inside_one() {
        let o = outline(3 * PIECE_SAMPLES, 0.1);
        let runs = cut(&o).expect("cut").runs;
        // Put back together without the overlaps: the closed outline and its first
        // segment again.
        let mut joined = runs[0].clone();
        for (r, run) in runs.iter().enumerate().skip(1) {
            assert!(run.len() <= PIECE_SAMPLES);
            let n = joined.len();
            assert_eq!(run[..2], joined[n - 2..], "run {r} starts one segment back");
            joined.extend_from_slice(&run[2..]);
        }
        let mut closed = o.clone();
        closed.extend_from_slice(&o[..2]);
        assert_eq!(joined, closed);
        // Every vertex of the cycle is some run's inner point: its join is drawn.
        let mut inner = vec![false; o.len()];
        let mut at = 0;
        for run in &runs {
            for i in 1..run.len() - 1 {
                inner[(at + i) % o.len()] = true;
            }
            at += run.len() - 2;
        }
        assert!(inner.iter().all(|&b| b));
    }

    #[test]
    fn large_charts_only_are_drawn_in_pieces() {
        // The default limit of 42,000 band vertices, whatever the bands.
        for bands in [1, 6, 21, 200] {
            assert!(!in_pieces(bands, 42_000 / bands));
        }
        assert!(in_pieces(20, 25_000));
        assert!(in_pieces(1, 500_000));
    }
}
