//! The band polygons of a graph whose bands' points are in a spill file (`-c` of a long
//! `.hp`, [`Graph::spilled`]): each band's top edge worked out as it is drawn, from its
//! points read back from the spill and the stack below it, as the layout works out a
//! band's `top` (`layout/graph.rs`), so the bytes are those of [`super::band`] on the
//! graph with every top kept. What is held is one stack of the samples' heights, not a
//! top per band.
//!
//! Two sides share the work of a long chart (up to [`THREAD_SAMPLES_UP_TO`] samples): the
//! edges' side (a thread of its own) reads each band back, stacks it and formats its top,
//! while the calling thread writes the lines of the edge before. Each edge is written
//! twice in a row, as a band's top and then as the bottom of the band above it, so two
//! rooms for formatted edges go back and forth: one being written, one being filled.

use std::io::{self, Write};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};

use super::fill::fill_and_stroke;
use super::long_bands::{axis, bottom_text, top_text, Bottom, Formatted};
use super::Buffered;
use crate::layout::chart::{Fill, Graph, SpilledBands};
use crate::profile::spill::Spill;

/// Charts with fewer samples than this are drawn on the calling thread alone: a thread
/// only pays for itself when each edge is long.
const THREAD_SAMPLES: usize = 2_000;

/// Nor with more than this many: the second room for a formatted edge (12 bytes a
/// sample) would then cost more memory than the time it saves is worth (4 MiB; a day's
/// profile at GHC's `-i0.1` has 864,000 samples, and the painting of so long a chart
/// holds a few such arrays). Issue 39's 400 MB profile, 100,000 samples, has its edges
/// formatted on a thread; the 1.6 GB one, 355,808, on the calling thread.
const THREAD_SAMPLES_UP_TO: usize = (4 << 20) / 12;

/// Writes every band of `g`, whose points are in `spilled`, as [`super::band`] would
/// write them from their tops. As [`super::long_bands`] writes them, each x and each
/// edge is formatted once (a band's bottom is the top of the band below); what is held
/// besides the stack is the xs and one or two edges formatted (see the module docs).
pub(super) fn spilled_bands<W: Write>(
    out: &mut Buffered<'_, W>,
    g: &Graph,
    spilled: &SpilledBands,
) -> io::Result<()> {
    let n = g.xs.len();
    if n == 0 {
        return Ok(());
    }
    if !(THREAD_SAMPLES..=THREAD_SAMPLES_UP_TO).contains(&n) {
        return write_bands(out, g, &mut Inline::new(g, spilled));
    }
    std::thread::scope(|scope| {
        let (edges, from_edges) = sync_channel::<io::Result<Edge>>(1);
        let (rooms, to_edges) = channel::<Formatted>();
        // When no thread can be started, the closure goes with its ends of the channels,
        // and this thread does all the work.
        let spawned = std::thread::Builder::new()
            .spawn_scoped(scope, move || edges_side(g, spilled, &edges, &to_edges));
        match spawned {
            Ok(_) => write_bands(out, g, &mut FromThread { from_edges, rooms }),
            Err(_) => write_bands(out, g, &mut Inline::new(g, spilled)),
        }
    })
}

/// A band's top, ready to be written: the edge formatted, and the band's outline when
/// its fill is a pattern (whose ink needs it).
struct Edge {
    formatted: Formatted,
    area: Option<Vec<(f64, f64)>>,
}

/// Where the writing side gets each band's [`Edge`] from, in band order, and gives each
/// edge's room back once written.
trait EdgeSource {
    fn edge(&mut self) -> io::Result<Edge>;
    fn give_back(&mut self, room: Formatted);
}

