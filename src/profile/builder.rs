//! [`ProfileBuilder`]: the [`Sink`] that turns a reader's statements into a [`Profile`],
//! interning each identifier once.

use std::collections::HashMap;

use super::hasher::FxBuild;
use super::{Band, Point, Profile};
use crate::read::hp::chunk;
use crate::read::hp::Statements;
use crate::read::{HeaderField, Sink};

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
    /// Scratch: the band of each name of a scanned run.
    run_ids: Vec<u32>,
}

impl ProfileBuilder {
    /// The band of `name`, a new one if it is new.
    fn intern(&mut self, name: &[u8]) -> u32 {
        match self.index.get(name) {
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
        }
    }

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
        let id = self.intern(name);
        if self.successor.len() <= self.previous {
            self.successor
                .resize(self.profile.bands.len() + 1, u32::MAX);
        }
        self.successor[self.previous] = id;
        id
    }
}

impl ProfileBuilder {
    /// The profile built so far.
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

    fn statements(&mut self, run: &Statements<'_>) {
        // Each name of the run is looked up once; the points then go straight to their
        // bands.
        let mut ids = std::mem::take(&mut self.run_ids);
        ids.clear();
        for name in run.names() {
            ids.push(self.intern(name));
        }
        for e in &run.scan.entries {
            match e.tag {
                chunk::BEGIN => self.begin_sample(e.value),
                chunk::END => self.current += 1,
                chunk::MARK => self.profile.marks.push(e.value),
                local => {
                    let id = ids[local as usize];
                    self.profile.bands[id as usize].points.push(Point {
                        sample: self.current,
                        value: e.value,
                    });
                }
            }
        }
        // The successor guesses refer to band ids, which are still valid; start afresh.
        self.previous = 0;
        self.run_ids = ids;
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
