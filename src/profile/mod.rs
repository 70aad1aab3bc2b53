//! The profile model: header strings, sample times, marks and one band per identifier.
//! It knows no reader: readers hand their statements to the seam (`src/seam/`), whose
//! builder makes a [`Profile`]; [`crate::load::load`] reads one from either input format.
//!
//! Files: `mod.rs`: [`Profile`], [`Band`], [`Point`], [`Series`]; what is known of a band
//! besides its values (`info.rs`: [`BandInfo`], an info table's [`IpeEntry`] and
//! [`SymbolMatch`], kept by name for the summary and the tooltips); a band's own numbers
//! over every sample and what became of it in the chart (`numbers.rs`: [`BandNumbers`],
//! [`Fate`], computed by aggregation); the arithmetic of stacked bands that aggregation,
//! the band filter, the summary and the layout share (`stack.rs`); what names a band
//! across runs (`key.rs`: a `.hp`'s stack number and an eventlog's ` #k` left out); what
//! is known of how the profile was made, for its page (`facts.rs`: `ProfileFacts`); what a
//! first reading of a long profile learns of its bands and what the second keeps of each
//! (`keep.rs`), and the drawn bands' points kept in a file the caller gives instead of
//! in memory (`spill.rs`, `-c` of a long `.hp`). Data only: it imports no reader, no seam.

mod facts;
pub(crate) mod info;
pub(crate) mod keep;
mod key;
pub(crate) mod numbers;
pub(crate) mod running;
pub(crate) mod spill;
pub(crate) mod stack;

pub(crate) use facts::ProfileFacts;
pub(crate) use info::closure_type_name;
pub use info::{BandInfo, IpeEntry, SymbolMatch};
pub(crate) use key::{match_key, name_key};
pub(crate) use numbers::{BandNumbers, Fate};
pub(crate) use running::{beats, Running};
pub(crate) use stack::{
    area, merged_values, stack_heights, stack_on, trapezoid_weights, StackFold,
};

use std::collections::BTreeMap;

/// A data point: the value of one identifier in one sample.
///
/// Packed to 12 bytes: a large profile holds tens of millions of points, and the padding
/// of an aligned layout would cost a quarter of the memory.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, packed(4))]
pub struct Point {
    /// Index of the sample (0-based, in file order).
    pub sample: u32,
    /// The value, in VALUE_UNIT (bytes for GHC's profiles).
    pub value: f64,
}

/// Everything recorded for one identifier, points in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Band {
    /// The identifier, as the profile spells it.
    pub name: Vec<u8>,
    /// The samples it appears in, in file order.
    pub points: Vec<Point>,
}

/// A whole profile (a `.hp` file, or what an eventlog records). Bands are in the order
/// their identifiers first appeared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    /// The `JOB` string: the program's command line.
    pub job: Vec<u8>,
    /// The `DATE` string: when the program ran.
    pub date: Vec<u8>,
    /// The `SAMPLE_UNIT` string: the unit of the x axis ("seconds").
    pub sample_unit: Vec<u8>,
    /// The `VALUE_UNIT` string: the unit of the y axis ("bytes").
    pub value_unit: Vec<u8>,
    /// The time of every complete sample.
    pub times: Vec<f64>,
    /// The time of every `MARK`, in file order.
    pub marks: Vec<f64>,
    /// The text of every mark, in the order of `marks`, when any mark has one (eventlog
    /// markers do, `.hp` MARKs do not); empty otherwise.
    pub mark_texts: Vec<Vec<u8>>,
    /// One band per identifier, in order of first appearance.
    pub bands: Vec<Band>,
    /// Lines drawn over the bands, on the same axes: for an eventlog, the runtime's heap
    /// size and live bytes (`--heap-size`). Empty for a `.hp`.
    pub series: Vec<Series>,
    /// What is known about some bands besides their values, by band name: for `-hi`,
    /// the info table's IPE entry and symbol (`src/symbolize/`). Empty as read.
    pub band_info: BTreeMap<Vec<u8>, BandInfo>,
}

/// A named line of (time, value) points, in time order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// What it is, as the key shows it.
    pub name: Vec<u8>,
    /// (time in SAMPLE_UNIT, value in VALUE_UNIT).
    pub points: Vec<(f64, f64)>,
}

impl Profile {
    /// The number of complete samples.
    pub fn sample_count(&self) -> usize {
        self.times.len()
    }
}

#[cfg(test)]
impl Profile {
    /// A profile for tests: its JOB, a census every `step` seconds from 0, in bytes, and
    /// one band per `(name, values)`, a value each census (0 is no point).
    pub(crate) fn of_columns<N: AsRef<[u8]>>(
        job: &str,
        step: f64,
        bands: &[(N, &[f64])],
    ) -> Profile {
        let n = bands.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
        Profile {
            job: job.as_bytes().to_vec(),
            sample_unit: b"seconds".to_vec(),
            value_unit: b"bytes".to_vec(),
            times: (0..n).map(|i| i as f64 * step).collect(),
            bands: (bands.iter())
                .map(|(name, values)| Band {
                    name: name.as_ref().to_vec(),
                    points: (values.iter().enumerate())
                        .filter(|(_, &v)| v != 0.0)
                        .map(|(i, &value)| Point {
                            sample: i as u32,
                            value,
                        })
                        .collect(),
                })
                .collect(),
            ..Profile::default()
        }
    }
}