/// The writing side: the bottom of the first band, then for each band its top, its fill
/// and the bottom of the band above (the same edge), in the bytes of [`super::band`].
fn write_bands<W: Write>(
    out: &mut Buffered<'_, W>,
    g: &Graph,
    source: &mut dyn EdgeSource,
) -> io::Result<()> {
    let n = g.xs.len();
    let mut xs = Formatted::default();
    xs.refill(n, |k| g.xs[k]);
    if g.bands.is_empty() {
        return Ok(());
    }
    bottom_text(out, &xs, &Bottom::Axis(&axis(g.y0)), n)?;
    for (i, band) in g.bands.iter().enumerate() {
        let Edge { formatted, area } = source.edge()?;
        top_text(out, &xs, &formatted, n)?;
        fill_and_stroke(&mut out.buf, &band.fill, || area.unwrap_or_default());
        out.flush_if_large()?;
        if i + 1 < g.bands.len() {
            bottom_text(out, &xs, &Bottom::Band(&formatted), n)?;
        }
        source.give_back(formatted);
    }
    Ok(())
}

/// Works out each band's top in turn: the stack so far, in page points above the x axis
/// (the layout's `previous`), and each band's points read back and added to it.
struct Stacking<'g> {
    g: &'g Graph,
    spilled: &'g SpilledBands,
    stack: Vec<f64>,
    next: usize,
}

impl<'g> Stacking<'g> {
    fn new(g: &'g Graph, spilled: &'g SpilledBands) -> Stacking<'g> {
        Stacking {
            g,
            spilled,
            stack: vec![0.0; g.xs.len()],
            next: 0,
        }
    }

    /// The next band's top, formatted into `room`.
    fn edge(&mut self, spill: &mut Spill, mut room: Formatted) -> io::Result<Edge> {
        let (g, i) = (self.g, self.next);
        self.next += 1;
        let n = g.xs.len();
        let pattern = g
            .bands
            .get(i)
            .is_some_and(|b| matches!(b.fill, Fill::Pattern(_)));
        let below = pattern.then(|| self.stack.clone());
        if let Some(number) = self.spilled.bands.get(i).copied().flatten() {
            stack_on(spill, number, self.spilled.scale, &mut self.stack)?;
        }
        let stack = &self.stack;
        let top = |k: usize| stack[k] + g.y0;
        room.refill(n, top);
        let area = below.map(|below| {
            let bottom = |k: usize| if i == 0 { g.y0 } else { below[k] + g.y0 };
            let start = std::iter::once((g.xs[0], bottom(0)));
            let along_bottom = (0..n).map(|k| (g.xs[k], bottom(k)));
            let up = std::iter::once((g.xs[n - 1], top(n - 1)));
            let along_top = (0..n).rev().map(|k| (g.xs[k], top(k)));
            start
                .chain(along_bottom)
                .chain(up)
                .chain(along_top)
                .collect()
        });
        Ok(Edge {
            formatted: room,
            area,
        })
    }
}

/// The edges' side on the calling thread: each edge worked out when asked for, in the
/// one room there is.
struct Inline<'g> {
    stacking: Stacking<'g>,
    room: Option<Formatted>,
}

impl<'g> Inline<'g> {
    fn new(g: &'g Graph, spilled: &'g SpilledBands) -> Inline<'g> {
        Inline {
            stacking: Stacking::new(g, spilled),
            room: None,
        }
    }
}

impl EdgeSource for Inline<'_> {
    fn edge(&mut self) -> io::Result<Edge> {
        let room = self.room.take().unwrap_or_default();
        let mut spill = self.stacking.spilled.spill.lock();
        self.stacking.edge(&mut spill, room)
    }

    fn give_back(&mut self, room: Formatted) {
        self.room = Some(room);
    }
}

