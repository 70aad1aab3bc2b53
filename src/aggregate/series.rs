//! Lines over the bands ([`Series`]): clipped to the chart's time span, and their
//! highest value, which the y range must hold.

use crate::profile::Series;

/// `series` with every line cut to the times `from..=to`: points outside are left out,
/// and where the line crosses an end, a point is put on the end, interpolated. Lines
/// left with no points are kept (their key entry still names them).
pub(super) fn clip_series(series: Vec<Series>, from: f64, to: f64) -> Vec<Series> {
    series
        .into_iter()
        .map(|s| Series {
            points: clip(&s.points, from, to),
            name: s.name,
        })
        .collect()
}

fn clip(points: &[(f64, f64)], from: f64, to: f64) -> Vec<(f64, f64)> {
    let inside = |t: f64| t >= from && t <= to;
    let mut out = Vec::with_capacity(points.len());
    for (i, &(t, v)) in points.iter().enumerate() {
        if !(t.is_finite() && v.is_finite()) {
            continue;
        }
        if let Some(&(pt, pv)) = i.checked_sub(1).and_then(|j| points.get(j)) {
            // Entering the span from the left, or leaving it to the right: the crossing.
            if pt < from && t > from {
                out.push((from, lerp((pt, pv), (t, v), from)));
            }
            if pt < to && t > to && pt >= from {
                out.push((to, lerp((pt, pv), (t, v), to)));
            }
            if pt < from && t > to {
                out.push((to, lerp((pt, pv), (t, v), to)));
            }
        }
        if inside(t) {
            out.push((t, v));
        }
    }
    out
}

/// The value at time `at` on the segment from `a` to `b` (`a.0 < at < b.0`).
fn lerp(a: (f64, f64), b: (f64, f64), at: f64) -> f64 {
    a.1 + (b.1 - a.1) * ((at - a.0) / (b.0 - a.0))
}

/// The highest value of any line (`None` without points).
pub(super) fn series_max(series: &[Series]) -> Option<f64> {
    series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(None, |m, v| match m {
            Some(m) if m >= v => Some(m),
            _ => Some(v),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(points: &[(f64, f64)]) -> Vec<Series> {
        vec![Series {
            name: b"heap".to_vec(),
            points: points.to_vec(),
        }]
    }

    #[test]
    fn clips_to_the_span_with_interpolated_ends() {
        let c = clip_series(
            s(&[(0.0, 0.0), (2.0, 20.0), (4.0, 40.0), (6.0, 0.0)]),
            1.0,
            5.0,
        );
        assert_eq!(
            c[0].points,
            [(1.0, 10.0), (2.0, 20.0), (4.0, 40.0), (5.0, 20.0)]
        );
        let across = clip_series(s(&[(0.0, 0.0), (10.0, 100.0)]), 2.0, 3.0);
        assert_eq!(across[0].points, [(2.0, 20.0), (3.0, 30.0)]);
        let outside = clip_series(s(&[(6.0, 1.0), (7.0, 2.0)]), 1.0, 5.0);
        assert!(outside[0].points.is_empty());
        assert_eq!(
            series_max(&clip_series(s(&[(0.0, 3.0), (1.0, 9.0)]), 0.0, 1.0)),
            Some(9.0)
        );
        assert_eq!(series_max(&[]), None);
    }
}
