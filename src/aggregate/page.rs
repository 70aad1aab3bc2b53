//! The samples an interactive page carries besides those it draws: finer levels of detail
//! for a zoomed chart, and the values of the bands not drawn on their own.
//!
//! A page draws the samples the SVG draws ([`super::decimate`]): zoomed to a tenth of the
//! run, that is a tenth of them, where a chart of that tenth alone would draw as many as
//! the whole. So the page also carries *levels*: level k cuts the run's time into 10^k
//! equal tiles, and each tile keeps the samples a chart of that tile alone would keep
//! (the same reduction and limit, [`super::decimate::kept_in`]), from the last sample at
//! or before its start to the first at or after its end, so that neighbouring tiles join.
//! A window of a tenth, drawn from the level-1 tiles it touches, is then drawn from the
//! samples its own chart would draw. Levels are added while the one before dropped
//! samples somewhere and the page's values stay within [`crate::defaults::PAGE_VALUES`]; a level that
//! would pass it is left out, and so are those after it.
//!
//! The bands not drawn on their own (traces, and those merged into OTHER:
//! [`Aggregated::rest`]) are carried too, within what the levels leave of
//! [`crate::defaults::PAGE_VALUES`]: at every drawn sample when they fit, and then at the
//! levels that still fit, coarsest first; else at fewer of the drawn samples, thinned as
//! the drawn ones are (the same reduction with a smaller limit keeps a subset of the drawn
//! samples), as many as the budget allows. Then the page can draw any of them and has
//! every band's values (for its numbers of a zoomed window and its cost-centre icicle);
//! the page says when the budget thinned them ([`RestAt::samples`]).

use std::ops::Range;

use super::decimate::{drop_order, kept_in, kept_samples, BandPoints, DropOrder};
use super::Aggregated;
#[cfg(test)]
use crate::defaults::PAGE_VALUES;
use crate::profile::Band;

/// How many tiles a level has at most: 10^6.
const MAX_LEVEL: u32 = 6;

/// What a page carries besides the chart's picture.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct PageSamples {
    /// The samples drawn, a flag per sample of the profile, as [`kept_samples`] gives
    /// them: `None` when every sample is drawn.
    pub drawn: Option<Vec<bool>>,
    /// The finer levels: the first has 10 tiles, the next 100, ….
    pub levels: Vec<Level>,
    /// Where the values of [`Aggregated::rest`] are carried; `None`: nowhere.
    pub rest: Option<RestAt>,
}

/// Where a page carries the values of the bands not drawn on their own.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct RestAt {
    /// At which of the drawn samples (their places among them, in order); `None`: at
    /// every one.
    pub samples: Option<Vec<usize>>,
    /// How many of the levels of detail (the coarsest first) carry them too.
    pub levels: usize,
}

/// The fewest drawn samples the bands not drawn are carried at: fewer do not show them.
const FEWEST_REST_SAMPLES: usize = 16;

impl PageSamples {
    /// The samples of `agg` (its bands' points from `points`) a page carries that draws
    /// at most `max_points` samples (0: all), within a budget of `budget` band values
    /// ([`crate::defaults::PAGE_VALUES`]).
    pub(super) fn of(
        agg: &Aggregated,
        points: BandPoints<'_>,
        max_points: usize,
        budget: usize,
    ) -> PageSamples {
        // One simplification for the samples drawn and, further on, for those the bands
        // not drawn are carried at (it was two, a tenth of a long profile's page).
        let order = drop_order(agg, points, max_points);
        let drawn = order.as_ref().and_then(|o| o.kept(max_points));
        let n = agg.times.len();
        let mut carried = drawn
            .as_ref()
            .map_or(n, |keep| keep.iter().filter(|&&k| k).count());
        let bands = agg.bands.len().max(1);
        let mut levels = Vec::new();
        let mut thinned = drawn.is_some();
        let mut level = 1;
        while thinned && level <= MAX_LEVEL {
            let tiles = tiles(&agg.times, 10usize.pow(level));
            // A tile keeps all its samples or at least `max_points`: a level that cannot
            // fit even so is not worked out (that decimates every tile of more samples).
            let least: usize = tiles.iter().map(|t| t.len().min(max_points)).sum();
            if carried.saturating_add(least).saturating_mul(bands) > budget {
                break;
            }
            let kept: Vec<Vec<usize>> = (tiles.iter())
                .map(|t| kept_in(agg, points, t.clone(), max_points))
                .collect();
            let count: usize = kept.iter().map(Vec::len).sum();
            if (carried + count).saturating_mul(bands) > budget {
                break;
            }
            carried += count;
            thinned = (tiles.iter().zip(&kept)).any(|(t, k)| k.len() < t.len());
            levels.push(Level {
                tiles: kept,
                whole: !thinned,
            });
            level += 1;
        }
        let room = budget.saturating_sub(carried.saturating_mul(bands));
        let counts: Vec<usize> = (levels.iter())
            .map(|l| l.tiles.iter().map(Vec::len).sum())
            .collect();
        let thinned = Thinning {
            order: order.as_ref(),
            drawn: drawn.as_deref(),
        };
        let rest = rest_at(agg, points, thinned, &counts, room);
        PageSamples {
            drawn,
            levels,
            rest,
        }
    }
}

