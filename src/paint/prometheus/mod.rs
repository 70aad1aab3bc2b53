//! Prometheus's metrics of a profile (`--format prometheus`): the families a dashboard
//! or an alert relies on, of the newest census and of the whole run, in Prometheus's
//! text exposition format or OpenMetrics's (`exposition.rs`). A file of them is what
//! node_exporter's textfile collector and the Pushgateway take from a batch job; the
//! live page's server answers a scrape with the same families of the run so far.
//!
//! Every series has the labels `program` (the JOB's program) and `kind` (the profile's
//! RTS flag, `-hc`; empty when unknown); a band's series also `band`. Bands are keyed as the page
//! of several runs matches them (`crate::profile::match_key`: a `.hp`'s stack number and
//! an eventlog's ` #k` left out, so a series keeps its name from build to build), bands
//! of one key counting together; the [`PaintOptions::metric_bands`] biggest keys by area are
//! named, and the others summed as `OTHER` (always written, 0 when nothing is left): at
//! most N + 1 band series however many bands the profile has (a `-hi` profile's
//! thousands of addresses are not a series each). Names that are not UTF-8 take U+FFFD
//! for their bad bytes; keys that then read alike count together.

mod exposition;

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::census::{data_of, kind_of, last_census, peak_census, program_of, value_at};
use super::PaintOptions;
use crate::layout::chart::{Chart, ChartData};
use crate::profile::{area, match_key, merged_values, stack_on, trapezoid_weights, Band};
use exposition::{Exposition, Family};

/// The band label of the bands the biggest leave.
const OTHER: &str = "OTHER";

/// Writes the metrics of `chart`, which must carry every band
/// ([`crate::Format::Prometheus`]'s needs).
pub(crate) fn write_prometheus<W: Write>(
    chart: &Chart,
    opts: &PaintOptions,
    out: &mut W,
) -> io::Result<()> {
    let data = data_of(chart)?;
    let numbers = Numbers::of(data, opts.metric_bands, &mut Named::default());
    write_numbers(chart, data, &numbers, opts, out)
}

/// The band series a followed run's metrics have named so far, kept from one exposition
/// to the next: a band named once keeps its series for the rest of the run (0 when it
/// has nothing), so that series stay stable as bands come and go; new names are given,
/// the biggest first, only while fewer than [`PaintOptions::metric_bands`] were (at most N + 1
/// band series over the whole run, OTHER's included: a band that comes once they are
/// all given is OTHER's).
#[derive(Debug, Default, Clone)]
pub(crate) struct Named {
    /// Each name given, with the highest value its band was seen with.
    names: Vec<(String, f64)>,
}

/// Writes the metrics of `chart` (as [`write_prometheus`]) of a run followed as it is
/// written: the bands named as `named` says (and given their names from now on), the
/// census count the run's (`censuses`: the chart may hold fewer, its older censuses
/// thinned).
pub(crate) fn write_followed<W: Write>(
    chart: &Chart,
    opts: &PaintOptions,
    named: &mut Named,
    censuses: usize,
    out: &mut W,
) -> io::Result<()> {
    let data = data_of(chart)?;
    let mut numbers = Numbers::of(data, opts.metric_bands, named);
    numbers.censuses = censuses;
    write_numbers(chart, data, &numbers, opts, out)
}

/// Writes `numbers`, the metrics of `chart`.
fn write_numbers<W: Write>(
    chart: &Chart,
    data: &ChartData,
    numbers: &Numbers,
    opts: &PaintOptions,
    out: &mut W,
) -> io::Result<()> {
    let program = program_of(&chart.job, opts.source.as_deref());
    // Every series has the same labels (kind empty when unknown), so that runs of
    // several programs and kinds sit in one family (a Pushgateway refuses a push whose
    // families' labels differ from those it holds).
    let kind = kind_of(&chart.job, &opts.facts).unwrap_or_default();
    let run: Vec<(&str, &str)> = vec![("program", &program), ("kind", &kind)];
    let mut e = Exposition::new(out, opts.openmetrics);
    let units = Units::of(data);
    for (family, values) in numbers.families(&units) {
        e.family(&family)?;
        for (band, value) in values {
            let mut labels = run.clone();
            if let Some(band) = &band {
                labels.push(("band", band));
            }
            e.sample(&family, &labels, value)?;
        }
    }
    e.finish()
}

