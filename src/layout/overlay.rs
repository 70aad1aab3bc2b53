//! What the chart carries beyond hp2ps's picture: the tooltip of every band, and the
//! lines over the bands ([`crate::profile::Series`]) with their styles.

use super::chart::{BandStats, LineStyle, SeriesLine};
use crate::aggregate::numbers::beats;
use crate::aggregate::Aggregated;
use crate::num::number;
use crate::profile::area;

/// The styles of the lines, by series index (repeating): the first (the heap size) a
/// thick dark red line, the second (live bytes) a dashed dark blue one, the third (the
/// blocks size) a dotted dark green one.
pub(super) const LINE_STYLES: [LineStyle; 3] = [
    LineStyle {
        width: 1.5,
        rgb: [0.6, 0.0, 0.0],
        dash: None,
    },
    LineStyle {
        width: 1.0,
        rgb: [0.0, 0.0, 0.6],
        dash: Some((4.0, 2.0)),
    },
    LineStyle {
        width: 1.0,
        rgb: [0.0, 0.4, 0.0],
        dash: Some((1.0, 1.5)),
    },
];

/// The style of series `i`.
pub(super) fn line_style(i: usize) -> LineStyle {
    LINE_STYLES[i % LINE_STYLES.len()]
}

/// `<value> <VALUE_UNIT> at <time> <SAMPLE_UNIT>`.
fn value_at(agg: &Aggregated, value: f64, time: f64) -> String {
    let unit = |u: &[u8]| {
        if u.is_empty() {
            String::new()
        } else {
            format!(" {}", String::from_utf8_lossy(u))
        }
    };
    format!(
        "{}{} at {}{}",
        number(value),
        unit(&agg.value_unit),
        number(time),
        unit(&agg.sample_unit)
    )
}

/// A band's numbers over the drawn samples: its peak and when, and its share of the
/// drawn area (the title's). `column` holds the band's value at every sample.
pub(super) fn band_stats(agg: &Aggregated, column: &[f64]) -> BandStats {
    let mut best: Option<(f64, f64)> = None;
    for (&v, &t) in column.iter().zip(&agg.times) {
        if beats(best, v) {
            best = Some((v, t));
        }
    }
    let (peak, peak_time) = best.unwrap_or((0.0, agg.first_time()));
    let own = area(&agg.times, column);
    let share = if agg.area != 0.0 { own / agg.area } else { 0.0 };
    BandStats {
        peak,
        peak_time,
        share,
    }
}

/// A band's tooltip: `<name>: peak <value> <unit> at <time> <unit>, <share>% of the
/// area` (the share of the drawn area, the title's), then a line for each thing known of
/// it ([`crate::profile::BandInfo`]: a `-hi` band's IPE fields and symbol).
pub(super) fn band_tooltip(agg: &Aggregated, name: &[u8], stats: &BandStats) -> Vec<u8> {
    let mut text = name.to_vec();
    text.extend_from_slice(
        format!(
            ": peak {}, {:.1}% of the area",
            value_at(agg, stats.peak, stats.peak_time),
            stats.share * 100.0
        )
        .as_bytes(),
    );
    if let Some(info) = agg.band_info.get(name) {
        for line in info.detail_lines() {
            text.push(b'\n');
            text.extend_from_slice(line.as_bytes());
        }
    }
    text
}

/// The lines in page points, placed as the bands are: the graph's origin is `origin`,
/// its size `size`.
pub(super) fn series_lines(
    agg: &Aggregated,
    (x0, y0): (f64, f64),
    (gw, gh): (f64, f64),
) -> Vec<SeriesLine> {
    let y_scale = gh / agg.y_range;
    let first = agg.first_time();
    agg.series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let peak = s
                .points
                .iter()
                .fold(None, |m: Option<(f64, f64)>, &(t, v)| match m {
                    Some((b, _)) if b >= v => m,
                    _ => Some((v, t)),
                });
            let mut tooltip = s.name.clone();
            if let Some((v, t)) = peak {
                tooltip.extend_from_slice(format!(": peak {}", value_at(agg, v, t)).as_bytes());
            }
            SeriesLine {
                name: s.name.clone(),
                tooltip,
                style: line_style(i),
                points: s
                    .points
                    .iter()
                    .map(|&(t, v)| (((t - first) / agg.x_range) * gw + x0, v * y_scale + y0))
                    .collect(),
            }
        })
        .collect()
}
