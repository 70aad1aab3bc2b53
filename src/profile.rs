//! The profile model: header strings, sample times, marks and one band per identifier.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;

use crate::hp::{self, HeaderField, ReadError, ReadOptions, Sink, Warning};

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

    pub fn header(&self, field: HeaderField) -> &[u8] {
        match field {
            HeaderField::Job => &self.job,
            HeaderField::Date => &self.date,
            HeaderField::SampleUnit => &self.sample_unit,
            HeaderField::ValueUnit => &self.value_unit,
        }
    }

    pub fn sample_count(&self) -> usize {
        self.times.len()
    }
}

/// A cheap multiplicative hash with a strong finaliser: identifiers are interned once per
/// data line, and the std SipHash is a large share of the reading time.
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    fn finish(&self) -> u64 {
        // The multiply only carries upwards, so names that differ only in their high
        // bytes (`id1234`, `id1235`, …) would share their low bits, which pick the
        // bucket: mix every bit into every other before use (murmur3's finaliser).
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// Builds a [`Profile`] from the reader's statements.
#[derive(Default)]
pub struct ProfileBuilder {
    profile: Profile,
    index: HashMap<Vec<u8>, u32, FxBuild>,
    /// Index of the sample being read (= number of complete samples).
    current: u32,
    /// GHC writes a sample's identifiers in much the same order every time, so the band
    /// that followed band `i` last time (`successor[i + 1]`; slot 0 for the first band
    /// of a sample) is checked before hashing the name.
    successor: Vec<u32>,
    /// The previous data line's band plus one (0 at the start of a sample).
    previous: usize,
}

impl ProfileBuilder {
    fn band_id(&mut self, name: &[u8]) -> u32 {
        if let Some(&guess) = self.successor.get(self.previous) {
            if self
                .profile
                .bands
                .get(guess as usize)
                .is_some_and(|b| b.name == name)
            {
                return guess;
            }
        }
        let id = match self.index.get(name) {
            Some(&id) => id,
            None => {
                let id = self.profile.bands.len() as u32;
                self.index.insert(name.to_vec(), id);
                self.profile.bands.push(Band {
                    name: name.to_vec(),
                    points: Vec::new(),
                });
                id
            }
        };
        if self.successor.len() <= self.previous {
            self.successor
                .resize(self.profile.bands.len() + 1, u32::MAX);
        }
        self.successor[self.previous] = id;
        id
    }
}

impl ProfileBuilder {
    pub fn finish(self) -> Profile {
        self.profile
    }
}

impl Sink for ProfileBuilder {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        let p = &mut self.profile;
        let slot = match field {
            HeaderField::Job => &mut p.job,
            HeaderField::Date => &mut p.date,
            HeaderField::SampleUnit => &mut p.sample_unit,
            HeaderField::ValueUnit => &mut p.value_unit,
        };
        slot.clear();
        slot.extend_from_slice(text);
    }

    fn mark(&mut self, time: f64) {
        self.profile.marks.push(time);
    }

    fn begin_sample(&mut self, time: f64) {
        let times = &mut self.profile.times;
        match times.get_mut(self.current as usize) {
            Some(t) => *t = time,
            None => times.push(time),
        }
    }

    fn end_sample(&mut self) {
        self.current += 1;
        self.previous = 0;
    }

    fn data(&mut self, name: &[u8], value: f64) {
        let sample = self.current;
        let id = self.band_id(name);
        self.previous = id as usize + 1;
        self.profile.bands[id as usize]
            .points
            .push(Point { sample, value });
    }

    fn discard_incomplete_sample(&mut self) -> bool {
        let complete = self.current;
        let p = &mut self.profile;
        let mut dropped = p.times.len() > complete as usize;
        p.times.truncate(complete as usize);
        for band in &mut p.bands {
            while band.points.last().is_some_and(|pt| pt.sample >= complete) {
                band.points.pop();
                dropped = true;
            }
        }
        // Identifiers seen only in the dropped sample disappear with it.
        let before = p.bands.len();
        p.bands.retain(|b| !b.points.is_empty());
        if p.bands.len() != before {
            // Band ids changed: the lookup structures no longer apply.
            self.index.clear();
            self.successor.clear();
            self.previous = 0;
        }
        dropped
    }
}
