//! The middle of the pipeline in one call: profile → aggregation → layout, giving the
//! [`Chart`] the painters draw and the `.aux` data the next run's `-p` reads.

use crate::aggregate::{
    aggregate, drop_samples, sample_limit, values_at, AggregateOptions, Aggregated, Level,
    PageSamples, PAGE_VALUES,
};
use crate::aux_file::{Aux, AuxOut};
use crate::layout::chart::{Chart, DetailLevel, DetailTile};
use crate::layout::looks;
use crate::layout::shade::ShadeMap;
use crate::layout::{layout, LayoutOptions};
use crate::profile::Profile;

/// Every option of a render, stage by stage.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Which bands, in which order. Default: [`AggregateOptions::default`].
    pub aggregate: AggregateOptions,
    /// How the page looks. Default: [`LayoutOptions::default`].
    pub layout: LayoutOptions,
    /// Draw at most this many samples: the rest are dropped as
    /// [`crate::aggregate::decimate`] describes (each edge keeps its extremes in every
    /// small slice of the x axis, the same samples for every band), after the ranges and
    /// the area are computed from every sample. 0 draws every sample, as hp2ps does.
    /// Default: 0.
    pub max_points: usize,
    /// Draw at most this many band vertices (samples drawn × bands drawn), but never
    /// fewer than [`crate::aggregate::VECTOR_MAX_POINTS`] samples, reduced as
    /// `max_points` is; with `max_points` as well, the smaller number of samples wins. 0
    /// sets no such limit. The command line's default for SVG, PDF, EPS and HTML is
    /// [`crate::aggregate::VECTOR_MAX_BAND_POINTS`]. Default: 0.
    pub max_band_points: usize,
    /// For a chart that carries its data: the most band values it carries besides those
    /// it draws ([`PageSamples`]); 0 is [`PAGE_VALUES`]. Default: 0.
    pub page_values: usize,
}

/// Aggregates a profile and lays it out. `previous` is the `.aux` of an earlier run (`-p`).
pub fn prepare(profile: Profile, previous: Option<&Aux>, opts: &RenderOptions) -> (Chart, AuxOut) {
    finish(
        aggregate(profile, previous, &opts.aggregate),
        previous,
        opts,
    )
}

/// Lays out aggregated bands ([`prepare`] after its aggregation): drops the samples not
/// drawn, and for a chart that carries its data (the HTML page) works out the finer
/// levels of detail and which bands' values it carries ([`PageSamples`]).
pub fn finish(
    mut agg: Aggregated,
    previous: Option<&Aux>,
    opts: &RenderOptions,
) -> (Chart, AuxOut) {
    let limit = sample_limit(opts.max_points, opts.max_band_points, agg.bands.len());
    let mut page = opts
        .layout
        .data
        .then(|| PageSamples::of(&agg, limit, page_values(opts)));
    let drawn = match &mut page {
        Some(page) => page.drawn.take(),
        None => crate::aggregate::kept_samples(&agg, limit),
    };
    // The bands not drawn go with their values when they fit the budget of values and
    // the table lists them all.
    let rows = opts.layout.table_rows;
    let listed = rows == 0 || agg.bands.len() + agg.rest.len() <= rows;
    let carry_rest = listed && page.as_ref().is_some_and(|p| p.rest);
    if !carry_rest {
        crate::aggregate::drop_in_background(std::mem::take(&mut agg.rest));
    }
    let detail = page
        .map(|p| detail_tiles(&agg, &p.levels))
        .unwrap_or_default();
    if let Some(keep) = drawn {
        drop_samples(&mut agg, &keep);
    }
    let (mut chart, aux) = chart_and_aux(&agg, previous, &opts.layout);
    if let Some(data) = chart.data.as_mut() {
        data.detail = detail;
    }
    (chart, aux)
}

/// The budget of band values of a chart's page.
fn page_values(opts: &RenderOptions) -> usize {
    match opts.page_values {
        0 => PAGE_VALUES,
        n => n,
    }
}

/// The times and values (the drawn bands', then those of [`Aggregated::rest`]) of the
/// samples each tile of each level keeps.
fn detail_tiles(agg: &Aggregated, levels: &[Level]) -> Vec<DetailLevel> {
    let tile = |kept: &Vec<usize>| DetailTile {
        times: kept.iter().map(|&s| agg.times[s]).collect(),
        values: values_at(agg.bands.iter().chain(&agg.rest), kept),
    };
    (levels.iter())
        .map(|level| DetailLevel {
            tiles: level.tiles.iter().map(tile).collect(),
            whole: level.whole,
        })
        .collect()
}

/// Lays out aggregated bands, handing out shades first-come-first-served from the
/// bottom band up (after any shades the previous `.aux` fixed), or by name
/// (`--colour-by name`, see [`looks`]).
pub fn chart_and_aux(
    agg: &Aggregated,
    previous: Option<&Aux>,
    opts: &LayoutOptions,
) -> (Chart, AuxOut) {
    let band_shades: Vec<f64> = if opts.colour_by_name {
        // The name alone decides; the previous `.aux` gave the same shades anyway.
        agg.bands
            .iter()
            .map(|b| looks::shade_by_name(&b.name, opts))
            .collect()
    } else {
        let mut shades = match looks::free_slots(opts) {
            // OTHER, whose colour is its own, takes the 50 % grey, not a band's slot.
            true => {
                let mut free = ShadeMap::handing_out_free(looks::shades(opts));
                free.preload(b"OTHER", looks::shade_by_name(b"OTHER", opts));
                free
            }
            false => ShadeMap::handing_out(looks::shades(opts)),
        };
        if let Some(aux) = previous {
            for (name, shade) in &aux.shades {
                shades.preload(name, *shade);
            }
        }
        agg.bands.iter().map(|b| shades.shade_of(&b.name)).collect()
    };
    let chart = layout(agg, &band_shades, opts);
    let aux = AuxOut {
        x_range: agg.x_range,
        y_range: agg.y_range,
        bands: agg
            .bands
            .iter()
            .zip(&band_shades)
            .map(|(b, s)| (b.name.clone(), *s))
            .collect(),
    };
    (chart, aux)
}
