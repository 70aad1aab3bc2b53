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
use super::in_blocks::write_lines;
use super::threads::{start, THREADED_FROM};
use super::Buffered;
use crate::layout::chart::Graph;
use crate::num::{f6_slot, push_f6};
use crate::paint::geometry::band_outline;

/// Numbers formatted as `%f` once, each in a slot of [`SLOT`] bytes (the text, padded),
/// so that copying one is a fixed-size move rather than a call to `memcpy`.
#[derive(Default)]
pub(super) struct Formatted {
    slots: Vec<[u8; SLOT]>,
    lens: Vec<u8>,
    /// The texts too long for a slot (numbers of ten digits and more before the point,
    /// nine when negative), by index.
    long: Vec<(usize, Vec<u8>)>,
}

/// Slot size: `-1234567.123456` is 15 bytes, and page coordinates are far smaller.
const SLOT: usize = 16;

/// A [`Formatted`]'s room, made ready: its slots, lengths and long texts.
type Room<'a> = (
    &'a mut Vec<[u8; SLOT]>,
    &'a mut Vec<u8>,
    &'a mut Vec<(usize, Vec<u8>)>,
);

/// Formats `value(first + j)` into `slots[j]` and `lens[j]`; the texts too long for a
/// slot into `long` (their length 0).
fn fill(
    slots: &mut [[u8; SLOT]],
    lens: &mut [u8],
    first: usize,
    value: &impl Fn(usize) -> f64,
    long: &mut Vec<(usize, Vec<u8>)>,
) {
    for (j, (slot, len)) in slots.iter_mut().zip(lens.iter_mut()).enumerate() {
        let v = value(first + j);
        if let Some((text, n)) = f6_slot(v) {
            (*slot, *len) = (text, n as u8);
            continue;
        }
        let mut text = Vec::new();
        push_f6(&mut text, v);
        if text.len() <= SLOT {
            slot[..text.len()].copy_from_slice(&text);
            *len = text.len() as u8;
        } else {
            long.push((first + j, text));
            *len = 0;
        }
    }
}

impl Formatted {
    fn of(values: &[f64]) -> Formatted {
        let mut f = Formatted::default();
        f.refill(values.len(), |k| values[k]);
        f
    }

    /// Makes room for `n` numbers, its room reused; the slots, lengths and long texts.
    fn room(&mut self, n: usize) -> Room<'_> {
        self.slots.clear();
        self.lens.clear();
        self.long.clear();
        self.slots.resize(n, [0; SLOT]);
        self.lens.resize(n, 0);
        (&mut self.slots, &mut self.lens, &mut self.long)
    }

    /// Formats `value(k)` for every `k` below `n` into `self`, its room reused.
    fn refill(&mut self, n: usize, value: impl Fn(usize) -> f64) {
        let (slots, lens, long) = self.room(n);
        fill(slots, lens, 0, &value, long);
    }

    /// [`Self::refill`], a long edge's halves on two threads (for a painting that has a
    /// core to spare: halves need no more room than the whole).
    pub(super) fn refill_in_halves(&mut self, n: usize, value: impl Fn(usize) -> f64 + Sync) {
        if n < THREADED_FROM {
            return self.refill(n, value);
        }
        let (slots, lens, long) = self.room(n);
        let half = n / 2;
        let (slots, upper_slots) = slots.split_at_mut(half);
        let (lens, upper_lens) = lens.split_at_mut(half);
        let value = &value;
        let upper_long = std::thread::scope(|scope| {
            let upper = start(scope, move || {
                let mut upper_long = Vec::new();
                fill(upper_slots, upper_lens, half, value, &mut upper_long);
                upper_long
            });
            fill(slots, lens, 0, value, long);
            upper.join()
        });
        // Always there: the work of `start` is done on a thread or here.
        long.extend(upper_long.into_iter().flatten());
    }

    /// Number `k` in its slot, and its length; `None` for a text too long for one.
    #[inline(always)]
    fn slot(&self, k: usize) -> Option<(&[u8; SLOT], usize)> {
        match self.lens[k] {
            0 => None,
            len => Some((&self.slots[k], usize::from(len))),
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

    /// An edge formatted in halves on two threads is the edge formatted on one: long
    /// numbers on both sides of the cut and at its ends, and values that are not numbers.
    #[test]
    fn halves_format_as_the_whole() {
        let n = 40_000;
        let mut values: Vec<f64> = (0..n).map(|k| 72.0 + k as f64 * 0.013).collect();
        for k in [0, 5, n / 2 - 1, n / 2, n / 2 + 1, 30_000, n - 1] {
            values[k] = 1e15 / 3.0 + k as f64;
        }
        values[7] = -0.0;
        values[n / 2 + 5] = f64::NAN;
        values[n - 3] = f64::NEG_INFINITY;
        values[11] = -123_456_789.5;
        let mut whole = Formatted::default();
        whole.refill(n, |k| values[k]);
        let mut halves = Formatted::default();
        halves.refill_in_halves(n, |k| values[k]);
        let text = |f: &Formatted| {
            let mut buf = Vec::new();
            (0..n).for_each(|k| f.push(&mut buf, k));
            buf
        };
        assert!(text(&halves) == text(&whole));
        assert!(halves.long.len() == 8 && halves.long.is_sorted_by_key(|(k, _)| *k));
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
