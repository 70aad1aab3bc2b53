//! From the aggregated bands to a [`Chart`]: hp2ps's page layout (§4 of
//! `docs/reference/hp2ps-behaviour.md`), computed in
//! the same floating-point steps so that every printed coordinate matches.
//!
//! Files: [`layout`] (`mod.rs`) hands out the shades, places the title, axes, key and
//! graph, and gives the format-neutral chart (`chart.rs`: its types; what a library user
//! reads of it, `view.rs`) with the `.aux` data; `LayoutOptions` are hp2ps's flags of
//! the page (`options.rs`), [`Needs`] what the format needs (the chart's data, the key on
//! pages of its own, the x labels' decimals). The page's frame, its origin and the
//! ticks' 1-2-5 step (`frame.rs`), the axes and their x ticks (`axes.rs`). The graph:
//! its bands, marks and lines with its `DataScale`, and for a chart that carries them its
//! numbers as `ChartData` (`graph.rs`); each band's tooltip and the lines over the bands
//! with their styles (`overlay.rs`); `--key-labels fit`'s elision of the middle of long
//! key labels (`fit.rs`); the y ticks and legend in hp2ps's, binary or decimal units
//! (`value_ticks.rs`, `value_units.rs`: `--units`); hp2ps's palettes of shades and a
//! colour shade's RGB (`hp2ps_colours.rs`), the name → shade map and every band's shade
//! of a chart (`shade.rs`: [`shade::shades_of`]), the named palettes with
//! the colour maths (`palettes.rs`: `screen` for the page, the colour-blind ones,
//! CIEDE2000, WCAG contrast, a fill's line on a light or dark page), each band's fill,
//! colour or print pattern (`looks.rs`, `patterns.rs`: `--palette`, `--colour-by name`,
//! `--pattern`; the one place that asks "colour or grey"; the fills of a chart, no two
//! bands of one alike, and the colours several runs on one page share), hp2ps's
//! text-width estimate (`width_estimate.rs`).

mod axes;
pub(crate) mod chart;
mod fit;
pub(crate) mod flame;
mod frame;
mod graph;
pub(crate) mod hp2ps_colours;
pub(crate) mod looks;
mod options;
mod overlay;
pub(crate) mod palettes;
pub(crate) mod patterns;
pub(crate) mod shade;
mod value_ticks;
mod value_units;
mod view;
mod width_estimate;

use crate::aggregate::{Aggregated, Thinned};
use crate::aux_file::Aux;
use crate::defaults;
use crate::needs::Needs;
use crate::num::{self as cfmt, c_trunc_i64};
use crate::profile::spill::SpillHandle;
use axes::axes;
use chart::*;
use frame::{BORDER_SPACE, LEGEND_CLEARANCE, TITLE_INSET, TITLE_WIDTH, X0, Y0};
pub use options::LayoutOptions;
pub use palettes::Palette;
pub use value_units::ValueUnits;
pub use view::ChartBand;
use width_estimate::estimated_width;

const SMALL_TITLE_JOB_LIMIT: usize = 35;
const BIG_TITLE_JOB_LIMIT: usize = 80;
const KEYS_PER_PAGE: usize = defaults::KEYS_PER_PAGE;

/// Lays out thinned bands: hands out their shades ([`shade::shades_of`]: from the bottom
/// band up, after those the previous `.aux` fixed, or by name), places everything on the
/// page, and gives the chart with what the next run's `-p` reuses. `needs` is what the
/// chart's format needs ([`Needs::data`], [`Needs::key_pages`], [`Needs::x_labels`]).
pub(crate) fn layout(
    thinned: Thinned,
    previous: Option<&Aux>,
    opts: &LayoutOptions,
    needs: &Needs,
) -> (Chart, Aux) {
    let Thinned {
        agg,
        detail,
        rest_samples,
        undrawn,
        spilled,
    } = thinned;
    let shades = shade::shades_of(&agg.bands, previous, opts);
    let mut chart = chart(&agg, &shades, opts, needs, spilled);
    if let Some(data) = chart.data.as_mut().filter(|_| needs.every_band) {
        graph::every_band(data, &agg, undrawn);
    }
    if let Some(data) = chart.data.as_mut() {
        data.detail = (detail.into_iter())
            .map(|level| DetailLevel {
                tiles: (level.tiles.into_iter())
                    .map(|t| DetailTile {
                        times: t.times,
                        values: t.values,
                        totals: t.totals,
                    })
                    .collect(),
                whole: level.whole,
                rest: level.rest,
            })
            .collect();
        if !data.rest.is_empty() {
            if let Some(places) = rest_samples {
                for column in &mut data.rest {
                    *column = places
                        .iter()
                        .filter_map(|&p| column.get(p).copied())
                        .collect();
                }
                data.rest_samples = Some(places);
            }
        }
    }
    let bands = (agg.bands.iter().zip(shades))
        .map(|(b, s)| (b.name.clone(), s))
        .collect();
    let aux = Aux::of_chart(agg.x_range, agg.aux_y_range, bands);
    (chart, aux)
}