/// The edges' side on a thread of its own: two rooms, the first two edges each in a new
/// one, every later edge in the room the writing side gave back. Ends at the first
/// failure (sent on), or when the writing side stops.
fn edges_side(
    g: &Graph,
    spilled: &SpilledBands,
    edges: &SyncSender<io::Result<Edge>>,
    rooms: &Receiver<Formatted>,
) {
    let mut stacking = Stacking::new(g, spilled);
    let mut spill = spilled.spill.lock();
    for i in 0..g.bands.len() {
        let room = if i < 2 {
            Formatted::default()
        } else {
            match rooms.recv() {
                Ok(room) => room,
                Err(_) => return,
            }
        };
        let edge = stacking.edge(&mut spill, room);
        let failed = edge.is_err();
        if edges.send(edge).is_err() || failed {
            return;
        }
    }
}

/// The writing side's end of [`edges_side`].
struct FromThread {
    from_edges: Receiver<io::Result<Edge>>,
    rooms: Sender<Formatted>,
}

impl EdgeSource for FromThread {
    fn edge(&mut self) -> io::Result<Edge> {
        // Disconnected only when the edges' side panicked: the scope passes that on.
        self.from_edges
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the chart's edges were not worked out")))
    }

    fn give_back(&mut self, room: Formatted) {
        // The edges' side may have ended (after the last band): nothing to give back to.
        let _ = self.rooms.send(room);
    }
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

    /// What every way of drawing the spilled bands writes: the edges on a thread of their
    /// own (a long chart) and on the calling thread, against every vertex formatted in
    /// turn from the bands' tops ([`super::super::band`]), over bands with several points
    /// in a census, censuses without any, a band without points, and a pattern's ink.
    #[test]
    fn every_way_writes_the_bytes_of_the_tops() {
        let mut next = crate::test_rng::xorshift(11);
        let n = THREAD_SAMPLES + 500;
        let (y0, scale) = (72.5, 0.01 + 1.0 / 7.0);
        let mut spill = Spill::new(Box::new(io::Cursor::new(Vec::new())));
        let numbers = [Some(0), Some(1), None, Some(3), Some(4)];
        let mut stack = vec![0.0; n];
        let mut bands = Vec::new();
        for (i, number) in numbers.iter().enumerate() {
            let mut column = vec![0.0; n];
            let mut points = Vec::new();
            for sample in 0..n as u32 {
                for _ in 0..number.map_or(0, |_| next() % 3) {
                    let value = (next() % 100_000) as f64;
                    points.push(Point { sample, value });
                    column[sample as usize] += value * scale;
                }
            }
            if let Some(number) = number {
                spill.put(*number, points.into_iter());
            }
            for (s, c) in stack.iter_mut().zip(&column) {
                *s += *c;
            }
            let fill = match i {
                3 => Fill::Pattern(crate::layout::patterns::pattern(2)),
                _ => Fill::Shade(i as f64 / 10.0),
            };
            let top = stack.iter().map(|s| s + y0).collect();
            bands.push(crate::layout::chart::BandShape::test_band(top, fill));
        }
        spill.finish().unwrap();
        let g = Graph {
            xs: (0..n).map(|k| 72.0 + k as f64 * 0.0371).collect(),
            y0,
            bands,
            spilled: Some(SpilledBands {
                spill: crate::profile::spill::SpillHandle::new(spill),
                bands: numbers.to_vec(),
                scale,
            }),
            ..Graph::default()
        };
        let spilled = g.spilled.as_ref().unwrap();
        let mut want = Vec::new();
        for i in 0..g.bands.len() {
            super::super::band(&mut want, &g, i);
        }
        let threaded = written(|out| spilled_bands(out, &g, spilled));
        let inline = written(|out| write_bands(out, &g, &mut Inline::new(&g, spilled)));
        assert!(want.len() > 500_000);
        assert!(threaded == want, "on a thread of their own");
        assert!(inline == want, "on the calling thread");
    }

    fn written(draw: impl FnOnce(&mut Buffered<'_, Vec<u8>>) -> io::Result<()>) -> Vec<u8> {
        let mut out = Vec::new();
        let mut b = Buffered::new(&mut out);
        draw(&mut b).unwrap();
        b.pass_on().unwrap();
        out
    }
}
