//! [`ProfileBuilder`]: the [`Sink`] that turns a reader's statements into a [`Profile`],
//! interning each identifier once.

use super::keeping::{Censuses, Keeping};
use super::sloping::Sloping;
use super::summing::Summing;
use super::{HeaderField, RunEntry, SampleBlock, Sink, StatementRun, BEGIN, END, MARK};
use crate::intern::{hash_bytes, NameIndex};
use crate::profile::keep::{BandTotals, Drawing, Growth, Sums};
use crate::profile::{Band, Point, Profile};

mod keyed;
mod points;

use points::append_shifted;
pub(crate) use points::make_room;

/// How many lookups of a run [`NameIndex::warm`] starts at once.
const WARM_AHEAD: usize = 16;

/// Builds a [`Profile`] from the reader's statements.
#[derive(Default)]
pub struct ProfileBuilder {
    profile: Profile,
    index: NameIndex,
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
    /// The band of each key of a reading that names its bands by key
    /// ([`Sink::keyed_census`]; `keyed::NO_BAND`: not met yet).
    by_key: Vec<u32>,
    /// Scratch: a keyed census's points by band.
    census_batch: Vec<(u32, f64)>,
    /// What is kept of the points: every one, but for the two readings of a long `.hp`.
    keeping: Keeping,
}

impl ProfileBuilder {
    /// The band of `name`, a new one if it is new.
    fn intern(&mut self, name: &[u8]) -> u32 {
        self.intern_hashed(name, hash_bytes(name))
    }