/// How the drawn samples were found.
#[derive(Clone, Copy)]
struct Thinning<'a> {
    /// The order of the simplification that found them (`None`: every sample drawn).
    order: Option<&'a DropOrder>,
    /// The drawn samples, a flag per sample; `None` for all.
    drawn: Option<&'a [bool]>,
}

/// Where the bands not drawn go within `room` band values (see the module docs): every
/// drawn sample (`thinned.drawn`) and the levels that fit (of `levels` samples each), or
/// a subset of the drawn samples.
fn rest_at(
    agg: &Aggregated,
    points: BandPoints<'_>,
    thinned: Thinning<'_>,
    levels: &[usize],
    room: usize,
) -> Option<RestAt> {
    let drawn = thinned.drawn;
    let r = agg.rest.len();
    let n = agg.times.len();
    let d = drawn.map_or(n, |keep| keep.iter().filter(|&&k| k).count());
    if r == 0 || d.saturating_mul(r) <= room {
        let mut left = room.saturating_sub(d.saturating_mul(r));
        let fit = (levels.iter())
            .take_while(|&&count| match count.saturating_mul(r) <= left {
                true => {
                    left -= count * r;
                    true
                }
                false => false,
            })
            .count();
        return Some(RestAt {
            samples: None,
            levels: if r == 0 { levels.len() } else { fit },
        });
    }
    // Thinned, they take half of what is left: the 400 MB profile's page (180 bands not
    // drawn, its level of detail taking most of the budget) then stays within 6 MB.
    let most = room / 2 / r;
    if most < FEWEST_REST_SAMPLES {
        return None;
    }
    // The same reduction with a smaller limit drops the same samples first, and more:
    // what it keeps is among the drawn samples.
    let keep = match thinned.order {
        // The drawn samples' simplification, on further.
        Some(order) => order.kept(most),
        None => kept_samples(agg, points, most),
    };
    let keep = keep.unwrap_or_else(|| vec![true; n]);
    let drawn_samples = (0..n).filter(|&s| drawn.map_or(true, |k| k[s]));
    let places = (drawn_samples.enumerate())
        .filter_map(|(place, s)| keep[s].then_some(place))
        .collect();
    Some(RestAt {
        samples: Some(places),
        levels: 0,
    })
}

/// One level of detail: the samples each of its tiles keeps.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Level {
    /// Tile by tile, the samples kept, by index.
    pub tiles: Vec<Vec<usize>>,
    /// Whether every tile keeps every sample of its stretch (the last level then).
    pub whole: bool,
}

/// The samples of each of `count` equal stretches of the run's time: from the last at
/// or before the stretch's start to the first at or after its end.
fn tiles(times: &[f64], count: usize) -> Vec<Range<usize>> {
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return Vec::new();
    };
    let span = last - first;
    (0..count)
        .map(|j| {
            let from = first + span * (j as f64 / count as f64);
            let to = first + span * ((j + 1) as f64 / count as f64);
            let lo = times.partition_point(|&t| t <= from).saturating_sub(1);
            let hi = times.partition_point(|&t| t < to).min(times.len() - 1);
            lo..hi.max(lo) + 1
        })
        .collect()
}