/// The chart of `agg`: `shades` holds the shade of every band of `agg`, in order.
fn chart(
    agg: &Aggregated,
    shades: &[f64],
    opts: &LayoutOptions,
    needs: &Needs,
    spilled: Option<SpillHandle>,
) -> Chart {
    let (band_limit, trace_percent) = (agg.band_limit, agg.trace_percent);
    let named: Vec<(&[u8], f64)> = (agg.bands.iter().zip(shades))
        .map(|(b, &s)| (b.name.as_slice(), s))
        .collect();
    let fills = looks::fills(&named, opts);
    let multipage = opts.multipage || needs.key_pages || defaults::key_needs_own_pages(band_limit);
    let key_drawn = multipage || band_limit != 0;
    let key_on_graph = !multipage && band_limit != 0;

    let title = title(agg, opts);
    let graph_height = ((BORDER_HEIGHT - title.height) - 10.0) - 20.0;
    let labels = key_labels(agg, opts.fit_key_labels, key_on_graph);
    let key_width = labels
        .iter()
        .map(|(shown, _)| {
            let estimate = estimated_width(shown, trace_percent);
            if opts.fit_key_labels {
                // hp2ps's labels end at TITLE_WIDTH - BORDER_SPACE plus what the estimate
                // misses; widen the key only as far as keeps them inside the border's
                // margin, so labels that already fit are laid out as hp2ps lays them out.
                estimate.max(fit::label_width(shown) - (BORDER_WIDTH - TITLE_WIDTH))
            } else {
                estimate
            }
        })
        .fold(0.0, |m: f64, w| if w > m { w } else { m })
        + LEGEND_CLEARANCE
        + KEY_BOX;
    let graph_width = if key_on_graph {
        (TITLE_WIDTH - X0) - key_width
    } else {
        TITLE_WIDTH - X0
    };

    let key_left = if key_on_graph { X0 + graph_width } else { X0 };
    let key_start = if key_on_graph { Y0 } else { 0.0 };
    let key = if key_drawn {
        let per_page = if key_on_graph {
            // The graph's page holds the whole key. That is hp2ps's 20 entries at most,
            // unless lines over the bands (`--heap-size`) add theirs: then the spacing
            // shrinks so that every entry fits between the x axis and the title box.
            labels.len().max(KEYS_PER_PAGE)
        } else {
            KEYS_PER_PAGE
        };
        let frame = KeyFrame {
            left: key_left,
            start: key_start,
            height: graph_height,
            per_page,
        };
        key_entries(agg, shades, &fills, labels, frame)
    } else {
        Vec::new()
    };

    let axes = axes(agg, graph_width, graph_height, trace_percent, opts, needs);
    let size = (graph_width, graph_height);
    let (graph, values) = match spilled {
        Some(spill) => (
            graph::spilled(agg, &fills, opts, needs, size, spill),
            Vec::new(),
        ),
        None => graph::graph(agg, &fills, opts, needs, size),
    };
    let data = (needs.data).then(|| Box::new(graph::chart_data(agg, &graph, values, opts, needs)));
    let pages = if multipage {
        let mut pages: Vec<Page> = key
            .chunks(KEYS_PER_PAGE)
            .map(|chunk| Page {
                axes: None,
                key: chunk.to_vec(),
                graph: None,
            })
            .collect();
        if pages.is_empty() {
            pages.push(Page {
                axes: None,
                key: Vec::new(),
                graph: None,
            });
        }
        pages.push(Page {
            axes: Some(axes),
            key: Vec::new(),
            graph: Some(graph),
        });
        pages
    } else {
        vec![Page {
            axes: Some(axes),
            key,
            graph: Some(graph),
        }]
    };

    Chart {
        portrait: opts.portrait,
        job: agg.job.clone(),
        date: agg.date.clone(),
        title,
        pages,
        data,
    }
}

