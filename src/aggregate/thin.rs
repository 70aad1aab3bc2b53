//! Thinning, aggregation's last step: the samples a chart draws ([`super::decimate`],
//! after the ranges and the area are fixed from every sample), and for a chart that
//! carries its data (the HTML page) what it keeps besides ([`super::page`]): the finer
//! levels of detail, and the values of the bands not drawn on their own. One call,
//! [`thin`], gives both.

use super::decimate::{drop_samples, kept_samples, sample_limit};
use super::limit::drop_in_background;
use super::page::{values_at, Level, PageSamples};
use super::Aggregated;
use crate::needs::Needs;
use crate::profile::Band;

/// The bands of [`thin`], with the samples drawn only, and the levels of detail.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Thinned {
    /// The aggregated bands at the drawn samples (and [`Aggregated::rest`] when the
    /// chart carries it, else empty).
    pub(crate) agg: Aggregated,
    /// For a chart that carries its data, the finer levels of detail (10 tiles, 100,
    /// …); else empty.
    pub(crate) detail: Vec<LevelSamples>,
    /// When [`Aggregated::rest`] is carried at some of the drawn samples only: their
    /// places among the drawn samples (the page's budget thinned them); else `None`.
    pub(crate) rest_samples: Option<Vec<usize>>,
    /// With [`Needs::every_band`]: the bands not drawn on their own
    /// ([`Aggregated::rest`]), whole, with their points at every sample (no sample is
    /// dropped then); else empty.
    pub(crate) undrawn: Vec<crate::profile::Band>,
    /// The spill the drawn bands' points are in (`-c` of a long `.hp` as PostScript,
    /// `crate::profile::spill`), with the bands then holding none; else `None`.
    pub(crate) spilled: Option<crate::profile::spill::SpillHandle>,
}

/// One level of detail: each of its tiles' samples.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LevelSamples {
    /// The tiles, in time order.
    pub(crate) tiles: Vec<TileSamples>,
    /// Whether its tiles hold every sample.
    pub(crate) whole: bool,
    /// Whether its tiles hold the values of [`Aggregated::rest`] too.
    pub(crate) rest: bool,
}

/// The samples one tile keeps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TileSamples {
    /// Their times.
    pub(crate) times: Vec<f64>,
    /// Each drawn band's values at them, then those of [`Aggregated::rest`] when the
    /// level carries them.
    pub(crate) values: Vec<Vec<f64>>,
    /// Every band's total at them ([`Aggregated::totals`]; empty without).
    pub(crate) totals: Vec<f64>,
}

/// Drops the samples not drawn: at most `max_points` (`--max-points`; `Some(0)` draws
/// every sample), or when it is `None` within [`Needs::band_points`]; and for a chart
/// that carries its data ([`Needs::data`]), works out its levels of detail and whether
/// it carries the bands not drawn ([`PageSamples`]).
pub(crate) fn thin(agg: Aggregated, max_points: Option<usize>, needs: &Needs) -> Thinned {
    let kept = thin_filled(agg, max_points, needs, &mut |_| {
        Ok::<_, std::convert::Infallible>(None)
    });
    match kept {
        Ok(thinned) => thinned,
        Err(never) => match never {},
    }
}

/// What gives the bands not drawn their points at the samples flagged
/// ([`thin_filled`]).
pub(crate) type FillRest<'a, E> = &'a mut dyn FnMut(&[bool]) -> Result<Option<Vec<Band>>, E>;

/// [`thin`] of bands whose [`Aggregated::rest`] holds no points of their own yet (a long
/// profile read in parts: `crate::profile::keep`): once the samples the page carries
/// them at are known, `fill` is given a flag per sample, set at those, and returns the
/// bands (by name) with their points at those samples at least, which replace the
/// rest's (`None`: keep them as they are). Its error ends the thinning.
pub(crate) fn thin_filled<E>(
    mut agg: Aggregated,
    max_points: Option<usize>,
    needs: &Needs,
    fill: FillRest<'_, E>,
) -> Result<Thinned, E> {
    // A format that exports every band's numbers keeps every sample, and the bands not
    // drawn whole: their points index the profile's samples.
    let (max_points, band_points) = match max_points {
        _ if needs.every_band => (0, 0),
        Some(n) => (n, 0),
        None => (0, needs.band_points),
    };
    let undrawn = match needs.every_band {
        true => std::mem::take(&mut agg.rest),
        false => Vec::new(),
    };
    let limit = sample_limit(max_points, band_points, agg.bands.len());
    let mut page = (needs.data).then(|| PageSamples::of(&agg, limit, needs.page_values));
    let drawn = match &mut page {
        Some(page) => page.drawn.take(),
        None => kept_samples(&agg, limit),
    };
    // The bands not drawn go with their values when they fit the budget of values and
    // the table lists them all.
    let rows = needs.table_rows;
    let listed = rows == 0 || agg.bands.len() + agg.rest.len() <= rows;
    let rest = page.as_mut().and_then(|p| p.rest.take()).filter(|_| listed);
    if rest.is_none() {
        drop_in_background(std::mem::take(&mut agg.rest));
    }
    let rest_levels = rest.as_ref().map_or(0, |r| r.levels);
    if let (Some(_), false) = (&rest, agg.rest.is_empty()) {
        let mut wanted = drawn.clone().unwrap_or_else(|| vec![true; agg.times.len()]);
        let levels = page.as_ref().map_or(&[][..], |p| &p.levels[..]);
        for level in levels.iter().take(rest_levels) {
            for &s in level.tiles.iter().flatten() {
                wanted[s] = true;
            }
        }
        if let Some(filled) = fill(&wanted)? {
            fill_rest(&mut agg.rest, filled);
        }
    }
    let detail = page
        .map(|p| detail_tiles(&agg, &p.levels, rest_levels))
        .unwrap_or_default();
    if let Some(keep) = drawn {
        drop_samples(&mut agg, &keep);
    }
    Ok(Thinned {
        agg,
        detail,
        rest_samples: rest.and_then(|r| r.samples),
        undrawn,
        spilled: None,
    })
}

/// The points of `filled` given to the bands of `rest` of the same name (none to a band
/// it does not have).
fn fill_rest(rest: &mut [Band], filled: Vec<Band>) {
    let mut by_name: std::collections::HashMap<Vec<u8>, Vec<crate::profile::Point>> =
        (filled.into_iter()).map(|b| (b.name, b.points)).collect();
    for band in rest {
        band.points = by_name.remove(&band.name).unwrap_or_default();
    }
}

/// The times, values (the drawn bands', then those of [`Aggregated::rest`] at the first
/// `rest_levels` levels) and totals of the samples each tile of each level keeps.
fn detail_tiles(agg: &Aggregated, levels: &[Level], rest_levels: usize) -> Vec<LevelSamples> {
    let tile = |kept: &Vec<usize>, rest: bool| TileSamples {
        times: kept.iter().map(|&s| agg.times[s]).collect(),
        values: match rest {
            true => values_at(agg.bands.iter().chain(&agg.rest), kept),
            false => values_at(&agg.bands, kept),
        },
        totals: match agg.totals.is_empty() {
            true => Vec::new(),
            false => kept.iter().map(|&s| agg.totals[s]).collect(),
        },
    };
    (levels.iter().enumerate())
        .map(|(i, level)| LevelSamples {
            tiles: level
                .tiles
                .iter()
                .map(|t| tile(t, i < rest_levels))
                .collect(),
            whole: level.whole,
            rest: i < rest_levels && !agg.rest.is_empty(),
        })
        .collect()
}
