//! The band polygons of a graph with many samples, which are nearly all of a big
//! profile's PostScript (100 MB for 89,000 samples).
//!
//! Every vertex is `x y lineto`, and the numbers repeat: every band has a vertex at each
//! sample's x, and a band's bottom edge is the top edge of the band below. So each x and
//! each edge is formatted once (`%f` is the costly part), and a band's text is put together
//! from those pieces. While the calling thread puts a band together and writes it, a
//! second thread formats the next band's top edge. The bytes are those of formatting every
//! vertex in turn (`tests/golden.rs`, and the differential test against GHC's hp2ps).

use std::io::{self, Write};

use super::fill::fill_and_stroke;
use super::threads::start;
use super::Buffered;
use crate::layout::chart::Graph;
use crate::num::{f6_slot, push_f6};
use crate::paint::geometry::band_outline;

/// Numbers formatted as `%f` once, each in a slot of [`SLOT`] bytes (the text, padded,
/// and its length in the last byte), so that copying one is a fixed-size move rather than
/// a call to `memcpy`. A long chart holds two of these for each sample (its xs and an
/// edge), so the slot is as small as page coordinates allow.
#[derive(Default)]
pub(super) struct Formatted {
    slots: Vec<[u8; SLOT]>,
    /// The texts too long for a slot (numbers of five digits and more before the point,
    /// four when negative), by index; their slots' length is 0.
    long: Vec<(usize, Vec<u8>)>,
}

/// Slot size: a text of up to [`TEXT`] bytes (`1234.123456`: page coordinates have at
/// most four digits before the point), then its length.
const SLOT: usize = 12;

/// The longest text a slot holds.
const TEXT: usize = SLOT - 1;

impl Formatted {
    fn of(values: &[f64]) -> Formatted {
        let mut f = Formatted::default();
        f.refill(values.len(), |k| values[k]);
        f
    }

    /// Formats `value(k)` for every `k` below `n` into `self`, its room reused.
    pub(super) fn refill(&mut self, n: usize, value: impl Fn(usize) -> f64) {
        self.slots.clear();
        self.long.clear();
        self.slots.resize(n, [0; SLOT]);
        for (j, slot) in self.slots.iter_mut().enumerate() {
            let v = value(j);
            if let Some((text, len)) = f6_slot(v).filter(|(_, len)| *len <= TEXT) {
                slot[..TEXT].copy_from_slice(&text[..TEXT]);
                slot[TEXT] = len as u8;
                continue;
            }
            // Too long for a slot (or not a number `f6_slot` writes): kept whole, the
            // slot's length left 0.
            let mut text = Vec::new();
            push_f6(&mut text, v);
            self.long.push((j, text));
        }
    }

    /// Number `k` in its slot, and its length; `None` for a text too long for one.
    #[inline(always)]
    fn slot(&self, k: usize) -> Option<(&[u8; SLOT], usize)> {
        let slot = &self.slots[k];
        match slot[TEXT] {
            0 => None,
            len => Some((slot, usize::from(len))),
        }
    }

    /// Appends number `k`.
    fn push(&self, buf: &mut Vec<u8>, k: usize) {
        match self.slot(k) {
            Some((text, len)) => buf.extend_from_slice(&text[..len]),
            None => self.push_long(buf, k),
        }
    }

    #[cold]
    fn push_long(&self, buf: &mut Vec<u8>, k: usize) {
        if let Ok(i) = self.long.binary_search_by_key(&k, |(at, _)| *at) {
            buf.extend_from_slice(&self.long[i].1);
        }
    }
}

/// A band's bottom edge: the x axis (its one number formatted), or the band below's
/// top, formatted.
pub(super) enum Bottom<'a> {
    Axis(&'a Formatted),
    Band(&'a Formatted),
}

impl Bottom<'_> {
    /// The edge's number at sample `k`, and `k` in it.
    fn at(&self, k: usize) -> (&Formatted, usize) {
        match self {
            Bottom::Axis(y) => (y, 0),
            Bottom::Band(f) => (f, k),
        }
    }
}

/// The axis at `y0`, formatted, for [`Bottom::Axis`].
pub(super) fn axis(y0: f64) -> Formatted {
    Formatted::of(&[y0])
}

