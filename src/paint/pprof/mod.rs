//! One census of a heap profile as pprof's `profile.proto`, gzipped (`--format pprof`):
//! what `go tool pprof`, Pyroscope, Parca and Google Cloud Profiler read. The census is
//! [`PaintOptions::census`]: the peak, the last, the one nearest a time, or every band's
//! mean over the profile. Each band with bytes there is one sample (the biggest first) of type
//! `inuse_space` in `bytes` (the profile's VALUE_UNIT), labelled `band` with its name,
//! at the stack `frames.rs` makes of it; so pprof's totals are the chart's total at that
//! census, to the byte. The messages are declared in `proto.rs` for prost; the gzip is
//! flate2's, its header without a time or an operating system, so that the same chart
//! gives the same bytes.

mod frames;
mod proto;
mod time;

use std::collections::HashMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder};
use prost::Message;

use super::census::{census_at, data_of, kind_of, last_census, peak_census, value_at, Census};
use super::format::PaintOptions;
use crate::layout::chart::{Chart, ChartData};
use crate::profile::{trapezoid_weights, Band};
use frames::{frames, Frame};
#[cfg(feature = "cli")]
pub(crate) use time::write_time_pprof;

/// Writes one census of `chart`, which must carry every band
/// ([`crate::Format::Pprof`]'s needs), as a gzipped pprof profile.
pub(crate) fn write_pprof<W: Write>(
    chart: &Chart,
    opts: &PaintOptions,
    out: &mut W,
) -> io::Result<()> {
    let data = data_of(chart)?;
    let kind = kind_of(&chart.job, &opts.facts);
    let (values, said) = values(data, opts.census)?;
    let mut b = Builder::default();
    let unit = String::from_utf8_lossy(&data.value_unit).into_owned();
    let sample_type = proto::ValueType {
        r#type: b.string("inuse_space"),
        unit: b.string(&unit),
    };
    let band_key = b.string("band");
    // The biggest first (ties: by name), whatever order the chart keeps its bands in.
    let mut bands: Vec<(&Band, i64)> = (data.every_band.iter().zip(values))
        .filter(|&(_, value)| value != 0)
        .collect();
    bands.sort_by(|(a, x), (b, y)| y.cmp(x).then_with(|| a.name.cmp(&b.name)));
    let mut samples = Vec::new();
    for (band, value) in bands {
        let stack = frames(&band.name, kind.as_deref(), data.band_info.get(&band.name));
        let location_id = stack.iter().map(|f| b.location(f)).collect();
        let label = proto::Label {
            key: band_key,
            str: b.string(&String::from_utf8_lossy(&band.name)),
            ..proto::Label::default()
        };
        samples.push(proto::Sample {
            location_id,
            value: vec![value],
            label: vec![label],
        });
    }
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let comments = [
        format!("hp2ps {}: {said}", env!("CARGO_PKG_VERSION")),
        format!("JOB {}", text(&chart.job)),
        format!("DATE {}", text(&chart.date)),
    ];
    let comment = comments.iter().map(|c| b.string(c)).collect();
    let duration = match opts.census {
        Census::Mean if data.sample_unit == b"seconds" => span(&data.times) * 1e9,
        _ => 0.0,
    };
    let profile = proto::Profile {
        default_sample_type: sample_type.r#type,
        sample_type: vec![sample_type],
        sample: samples,
        location: b.locations,
        function: b.functions,
        comment,
        duration_nanos: duration.round() as i64,
        string_table: b.strings,
        ..proto::Profile::default()
    };
    write_gzipped(&profile, out)
}

/// Writes `profile`, gzipped.
fn write_gzipped<W: Write>(profile: &proto::Profile, out: &mut W) -> io::Result<()> {
    // No name, no time, "unknown" operating system: the same bytes on every machine.
    let mut gz: GzEncoder<&mut W> = GzBuilder::new()
        .operating_system(255)
        .write(out, Compression::default());
    gz.write_all(&profile.encode_to_vec())?;
    gz.finish()?.flush()
}

/// Every band's value (in the order of `every_band`, rounded to a whole unit) at the
/// census asked for, and what it is, in words.
fn values(data: &ChartData, census: Census) -> io::Result<(Vec<i64>, String)> {
    let unit = String::from_utf8_lossy(&data.sample_unit).into_owned();
    let whole = |v: f64| v.round() as i64;
    let at = |c: usize, what: &str| {
        let values = data
            .every_band
            .iter()
            .map(|b| whole(value_at(b, c)))
            .collect();
        (
            values,
            format!("the census at {} {unit} ({what})", data.times[c]),
        )
    };
    let none = || io::Error::new(io::ErrorKind::InvalidInput, "the profile has no census");
    Ok(match census {
        Census::Peak => at(peak_census(&data.totals).ok_or_else(none)?, "the peak"),
        Census::Last => at(last_census(&data.totals).ok_or_else(none)?, "the last"),
        Census::At(t) => at(census_at(&data.times, t)?, &format!("the nearest to {t}")),
        Census::Mean => {
            let (first, last) = (data.times.first().ok_or_else(none)?, span(&data.times));
            let weights = trapezoid_weights(&data.times);
            let values = (data.every_band.iter())
                .map(|band| {
                    let mean = match last > 0.0 {
                        true => {
                            let area: f64 = (band.points.iter())
                                .map(|p| {
                                    p.value * weights.get(p.sample as usize).copied().unwrap_or(0.0)
                                })
                                .sum();
                            area / last
                        }
                        false => value_at(band, 0),
                    };
                    whole(mean)
                })
                .collect();
            let end = first + last;
            (
                values,
                format!("every band's mean from {first} to {end} {unit}"),
            )
        }
    })
}

/// The time the samples span.
fn span(times: &[f64]) -> f64 {
    match (times.first(), times.last()) {
        (Some(a), Some(b)) => b - a,
        _ => 0.0,
    }
}

/// The profile's tables as they fill: strings, functions and locations, each once.
#[derive(Default)]
struct Builder {
    strings: Vec<String>,
    string_ids: HashMap<String, i64>,
    functions: Vec<proto::Function>,
    function_ids: HashMap<Frame, u64>,
    locations: Vec<proto::Location>,
}

impl Builder {
    /// The index of `s` in the string table (the empty string is 0, as pprof wants).
    fn string(&mut self, s: &str) -> i64 {
        if self.strings.is_empty() {
            self.strings.push(String::new());
            self.string_ids.insert(String::new(), 0);
        }
        if let Some(&id) = self.string_ids.get(s) {
            return id;
        }
        let id = self.strings.len() as i64;
        self.strings.push(s.to_string());
        self.string_ids.insert(s.to_string(), id);
        id
    }

    /// The location of a frame: one per function, at its line.
    fn location(&mut self, frame: &Frame) -> u64 {
        if let Some(&id) = self.function_ids.get(frame) {
            return id;
        }
        let id = self.functions.len() as u64 + 1;
        let (name, file) = (self.string(&frame.name), self.string(&frame.file));
        self.functions.push(proto::Function {
            id,
            name,
            system_name: name,
            filename: file,
            start_line: frame.line,
        });
        self.locations.push(proto::Location {
            id,
            line: vec![proto::Line {
                function_id: id,
                line: frame.line,
            }],
            ..proto::Location::default()
        });
        self.function_ids.insert(frame.clone(), id);
        id
    }
}

#[cfg(test)]
mod tests;
