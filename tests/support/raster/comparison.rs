//! Whether two renderings are the same picture: the shape and colour tests and the two
//! numbers that decide (see the module doc of `support::raster`).

use super::Image;

/// How different two renderings of the same picture may be. See the module doc.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Shape test: the largest 3 × 3 mean of the out-of-range distance.
    pub shape: u8,
    /// Colour test: a pixel is flat when its 3 × 3 neighbourhood spans at most this much
    /// in every channel ...
    pub flat: u8,
    /// ... and flat pixels of the two images may differ by at most this much.
    pub colour: u8,
    /// Largest share of differing pixels in the whole image.
    pub max_share: f64,
    /// Side of the square in which differing pixels are counted.
    pub window: u32,
    /// Largest number of differing pixels in any window.
    pub max_in_window: usize,
}

/// The limits, tuned on the golden inputs (`tests/same_picture.rs`): matching renderings
/// score at most 18 differing pixels in a window and 0.0015 % of the image; the weakest
/// real change there (a key label moved 3 pt) scores 130 in a window.
pub const TOLERANCE: Tolerance = Tolerance {
    shape: 40,
    flat: 6,
    colour: 12,
    max_share: 0.0005,
    window: 24,
    max_in_window: 40,
};

/// The outcome of a comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub width: u32,
    pub height: u32,
    /// Pixels that differ (either way), row-major.
    pub mask: Vec<bool>,
    pub differing: usize,
    /// Of those, how many differ in shape and how many in the colour of a flat area.
    pub shape_differing: usize,
    pub colour_differing: usize,
    /// The most differing pixels in one window, and that window's top-left corner.
    pub densest: usize,
    pub densest_at: (u32, u32),
    pub tolerance: Tolerance,
}

impl Comparison {
    pub fn share(&self) -> f64 {
        self.differing as f64 / (self.width as f64 * self.height as f64).max(1.0)
    }

    pub fn same_picture(&self) -> bool {
        self.share() <= self.tolerance.max_share && self.densest <= self.tolerance.max_in_window
    }

    pub fn summary(&self) -> String {
        format!(
            "{} differing pixels ({} shape, {} colour; {:.4}%, limit {:.2}%), \
             densest {}×{} window {} at {:?} (limit {})",
            self.differing,
            self.shape_differing,
            self.colour_differing,
            100.0 * self.share(),
            100.0 * self.tolerance.max_share,
            self.tolerance.window,
            self.tolerance.window,
            self.densest,
            self.densest_at,
            self.tolerance.max_in_window
        )
    }

    /// A picture of the differences: A faded, differing pixels in red.
    pub fn diff_image(&self, a: &Image) -> Image {
        let mut rgb = Vec::with_capacity(a.rgb.len());
        for (p, &bad) in a.rgb.chunks_exact(3).zip(&self.mask) {
            if bad {
                rgb.extend_from_slice(&[255, 0, 0]);
            } else {
                rgb.extend(p.iter().map(|&c| 192 + c / 4));
            }
        }
        Image {
            width: a.width,
            height: a.height,
            rgb,
        }
    }
}

/// Channel differences up to this are rounding, not a difference.
const NEAR: u8 = 2;

/// Compares two renderings of the same size with the default [`TOLERANCE`].
pub fn compare(a: &Image, b: &Image) -> Result<Comparison, String> {
    compare_with(a, b, TOLERANCE)
}