    /// [`Self::intern`] with the name's hash (`hash_bytes`) already known.
    fn intern_hashed(&mut self, name: &[u8], hash: u64) -> u32 {
        let bands = &mut self.profile.bands;
        match self.index.find(name, hash, |id| &bands[id as usize].name) {
            Ok(id) => id,
            Err(slot) => {
                let id = bands.len() as u32;
                bands.push(Band {
                    name: name.to_vec(),
                    points: Vec::new(),
                });
                self.index.insert(slot, hash, id);
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
    pub fn finish(mut self) -> Profile {
        if let Some((carrier, points)) = self.keeping.merged_points() {
            if let Some(band) = self.profile.bands.get_mut(carrier) {
                band.points = points;
            }
        }
        let names = self.profile.bands.iter().map(|b| b.name.clone());
        self.keeping
            .spilled(names.collect(), self.profile.times.len());
        self.profile
    }

    /// A builder that keeps no point, only each band's total: the first reading of a
    /// long profile ([`Self::band_totals`]).
    pub(crate) fn totals_only() -> ProfileBuilder {
        ProfileBuilder {
            keeping: Keeping::totals(),
            ..ProfileBuilder::default()
        }
    }

    /// [`Self::totals_only`] that takes the reader's points one by one or by band, never
    /// added up by its workers: the first reading made again when their sums could not
    /// be taken ([`Self::sums_spoiled`]), and the plain way the tests compare with.
    pub(crate) fn totals_by_points() -> ProfileBuilder {
        let mut builder = Self::totals_only();
        if let Keeping::Totals(t) = &mut builder.keeping {
            t.by_points = true;
        }
        builder
    }

    /// Whether a [`Self::totals_only`] builder was handed sums by the reader's workers
    /// that it could not take (see `totals.rs`): its totals are wrong, and the reading
    /// must be made again with [`Self::totals_by_points`].
    pub(crate) fn sums_spoiled(&self) -> bool {
        matches!(&self.keeping, Keeping::Totals(t) if t.spoiled)
    }

    /// How many runs a [`Self::totals_only`] builder took added up by the reader's
    /// workers.
    #[cfg(test)]
    pub(crate) fn runs_summed(&self) -> u64 {
        match &self.keeping {
            Keeping::Totals(t) => t.runs_summed,
            _ => 0,
        }
    }

    /// How many runs a [`Self::drawn_only`] builder took split by role.
    #[cfg(test)]
    pub(crate) fn runs_split(&self) -> u64 {
        match &self.keeping {
            Keeping::Drawn(d) => d.runs_split,
            _ => 0,
        }
    }

    /// How many censuses a [`Self::drawn_only`] builder held at most (the rest were
    /// handed on to its spill).
    #[cfg(test)]
    pub(crate) fn most_censuses_held(&self) -> usize {
        match &self.keeping {
            Keeping::Drawn(d) => d.most_held(),
            _ => 0,
        }
    }

    /// A builder that keeps the points of the bands `drawing` says are drawn, and the sum
    /// of those merged into OTHER as the points of the first of them, the others left
    /// empty: the second reading of a long profile, whose roles the first decided.
    pub(crate) fn drawn_only(drawing: Drawing) -> ProfileBuilder {
        let mut profile = Profile::default();
        profile.times.reserve_exact(drawing.censuses);
        ProfileBuilder {
            profile,
            keeping: Keeping::drawn(drawing),
            ..ProfileBuilder::default()
        }
    }

    /// What a [`Self::totals_only`] builder found; `None` from any other.
    pub(crate) fn band_totals(self) -> Option<BandTotals> {
        let names = self.profile.bands.into_iter().map(|b| b.name).collect();
        self.keeping.band_totals(names, self.profile.times.len())
    }

    /// A builder that keeps no point but the sums `--summary` needs: the reading of a
    /// long profile for its summary ([`Self::finish_summed`]).
    pub(crate) fn summed() -> ProfileBuilder {
        ProfileBuilder {
            keeping: Keeping::Summed(Summing::default()),
            ..ProfileBuilder::default()
        }
    }

    /// The profile (its bands without points) and the sums of a [`Self::summed`]
    /// builder; `None` from any other.
    pub(crate) fn finish_summed(mut self) -> (Profile, Option<Sums>) {
        let p = &self.profile;
        let sums = self.keeping.sums(&p.times, p.bands.len());
        (self.profile, sums)
    }

    /// A builder that keeps no point but each band's growth, from the censuses' `times`
    /// and each band's values added up (`sums`) that a [`Self::summed`] reading of the
    /// same bytes found ([`Self::finish_sloped`]).
    pub(crate) fn sloped(times: Vec<f64>, sums: &[f64]) -> ProfileBuilder {
        ProfileBuilder {
            keeping: Keeping::Sloped(Sloping::new(times, sums)),
            ..ProfileBuilder::default()
        }
    }

    /// Each band's growth and sparkline, from a [`Self::sloped`] builder; `None` from any
    /// other.
    pub(crate) fn finish_sloped(mut self) -> Option<Growth> {
        let slopes = self.keeping.slopes(self.profile.bands.len())?;
        let sparks = self.keeping.sparks()?;
        Some(Growth { slopes, sparks })
    }

    /// A builder that keeps no point but every band's total and the sums `--summary`
    /// needs: [`Self::totals_only`] and [`Self::summed`] in one reading (the page of a
    /// long profile: [`Self::finish_totals_summed`]).
    pub(crate) fn totals_summed() -> ProfileBuilder {
        let both = (Keeping::totals(), Keeping::Summed(Summing::default()));
        ProfileBuilder {
            keeping: Keeping::Both(Box::new(both)),
            ..ProfileBuilder::default()
        }
    }

    /// The profile (its bands without points), the sums and the bands' totals of a
    /// [`Self::totals_summed`] builder; `None`s from any other.
    pub(crate) fn finish_totals_summed(mut self) -> (Profile, Option<Sums>, Option<BandTotals>) {
        let p = &self.profile;
        let sums = self.keeping.sums(&p.times, p.bands.len());
        let names = p.bands.iter().map(|b| b.name.clone()).collect();
        let totals = self.keeping.band_totals(names, p.times.len());
        (self.profile, sums, totals)
    }

    /// A builder that keeps what [`Self::drawn_only`] keeps and finds what
    /// [`Self::sloped`] finds, in one reading ([`Self::finish_drawn_sloped`]).
    pub(crate) fn drawn_sloped(drawing: Drawing, times: Vec<f64>, sums: &[f64]) -> ProfileBuilder {
        // Its final size at once, as [`Self::drawn_only`]'s: no doubling, no copy.
        let mut profile = Profile::default();
        profile.times.reserve_exact(drawing.censuses);
        let both = (
            Keeping::drawn(drawing),
            Keeping::Sloped(Sloping::new(times, sums)),
        );
        ProfileBuilder {
            profile,
            keeping: Keeping::Both(Box::new(both)),
            ..ProfileBuilder::default()
        }
    }

    /// The profile and the bands' growth of a [`Self::drawn_sloped`] builder, and the
    /// times it was given back; `None` growth (and no times) from any other.
    pub(crate) fn finish_drawn_sloped(mut self) -> (Profile, Option<Growth>, Vec<f64>) {
        let bands = self.profile.bands.len();
        let slopes = self.keeping.slopes(bands);
        let sparks = self.keeping.sparks();
        let times = self.keeping.sloping_times().unwrap_or_default();
        let growth = slopes
            .zip(sparks)
            .map(|(slopes, sparks)| Growth { slopes, sparks });
        (self.finish(), growth, times)
    }

    /// A point of band `id` in the current sample.
    fn point(&mut self, id: u32, value: f64) {
        let sample = self.current;
        match self.keeping {
            Keeping::Every => {
                (self.profile.bands[id as usize].points).push(Point { sample, value })
            }
            _ => self.take(id, &[Point { sample, value }], 0),
        }
    }

    /// Hands `points` (samples from `base`) of band `id` to what is kept of it.
    fn take(&mut self, id: u32, points: &[Point], base: u32) {
        let band = &mut self.profile.bands[id as usize].points;
        let at = Censuses {
            complete: self.current,
            open: self.current,
            times: &self.profile.times,
        };
        self.keeping.take(band, id, points, base, at);
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
        let p = &mut self.profile;
        p.marks.push(time);
        if !p.mark_texts.is_empty() {
            p.mark_texts.push(Vec::new());
        }
    }

    fn labelled_mark(&mut self, time: f64, text: &[u8]) {
        let p = &mut self.profile;
        // The earlier marks had no text: they get empty ones, so the texts line up.
        p.mark_texts.resize(p.marks.len(), Vec::new());
        p.marks.push(time);
        p.mark_texts.push(text.to_vec());
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
        let id = self.band_id(name);
        self.previous = id as usize + 1;
        self.point(id, value);
    }

    fn keyed_census(&mut self, time: f64, points: &[(u32, f64)], names: &[Vec<u8>]) {
        self.begin_sample(time);
        self.keyed_points(points, |key| names.get(key as usize));
        self.end_sample();
    }

    fn statements(&mut self, run: &StatementRun<'_>) {
        // Each name of the run is looked up once; the points then go straight to their
        // bands.
        let mut ids = std::mem::take(&mut self.run_ids);
        ids.clear();
        // Room for every name of the run being new (a profile of a million identifiers
        // brings them in a few runs).
        let names = run.names.len();
        self.index.reserve(self.profile.bands.len() + names);
        self.profile.bands.reserve(names.min(1 << 20));
        let hashes = run.hashes;
        self.index.warm(&hashes[..hashes.len().min(WARM_AHEAD)]);
        for (k, (name, hash)) in run.names_with_hashes().enumerate() {
            if k % WARM_AHEAD == 0 {
                let ahead = hashes.get(k + WARM_AHEAD..).unwrap_or_default();
                self.index.warm(&ahead[..ahead.len().min(WARM_AHEAD)]);
            }
            ids.push(self.intern_hashed(name, hash));
        }
        if let (Some(by_band), Some(split), Keeping::Drawn(d)) =
            (run.by_band, &run.split, &mut self.keeping)
        {
            d.take_split(&ids, by_band, split, self.current);
        } else if let Some(by_band) = run.by_band {
            let base = self.current;
            for (&id, points) in ids.iter().zip(by_band) {
                let band = &mut self.profile.bands[id as usize].points;
                match self.keeping {
                    Keeping::Every => {
                        make_room(band, points.len(), run.progress);
                        append_shifted(band, points, base);
                    }
                    _ => {
                        let at = Censuses {
                            complete: base,
                            open: base,
                            times: &self.profile.times,
                        };
                        self.keeping.take(band, id, points, base, at);
                    }
                }
            }
        }
        if let (Some(sums), Keeping::Totals(t)) = (&run.sums, &mut self.keeping) {
            t.take_sums(&ids, sums, self.current);
        }
        for &RunEntry { tag, value } in run.entries {
            match tag {
                BEGIN => self.begin_sample(value),
                END => self.current += 1,
                MARK => self.profile.marks.push(value),
                local => {
                    let id = ids[local as usize];
                    let point = Point {
                        sample: self.current,
                        value,
                    };
                    match self.keeping {
                        Keeping::Every => self.profile.bands[id as usize].points.push(point),
                        _ => self.take(id, &[point], 0),
                    }
                }
            }
        }
        // The successor guesses refer to band ids, which are still valid; start afresh.
        self.previous = 0;
        self.run_ids = ids;
    }

    fn samples(&mut self, block: SampleBlock) {
        for m in &block.marks {
            if m.text.is_empty() {
                self.mark(m.time);
            } else {
                self.labelled_mark(m.time, &m.text);
            }
        }
        let base = self.current;
        let count = block.times.len() as u32;
        self.profile.times.truncate(base as usize);
        self.profile.times.extend_from_slice(&block.times);
        for (name, points) in block.names.iter().zip(block.points) {
            if points.is_empty() {
                continue;
            }
            let id = self.intern(name);
            let band = &mut self.profile.bands[id as usize].points;
            if !matches!(self.keeping, Keeping::Every) {
                let at = Censuses {
                    complete: base + count,
                    open: base,
                    times: &self.profile.times,
                };
                self.keeping.take(band, id, &points, base, at);
            } else if band.is_empty() && base == 0 {
                // The usual case: the block is the whole profile, and the band's points
                // move in as they are.
                *band = points;
            } else {
                append_shifted(band, &points, base);
            }
        }
        self.current = base + count;
        self.previous = 0;
    }

    fn wants_runs_by_band(&self) -> bool {
        true
    }

    fn wants_run_sums(&self) -> bool {
        matches!(&self.keeping, Keeping::Totals(t) if !t.by_points)
    }

    fn run_roles(&self) -> Option<std::sync::Arc<crate::profile::keep::RunRoles>> {
        match &self.keeping {
            Keeping::Drawn(d) => d.roles_by_name(),
            _ => None,
        }
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
        dropped |= self.keeping.discard_from(complete);
        // Identifiers seen only in the dropped sample disappear with it.
        let before = p.bands.len();
        let kept: Vec<bool> = (p.bands.iter().enumerate())
            .map(|(id, b)| self.keeping.has_points(id, &b.points))
            .collect();
        let mut flags = kept.iter();
        p.bands.retain(|_| flags.next().copied().unwrap_or(false));
        self.keeping.retain(&kept);
        if p.bands.len() != before {
            // Band ids changed: index the bands again.
            self.index = NameIndex::default();
            for (id, band) in p.bands.iter().enumerate() {
                self.index.add(hash_bytes(&band.name), id as u32);
            }
            self.successor.clear();
            self.previous = 0;
            self.by_key.clear();
        }
        dropped
    }
}
