//! From the aggregated bands to a [`Chart`]: hp2ps's page layout (§4 of
//! `docs/reference/hp2ps-behaviour.md`), computed in
//! the same floating-point steps so that every printed coordinate matches.
//!
//! Files: [`layout`] (`mod.rs`) hands out the shades, places the title, axes, key and
//! graph, and gives the format-neutral chart (`chart.rs`: its types) with the `.aux`
//! data; `LayoutOptions` are hp2ps's flags of the page, [`Needs`] what the format needs
//! (the chart's data, the key on pages of its own, the x labels' decimals). The graph:
//! its bands, marks and lines with its `DataScale`, and for a chart that carries them its
//! numbers as `ChartData` (`graph.rs`); each band's tooltip and the lines over the bands
//! with their styles (`overlay.rs`); `--key-labels fit`'s elision of the middle of long
//! key labels (`fit.rs`); the y ticks and legend in hp2ps's, binary or decimal units
//! (`value_ticks.rs`: `--units`); hp2ps's shades and the name → shade map, and every
//! band's shade of a chart (`shade.rs`: [`shade::shades_of`]), the named palettes with
//! the colour maths (`palettes.rs`: `screen` for the page, the colour-blind ones,
//! CIEDE2000, WCAG contrast, a fill's line on a light or dark page), each band's fill,
//! colour or print pattern (`looks.rs`, `patterns.rs`: `--palette`, `--colour-by name`,
//! `--pattern`; the one place that asks "colour or grey"; the fills of a chart, no two
//! bands of one alike, and the colours several runs on one page share), hp2ps's
//! text-width estimate (`width_estimate.rs`).

pub(crate) mod chart;
mod fit;
mod graph;
pub(crate) mod looks;
mod overlay;
pub(crate) mod palettes;
pub(crate) mod patterns;
pub(crate) mod shade;
mod value_ticks;
mod view;
mod width_estimate;

use std::collections::BTreeMap;

use crate::aggregate::{Aggregated, Thinned};
use crate::aux_file::Aux;
use crate::defaults;
use crate::needs::{Needs, XLabels};
use crate::num::{self as cfmt, c_trunc_i64};
use chart::*;
pub use palettes::Palette;
pub use value_ticks::ValueUnits;
use value_ticks::{y_tick_room, y_ticks};
pub use view::ChartBand;
use width_estimate::estimated_width;

/// Layout choices, from the command-line flags. (`-m` and `-t` matter here too: the layout
/// reads them from [`Aggregated`], which was made with them.)
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LayoutOptions {
    /// `-c`: colours instead of greys. Default: `false`.
    pub colour: bool,
    /// `-b`: the big title box (wins over `-s`). Default: `false`.
    pub big_title: bool,
    /// `-s`: the small title box even for a long JOB. Default: `false`.
    pub small_title: bool,
    /// `-g`: portrait, unrotated page. Default: `false`.
    pub portrait: bool,
    /// `-M`: the key on pages of its own. Default: `false`.
    pub multipage: bool,
    /// `-y` clears this: no marks. Default: `true`.
    pub marks: bool,
    /// `--key-labels fit`: key labels that would leave the page are shortened by eliding
    /// their middle. Default: `false` (as hp2ps: cut at the estimated width).
    pub fit_key_labels: bool,
    /// `--palette`: fill the bands with this palette's colours rather than hp2ps's
    /// shades (see `looks.rs`). Default: `None` (hp2ps's own palette).
    pub palette: Option<Palette>,
    /// `--colour-by name`: a band's colour (and shade) follows from its name alone, the
    /// same in every chart. Default: `false`.
    pub colour_by_name: bool,
    /// `--pattern`: fill the bands with print patterns over light greys (wins over the
    /// palette). Default: `false`.
    pub pattern: bool,
    /// `--units`: how the y tick labels write values. Default: [`ValueUnits::Hp2ps`].
    pub value_units: ValueUnits,
    /// Colours fixed by band name, which win over the palette's (the charts of several
    /// runs on one page give a band one colour in every run: `looks::shared_colours`).
    /// Only with a named palette. Default: none.
    pub band_colours: BTreeMap<Vec<u8>, [u8; 3]>,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            colour: false,
            big_title: false,
            small_title: false,
            portrait: false,
            multipage: false,
            marks: true,
            fit_key_labels: false,
            palette: None,
            colour_by_name: false,
            pattern: false,
            value_units: ValueUnits::Hp2ps,
            band_colours: BTreeMap::new(),
        }
    }
}

