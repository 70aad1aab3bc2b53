//! Thinning, aggregation's last step: the samples a chart draws ([`super::decimate`],
//! after the ranges and the area are fixed from every sample), and for a chart that
//! carries its data (the HTML page) what it keeps besides ([`super::page`]): the finer
//! levels of detail, and the values of the bands not drawn on their own. One call,
//! [`thin`], gives both.

use super::decimate::{drop_samples, kept_samples, sample_limit, BandPoints};
use super::limit::drop_in_background;
use super::page::{values_at, Level, PageSamples};
use super::Aggregated;
use crate::needs::Needs;
use crate::profile::spill::{Spill, SpillHandle};
use crate::profile::{Band, Point};

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
    let kept = thin_filled(agg, max_points, needs, None, &mut |_| {
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
///
/// With a `spill`, the drawn bands hold no points: they are in it (a long profile's
/// second reading, `crate::profile::spill`), read back for each pricing of the samples,
/// then into the bands at the samples kept (the drawn ones and the levels' ones) only,
/// as they would be there: the bands then hold only what thinning keeps of them. A
/// failure to read it back is the spill's to say (`Spill::read_failure`).
pub(crate) fn thin_filled<E>(
    mut agg: Aggregated,
    max_points: Option<usize>,
    needs: &Needs,
    spill: Option<&SpillHandle>,
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
    let points = spill.map_or(BandPoints::InBands, BandPoints::Spilled);
    let mut page = (needs.data).then(|| PageSamples::of(&agg, points, limit, needs.page_values));
    let drawn = match &mut page {
        Some(page) => page.drawn.take(),
        None => kept_samples(&agg, points, limit),
    };
    if let Some(spill) = spill {
        let mut wanted = drawn.clone().unwrap_or_else(|| vec![true; agg.times.len()]);
        let levels = page.as_ref().map_or(&[][..], |p| &p.levels[..]);
        for &s in levels.iter().flat_map(|l| l.tiles.iter().flatten()) {
            wanted[s] = true;
        }
        read_back(&mut agg, &mut spill.lock(), &wanted);
    }
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

/// Gives the drawn bands of `agg` their points from `spill` at the samples flagged in
/// `wanted` (see [`thin_filled`]), as the profile read whole would have them there:
/// OTHER's are the merged bands' sum, which the band limit adds to 0 at every sample
/// (`limit::band_limit_keeping`), 0 after the last the reading summed.
fn read_back(agg: &mut Aggregated, spill: &mut Spill, wanted: &[bool]) {
    let at = |s: u32| wanted.get(s as usize).copied().unwrap_or(false);
    for (k, band) in agg.bands.iter_mut().enumerate() {
        let other = k == 0 && agg.other;
        let mut points = Vec::new();
        let mut next = 0;
        if let Some(number) = spill.band_of(&band.name, other) {
            let read = spill.read_band(number, &mut |ps| {
                let kept = ps.iter().filter(|p| at(p.sample)).map(|p| match other {
                    true => Point {
                        sample: p.sample,
                        value: 0.0 + p.value,
                    },
                    false => *p,
                });
                points.extend(kept);
                next = ps.last().map_or(next, |p| p.sample as usize + 1);
            });
            if let Err(e) = read {
                spill.failed_to_read(e);
            }
        }
        if other {
            let zeros = (next..wanted.len()).filter(|&s| wanted[s]);
            points.extend(zeros.map(|s| Point {
                sample: s as u32,
                value: 0.0,
            }));
        }
        band.points = points;
    }
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
