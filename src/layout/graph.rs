//! The graph of a chart: the bands stacked in page points, the marks and the lines over
//! the bands, with the [`DataScale`] that says which times and values its points stand
//! for; and, for a chart that carries them, the numbers behind it ([`ChartData`]).

use super::axes::{x_label_decimals, x_tick_room};
use super::chart::*;
use super::frame::{TARGET_TICKS, X0, Y0};
use super::options::LayoutOptions;
use super::overlay;
use super::value_ticks::y_tick_room;
use crate::aggregate::{Aggregated, BandNumbers};
use crate::needs::Needs;
use crate::profile::spill::SpillHandle;
use crate::profile::{stack_on, Band};

/// The graph, and each band's values at every drawn sample when the chart carries its
/// data (else none).
pub(super) fn graph(
    agg: &Aggregated,
    fills: &[Fill],
    opts: &LayoutOptions,
    needs: &Needs,
    (gw, gh): (f64, f64),
) -> (Graph, Vec<Vec<f64>>) {
    let xs = xs_of(agg, gw);
    let scale = gh / agg.y_range;
    let n = agg.times.len();
    let mut previous = vec![0.0; n];
    let mut column = vec![0.0; n];
    let mut bands = Vec::with_capacity(agg.bands.len());
    let mut values = vec![0.0; n];
    let mut kept = Vec::new();
    for (band, &fill) in agg.bands.iter().zip(fills) {
        column.iter_mut().for_each(|c| *c = 0.0);
        values.iter_mut().for_each(|c| *c = 0.0);
        for p in &band.points {
            if let Some(c) = column.get_mut(p.sample as usize) {
                *c += p.value * scale;
            }
            if let Some(v) = values.get_mut(p.sample as usize) {
                *v += p.value;
            }
        }
        for (prev, c) in previous.iter_mut().zip(&column) {
            *prev += *c;
        }
        let stats = overlay::band_stats(agg, &values);
        bands.push(BandShape {
            name: band.name.clone(),
            fill,
            top: previous.iter().map(|&y| y + Y0).collect(),
            tooltip: overlay::band_tooltip(agg, &band.name, &stats),
            stats,
        });
        if needs.data {
            kept.push(values.clone());
        }
    }
    (frame(agg, opts, needs, (gw, gh), xs, bands, None), kept)
}

/// The graph of `agg` whose bands' points are in `spill` (`-c` of a long `.hp` as
/// PostScript): the bands with no `top` (the painter works each out from the spill as
/// it draws it, as [`graph`] would) and no numbers for a tooltip (PostScript has none).
pub(super) fn spilled(
    agg: &Aggregated,
    fills: &[Fill],
    opts: &LayoutOptions,
    needs: &Needs,
    (gw, gh): (f64, f64),
    spill: SpillHandle,
) -> Graph {
    let xs = xs_of(agg, gw);
    let bands = (agg.bands.iter().zip(fills))
        .map(|(band, &fill)| BandShape {
            name: band.name.clone(),
            fill,
            top: Vec::new(),
            tooltip: Vec::new(),
            stats: BandStats::default(),
        })
        .collect();
    let numbers = {
        let spill = spill.lock();
        (agg.bands.iter().enumerate())
            .map(|(i, b)| spill.band_of(&b.name, i == 0 && agg.other))
            .collect()
    };
    let spilled = SpilledBands {
        spill,
        bands: numbers,
        scale: gh / agg.y_range,
    };
    frame(agg, opts, needs, (gw, gh), xs, bands, Some(spilled))
}

/// The x of every sample of `agg`, on a graph `gw` wide.
fn xs_of(agg: &Aggregated, gw: f64) -> Vec<f64> {
    let first = agg.first_time();
    (agg.times.iter())
        .map(|&t| ((t - first) / agg.x_range) * gw + X0)
        .collect()
}

/// The graph of `agg` with its `bands` at `xs`: the marks, the lines and the scale.
fn frame(
    agg: &Aggregated,
    opts: &LayoutOptions,
    needs: &Needs,
    (gw, gh): (f64, f64),
    xs: Vec<f64>,
    bands: Vec<BandShape>,
    spilled: Option<SpilledBands>,
) -> Graph {
    let first = agg.first_time();
    let marks = if opts.marks {
        agg.marks
            .iter()
            .map(|&m| ((m - first) / agg.x_range) * gw + X0)
            .collect()
    } else {
        Vec::new()
    };
    let mark_texts = if opts.marks {
        agg.mark_texts.clone()
    } else {
        Vec::new()
    };
    Graph {
        xs,
        y0: Y0,
        bands,
        marks,
        mark_texts,
        lines: overlay::series_lines(agg, (X0, Y0), (gw, gh)),
        scale: DataScale {
            x0: X0,
            y0: Y0,
            width: gw,
            height: gh,
            t0: first,
            t_span: agg.x_range,
            v_span: agg.y_range,
            t_end: agg.x_axis_end,
            x_tick_room: x_tick_room(agg, gw, agg.trace_percent),
            y_tick_room: y_tick_room(agg, gh, agg.trace_percent, opts.value_units),
            value_units: opts.value_units,
            target_ticks: TARGET_TICKS,
            x_label_decimals: x_label_decimals(agg, needs.x_labels),
        },
        spilled,
    }
}

