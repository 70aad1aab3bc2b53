//! Numbers about a profile for scripts and CI (`--summary`, `--summary=json`): sample
//! count, time span, the peak of the total and when it happened, the total area, and the
//! biggest bands with their own peak and area.
//!
//! The summary describes the samples as read (after a time window, if any), before any of
//! the chart's band selection: `-t` trace elimination and the `-m` band limit do not
//! apply, and every band is counted under its own name (no OTHER). The total area uses the
//! same trapezoid formula as the chart's title, so when `-t` drops nothing, the title shows
//! this area with its decimals cut off.
//!
//! The JSON form (`serde`) is documented field by field in `docs/guide.md`.
//!
//! ```
//! use hp2ps::read::hp::ReadOptions;
//! use hp2ps::profile::Profile;
//! use hp2ps::summary::{summarize, SummaryOptions};
//!
//! let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
//!            BEGIN_SAMPLE 0.0\na 10\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 2.0\na 30\nb 5\nEND_SAMPLE 2.0\n";
//! let (profile, _) = Profile::read(&hp[..], &ReadOptions::default()).unwrap();
//! let s = summarize(&profile, &SummaryOptions::default());
//! assert_eq!((s.samples, s.peak.total, s.peak.time), (2, 35.0, 2.0));
//! assert_eq!(s.area, 45.0);
//! assert_eq!(s.top[0].name, "a");
//! ```

use std::io::{self, Write};

use serde::{Serialize, Serializer};

use crate::aggregate::{area, stack_heights};
use crate::defaults;
use crate::profile::{Band, Profile};

/// What the summary lists.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SummaryOptions {
    /// How many bands to list, biggest area first. Default: 10 ([`defaults::SUMMARY_TOP`]).
    pub top: usize,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            top: defaults::SUMMARY_TOP,
        }
    }
}

/// The summary of one profile. Byte strings from the file are shown as UTF-8, invalid
/// bytes replaced by U+FFFD.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The input's name, set by the caller (`null` in JSON for stdin or when unset).
    pub file: Option<String>,
    /// The profile's `JOB`.
    pub job: String,
    /// The profile's `DATE`.
    pub date: String,
    /// The profile's `SAMPLE_UNIT`.
    pub sample_unit: String,
    /// The profile's `VALUE_UNIT`.
    pub value_unit: String,
    /// The number of complete samples.
    pub samples: usize,
    /// Time of the first sample, in SAMPLE_UNIT.
    pub start: f64,
    /// Time of the last sample.
    pub end: f64,
    /// `end - start`.
    pub span: f64,
    /// The highest total (all bands stacked) and the first sample where it occurs.
    pub peak: Peak,
    /// The integral of the total over time, in VALUE_UNIT x SAMPLE_UNIT.
    pub area: f64,
    /// The number of bands (distinct identifiers).
    pub bands: usize,
    /// The `top` biggest bands by area (ties: higher peak, then name).
    pub top: Vec<BandSummary>,
}

/// A highest value and when it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    /// The highest total, in VALUE_UNIT.
    #[serde(serialize_with = "integer_if_exact")]
    pub total: f64,
    /// The time of the first sample with that total.
    pub time: f64,
}

/// One band's numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BandSummary {
    /// The band's identifier.
    pub name: String,
    /// The band's highest value in one sample.
    #[serde(serialize_with = "integer_if_exact")]
    pub peak: f64,
    /// The time of the first sample with that value.
    pub peak_time: f64,
    /// The band's own integral over time.
    pub area: f64,
    /// `area` as a share of the total area, 0 to 1 (0 when the total area is 0).
    pub share: f64,
}

/// Values in a `.hp` file are integers: write them without a fraction when they are exact.
fn integer_if_exact<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if v.fract() == 0.0 && v.abs() <= EXACT {
        s.serialize_i64(*v as i64)
    } else {
        s.serialize_f64(*v)
    }
}

