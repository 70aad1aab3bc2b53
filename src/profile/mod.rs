//! The profile model: header strings, sample times, marks and one band per identifier.

mod builder;
mod hasher;
mod info;

pub use builder::ProfileBuilder;
pub(crate) use hasher::FxBuild;
pub(crate) use hasher::{fill_tagged, hash_bytes, probe, quick_hash, same, tagged_slot, Probe};
pub use info::{closure_type_name, BandInfo, IpeEntry, SymbolMatch};

use std::collections::BTreeMap;
use std::io::Read;

use crate::read::hp::{self, ReadError, ReadOptions, Warning};

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

/// Makes room for `extra` more points in a band that is filling up as the input is read.
/// Growing by doubling copies every band a few times over; with `progress`, the share of
/// the input read so far, a band grows once to about its final size (capacity that is
/// never used costs address space, not memory). Without it, it doubles.
pub(crate) fn make_room(points: &mut Vec<Point>, extra: usize, progress: Option<f64>) {
    let needed = points.len() + extra;
    if needed <= points.capacity() {
        return;
    }
    let scale = progress
        .filter(|&f| f > 0.0 && f <= 1.0)
        .map_or(2.0, |f| 1.05 / f);
    let estimate = (needed as f64 * scale) as usize;
    points.reserve_exact(estimate.max(needed) - points.len());
}

/// Everything recorded for one identifier, points in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Band {
    /// The identifier, as the profile spells it.
    pub name: Vec<u8>,
    /// The samples it appears in, in file order.
    pub points: Vec<Point>,
}

/// A whole `.hp` file. Bands are in the order their identifiers first appeared.
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
    /// the info table's IPE entry and symbol ([`crate::symbolize`]). Empty as read.
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
    /// Reads a profile from any reader (a file, stdin, a byte slice).
    pub fn read<R: Read>(
        input: R,
        opts: &ReadOptions,
    ) -> Result<(Profile, Vec<Warning>), ReadError> {
        let mut builder = ProfileBuilder::default();
        let warnings = hp::read_into_parallel(input, opts, &mut builder)?;
        Ok((builder.finish(), warnings))
    }

    /// Reads a profile that is already in memory (a mapped file), on every core without
    /// copying it. `release(n)` is called once the first `n` bytes are no longer needed.
    /// The result is [`Profile::read`]'s.
    pub fn read_slice(
        bytes: &[u8],
        opts: &ReadOptions,
        release: &mut dyn FnMut(usize),
    ) -> Result<(Profile, Vec<Warning>), ReadError> {
        let mut builder = ProfileBuilder::default();
        let warnings = hp::read_slice_parallel(bytes, opts, &mut builder, release)?;
        Ok((builder.finish(), warnings))
    }

    /// The number of complete samples.
    pub fn sample_count(&self) -> usize {
        self.times.len()
    }
}
