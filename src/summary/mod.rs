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
//! A time profile (`.prof`, `-pj`) has a summary of its own, [`TimeSummary`], and two
//! of them a comparison, [`TimeComparison`] (`docs/time-profile.md`).
//!
//! ```
//! use hp2ps::summary::{Summary, SummaryOptions};
//! use hp2ps::{load, LoadOptions, Source};
//!
//! let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
//!            BEGIN_SAMPLE 0.0\na 10\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 2.0\na 30\nb 5\nEND_SAMPLE 2.0\n";
//! let loaded = load(Source::Bytes(hp), &LoadOptions::default()).unwrap();
//! let s = Summary::of(&loaded, Some("j.hp"), &SummaryOptions::default());
//! assert_eq!((s.samples, s.peak.total, s.peak.time), (2, 35.0, 2.0));
//! assert_eq!(s.area, 45.0);
//! assert_eq!(s.top[0].name, "a");
//! ```

use std::io::{self, Write};

use serde::{Serialize, Serializer};

#[cfg(feature = "cli")]
use crate::aggregate::numbers::numbers_of;
use crate::aggregate::numbers::{band_numbers, beats, trapezoid_weights, BandNumbers, Extras};
use crate::defaults;
use crate::load::{FilteredOut, Loaded};
#[cfg(feature = "cli")]
use crate::profile::keep::Sums;
use crate::profile::{area, stack_heights, BandInfo, Profile};
use crate::read::eventlog::{Breakdown, Marker};
use crate::symbolize::Naming;

/// What the summary lists.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SummaryOptions {
    /// How many bands to list, biggest area first. Default: 10 ([`defaults::SUMMARY_TOP`]).
    pub top: usize,
    /// Whether each listed band reports its growth (`--sort growth`). Default: `false`.
    pub slopes: bool,
}

impl Default for SummaryOptions {
    fn default() -> Self {
        SummaryOptions {
            top: defaults::SUMMARY_TOP,
            slopes: false,
        }
    }
}

/// The summary of one profile. Byte strings from the file are shown as UTF-8, invalid
/// bytes replaced by U+FFFD.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Summary {
    /// The input's name, as [`Summary::of`] was given it (`null` in JSON for stdin).
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
    /// The peak of every line over the bands (`--heap-size`: the heap size and live
    /// bytes), in the profile's order (absent when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<SeriesPeak>,
    /// What `--include`/`--exclude` took out before these numbers were made (absent when
    /// no filter was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filtered: Option<FilteredOut>,
    /// The marks that carry a text (an eventlog's `traceMarker` calls), in time order;
    /// absent when none has one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
    /// The kind of profile, when the input says (an eventlog; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<Breakdown>,
    /// How the bands of a `-hi` profile were named ([`Loaded::naming`]; absent
    /// otherwise): in JSON, how many bands got each kind of name (`ipe`, `symbol`,
    /// `approximate`, `unresolved`) and the binary whose symbols were used.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "name_counts"
    )]
    pub names: Option<Naming>,
    /// What the reader met and read without a warning, one line each (an eventlog's IPE
    /// events that GHC's runtime declares a byte long; absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A naming as the JSON has it: how many bands got each kind of name, and the binary
/// whose symbols were used (absent when none was).
fn name_counts<S: Serializer>(naming: &Option<Naming>, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    let Some(n) = naming else {
        return s.serialize_none();
    };
    let mut counts = s.serialize_struct("NameCounts", 5)?;
    counts.serialize_field("ipe", &n.by_ipe)?;
    counts.serialize_field("symbol", &n.by_symbol)?;
    counts.serialize_field("approximate", &n.approximate)?;
    counts.serialize_field("unresolved", &n.unresolved)?;
    if let Some(binary) = &n.binary {
        counts.serialize_field("binary", binary)?;
    }
    counts.end()
}

/// A highest value and when it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Peak {
    /// The highest total, in VALUE_UNIT.
    #[serde(serialize_with = "integer_if_exact")]
    pub total: f64,
    /// The time of the first sample with that total.
    pub time: f64,
}

/// A line's highest value and when it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SeriesPeak {
    /// The line's name (`heap size`, `live bytes`).
    pub name: String,
    /// Its highest value, in VALUE_UNIT (0 for a line without points).
    #[serde(serialize_with = "integer_if_exact")]
    pub peak: f64,
    /// The time of its first point with that value.
    pub time: f64,
}

/// One band's numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
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
    /// The slope of the least-squares line through the band's values, in VALUE_UNIT per
    /// SAMPLE_UNIT (only with [`SummaryOptions::slopes`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slope: Option<f64>,
    /// What is known of the band besides its values: a `-hi` band's IPE entry and
    /// symbol ([`Profile::band_info`]; absent when nothing is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info: Option<BandInfo>,
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

impl Summary {
    /// The numbers of a loaded profile (see the module docs for what is counted), and
    /// what its loading learnt: what the band filter took out, the kind of an eventlog's
    /// profile, how the bands of a `-hi` profile were named. `file` is the input's name
    /// (`None` for stdin).
    pub fn of(loaded: &Loaded, file: Option<&str>, opts: &SummaryOptions) -> Summary {
        summarize(loaded, file, opts)
    }
}