/// The units the help texts name.
struct Units {
    value: String,
    time: String,
}

impl Units {
    fn of(data: &ChartData) -> Units {
        Units {
            value: String::from_utf8_lossy(&data.value_unit).into_owned(),
            time: String::from_utf8_lossy(&data.sample_unit).into_owned(),
        }
    }
}

/// One sample of a family: its band, for a band's family, and its value.
type Sample = (Option<String>, f64);

/// One key's numbers.
#[derive(Debug, Clone, PartialEq)]
struct KeyNumbers {
    label: String,
    /// At the newest census.
    now: f64,
    peak: f64,
    area: f64,
}

/// Everything the families say.
#[derive(Debug, Clone, PartialEq)]
struct Numbers {
    censuses: usize,
    /// The newest sample's time.
    elapsed: Option<f64>,
    /// Every band together at the newest census that holds any.
    residency: Option<f64>,
    peak: f64,
    area: f64,
    /// The named keys, biggest first, then OTHER.
    bands: Vec<KeyNumbers>,
    /// Each line over the bands' newest value, by name.
    lines: BTreeMap<String, f64>,
}

impl Numbers {
    fn of(data: &ChartData, most: usize, named: &mut Named) -> Numbers {
        let totals = &data.totals;
        let newest = last_census(totals);
        let (keys, own_other) = keys(&data.every_band, &data.times, newest);
        let mut bands = named.choose(&keys, most);
        let rest = (keys.iter())
            .filter(|k| !bands.iter().any(|b| b.label == k.numbers.label))
            .flat_map(|k| &k.bands)
            .chain(&own_other);
        bands.push(other(rest, &data.times, newest));
        Numbers {
            censuses: data.samples,
            elapsed: data.times.last().copied(),
            residency: newest.map(|c| totals[c]),
            peak: peak_census(totals).map_or(0.0, |c| totals[c]),
            area: area(&data.times, totals),
            bands,
            lines: (data.lines.iter())
                .filter_map(|s| {
                    Some((
                        String::from_utf8_lossy(&s.name).into_owned(),
                        s.points.last()?.1,
                    ))
                })
                .collect(),
        }
    }

    /// Each family with its values (by band, for a band's family).
    fn families(&self, u: &Units) -> Vec<(Family, Vec<Sample>)> {
        let family = |name, unit, help: String| Family { name, unit, help };
        let one = |v: Option<f64>| v.map(|v| (None, v)).into_iter().collect::<Vec<_>>();
        let (value, time) = (&u.value, &u.time);
        let mut families = vec![
            (
                family("hp2ps_censuses", None, "The censuses of the heap profile (its samples).".to_string()),
                one(Some(self.censuses as f64)),
            ),
            (
                family("hp2ps_elapsed_seconds", Some("seconds"), format!("The time of the newest census, in {time} (an eventlog's elapsed seconds with --time elapsed, the default of --serve; else the mutator's).")),
                one(self.elapsed),
            ),
            (
                family("hp2ps_residency_bytes", Some("bytes"), format!("Every band together at the newest census that holds any (GHC's empty census at exit left aside), in {value}.")),
                one(self.residency),
            ),
            (
                family("hp2ps_peak_bytes", Some("bytes"), format!("The highest total of every band in one census, in {value}.")),
                one(Some(self.peak)),
            ),
            (
                family("hp2ps_area_byte_seconds", Some("byte_seconds"), format!("The integral of the total over time (trapezoids), in {value} x {time}.")),
                one(Some(self.area)),
            ),
            (
                family("hp2ps_band_bytes", Some("bytes"), format!("A band at that newest census, in {value}: the biggest bands by area, the others together as OTHER.")),
                self.bands.iter().map(|b| (Some(b.label.clone()), b.now)).collect(),
            ),
            (
                family("hp2ps_band_peak_bytes", Some("bytes"), format!("A band's highest value in one census, in {value}.")),
                self.bands.iter().map(|b| (Some(b.label.clone()), b.peak)).collect(),
            ),
        ];
        for (line, name) in [
            ("heap size", "hp2ps_heap_size_bytes"),
            ("live bytes", "hp2ps_live_bytes"),
            ("blocks size", "hp2ps_blocks_size_bytes"),
        ] {
            if let Some(&v) = self.lines.get(line) {
                let help = format!(
                    "The runtime's {line} at the newest census, in bytes (from the eventlog's \
                     GC events; between two reports, on the line that joins them)."
                );
                families.push((family(name, Some("bytes"), help), one(Some(v))));
            }
        }
        families
    }
}