/// The numbers of a profile (see the module docs for what is counted).
pub fn summarize(profile: &Profile, opts: &SummaryOptions) -> Summary {
    let times = &profile.times;
    let n = times.len();
    let heights = stack_heights(&profile.bands, n);
    let (peak_total, peak_time) = peak(times, &heights);
    let total_area = area(times, &heights);
    let start = times.first().copied().unwrap_or(0.0);
    let end = times.last().copied().unwrap_or(0.0);

    let weights = trapezoid_weights(times);
    let mut bands: Vec<BandSummary> = profile
        .bands
        .iter()
        .map(|b| band_summary(b, times, &weights, total_area))
        .collect();
    bands.sort_by(|a, b| {
        b.area
            .total_cmp(&a.area)
            .then(b.peak.total_cmp(&a.peak))
            .then_with(|| a.name.cmp(&b.name))
    });
    bands.truncate(opts.top);

    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Summary {
        file: None,
        job: text(&profile.job),
        date: text(&profile.date),
        sample_unit: text(&profile.sample_unit),
        value_unit: text(&profile.value_unit),
        samples: n,
        start,
        end,
        span: end - start,
        peak: Peak {
            total: peak_total,
            time: peak_time,
        },
        area: total_area,
        bands: profile.bands.len(),
        top: bands,
    }
}

/// The highest value and the time of its first sample ((0, 0) without samples).
fn peak(times: &[f64], values: &[f64]) -> (f64, f64) {
    let mut best: Option<(f64, f64)> = None;
    for (&t, &v) in times.iter().zip(values) {
        if beats(best, v) {
            best = Some((v, t));
        }
    }
    best.unwrap_or((0.0, 0.0))
}

/// Whether `v` beats the best value so far (the first of equal values wins).
fn beats(best: Option<(f64, f64)>, v: f64) -> bool {
    best.map_or(true, |(b, _)| v > b)
}

/// The weight of each sample's value in the trapezoid integral: half the time to the
/// previous sample plus half the time to the next one.
fn trapezoid_weights(times: &[f64]) -> Vec<f64> {
    (0..times.len())
        .map(|i| {
            let before = if i > 0 { times[i] - times[i - 1] } else { 0.0 };
            let after = times.get(i + 1).map_or(0.0, |t| t - times[i]);
            (before + after) / 2.0
        })
        .collect()
}

fn band_summary(band: &Band, times: &[f64], weights: &[f64], total_area: f64) -> BandSummary {
    // Points are in sample order; duplicates of one sample add up (as in the chart).
    let mut per_sample: Vec<(usize, f64)> = Vec::with_capacity(band.points.len());
    for p in &band.points {
        let s = p.sample as usize;
        match per_sample.last_mut() {
            Some((last, v)) if *last == s => *v += p.value,
            _ => per_sample.push((s, p.value)),
        }
    }
    let mut band_area = 0.0;
    let mut best: Option<(f64, f64)> = None;
    for &(s, v) in &per_sample {
        let (Some(&t), Some(&w)) = (times.get(s), weights.get(s)) else {
            continue;
        };
        band_area += v * w;
        if beats(best, v) {
            best = Some((v, t));
        }
    }
    // Values are never negative, and a band is 0 in the samples it is absent from: a band
    // that never rises above 0 peaks (at 0) in the first sample.
    let first = times.first().copied().unwrap_or(0.0);
    let (peak, peak_time) = match best {
        Some((v, t)) if v > 0.0 => (v, t),
        _ => (0.0, first),
    };
    BandSummary {
        name: String::from_utf8_lossy(&band.name).into_owned(),
        peak,
        peak_time,
        area: band_area,
        share: if total_area != 0.0 {
            band_area / total_area
        } else {
            0.0
        },
    }
}