/// [`Summary::of`].
pub(crate) fn summarize(loaded: &Loaded, file: Option<&str>, opts: &SummaryOptions) -> Summary {
    with_loading(of_profile(&loaded.profile, opts), loaded, file)
}

/// [`summarize`] of a profile loaded without its bands' points, from the sums a reading
/// made of them instead (`crate::load::load_summed`) and, for their growth, each band's
/// slope (`crate::load::load_slopes`): the same summary, byte for byte. `None` when
/// `opts` asks for the growth and `slopes` are not given.
#[cfg(feature = "cli")]
pub(crate) fn summarize_sums(
    loaded: &Loaded,
    sums: &Sums,
    slopes: Option<&[f64]>,
    file: Option<&str>,
    opts: &SummaryOptions,
) -> Option<Summary> {
    if opts.slopes && slopes.is_none() {
        return None;
    }
    let profile = &loaded.profile;
    let times = &profile.times;
    let total_area = area(times, &sums.heights);
    let first = times.first().copied().unwrap_or(0.0);
    let bands = (profile.bands.iter().zip(&sums.bands).enumerate())
        .map(|(id, (band, running))| {
            let mut numbers = numbers_of(band.name.clone(), running, first, total_area);
            numbers.slope = slopes.and_then(|s| s.get(id)).copied().unwrap_or(0.0);
            numbers
        })
        .collect();
    let s = of_numbers(profile, &sums.heights, total_area, bands, opts);
    Some(with_loading(s, loaded, file))
}

/// `s` with the input's name and what its loading learnt.
fn with_loading(mut s: Summary, loaded: &Loaded, file: Option<&str>) -> Summary {
    s.file = file.map(str::to_string);
    s.filtered = loaded.filtered;
    s.breakdown = (loaded.eventlog.as_ref()).and_then(|report| report.breakdown);
    s.names = loaded.naming.clone();
    let ipe_one_byte_long = (loaded.eventlog.as_ref()).map_or(0, |r| r.ipe_one_byte_long);
    if ipe_one_byte_long > 0 {
        s.notes.push(format!(
            "{ipe_one_byte_long} IPE events declare a byte more than their fields hold, as \
             GHC 9.10's runtime writes them: read by their fields"
        ));
    }
    s
}

/// The numbers of the profile alone (see the module docs for what is counted).
pub(crate) fn of_profile(profile: &Profile, opts: &SummaryOptions) -> Summary {
    let times = &profile.times;
    let heights = stack_heights(&profile.bands, times.len());
    let total_area = area(times, &heights);
    let weights = trapezoid_weights(times);
    let extras = Extras {
        slope: opts.slopes,
        spark: 0,
    };
    let mut column = Vec::new();
    let bands = (profile.bands.iter())
        .map(|b| band_numbers(b, times, &weights, total_area, extras, &mut column))
        .collect();
    of_numbers(profile, &heights, total_area, bands, opts)
}

/// The summary of `profile` (its header, times, lines and marks) whose stack is
/// `heights` high at its censuses, of area `total_area`, and whose bands' numbers are
/// `bands`: what the profile's points and a reading's sums of them both come to.
fn of_numbers(
    profile: &Profile,
    heights: &[f64],
    total_area: f64,
    mut bands: Vec<BandNumbers>,
    opts: &SummaryOptions,
) -> Summary {
    let times = &profile.times;
    let n = times.len();
    let (peak_total, peak_time) = peak(times, heights);
    let start = times.first().copied().unwrap_or(0.0);
    let end = times.last().copied().unwrap_or(0.0);
    crate::aggregate::numbers::sort_biggest_first(&mut bands);
    bands.truncate(opts.top);
    let bands = bands
        .into_iter()
        .map(|b| BandSummary {
            info: profile.band_info.get(&b.name).cloned(),
            name: String::from_utf8_lossy(&b.name).into_owned(),
            peak: b.peak,
            peak_time: b.peak_time,
            area: b.area,
            share: b.share,
            slope: opts.slopes.then_some(b.slope),
        })
        .collect();

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
        series: profile
            .series
            .iter()
            .map(|s| {
                let times: Vec<f64> = s.points.iter().map(|p| p.0).collect();
                let values: Vec<f64> = s.points.iter().map(|p| p.1).collect();
                let (peak, time) = peak(&times, &values);
                SeriesPeak {
                    name: text(&s.name),
                    peak,
                    time,
                }
            })
            .collect(),
        filtered: None,
        markers: markers(profile),
        breakdown: None,
        names: None,
        notes: Vec::new(),
    }
}

/// The marks that have a text, in time order.
fn markers(profile: &Profile) -> Vec<Marker> {
    let mut markers: Vec<Marker> = (profile.marks.iter())
        .zip(&profile.mark_texts)
        .filter(|(_, text)| !text.is_empty())
        .map(|(&time, text)| Marker {
            time,
            text: String::from_utf8_lossy(text).into_owned(),
        })
        .collect();
    markers.sort_by(|a, b| a.time.total_cmp(&b.time));
    markers
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

impl Summary {
    /// Writes the summary as one line of JSON (no newline).
    pub fn write_json<W: Write>(&self, out: &mut W) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::from)
    }
}

mod text;
mod time;
mod time_text;
pub(crate) use text::printable;
pub use time::{TimeComparison, TimeSummary};

#[cfg(test)]
mod tests;