/// Appends `x y op` (`op` with its line end): number `kx` of `xs` and `ky` of `ys`.
/// Put together in one line on the stack and appended at once: the painting of a long
/// chart is this, for every vertex.
#[inline(always)]
fn vertex(buf: &mut Vec<u8>, xs: &Formatted, kx: usize, ys: &Formatted, ky: usize, op: &[u8; 7]) {
    let (Some((x, xl)), Some((y, yl))) = (xs.slot(kx), ys.slot(ky)) else {
        return vertex_long(buf, xs, kx, ys, ky, op);
    };
    // Each slot is copied whole, its padding and length byte too: the bytes after each
    // text are written over (the space, the next text, the operator) or cut off.
    let mut line = [b' '; 2 * SLOT + 10];
    line[..SLOT].copy_from_slice(x);
    line[xl] = b' ';
    line[xl + 1..xl + 1 + SLOT].copy_from_slice(y);
    let at = xl + 1 + yl;
    line[at] = b' ';
    line[at + 1..at + 8].copy_from_slice(op);
    buf.extend_from_slice(&line);
    buf.truncate(buf.len() - line.len() + at + 8);
}

/// [`vertex`] of a number too long for a slot.
#[cold]
fn vertex_long(
    buf: &mut Vec<u8>,
    xs: &Formatted,
    kx: usize,
    ys: &Formatted,
    ky: usize,
    op: &[u8; 7],
) {
    xs.push(buf, kx);
    buf.push(b' ');
    ys.push(buf, ky);
    buf.push(b' ');
    buf.extend_from_slice(op);
}

/// Writes every band of `g` as [`super::band`] would, one after the other.
pub(super) fn long_bands<W: Write>(out: &mut Buffered<'_, W>, g: &Graph) -> io::Result<()> {
    let n = g.xs.len();
    let drawn = |i: usize| band_outline(g, i).is_some();
    let xs = Formatted::of(&g.xs);
    let axis = axis(g.y0);
    let mut below: Option<Formatted> = None;
    let mut top = (g.bands.first())
        .filter(|_| drawn(0))
        .map(|b| Formatted::of(&b.top));
    std::thread::scope(|scope| {
        for i in 0..g.bands.len() {
            // The next band's top, formatted on another thread meanwhile.
            let next = (i + 1 < g.bands.len() && drawn(i + 1))
                .then(|| start(scope, move || Formatted::of(&g.bands[i + 1].top)));
            if let Some(t) = &top {
                let formatted;
                let bottom = match &below {
                    _ if i == 0 => Bottom::Axis(&axis),
                    Some(b) => Bottom::Band(b),
                    // The band below was not drawn: format this band's bottom here.
                    None => {
                        formatted = Formatted::of(&g.bands[i - 1].top);
                        Bottom::Band(&formatted)
                    }
                };
                band_text(out, &xs, &bottom, t, n)?;
                let band = &g.bands[i];
                let area = || band_outline(g, i).into_iter().flatten().collect();
                fill_and_stroke(&mut out.buf, &band.fill, area);
                out.flush_if_large()?;
            }
            below = top.take();
            // (Always formatted: the work of `start` is done on a thread or here.)
            top = next.map(|h| {
                h.join()
                    .unwrap_or_else(|| Formatted::of(&g.bands[i + 1].top))
            });
        }
        Ok(())
    })
}

/// The outline of [`band_outline`]: the bottom edge left to right (its first point
/// repeated), then the top edge right to left.
fn band_text<W: Write>(
    out: &mut Buffered<'_, W>,
    xs: &Formatted,
    bottom: &Bottom<'_>,
    top: &Formatted,
    n: usize,
) -> io::Result<()> {
    bottom_text(out, xs, bottom, n)?;
    top_text(out, xs, top, n)
}