impl Named {
    /// The numbers of the keys named, from `keys` (biggest first): first those given
    /// names before (0 when they have nothing now), then the biggest others while fewer
    /// than `most` are named, which are given names from now on.
    fn choose(&mut self, keys: &[Key<'_>], most: usize) -> Vec<KeyNumbers> {
        let index: BTreeMap<&str, &KeyNumbers> = (keys.iter())
            .map(|k| (k.numbers.label.as_str(), &k.numbers))
            .collect();
        let mut bands: Vec<KeyNumbers> = (self.names.iter_mut())
            .map(|(label, peak)| {
                let now = index.get(label.as_str()).copied().cloned();
                let mut numbers = now.unwrap_or_else(|| KeyNumbers {
                    label: label.clone(),
                    now: 0.0,
                    peak: 0.0,
                    area: 0.0,
                });
                *peak = peak.max(numbers.peak);
                numbers.peak = *peak;
                numbers
            })
            .collect();
        for key in keys {
            if self.names.len() >= most {
                break;
            }
            let label = &key.numbers.label;
            if !self.names.iter().any(|(n, _)| n == label) {
                self.names.push((label.clone(), key.numbers.peak));
                bands.push(key.numbers.clone());
            }
        }
        bands
    }
}

/// A key with its bands.
struct Key<'a> {
    bands: Vec<&'a Band>,
    numbers: KeyNumbers,
}

/// Every key of `bands` (by [`label_of`]) with its numbers, the biggest area first
/// (ties: the higher peak, then the label); and the bands the profile itself names
/// OTHER, which are OTHER's.
fn keys<'a>(
    bands: &'a [Band],
    times: &[f64],
    newest: Option<usize>,
) -> (Vec<Key<'a>>, Vec<&'a Band>) {
    let mut by_label: BTreeMap<String, Vec<&Band>> = BTreeMap::new();
    for band in bands {
        by_label.entry(label_of(&band.name)).or_default().push(band);
    }
    let own_other = by_label.remove(OTHER).unwrap_or_default();
    let weights = trapezoid_weights(times);
    let mut keys: Vec<Key> = (by_label.into_iter())
        .map(|(label, bands)| {
            let (peak, area) = peak_and_area(&bands, &weights);
            let now = newest.map_or(0.0, |c| bands.iter().map(|b| value_at(b, c)).sum());
            let numbers = KeyNumbers {
                label,
                now,
                peak,
                area,
            };
            Key { bands, numbers }
        })
        .collect();
    keys.sort_by(|a, b| {
        let (a, b) = (&a.numbers, &b.numbers);
        (b.area.total_cmp(&a.area))
            .then(b.peak.total_cmp(&a.peak))
            .then_with(|| a.label.cmp(&b.label))
    });
    (keys, own_other)
}

/// What a band's series is labelled: its match key, as UTF-8.
fn label_of(name: &[u8]) -> String {
    String::from_utf8_lossy(match_key(name)).into_owned()
}

/// The peak and the area of bands together.
fn peak_and_area(bands: &[&Band], weights: &[f64]) -> (f64, f64) {
    let (mut peak, mut area) = (0.0_f64, 0.0);
    for (s, v) in merged_values(bands) {
        peak = peak.max(v);
        area += v * weights.get(s).copied().unwrap_or(0.0);
    }
    (peak, area)
}

/// The bands the named keys leave, as one: OTHER.
fn other<'a>(
    rest: impl Iterator<Item = &'a &'a Band>,
    times: &[f64],
    newest: Option<usize>,
) -> KeyNumbers {
    let mut column = vec![0.0; times.len()];
    for band in rest {
        stack_on(&mut column, band);
    }
    KeyNumbers {
        label: OTHER.to_string(),
        now: newest.map_or(0.0, |c| column[c]),
        peak: column.iter().fold(0.0, |m: f64, &v| m.max(v)),
        area: area(times, &column),
    }
}

#[cfg(test)]
mod tests;