fn title(agg: &Aggregated, opts: &LayoutOptions) -> Title {
    let big = opts.big_title || (!opts.small_title && agg.job.len() > SMALL_TITLE_JOB_LIMIT);
    let height = if big { 40.0 } else { 20.0 };
    let limit = if big {
        BIG_TITLE_JOB_LIMIT
    } else {
        SMALL_TITLE_JOB_LIMIT
    };
    let job = agg.job[..agg.job.len().min(limit)].to_vec();
    let mut area_text = Vec::new();
    cfmt::push_thousands(&mut area_text, c_trunc_i64(agg.area));
    area_text.push(b' ');
    area_text.extend_from_slice(&agg.value_unit);
    area_text.extend_from_slice(b" x ");
    area_text.extend_from_slice(&agg.sample_unit);

    // Baselines of the upper and lower title rows.
    let top_row = BORDER_HEIGHT - 20.0 - BORDER_SPACE + TITLE_INSET;
    let bottom_row = BORDER_HEIGHT - 40.0 - BORDER_SPACE + TITLE_INSET;
    let (area_at, area_anchor, date_y) = if big {
        (
            (BORDER_SPACE + TITLE_INSET, bottom_row),
            Anchor::Start,
            bottom_row,
        )
    } else {
        ((TITLE_WIDTH / 2.0, top_row), Anchor::Middle, top_row)
    };
    Title {
        big,
        x: BORDER_SPACE,
        y: BORDER_HEIGHT - height - BORDER_SPACE,
        width: TITLE_WIDTH,
        height,
        job,
        job_at: (BORDER_SPACE + TITLE_INSET, top_row),
        area_text,
        area_at,
        area_anchor,
        date: agg.date.clone(),
        date_at: (TITLE_WIDTH + BORDER_SPACE - TITLE_INSET, date_y),
    }
}

/// The key's labels, bands first, then the lines: as shown, and the full name when it
/// was shortened (`fit`: to what fits between the key box and the page's right border,
/// leaving the graph at least half the width when the key is beside it).
fn key_labels(agg: &Aggregated, fit: bool, key_on_graph: bool) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
    let room = if key_on_graph {
        (TITLE_WIDTH - X0) / 2.0 - LEGEND_CLEARANCE - KEY_BOX
    } else {
        BORDER_WIDTH - BORDER_SPACE - (X0 + KEY_BOX + 2.0 * BORDER_SPACE)
    };
    let names = agg.bands.iter().map(|b| &b.name);
    names
        .chain(agg.series.iter().map(|s| &s.name))
        .map(|name| match fit.then(|| fit::elide(name, room)).flatten() {
            Some(short) => (short, Some(name.clone())),
            None => (name.clone(), None),
        })
        .collect()
}

/// Where the key's entries go: the key's left edge, the height its first entry is counted
/// from, the height the entries share, and how many share it (a page's worth).
struct KeyFrame {
    left: f64,
    start: f64,
    height: f64,
    per_page: usize,
}

fn key_entries(
    agg: &Aggregated,
    shades: &[f64],
    fills: &[Fill],
    labels: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    frame: KeyFrame,
) -> Vec<KeyEntry> {
    let KeyFrame {
        left,
        start,
        height: gh,
        per_page,
    } = frame;
    let n = labels.len();
    let spacing = if n <= per_page {
        gh / (n as f64 + 1.0)
    } else {
        gh / per_page as f64
    };
    let mut centre = start;
    let mut entries = Vec::with_capacity(n);
    let styles = shades
        .iter()
        .take(agg.bands.len())
        .map(|&shade| (shade, None))
        .chain((0..agg.series.len()).map(|i| (0.0, Some(overlay::line_style(i)))));
    for (i, ((label, full_label), (shade, line))) in labels.into_iter().zip(styles).enumerate() {
        if i > 0 && i % per_page == 0 {
            // A new key page starts from the bottom.
            centre = 0.0;
        }
        centre += spacing;
        entries.push(KeyEntry {
            box_x: left + BORDER_SPACE,
            box_y: centre - KEY_BOX / 2.0,
            // A line's key entry draws its line, not a fill: its fill is the line's colour.
            fill: match (fills.get(i), line) {
                (Some(&fill), _) => fill,
                (None, Some(style)) => Fill::Rgb(style.srgb()),
                (None, None) => Fill::Grey(shade),
            },
            label,
            label_x: left + KEY_BOX + 2.0 * BORDER_SPACE,
            label_y: centre - BORDER_SPACE,
            full_label,
            line,
        });
    }
    entries
}

#[cfg(test)]
mod tests;
