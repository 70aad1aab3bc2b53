//! The middle of the pipeline in a few calls: profile → aggregation (with its thinning) →
//! layout, giving the [`Chart`] the painters draw and the `.aux` data the next run's `-p`
//! reads. [`prepare`] makes one chart; [`prepare_runs`] the charts of several runs that
//! share their axes (one page comparing them).

use crate::aggregate::{
    aggregate, aggregate_facts, aggregate_known, share_ranges, thin, thin_filled, AggregateOptions,
    Aggregated, FillRest, PageFacts,
};
use crate::aux_file::Aux;
use crate::layout::chart::Chart;
use crate::layout::looks::shared_colours;
use crate::layout::{layout, LayoutOptions};
use crate::needs::Needs;
use crate::paint::Format;
use crate::profile::spill::SpillHandle;
use crate::profile::Profile;

/// Every option of a render, stage by stage, and what the output format needs of them.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Which bands, in which order, and how many samples are drawn. Default:
    /// [`AggregateOptions::default`].
    pub aggregate: AggregateOptions,
    /// How the page looks. Default: [`LayoutOptions::default`].
    pub layout: LayoutOptions,
    /// What the output format needs of aggregation and layout: the format's
    /// `Format::needs()` (`src/paint/format.rs`), set by [`RenderOptions::for_format`].
    /// Default: hp2ps's PostScript's.
    pub(crate) needs: Needs,
}

impl RenderOptions {
    /// The options of a chart to paint in `format`: what the format needs of aggregation
    /// and layout (the samples that can be seen, the x labels' decimals, the data of an
    /// HTML page, …), with every option at its default. Default: [`Format::Ps`]'s, as
    /// [`RenderOptions::default`].
    pub fn for_format(format: Format) -> RenderOptions {
        RenderOptions {
            needs: format.needs(),
            ..RenderOptions::default()
        }
    }
}

/// Aggregates a profile, thins its samples and lays it out. `previous` is the `.aux` of
/// an earlier run (`-p`).
pub fn prepare(profile: Profile, previous: Option<&Aux>, opts: &RenderOptions) -> (Chart, Aux) {
    prepare_known(profile, None, previous, opts)
}

/// [`prepare`], with every band's total when a first reading knew it (the bands then
/// hold what the second kept of them: `crate::profile::keep`).
pub(crate) fn prepare_known(
    profile: Profile,
    totals: Option<&[i64]>,
    previous: Option<&Aux>,
    opts: &RenderOptions,
) -> (Chart, Aux) {
    let agg = aggregate_known(
        profile,
        previous,
        &opts.aggregate,
        &opts.needs,
        totals,
        None,
    );
    finish(agg, previous, opts)
}

/// [`prepare_known`] of a profile whose drawn bands' points are in `spill` (a second
/// reading's, `crate::profile::spill`), no `.aux` read (`-p`). `painted`: as PostScript
/// draws it, every sample (`opts` thin none: the caller's to see), the painter reading
/// the points from the spill; else thinning reads them back at the samples it keeps
/// (`aggregate::thin_filled`), a failure to read them the spill's to say
/// (`Spill::read_failure`).
pub(crate) fn prepare_spilled(
    profile: Profile,
    totals: &[i64],
    spill: &SpillHandle,
    painted: bool,
    opts: &RenderOptions,
) -> (Chart, Aux) {
    let (agg_opts, needs) = (&opts.aggregate, &opts.needs);
    let agg = aggregate_known(profile, None, agg_opts, needs, Some(totals), Some(spill));
    if !painted {
        let none = &mut |_: &[bool]| Ok::<_, std::convert::Infallible>(None);
        let thinned = match thin_filled(agg, agg_opts.max_points, needs, Some(spill), none) {
            Ok(thinned) => thinned,
            Err(never) => match never {},
        };
        return layout(thinned, None, &opts.layout, needs);
    }
    let mut thinned = thin(agg, opts.aggregate.max_points, &opts.needs);
    thinned.spilled = Some(spill.clone());
    layout(thinned, None, &opts.layout, &opts.needs)
}