pub fn compare_with(a: &Image, b: &Image, tolerance: Tolerance) -> Result<Comparison, String> {
    if (a.width, a.height) != (b.width, b.height) {
        return Err(format!(
            "sizes differ: {}×{} vs {}×{}",
            a.width, a.height, b.width, b.height
        ));
    }
    let (w, h) = (a.width as usize, a.height as usize);
    // A pixel equal in both images lies inside the other's neighbourhood range and has no
    // colour difference, so only the pixels that differ need the neighbourhood work (this
    // keeps the comparison fast in unoptimised test builds). Differences of a level or
    // two (how a renderer rounds 0.3 × 255) count as equal: they are far below both
    // limits.
    let mut distance: Vec<(usize, u8)> = Vec::new();
    let mut colour_bad: Vec<usize> = Vec::new();
    let row = 3 * w;
    for y in 0..h {
        let (ra, rb) = (
            &a.rgb[y * row..(y + 1) * row],
            &b.rgb[y * row..(y + 1) * row],
        );
        if ra == rb {
            continue;
        }
        for x in 0..w {
            let (pa, pb) = (&ra[3 * x..3 * x + 3], &rb[3 * x..3 * x + 3]);
            let near = |c: usize| pa[c].abs_diff(pb[c]) <= NEAR;
            if near(0) && near(1) && near(2) {
                continue;
            }
            let (na, nb) = (range_at(a, x, y), range_at(b, x, y));
            let d = beyond(pa, nb).max(beyond(pb, na));
            if d > 0 {
                distance.push((y * w + x, d));
            }
            let off_colour = (0..3).any(|c| pa[c].abs_diff(pb[c]) > tolerance.colour);
            if off_colour && flat(na, tolerance.flat) && flat(nb, tolerance.flat) {
                colour_bad.push(y * w + x);
            }
        }
    }
    let shape_bad = mean_above(&distance, w, h, tolerance.shape);
    let mut mask = vec![false; w * h];
    let mut bad = Vec::with_capacity(shape_bad.len() + colour_bad.len());
    for &i in shape_bad.iter().chain(&colour_bad) {
        if !mask[i] {
            mask[i] = true;
            bad.push(i);
        }
    }
    let (densest, densest_at) = densest_window(&bad, w, h, tolerance.window as usize);
    Ok(Comparison {
        width: a.width,
        height: a.height,
        mask,
        differing: bad.len(),
        shape_differing: shape_bad.len(),
        colour_differing: colour_bad.len(),
        densest,
        densest_at,
        tolerance,
    })
}

/// Per channel, the (min, max) over the 3 × 3 neighbourhood of (x, y), clipped at the
/// image's edges.
fn range_at(img: &Image, x: usize, y: usize) -> ([u8; 3], [u8; 3]) {
    let w = img.width as usize;
    let (x0, x1) = (x.saturating_sub(1), (x + 1).min(w - 1));
    let (y0, y1) = (y.saturating_sub(1), (y + 1).min(img.height as usize - 1));
    let (mut lo, mut hi) = ([255u8; 3], [0u8; 3]);
    for yy in y0..=y1 {
        for p in img.rgb[3 * (yy * w + x0)..3 * (yy * w + x1 + 1)].chunks_exact(3) {
            for c in 0..3 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
    }
    (lo, hi)
}

/// How far, in the worst channel, a pixel lies outside a neighbourhood's range.
fn beyond(p: &[u8], (lo, hi): ([u8; 3], [u8; 3])) -> u8 {
    (0..3)
        .map(|c| lo[c].saturating_sub(p[c]).max(p[c].saturating_sub(hi[c])))
        .max()
        .unwrap_or(0)
}

/// A neighbourhood is flat when it spans at most `limit` in every channel.
fn flat((lo, hi): ([u8; 3], [u8; 3]), limit: u8) -> bool {
    (0..3).all(|c| hi[c] - lo[c] <= limit)
}

/// The pixels where the mean of the distances over the 3 × 3 neighbourhood (zero
/// elsewhere and outside the image) exceeds `limit`: isolated outliers (a stem drawn
/// darker, one edge pixel) fade, clusters stay. The sums are spread from the few
/// non-zero distances.
fn mean_above(distance: &[(usize, u8)], w: usize, h: usize, limit: u8) -> Vec<usize> {
    let limit = 9 * u32::from(limit);
    let mut sums = vec![0u32; w * h];
    let mut above = Vec::new();
    for &(i, d) in distance {
        let (x, y) = (i % w, i / w);
        for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
            for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                let j = yy * w + xx;
                let before = sums[j];
                sums[j] += u32::from(d);
                // Sums only grow: each pixel crosses the limit once.
                if before <= limit && sums[j] > limit {
                    above.push(j);
                }
            }
        }
    }
    above
}

/// The largest count of the given pixels in any `side` × `side` square inside the
/// image, and that square's top-left corner. Counts are spread from the pixels.
fn densest_window(pixels: &[usize], w: usize, h: usize, side: usize) -> (usize, (u32, u32)) {
    let (sx, sy) = (side.min(w), side.min(h));
    let (cols, rows) = (w - sx + 1, h - sy + 1);
    let mut counts = vec![0u32; cols * rows];
    let mut best = (0, (0, 0));
    for &i in pixels {
        let (x, y) = (i % w, i / w);
        for wy in (y + 1).saturating_sub(sy)..=y.min(rows - 1) {
            for wx in (x + 1).saturating_sub(sx)..=x.min(cols - 1) {
                let c = &mut counts[wy * cols + wx];
                *c += 1;
                if *c as usize > best.0 {
                    best = (*c as usize, (wx as u32, wy as u32));
                }
            }
        }
    }
    best
}
