//! What the exports read of a chart (Prometheus's metrics, a pprof profile): every band
//! of the profile with its points (`ChartData::every_band`, which their
//! [`crate::needs::Needs::every_band`] asks for), every band's total at every sample, the
//! census chosen ([`Census`]), and the labels of the run: its program and the kind of
//! its profile. The painters that draw read the picture instead.

use std::io;

use crate::layout::chart::{Chart, ChartData};
use crate::profile::Band;
use crate::profile::ProfileFacts;

/// Which census an export of one census holds (a pprof profile).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum Census {
    /// The first census with the highest total: the profile's peak, as `--summary` says
    /// it.
    #[default]
    Peak,
    /// The last census that holds any band: the residency at the end (GHC ends a
    /// profile with an empty sample at exit, which is left aside).
    Last,
    /// The census nearest this time, in SAMPLE_UNIT (the earlier of two as near); a time
    /// outside the profile's is refused.
    At(f64),
    /// Every band's mean over the profile's samples (after `--from`/`--to`): its area
    /// divided by the time they span, rounded to a whole unit (a byte).
    Mean,
}

/// The chart's numbers, for an export: refused when the chart was not prepared with an
/// export's needs (it would lack the bands not drawn, or some samples).
pub(super) fn data_of(chart: &Chart) -> io::Result<&ChartData> {
    match chart.data.as_deref() {
        Some(d)
            if d.times.len() == d.samples
                && (!d.every_band.is_empty() || d.totals.iter().all(|&t| t == 0.0)) =>
        {
            Ok(d)
        }
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the chart does not carry every band's numbers: prepare it with the export's \
             Format::needs()",
        )),
    }
}

/// A band's value at sample `s` (its points there added up; 0 when it has none).
pub(super) fn value_at(band: &Band, s: usize) -> f64 {
    let points = &band.points;
    let first = points.partition_point(|p| (p.sample as usize) < s);
    (points[first..].iter())
        .take_while(|p| p.sample as usize == s)
        .map(|p| p.value)
        .sum()
}

/// The first sample with the highest total (`None` without samples).
pub(super) fn peak_census(totals: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, &t) in totals.iter().enumerate() {
        if best.map_or(true, |b| t > totals[b]) {
            best = Some(i);
        }
    }
    best
}

/// The last sample that holds anything, else the last sample (`None` without samples).
pub(super) fn last_census(totals: &[f64]) -> Option<usize> {
    (totals.iter().rposition(|&t| t != 0.0)).or_else(|| totals.len().checked_sub(1))
}

/// The sample nearest `t` (the earlier of two as near), or why there is none.
pub(super) fn census_at(times: &[f64], t: f64) -> io::Result<usize> {
    let refuse = |why: String| Err(io::Error::new(io::ErrorKind::InvalidInput, why));
    let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
        return refuse("the profile has no census".to_string());
    };
    if !(first..=last).contains(&t) {
        return refuse(format!(
            "--at {t}: the profile's censuses are from {first} to {last}"
        ));
    }
    let after = times.partition_point(|&x| x < t).min(times.len() - 1);
    let before = after.saturating_sub(1);
    Ok(match (t - times[before]) <= (times[after] - t) {
        true => before,
        false => after,
    })
}

/// The program that made the profile: the first word of its JOB without its directory,
/// else the input's file name without its extension, else empty.
pub(super) fn program_of(job: &[u8], source: Option<&str>) -> String {
    let job = String::from_utf8_lossy(job);
    let word = job.split_whitespace().next().unwrap_or("");
    let name = word.rsplit('/').next().unwrap_or(word);
    if !name.is_empty() {
        return name.to_string();
    }
    let file = source.map_or("", |s| s.rsplit(['/', '\\']).next().unwrap_or(s));
    file.split('.').next().unwrap_or("").to_string()
}

/// The kind of a profile, as its RTS flag (`-hc`, `-hT`, …): what an eventlog told, else
/// the JOB's first `-h` flag among its RTS options (`prog +RTS -hc -i0.05`), a bare `-h`
/// being a profiled build's `-hc`; `None` when neither says.
pub(super) fn kind_of(job: &[u8], facts: &ProfileFacts) -> Option<String> {
    if let Some(flag) = &facts.breakdown {
        return Some(flag.clone());
    }
    let job = String::from_utf8_lossy(job);
    let mut words = job.split_whitespace();
    words.by_ref().find(|&w| w == "+RTS")?;
    let flag = (words.take_while(|&w| w != "-RTS"))
        .map(|w| w.split(',').next().unwrap_or(w))
        .find(|w| w.starts_with("-h") && w.len() <= 3)?;
    Some(match flag {
        "-h" => "-hc".to_string(),
        flag => flag.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Point;

    #[test]
    fn a_census_is_the_nearest_sample_inside_the_run() {
        let times = [0.0, 1.0, 2.0, 4.0];
        assert_eq!(census_at(&times, 0.4).unwrap(), 0);
        assert_eq!(census_at(&times, 0.5).unwrap(), 0, "the earlier of two");
        assert_eq!(census_at(&times, 3.1).unwrap(), 3);
        assert_eq!(census_at(&times, 4.0).unwrap(), 3);
        let late = census_at(&times, 4.5).unwrap_err().to_string();
        assert!(late.contains("from 0 to 4"), "{late}");
        assert!(census_at(&[], 0.0).is_err());
    }

    #[test]
    fn the_peak_is_the_first_highest_and_the_last_leaves_the_exit_aside() {
        assert_eq!(peak_census(&[1.0, 5.0, 5.0, 0.0]), Some(1));
        assert_eq!(last_census(&[1.0, 5.0, 5.0, 0.0]), Some(2));
        assert_eq!(last_census(&[0.0, 0.0]), Some(1));
        assert_eq!((peak_census(&[]), last_census(&[])), (None, None));
    }

    #[test]
    fn a_value_adds_the_points_of_its_sample() {
        let p = |sample, value| Point { sample, value };
        let band = Band {
            name: b"b".to_vec(),
            points: vec![p(0, 1.0), p(2, 3.0), p(2, 4.0), p(5, 1.0)],
        };
        let got: Vec<f64> = (0..7).map(|s| value_at(&band, s)).collect();
        assert_eq!(got, [1.0, 0.0, 7.0, 0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn the_program_and_the_kind_come_from_the_job() {
        let none = ProfileFacts::default();
        let job = b"./bin/LeakMap 3 +RTS -hc -i0.02 -RTS";
        assert_eq!(program_of(job, None), "LeakMap");
        assert_eq!(program_of(b"", Some("dir/prog.hp")), "prog");
        assert_eq!(kind_of(job, &none).as_deref(), Some("-hc"));
        assert_eq!(kind_of(b"p +RTS -h -RTS", &none).as_deref(), Some("-hc"));
        assert_eq!(kind_of(b"p +RTS -hT,foo", &none).as_deref(), Some("-hT"));
        assert_eq!(
            kind_of(b"p -hc +RTS -i1", &none),
            None,
            "a program's own -hc"
        );
        let told = ProfileFacts {
            breakdown: Some("-hi".to_string()),
            ..ProfileFacts::default()
        };
        assert_eq!(kind_of(b"p +RTS -hc", &told).as_deref(), Some("-hi"));
    }
}