/// Each band's value (its points in a sample added up, 0 where it has none) at each of
/// `samples` (indices in increasing order).
pub(super) fn values_at<'a>(
    bands: impl IntoIterator<Item = &'a Band>,
    samples: &[usize],
) -> Vec<Vec<f64>> {
    bands
        .into_iter()
        .map(|band| {
            let mut values = vec![0.0; samples.len()];
            let points = &band.points;
            // Both in sample order: one walk along each.
            let mut p = 0;
            for (v, &s) in values.iter_mut().zip(samples) {
                while p < points.len() && (points[p].sample as usize) < s {
                    p += 1;
                }
                while p < points.len() && points[p].sample as usize == s {
                    *v += points[p].value;
                    p += 1;
                }
            }
            values
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Point;

    fn agg(n: usize, bands: usize, rest: usize) -> Aggregated {
        let band = |b: usize| Band {
            name: format!("b{b}").into_bytes(),
            points: (0..n as u32)
                .map(|s| Point {
                    sample: s,
                    // A different wave in every band, so that samples are worth keeping.
                    value: 1000.0 + 500.0 * ((s as f64) * 0.37 * (b + 1) as f64).sin(),
                })
                .collect(),
        };
        Aggregated {
            job: Vec::new(),
            date: Vec::new(),
            sample_unit: Vec::new(),
            value_unit: Vec::new(),
            times: (0..n).map(|i| i as f64 * 0.01).collect(),
            marks: Vec::new(),
            mark_texts: Vec::new(),
            series: Vec::new(),
            bands: (0..bands).map(band).collect(),
            other: false,
            samples: n,
            band_info: Default::default(),
            x_range: 1.0,
            y_range: 1.0,
            aux_y_range: 1.0,
            area: 0.0,
            x_axis_end: 0.0,
            band_limit: 20,
            trace_percent: 1.0,
            table: Vec::new(),
            rest: (bands..bands + rest).map(band).collect(),
            totals: Vec::new(),
        }
    }

    #[test]
    fn tiles_cover_the_run_and_join_their_neighbours() {
        let times: Vec<f64> = (0..101).map(|i| f64::from(i) * 0.1).collect();
        let tiles = tiles(&times, 10);
        assert_eq!(tiles.len(), 10);
        assert_eq!(tiles[0], 0..11);
        assert_eq!(tiles[9], 90..101);
        for w in tiles.windows(2) {
            assert!(w[1].start < w[0].end, "{w:?} overlap");
        }
    }

    #[test]
    fn each_tile_keeps_what_a_chart_of_it_would_keep() {
        let a = agg(20_000, 3, 0);
        let page = PageSamples::of(&a, BandPoints::InBands, 1000, PAGE_VALUES);
        let drawn = page.drawn.as_ref().expect("thinned");
        assert_eq!(drawn.iter().filter(|&&k| k).count(), 1000);
        // Level 1: ten tiles of 2,000 samples, each thinned to 1,000; level 2: a hundred
        // of 200, kept whole; then no more.
        assert_eq!(page.levels.len(), 2);
        let tiles = super::tiles(&a.times, 10);
        assert!(!page.levels[0].whole && page.levels[1].whole);
        for (tile, kept) in tiles.iter().zip(&page.levels[0].tiles) {
            assert_eq!(kept.len(), 1000);
            assert_eq!(kept, &kept_in(&a, BandPoints::InBands, tile.clone(), 1000));
            assert_eq!((kept[0], kept[999]), (tile.start, tile.end - 1));
        }
        let mut seen = vec![false; 20_000];
        for (tile, kept) in super::tiles(&a.times, 100)
            .iter()
            .zip(&page.levels[1].tiles)
        {
            assert_eq!(kept, &tile.clone().collect::<Vec<_>>(), "kept whole");
            kept.iter().for_each(|&s| seen[s] = true);
        }
        assert!(seen.iter().all(|&s| s), "every sample at level 2");
        assert!(page.rest.is_some(), "nothing more to carry");
    }

    #[test]
    fn levels_and_the_rest_stay_within_the_budget() {
        let a = agg(20_000, 3, 10);
        // The drawn samples and level 1 fit (11,000 × 3), level 2 does not.
        let page = PageSamples::of(&a, BandPoints::InBands, 1000, 40_000);
        assert_eq!(page.levels.len(), 1);
        // 7,000 values left, half of them for the 10 bands not drawn: at 350 of the 1,000
        // drawn samples (and the few the reduction always keeps), none at the level.
        let rest = page.rest.expect("carried, thinned");
        let places = rest.samples.expect("at some drawn samples");
        assert!((350..=370).contains(&places.len()), "{}", places.len());
        assert!(places.windows(2).all(|w| w[0] < w[1]) && places[places.len() - 1] < 1000);
        assert_eq!(rest.levels, 0);
        // The reduction keeps a subset of the drawn samples.
        let drawn: Vec<usize> = (0..20_000)
            .filter(|&s| page.drawn.as_ref().unwrap()[s])
            .collect();
        let fewer = kept_samples(&a, BandPoints::InBands, 350).unwrap();
        let want: Vec<usize> = (drawn.iter().enumerate())
            .filter_map(|(p, &s)| fewer[s].then_some(p))
            .collect();
        assert_eq!(places, want);
        assert_eq!(fewer.iter().filter(|&&k| k).count(), want.len(), "a subset");
        // No room at all: nowhere.
        assert_eq!(
            PageSamples::of(&a, BandPoints::InBands, 1000, 33_100).rest,
            None
        );
        // With room for every sample of 13 bands at both levels, all of it.
        let page = PageSamples::of(&a, BandPoints::InBands, 1000, PAGE_VALUES);
        assert_eq!(page.levels.len(), 2);
        assert_eq!(
            page.rest,
            Some(RestAt {
                samples: None,
                levels: 2
            })
        );
        // Nothing thinned: no levels.
        let page = PageSamples::of(&a, BandPoints::InBands, 0, PAGE_VALUES);
        assert_eq!((page.drawn, page.levels.len()), (None, 0));
    }

    #[test]
    fn values_are_added_up_per_sample_and_zero_where_absent() {
        let band = Band {
            name: b"x".to_vec(),
            points: [(1, 2.0), (1, 3.0), (4, 7.0)]
                .iter()
                .map(|&(sample, value)| Point { sample, value })
                .collect(),
        };
        assert_eq!(values_at([&band], &[0, 1, 3, 4]), [[0.0, 5.0, 0.0, 7.0]]);
    }
}