impl Summary {
    /// Writes the summary as one line of JSON (no newline).
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }

    /// Writes the summary as text for people.
    pub fn write_text<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let unit = |u: &str| {
            if u.is_empty() {
                String::new()
            } else {
                format!(" {u}")
            }
        };
        let (vu, su) = (unit(&self.value_unit), unit(&self.sample_unit));
        if let Some(file) = &self.file {
            writeln!(out, "{file}")?;
        }
        writeln!(out, "  job      {}", self.job)?;
        writeln!(out, "  date     {}", self.date)?;
        writeln!(
            out,
            "  samples  {}, from {} to {}{su} (span {})",
            self.samples,
            number(self.start),
            number(self.end),
            number(self.span)
        )?;
        writeln!(
            out,
            "  peak     {}{vu} at {}{su}",
            number(self.peak.total),
            number(self.peak.time)
        )?;
        writeln!(out, "  area     {}{vu} x{su}", number(self.area))?;
        let shown = if self.top.len() < self.bands {
            format!(", the {} biggest by area:", self.top.len())
        } else if self.top.is_empty() {
            String::new()
        } else {
            ", by area:".to_string()
        };
        writeln!(out, "  bands    {}{shown}", self.bands)?;
        if self.top.is_empty() {
            return Ok(());
        }
        let rows: Vec<[String; 5]> = self
            .top
            .iter()
            .map(|b| {
                [
                    number(b.area),
                    format!("{:.1}%", b.share * 100.0),
                    number(b.peak),
                    number(b.peak_time),
                    b.name.clone(),
                ]
            })
            .collect();
        let head = ["area", "share", "peak", "at", "name"];
        let width = |i: usize| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        };
        let w: Vec<usize> = (0..4).map(width).collect();
        let line = |out: &mut W, r: [&str; 5]| {
            writeln!(
                out,
                "    {:>w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3]
            )
        };
        line(out, head)?;
        for r in &rows {
            line(out, [&r[0], &r[1], &r[2], &r[3], &r[4]])?;
        }
        Ok(())
    }
}

/// A number for people: thousands separated by commas (as in the chart's title), at most
/// two decimals, no trailing zeros.
fn number(v: f64) -> String {
    let text = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) if rest.bytes().any(|b| b.is_ascii_digit() && b != b'0') => ("-", rest),
        Some(rest) => ("", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = unsigned.split_at(unsigned.find('.').unwrap_or(unsigned.len()));
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return text; // inf, NaN
    }
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}{grouped}{frac}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::hp::ReadOptions;

    fn profile(body: &str) -> Profile {
        let text = format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n{body}");
        Profile::read(text.as_bytes(), &ReadOptions::default())
            .expect("valid")
            .0
    }

    #[test]
    fn band_areas_add_up_to_the_total() {
        let p = profile(
            "BEGIN_SAMPLE 0.0\na 4\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 2\nb 6\nb 2\n\
             END_SAMPLE 1.0\nBEGIN_SAMPLE 3.0\nEND_SAMPLE 3.0\n",
        );
        let s = summarize(&p, &SummaryOptions::default());
        assert_eq!(s.area, 7.0 + 10.0);
        assert_eq!((s.peak.total, s.peak.time), (10.0, 1.0));
        let sum: f64 = s.top.iter().map(|b| b.area).sum();
        assert_eq!(sum, s.area);
        assert_eq!(s.top[0].name, "b");
        assert_eq!((s.top[0].peak, s.top[0].peak_time), (8.0, 1.0));
        assert_eq!((s.top[1].peak, s.top[1].peak_time), (4.0, 0.0));
    }

    #[test]
    fn top_limits_the_list_and_ties_sort_by_name() {
        let p = profile("BEGIN_SAMPLE 0.0\nz 1\ny 1\nx 1\nEND_SAMPLE 0.0\n");
        let s = summarize(&p, &SummaryOptions { top: 2 });
        assert_eq!(s.bands, 3);
        let names: Vec<&str> = s.top.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["x", "y"]);
        assert_eq!(s.area, 0.0);
        assert!(s.top.iter().all(|b| b.share == 0.0));
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(number(648.6800000000001), "648.68");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(99159496.0), "99,159,496");
        assert_eq!(number(32334570.2), "32,334,570.2");
        assert_eq!(number(-1234.5), "-1,234.5");
        assert_eq!(number(999.0), "999");
        assert_eq!(number(f64::INFINITY), "inf");
    }

    #[test]
    fn json_values_are_integers_when_exact() {
        let p = profile("BEGIN_SAMPLE 0.5\na 3\nEND_SAMPLE 0.5\n");
        let mut out = Vec::new();
        summarize(&p, &SummaryOptions::default())
            .write_json(&mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("\"peak\":{\"total\":3,\"time\":0.5}"),
            "{text}"
        );
    }
}