/// Appends lines `0..count` to `out`, line `j` being what `line(buf, j)` appends to
/// `buf`; what is gathered is passed on every few thousand lines. (Made on two threads
/// in blocks, the lines came slower: the threads waited on each other.)
fn write_lines<W: Write>(
    out: &mut Buffered<'_, W>,
    count: usize,
    line: &impl Fn(&mut Vec<u8>, usize),
) -> io::Result<()> {
    // In blocks, each line appended to the buffer itself rather than through `out`
    // (through `out`, the painting of the 400 MB profile took a fifth longer).
    for block in (0..count).step_by(4096) {
        let buf = &mut out.buf;
        (block..count.min(block + 4096)).for_each(|j| line(buf, j));
        out.flush_if_large()?;
    }
    Ok(())
}

/// The first half of [`band_text`]: the bottom edge left to right, its first point
/// repeated (`moveto`, then `lineto`s); `n` samples.
pub(super) fn bottom_text<W: Write>(
    out: &mut Buffered<'_, W>,
    xs: &Formatted,
    bottom: &Bottom<'_>,
    n: usize,
) -> io::Result<()> {
    // Line 0 is the first point's `moveto`, line `k + 1` point `k`'s `lineto`.
    let line = |buf: &mut Vec<u8>, j: usize| {
        let (k, op) = match j {
            0 => (0, b"moveto\n"),
            _ => (j - 1, b"lineto\n"),
        };
        let (ys, ky) = bottom.at(k);
        vertex(buf, xs, k, ys, ky, op);
    };
    write_lines(out, n + 1, &line)
}

/// The second half of [`band_text`]: the top edge right to left, its last point
/// repeated.
pub(super) fn top_text<W: Write>(
    out: &mut Buffered<'_, W>,
    xs: &Formatted,
    top: &Formatted,
    n: usize,
) -> io::Result<()> {
    // Line 0 repeats the last point, line `j` is point `n - j`.
    let line = |buf: &mut Vec<u8>, j: usize| {
        let k = n - j.max(1);
        vertex(buf, xs, k, top, k, b"lineto\n");
    };
    write_lines(out, n + 1, &line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::chart::{BandShape, Fill};

    /// What formatting every vertex in turn writes ([`super::super::band`]).
    fn one_by_one(g: &Graph) -> Vec<u8> {
        let mut buf = Vec::new();
        for i in 0..g.bands.len() {
            super::super::band(&mut buf, g, i);
        }
        buf
    }

    fn put_together(g: &Graph) -> Vec<u8> {
        let mut out = Vec::new();
        let mut b = Buffered::new(&mut out);
        long_bands(&mut b, g).unwrap();
        b.pass_on().unwrap();
        out
    }

    /// Long bands, with odd values (negative zero, large, many decimals) and bands that
    /// are not drawn (a top shorter than the samples, and the band above such a band).
    #[test]
    fn the_same_bytes_as_one_vertex_at_a_time() {
        let n = 2500;
        let xs: Vec<f64> = (0..n).map(|k| 72.0 + k as f64 * 0.2591).collect();
        let top = |b: usize| -> Vec<f64> {
            (0..n)
                .map(|k| 100.0 + (b * 40) as f64 + ((k * (b + 3)) % 97) as f64 / 7.0)
                .collect()
        };
        let mut tops: Vec<Vec<f64>> = (0..6).map(top).collect();
        tops[0][5] = -0.0;
        tops[1][7] = 1e15 / 3.0;
        // About a slot's width: 11 bytes (the most a slot holds), then 12 and 13.
        tops[2][9] = 1234.5;
        tops[2][10] = 9999.9999994;
        tops[4][11] = -1234.5;
        tops[5][13] = 12345.25;
        tops[5][14] = 9999.9999996;
        tops[3].truncate(n - 1);
        for colour in [false, true] {
            let g = Graph {
                xs: xs.clone(),
                y0: 72.5,
                bands: (tops.iter().enumerate())
                    .map(|(i, top)| {
                        let shade = i as f64 / 10.0;
                        let fill = if colour {
                            Fill::Shade(shade)
                        } else {
                            Fill::Grey(shade)
                        };
                        BandShape::test_band(top.clone(), fill)
                    })
                    .collect(),
                ..Graph::default()
            };
            let want = one_by_one(&g);
            assert!(want.len() > 500_000);
            assert!(put_together(&g) == want, "colour {colour}");
        }
    }
}
