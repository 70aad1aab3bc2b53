//! The band polygons of a graph whose bands' points are in a spill file (`-c` of a long
//! `.hp`, [`Graph::spilled`]): each band's top edge worked out as it is drawn, from its
//! points read back from the spill and the stack below it, as the layout works out a
//! band's `top` (`layout/graph.rs`), so the bytes are those of [`super::band`] on the
//! graph with every top kept. What is held is one stack of the samples' heights, not a
//! top per band.

use std::io::{self, Write};

use super::fill::fill_and_stroke;
use super::long_bands::{axis, bottom_text, top_text, Bottom, Formatted};
use super::Buffered;
use crate::layout::chart::{Fill, Graph, SpilledBands};

/// Writes every band of `g`, whose points are in `spilled`, as [`super::band`] would
/// write them from their tops. As [`super::long_bands`] writes them, each x and each
/// edge is formatted once (a band's bottom is the top of the band below); what is held
/// besides the stack is the xs and one edge formatted, the bottom's room reused for the
/// top once the bottom is written.
pub(super) fn spilled_bands<W: Write>(
    out: &mut Buffered<'_, W>,
    g: &Graph,
    spilled: &SpilledBands,
) -> io::Result<()> {
    let n = g.xs.len();
    if n == 0 {
        return Ok(());
    }
    // The stack so far, in page points above the x axis: the layout's `previous`.
    let mut stack = vec![0.0; n];
    let mut spill = spilled.spill.lock();
    let mut xs = Formatted::default();
    xs.refill(n, |k| g.xs[k]);
    let axis = axis(g.y0);
    // The edge below the band being drawn (the band below's top), then its top.
    let mut edge = Formatted::default();
    for (i, band) in g.bands.iter().enumerate() {
        let bottom = |stack: &[f64], k: usize| match i {
            0 => g.y0,
            _ => stack[k] + g.y0,
        };
        // A pattern's ink needs the outline again, once the top is known.
        let below = matches!(band.fill, Fill::Pattern(_)).then(|| stack.clone());
        let under = match i {
            0 => Bottom::Axis(&axis),
            _ => Bottom::Band(&edge),
        };
        bottom_text(out, &xs, &under, n)?;
        if let Some(number) = spilled.bands.get(i).copied().flatten() {
            stack_on(&mut spill, number, spilled.scale, &mut stack)?;
        }
        let top = |k: usize| stack[k] + g.y0;
        edge.refill(n, top);
        top_text(out, &xs, &edge, n)?;
        let area = || {
            let below = below.unwrap_or_default();
            let start = std::iter::once((g.xs[0], bottom(&below, 0)));
            let along_bottom = (0..n).map(|k| (g.xs[k], bottom(&below, k)));
            let up = std::iter::once((g.xs[n - 1], top(n - 1)));
            let along_top = (0..n).rev().map(|k| (g.xs[k], top(k)));
            start
                .chain(along_bottom)
                .chain(up)
                .chain(along_top)
                .collect()
        };
        fill_and_stroke(&mut out.buf, &band.fill, area);
        out.flush_if_large()?;
    }
    Ok(())
}

/// Adds band `number`'s points, scaled, to `stack`, as the layout adds a band's column:
/// a sample's points summed first (from 0), then added to the stack. A band's points
/// come in sample order (the file's), so those of one sample are side by side; a sample
/// without points adds nothing (0 added to a stack that is never -0 leaves it as it is).
fn stack_on(
    spill: &mut crate::profile::spill::Spill,
    number: u32,
    scale: f64,
    stack: &mut [f64],
) -> io::Result<()> {
    let mut at: Option<(usize, f64)> = None;
    spill.read_band(number, &mut |points| {
        for p in points {
            let (sample, value) = (p.sample as usize, p.value);
            if sample >= stack.len() {
                continue;
            }
            match &mut at {
                Some((k, column)) if *k == sample => *column += value * scale,
                _ => {
                    if let Some((k, column)) = at {
                        stack[k] += column;
                    }
                    at = Some((sample, 0.0 + value * scale));
                }
            }
        }
    })?;
    if let Some((k, column)) = at {
        stack[k] += column;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::spill::Spill;
    use crate::profile::Point;

    /// The stack worked out from a spill is the layout's, bit for bit (`layout/graph.rs`:
    /// each sample's points scaled and summed from 0, then added), with several points
    /// in one sample, samples with none, and points beyond the samples drawn.
    #[test]
    fn the_stack_is_the_layouts_bit_for_bit() {
        let mut next = crate::test_rng::xorshift(7);
        let n = 20_000;
        let scale = 0.1 + 1.0 / 3.0;
        let mut points = Vec::new();
        for sample in 0..n as u32 + 5 {
            for _ in 0..next() % 4 {
                let value = (next() % 1_000_000_007) as f64 / 7.0;
                points.push(Point { sample, value });
            }
        }
        let mut spill = Spill::new(Box::new(io::Cursor::new(Vec::new())));
        spill.put(3, points.iter().copied());
        spill.finish().unwrap();
        let below: Vec<f64> = (0..n).map(|k| (k % 89) as f64 * 0.37).collect();
        let mut stack = below.clone();
        stack_on(&mut spill, 3, scale, &mut stack).unwrap();
        // The layout's way.
        let mut column = vec![0.0; n];
        for p in &points {
            if let Some(c) = column.get_mut(p.sample as usize) {
                *c += p.value * scale;
            }
        }
        let mut want = below;
        for (w, c) in want.iter_mut().zip(&column) {
            *w += *c;
        }
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert!(bits(&stack) == bits(&want));
    }
}
