//! The profile model: header strings, sample times, marks and one band per identifier.

mod builder;
mod hasher;

pub use builder::ProfileBuilder;

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
    pub value: f64,
}

/// Everything recorded for one identifier, points in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub name: Vec<u8>,
    pub points: Vec<Point>,
}

/// A whole `.hp` file. Bands are in the order their identifiers first appeared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    pub job: Vec<u8>,
    pub date: Vec<u8>,
    pub sample_unit: Vec<u8>,
    pub value_unit: Vec<u8>,
    /// The time of every complete sample.
    pub times: Vec<f64>,
    pub marks: Vec<f64>,
    pub bands: Vec<Band>,
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

    pub fn sample_count(&self) -> usize {
        self.times.len()
    }
}