/// The numbers behind the picture: the drawn samples' times and values, and the table.
pub(super) fn chart_data(
    agg: &Aggregated,
    graph: &Graph,
    values: Vec<Vec<f64>>,
    opts: &LayoutOptions,
    needs: &Needs,
) -> ChartData {
    let (table, left_out) = listed(agg, needs.table_rows);
    // The -hi bands' IPE entries and symbols, when the profile has any.
    let info = if agg.band_info.is_empty() {
        Vec::new()
    } else {
        (table.iter())
            .map(|b| {
                let info = agg.band_info.get(&b.name);
                info.map(|i| i.detail_lines()).unwrap_or_default()
            })
            .collect()
    };
    let rows = (table.iter().enumerate())
        .map(|(i, b)| (b.name.as_slice(), i))
        .collect::<std::collections::HashMap<_, _, crate::intern::FxBuild>>();
    // The bands not drawn on their own, when the aggregation kept them: their rows, and
    // their values at the drawn samples.
    let rest_rows: Vec<usize> = (agg.rest.iter())
        .filter_map(|b| rows.get(b.name.as_slice()).copied())
        .collect();
    let rest = match rest_rows.len() == agg.rest.len() {
        true => (agg.rest.iter())
            .map(|band| {
                let mut column = vec![0.0; agg.times.len()];
                stack_on(&mut column, band);
                column
            })
            .collect(),
        false => Vec::new(),
    };
    ChartData {
        sample_unit: agg.sample_unit.clone(),
        value_unit: agg.value_unit.clone(),
        samples: agg.samples,
        times: agg.times.clone(),
        rows: (agg.bands.iter().enumerate())
            .map(|(i, b)| match i {
                // OTHER, when made, is the bottom band, and no band of the profile.
                0 if agg.other => None,
                _ => rows.get(b.name.as_slice()).copied(),
            })
            .collect(),
        values,
        table,
        left_out,
        marks: if graph.marks.is_empty() {
            Vec::new()
        } else {
            agg.marks.clone()
        },
        lines: agg.series.clone(),
        info,
        fit_key_labels: opts.fit_key_labels,
        rest_rows: if rest.is_empty() {
            Vec::new()
        } else {
            rest_rows
        },
        rest,
        rest_samples: None,
        totals: agg.totals.clone(),
        spare_colours: spare_colours(graph, opts),
        detail: Vec::new(),
        every_band: Vec::new(),
        band_info: Default::default(),
    }
}

/// For an export ([`Needs::every_band`]): every band of the profile in the chart's
/// data, those drawn on their own (OTHER is none of the profile's) and then `undrawn`,
/// with what is known of them.
pub(super) fn every_band(data: &mut ChartData, agg: &Aggregated, undrawn: Vec<Band>) {
    let drawn = &agg.bands[usize::from(agg.other)..];
    data.every_band = drawn.iter().cloned().chain(undrawn).collect();
    data.band_info = agg.band_info.clone();
}

/// The table's rows: every band, or at most `most` of them (0: no limit): those drawn
/// and those whose values the chart carries, then the biggest by area (the earlier of
/// two alike), in the table's order; and the others together.
fn listed(agg: &Aggregated, most: usize) -> (Vec<BandNumbers>, Option<LeftOut>) {
    if most == 0 || agg.table.len() <= most {
        return (agg.table.clone(), None);
    }
    let needed: std::collections::HashSet<&[u8]> = (agg.bands.iter().chain(&agg.rest))
        .map(|b| b.name.as_slice())
        .collect();
    let mut keep = vec![false; agg.table.len()];
    let mut kept = 0;
    for (i, b) in agg.table.iter().enumerate() {
        if needed.contains(b.name.as_slice()) {
            keep[i] = true;
            kept += 1;
        }
    }
    let mut by_area: Vec<usize> = (0..agg.table.len()).filter(|&i| !keep[i]).collect();
    by_area.sort_by(|&a, &b| {
        agg.table[b]
            .area
            .total_cmp(&agg.table[a].area)
            .then(a.cmp(&b))
    });
    for &i in by_area.iter().take(most.saturating_sub(kept)) {
        keep[i] = true;
    }
    let mut left = LeftOut::default();
    let mut table = Vec::with_capacity(most.max(kept));
    for (b, keep) in agg.table.iter().zip(keep) {
        if keep {
            table.push(b.clone());
        } else {
            left.bands += 1;
            left.area += b.area;
            left.share += b.share;
            left.peak = left.peak.max(b.peak);
        }
    }
    (table, (left.bands > 0).then_some(left))
}

/// How many colours a chart keeps for bands a reader adds.
const SPARE_COLOURS: usize = 24;

/// The first [`SPARE_COLOURS`] colours of the chart's palette (hp2ps's colour shades
/// without white and black, for its own) that no drawn band has.
fn spare_colours(graph: &Graph, opts: &LayoutOptions) -> Vec<[u8; 3]> {
    let used: Vec<[u8; 3]> = graph.bands.iter().map(|b| b.fill.srgb()).collect();
    let candidates: Box<dyn Iterator<Item = [u8; 3]>> = match opts.palette {
        Some(palette) => Box::new((0..4096).map(move |slot| palette.colour(slot))),
        None => Box::new(
            (super::hp2ps_colours::COLOUR_PALETTE.iter())
                .map(|&shade| Fill::Shade(shade).srgb())
                .filter(|&c| c != [0; 3] && c != [0xff; 3]),
        ),
    };
    let mut spare: Vec<[u8; 3]> = Vec::new();
    for c in candidates {
        if spare.len() == SPARE_COLOURS {
            break;
        }
        if !used.contains(&c) && !spare.contains(&c) {
            spare.push(c);
        }
    }
    spare
}