const BORDER_SPACE: f64 = 5.0;
const TITLE_INSET: f64 = 6.0;
const TITLE_WIDTH: f64 = BORDER_WIDTH - 2.0 * BORDER_SPACE;
/// Space for the y labels left of the graph, and for the x labels below it.
const Y_LABEL_SPACE: f64 = 35.0;
const X_LABEL_SPACE: f64 = 10.0;
pub(super) const LEGEND_CLEARANCE: f64 = 15.0;
pub(super) const TARGET_TICKS: f64 = 7.0;
const SMALL_TITLE_JOB_LIMIT: usize = 35;
const BIG_TITLE_JOB_LIMIT: usize = 80;
const KEYS_PER_PAGE: usize = defaults::KEYS_PER_PAGE;

/// The graph origin.
pub(super) const X0: f64 = Y_LABEL_SPACE + 2.0 * BORDER_SPACE;
pub(super) const Y0: f64 = X_LABEL_SPACE + 2.0 * BORDER_SPACE;

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
    } = thinned;
    let shades = shade::shades_of(&agg.bands, previous, opts);
    let mut chart = chart(&agg, &shades, opts, needs);
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
fn chart(agg: &Aggregated, shades: &[f64], opts: &LayoutOptions, needs: &Needs) -> Chart {
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
    let (graph, values) = graph::graph(agg, &fills, opts, needs, (graph_width, graph_height));
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

/// hp2ps's "1-2-5" rounding of a tick step. Exact powers of ten round down to half
/// (Round(10) = 5), as in hp2ps.
pub(crate) fn round_step(y: f64) -> f64 {
    if !(y.is_finite() && y > 0.0) {
        return y;
    }
    let mut m = y;
    let mut up = 0;
    let mut down = 0;
    if m > 10.0 {
        while m > 10.0 {
            m /= 10.0;
            up += 1;
        }
    } else if m < 1.0 {
        while m < 1.0 {
            m *= 10.0;
            down += 1;
        }
    }
    let mut r = if m > 4.0 {
        5.0
    } else if m > 1.0 {
        2.0
    } else {
        1.0
    };
    for _ in 0..up {
        r *= 10.0;
    }
    for _ in 0..down {
        r /= 10.0;
    }
    r
}

fn axes(
    agg: &Aggregated,
    gw: f64,
    gh: f64,
    trace_percent: f64,
    opts: &LayoutOptions,
    needs: &Needs,
) -> Axes {
    let (y_ticks, y_legend) = y_ticks(agg, gh, trace_percent, opts.value_units);
    Axes {
        x0: X0,
        y0: Y0,
        width: gw,
        height: gh,
        x_legend: agg.sample_unit.clone(),
        x_legend_y: BORDER_SPACE,
        x_ticks: x_ticks(
            agg,
            gw,
            trace_percent,
            x_label_decimals(agg, needs.x_labels),
        ),
        y_legend,
        y_ticks,
        y_label_x: X0 - BORDER_SPACE,
    }
}

/// The decimals of the x tick labels: hp2ps's one, or as many as the tick step needs.
pub(super) fn x_label_decimals(agg: &Aggregated, how: XLabels) -> usize {
    // More would tell nothing apart in a double; the page's script formats with these too.
    const MOST: f64 = 20.0;
    let step = round_step(agg.x_range / TARGET_TICKS);
    match how {
        XLabels::Hp2ps => 1,
        // The slack keeps a step of 0.1 whose log10 is a hair above -1 at one decimal.
        XLabels::ByStep if step.is_finite() && step > 0.0 => {
            (-step.log10() - 1e-9).ceil().clamp(0.0, MOST) as usize
        }
        XLabels::ByStep => 1,
    }
}

/// x ticks start at the first sample time and stop before the last one (or before the end
/// of a shared range).
fn x_ticks(agg: &Aggregated, gw: f64, trace_percent: f64, decimals: usize) -> Vec<Tick> {
    let (first, last) = (agg.first_time(), agg.x_axis_end);
    let step = round_step(agg.x_range / TARGET_TICKS);
    let room = x_tick_room(agg, gw, trace_percent);
    let mut ticks = Vec::new();
    let mut v = first;
    while v < last {
        let px = (v - first) * (gw / agg.x_range);
        if px < room {
            ticks.push(Tick {
                at: X0 + px,
                label: cfmt::fixed(v, decimals).into_bytes(),
            });
        }
        let next = v + step;
        // hp2ps loops forever when the step vanishes next to huge times.
        if next <= v {
            break;
        }
        v = next;
    }
    ticks
}

/// How far right of the origin an x tick may be: the x legend (SAMPLE_UNIT) takes the rest.
pub(super) fn x_tick_room(agg: &Aggregated, gw: f64, trace_percent: f64) -> f64 {
    gw - (estimated_width(&agg.sample_unit, trace_percent) + LEGEND_CLEARANCE)
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