/// [`prepare_known`] of a page whose profile holds the drawn bands' points only (a long
/// profile read in parts: `crate::profile::keep`), or none of them when they are in
/// `spill` (read back as [`prepare_spilled`] reads them when not `painted`): every
/// band's numbers and heights are `facts`, and the points of the bands not drawn come
/// from `fill` once the samples they are carried at are known (see
/// `aggregate::thin_filled`), whose error it returns.
pub(crate) fn prepare_page_known<E>(
    profile: Profile,
    totals: &[i64],
    facts: PageFacts,
    spill: Option<&SpillHandle>,
    fill: FillRest<'_, E>,
    previous: Option<&Aux>,
    opts: &RenderOptions,
) -> Result<(Chart, Aux), E> {
    let (aggregate, needs) = (&opts.aggregate, &opts.needs);
    let agg = aggregate_facts(
        profile,
        previous,
        aggregate,
        needs,
        Some(totals),
        Some(facts),
        spill,
    );
    let thinned = thin_filled(agg, aggregate.max_points, needs, spill, fill)?;
    Ok(layout(thinned, previous, &opts.layout, needs))
}

/// The axes the charts of several runs share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SharedAxes {
    /// The x axis (time).
    Time,
    /// The y axis (memory).
    Memory,
    /// Both axes.
    #[default]
    Both,
}

impl SharedAxes {
    /// Whether the x axis is shared.
    pub fn time(self) -> bool {
        matches!(self, SharedAxes::Time | SharedAxes::Both)
    }

    /// Whether the y axis is shared.
    pub fn memory(self) -> bool {
        matches!(self, SharedAxes::Memory | SharedAxes::Both)
    }
}

/// The charts of several runs, to be compared on one page: each profile aggregated (on
/// threads of their own), then given the largest time span (`axes.time()`) and stack
/// height (`axes.memory()`) of them all, a chart whose span grew labelling its x axis to
/// the end of the shared one (see `share_ranges`), then thinned and laid out. A band
/// matched across the runs has one colour in every run, and two bands of a run never
/// share one (`looks::shared_colours`; with hp2ps's palette, colours follow names, as
/// `--colour-by name`). Beyond two runs, the runs share what two pages carry
/// ([`Needs::shared_by`]): each draws fewer samples (unless `--max-points` set them).
/// No `.aux` is read or written: an `.aux` belongs to one chart.
pub fn prepare_runs(profiles: Vec<Profile>, opts: &RenderOptions, axes: SharedAxes) -> Vec<Chart> {
    let count = profiles.len();
    let mut opts = opts.clone();
    opts.needs = opts.needs.shared_by(count);
    if count > 2 && opts.aggregate.max_points.is_none() && opts.needs.band_points != 0 {
        let share = 2 * crate::defaults::VECTOR_MAX_POINTS / count;
        opts.aggregate.max_points = Some(share.max(FEWEST_SAMPLES));
    }
    let opts = &opts;
    let mut runs: Vec<Aggregated> = std::thread::scope(|scope| {
        let aggregating: Vec<_> = (profiles.into_iter())
            .map(|profile| {
                scope.spawn(move || aggregate(profile, None, &opts.aggregate, &opts.needs))
            })
            .collect();
        (aggregating.into_iter())
            .map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    share_ranges(&mut runs, axes.time(), axes.memory());
    let colours = opts.layout.palette.map(|palette| {
        let names: Vec<Vec<&[u8]>> = (runs.iter())
            .map(|agg| agg.bands.iter().map(|b| b.name.as_slice()).collect())
            .collect();
        shared_colours(&names, palette)
    });
    (runs.into_iter().enumerate())
        .map(|(i, agg)| {
            let mut run = opts.clone();
            match &colours {
                Some(colours) => run.layout.band_colours = colours[i].clone(),
                None => run.layout.colour_by_name = true,
            }
            finish(agg, None, &run).0
        })
        .collect()
}

/// The fewest samples a run of a page of many runs draws.
pub(crate) const FEWEST_SAMPLES: usize = 200;

/// Thins aggregated bands and lays them out: [`prepare`] after its aggregation (for the
/// benchmarks, which time it alone).
pub fn finish(agg: Aggregated, previous: Option<&Aux>, opts: &RenderOptions) -> (Chart, Aux) {
    let thinned = thin(agg, opts.aggregate.max_points, &opts.needs);
    layout(thinned, previous, &opts.layout, &opts.needs)
}
