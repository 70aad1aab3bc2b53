//! Collects, event by event, the compact state a profile needs: censuses and their band
//! values, band keys, cost centres, IPE names, GC intervals, each capability's busy time
//! (from the scheduler events, kept as stretches, not event by event), marks, heap-size
//! points and the metadata for JOB and DATE.

use std::collections::HashMap;

pub(crate) use super::block::Block;
use super::container::RawEvent;
use super::damage::DamageLog;
use super::end::{End, OtherProfiles};
use super::events::{event_type, Reading};
use super::names::CostCentre;
use super::payload::{cstr, decode, label_is, Event};
use super::timeaxis::TimeData;
use super::{Breakdown, EventlogOptions, EventlogReport, EventlogWarning};
use crate::intern::FxBuild;
use crate::profile::{IpeEntry, Point};
use crate::seam::make_room;

/// Whether GHC posts `event` only outside censuses (the start-up and restart events).
fn outside_censuses(event: &Event<'_>) -> bool {
    matches!(
        event,
        Event::RtsId(_)
            | Event::ProgramArgs(_)
            | Event::WallClock { .. }
            | Event::HeapProfBegin { .. }
            | Event::CostCentre { .. }
            | Event::Ipe { .. }
    )
}

/// A run band without a key yet, in [`Model::push_points`]'s cache.
pub(crate) const UNMAPPED: u32 = u32::MAX;

/// A finished census: its time (ns, event clock). Its points are in the bands, under its
/// sample number (its index + 1: the profile's sample 0 is the empty one at time 0).
pub(crate) struct Census {
    pub(crate) time: u64,
}

/// A band's identity: a 164 label, or a 163 stack (raw big-endian ccids).
pub(crate) struct Key {
    pub(crate) is_stack: bool,
    pub(crate) bytes: Box<[u8]>,
}

/// The reader's state.
pub(crate) struct Model<'o> {
    pub(crate) opts: &'o EventlogOptions,
    pub(crate) warnings: Vec<EventlogWarning>,
    /// The current block.
    block: Block,
    pub(crate) saw_global_block: bool,
    pub(crate) max_time: u64,
    pub(crate) time: TimeData,
    /// The points of each line over the bands ([`super::events::LINES`]): (time, bytes).
    pub(crate) lines: Vec<Vec<(u64, u64)>>,
    pub(crate) marks: Vec<u64>,
    pub(crate) marks_dropped: u64,
    pub(crate) texts: Vec<(u64, String)>,
    text_bytes: usize,
    pub(crate) texts_dropped: u64,
    pub(crate) args: Option<Vec<u8>>,
    pub(crate) rts: Option<Vec<u8>>,
    /// Unix seconds at RTS start-up, from WALL_CLOCK.
    pub(crate) wall: Option<u64>,
    pub(crate) breakdown: Option<u32>,
    pub(crate) period: u64,
    pub(crate) ldv_filtered: bool,
    pub(crate) ccs: HashMap<u32, CostCentre>,
    /// The IPE entries in order of first appearance; a later entry for the same
    /// address replaces the earlier one's fields (`ipe_index`: address → position).
    pub(crate) ipe: Vec<IpeEntry>,
    ipe_index: HashMap<u64, usize, FxBuild>,
    labels: HashMap<Box<[u8]>, u32, FxBuild>,
    stacks: HashMap<Box<[u8]>, u32, FxBuild>,
    pub(crate) keys: Vec<Key>,
    pub(crate) censuses: Vec<Census>,
    /// Each band key's points, in event order, as the profile will hold them (12 bytes
    /// a point: the eventlog's bulk is its samples).
    pub(crate) points: Vec<Vec<Point>>,
    /// The open census's time.
    open: Option<u64>,
    /// A census lists its bands in much the same order every time: `successor[k + 1]` is
    /// the key that followed key `k` last time (slot 0: the first of a census), checked
    /// before looking the bytes up.
    successor: Vec<u32>,
    /// The previous point's key + 1 in the open census (0 at its start).
    previous: usize,
    /// The share of the input read so far, when the reader knows it.
    pub(crate) progress: Option<f64>,
    pub(crate) stray: u64,
    /// `stray` at the last census END.
    stray_at_end: u64,
    short_warned: bool,
    /// Whether the log declares census ENDs (165, GHC ≥ 8.10): a census then ends only
    /// at its END, never at the next BEGIN.
    pub(crate) has_end: bool,
    /// The damage met, and the censuses it cost.
    pub(crate) damage: DamageLog,
    /// Whether the GC and scheduler events are kept for the mutator clock (a live
    /// reading on the elapsed axis needs none of them, and a day's thread switches are
    /// many). Default: `true`.
    pub(crate) keep_time: bool,
    /// What else the log holds, for a log without a heap profile.
    pub(crate) others: OtherProfiles,
    /// The time profile's samples (`+RTS -p -l`).
    pub(crate) prof: super::prof_samples::ProfSamples,
    /// A bounded reading's (`super::census_out`): no point kept but the open census's.
    pub(crate) bounded: Option<Box<super::census_out::Bounded<'o>>>,
}

impl<'o> Model<'o> {
    pub(crate) fn new(opts: &'o EventlogOptions) -> Self {
        Model {
            opts,
            warnings: Vec::new(),
            block: Block::default(),
            saw_global_block: false,
            max_time: 0,
            time: TimeData::default(),
            lines: vec![Vec::new(); super::events::LINES.len()],
            marks: Vec::new(),
            marks_dropped: 0,
            texts: Vec::new(),
            text_bytes: 0,
            texts_dropped: 0,
            args: None,
            rts: None,
            wall: None,
            breakdown: None,
            period: 0,
            ldv_filtered: false,
            ccs: HashMap::new(),
            ipe: Vec::new(),
            ipe_index: HashMap::default(),
            labels: HashMap::default(),
            stacks: HashMap::default(),
            keys: Vec::new(),
            censuses: Vec::new(),
            points: Vec::new(),
            open: None,
            successor: Vec::new(),
            previous: 0,
            progress: None,
            stray: 0,
            stray_at_end: 0,
            short_warned: false,
            has_end: true,
            damage: DamageLog::default(),
            keep_time: true,
            others: OtherProfiles::default(),
            prof: super::prof_samples::ProfSamples::default(),
            bounded: None,
        }
    }

    /// What the report says of the run besides its samples, from what was read so far:
    /// a whole reading's report and a followed log's both take it from here.
    pub(crate) fn report_facts(&self, report: &mut EventlogReport) {
        report.breakdown = self.breakdown.map(Breakdown::from_code);
        report.sampling_period = self.sampling_period();
        report.rts = self.rts_name();
    }

    pub(crate) fn warn(&mut self, w: EventlogWarning) {
        self.warnings.push(w);
    }

    pub(crate) fn event(&mut self, raw: &RawEvent<'_>) {
        let t = raw.time;
        self.max_time = self.max_time.max(t);
        let event = decode(raw);
        if self.is_open() && outside_censuses(&event) {
            // GHC posts these before or between censuses, never inside one: what reads
            // as one here is a damaged sample.
            self.damaged(raw.offset, raw.offset);
            return;
        }
        match event {
            Event::BlockMarker { size, cap } => {
                self.block = Block::at_marker(raw.offset, size, cap);
                self.saw_global_block |= cap == u16::MAX;
            }
            Event::GcStart
            | Event::GcEnd
            | Event::GcDone
            | Event::RunThread
            | Event::StopThread
                if !self.keep_time => {}
            Event::GcStart => self.time.gc_start(self.block.cap_at(raw.offset), t),
            Event::GcEnd => self.time.gc_end(self.block.cap_at(raw.offset), t),
            Event::GcDone => self.time.gc_done(self.block.cap_at(raw.offset), t),
            Event::RunThread => self.thread_switch(true, self.block.cap_at(raw.offset), t),
            Event::StopThread => self.thread_switch(false, self.block.cap_at(raw.offset), t),
            Event::Line { line, bytes } => self.lines[line].push((t, bytes)),
            Event::RtsId(s) => self.rts = Some(s.to_vec()),
            Event::ProgramArgs(a) => self.args = Some(a.to_vec()),
            // Taken at RTS start-up, when the .hp header gets its DATE too.
            Event::WallClock { sec, .. } => self.wall = Some(sec),
            Event::UserMarker(text) => self.marker(t, text),
            Event::HeapProfBegin {
                period,
                breakdown,
                bio_filter,
            } if self.breakdown.is_none() => {
                // GHC posts it again, the same, whenever an eventlog writer (re)starts; a
                // different one can only be damage.
                self.period = period;
                self.breakdown = Some(breakdown);
                self.ldv_filtered = !bio_filter.is_empty() && breakdown != 6;
            }
            Event::HeapProfBegin { .. } => {}
            Event::CostCentre {
                ccid,
                label,
                module,
                srcloc,
                flags,
            } => {
                let cc = CostCentre {
                    label: label.into(),
                    module: module.into(),
                    src: srcloc.into(),
                    is_caf: flags & 1 != 0 || label == b"CAF",
                };
                self.ccs.insert(ccid, cc);
            }
            Event::SampleBegin => self.begin(t, raw.offset),
            Event::BioSampleBegin { census_time } => self.begin(census_time, raw.offset),
            Event::SampleEnd => self.end_census(raw.offset),
            Event::CcsSample { residency, stack } => self.point(true, stack, residency),
            Event::StringSample { residency, text } => self.point(false, text, residency),
            Event::Ipe { info, fields } => self.ipe_entry(info, fields),
            Event::ProfSample { cap, stack, .. } => {
                self.others.time_events += 1;
                self.prof.sample(t, cap, stack);
            }
            Event::ProfBegin { interval } => {
                self.others.time_events += 1;
                self.prof.begin(interval);
            }
            Event::Ticky { definition: true } => self.others.ticky_counters += 1,
            Event::Ticky { definition: false } => self.others.ticky_samples += 1,
            // A heap sample too short for its layout leaves its census incomplete.
            Event::Short if event_type(raw.id).reading == Reading::Point && self.is_open() => {
                self.damaged(raw.offset, raw.offset);
            }
            Event::Short => {
                if !self.short_warned {
                    self.short_warned = true;
                    self.warn(EventlogWarning::ShortEvent {
                        offset: raw.offset,
                        id: raw.id,
                    });
                }
            }
            Event::Other => {}
        }
    }

    /// A RUN_THREAD (`run`) or STOP_THREAD event of capability `cap` at time `t`.
    pub(crate) fn thread_switch(&mut self, run: bool, cap: u16, t: u64) {
        if run {
            self.time.run(cap, t);
        } else {
            self.time.stop(cap, t);
        }
    }

    fn ipe_entry(&mut self, address: u64, fields: [&[u8]; 6]) {
        let fields = fields.map(|f| String::from_utf8_lossy(f).into_owned());
        let entry = IpeEntry::from_fields(address, fields);
        match self.ipe_index.get(&address) {
            Some(&i) => self.ipe[i] = entry,
            None => {
                self.ipe_index.insert(address, self.ipe.len());
                self.ipe.push(entry);
            }
        }
    }

    fn marker(&mut self, t: u64, text: &[u8]) {
        if self.marks.len() >= self.opts.max_marks {
            self.marks_dropped += 1;
            return;
        }
        self.marks.push(t);
        if self.text_bytes + text.len() <= self.opts.max_marker_text_bytes {
            self.text_bytes += text.len();
            self.texts
                .push((t, String::from_utf8_lossy(text).into_owned()));
        } else {
            self.texts_dropped += 1;
        }
    }

    fn begin(&mut self, t: u64, offset: u64) {
        if self.has_end && self.is_open() {
            // Every census has its END since GHC 8.10: this one lost it to damage.
            self.damaged(offset, offset);
        }
        // Before GHC 8.10 (no 165) a census ends where the next one begins.
        self.close();
        self.damage.began(self.censuses.len());
        self.open = Some(t);
        self.previous = 0;
    }

    fn end_census(&mut self, offset: u64) {
        if !self.is_open() {
            if self.stray > self.stray_at_end {
                // Points with no census open, then an END: damage took that census's
                // BEGIN.
                self.damage.hit(offset, offset, false);
            }
            self.damage.end_without_census(self.censuses.len());
        }
        self.close();
        self.stray_at_end = self.stray;
    }

    /// Bytes `from..to` are damaged (skipped): the census open there, if any, is lost.
    pub(crate) fn damaged(&mut self, from: u64, to: u64) {
        let dropped = self.drop_open();
        self.damage.hit(from, to, dropped);
    }

    /// Drops the open census and its points; returns whether one was open.
    fn drop_open(&mut self) -> bool {
        let dropped = self.open.take().is_some();
        if let Some(b) = &mut self.bounded {
            b.drop_open();
        } else if dropped {
            let open = self.censuses.len() as u32 + 1;
            for band in &mut self.points {
                while band.last().is_some_and(|p| p.sample == open) {
                    band.pop();
                }
            }
        }
        dropped
    }

    fn close(&mut self) {
        if let Some(time) = self.open.take() {
            if let Some(b) = &mut self.bounded {
                b.complete(self.censuses.len());
            }
            self.censuses.push(Census { time });
        }
    }

    /// A point of the open census. `text` is a stack's ccids, or a label followed by
    /// its NUL and whatever else its payload holds ([`cstr`]).
    fn point(&mut self, is_stack: bool, text: &[u8], value: u64) {
        if !self.is_open() {
            self.stray += 1;
            return;
        }
        let guess = self.successor.get(self.previous).copied();
        let key = match guess.filter(|&k| self.is_key(k, is_stack, text)) {
            Some(k) => k,
            None => {
                let bytes = if is_stack { text } else { cstr(text).0 };
                let k = self.key(is_stack, bytes);
                if self.successor.len() <= self.previous {
                    self.successor.resize(self.keys.len() + 1, u32::MAX);
                }
                self.successor[self.previous] = k;
                k
            }
        };
        self.previous = key as usize + 1;
        self.push_point(key, value);
    }

    /// Whether a census is open (a point outside one is stray).
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Adds the points of one stretch of a run between two events: to the open census,
    /// or as stray points when none is open. `points` are (the run's band, value);
    /// `keys[band]` caches each run band's key ([`UNMAPPED`] until its first point) and
    /// `bands` names them.
    pub(crate) fn push_points(
        &mut self,
        points: &[(u32, u64)],
        keys: &mut [u32],
        bands: &[(bool, &[u8])],
    ) {
        if !self.is_open() {
            self.stray += points.len() as u64;
            return;
        }
        let sample = self.censuses.len() as u32 + 1;
        for &(band, value) in points {
            let key = match keys[band as usize] {
                UNMAPPED => {
                    let (is_stack, name) = bands[band as usize];
                    let key = self.key(is_stack, name);
                    keys[band as usize] = key;
                    key
                }
                key => key,
            };
            self.push(key, sample, value);
        }
    }

    /// Adds a point of band `key` to the open census.
    pub(crate) fn push_point(&mut self, key: u32, value: u64) {
        let sample = self.censuses.len() as u32 + 1;
        self.push(key, sample, value);
    }

    /// Adds a point of band `key` to census `sample`.
    #[inline]
    fn push(&mut self, key: u32, sample: u32, value: u64) {
        if let Some(b) = &mut self.bounded {
            return b.push(key, value as f64);
        }
        let band = &mut self.points[key as usize];
        if band.len() == band.capacity() {
            make_room(band, 1, self.progress);
        }
        band.push(Point {
            sample,
            value: value as f64,
        });
    }

    /// Takes the latest time of events that were not handed to [`Self::event`].
    pub(crate) fn saw_time(&mut self, t: u64) {
        self.max_time = self.max_time.max(t);
    }

    /// Whether `text` (as [`Self::point`] has it) names key `k`.
    fn is_key(&self, k: u32, is_stack: bool, text: &[u8]) -> bool {
        let Some(key) = self.keys.get(k as usize) else {
            return false;
        };
        let bytes = &key.bytes[..];
        if key.is_stack != is_stack {
            return false;
        }
        if is_stack {
            text == bytes
        } else {
            label_is(text, bytes)
        }
    }

    /// The key of a stack's ccids or a label, a new one if it is new.
    pub(crate) fn key(&mut self, is_stack: bool, bytes: &[u8]) -> u32 {
        let map = if is_stack {
            &mut self.stacks
        } else {
            &mut self.labels
        };
        match map.get(bytes) {
            Some(&k) => k,
            None => {
                let k = self.keys.len() as u32;
                map.insert(bytes.into(), k);
                self.keys.push(Key {
                    is_stack,
                    bytes: bytes.into(),
                });
                self.points.push(Vec::new());
                k
            }
        }
    }

    /// Ends the data: keeps an open census only if the data ended cleanly; returns
    /// whether one was dropped.
    pub(crate) fn end_data(&mut self, end: &End) -> bool {
        let dropped = match end {
            End::Complete => {
                self.close();
                false
            }
            End::Truncated(_) => self.drop_open(),
        };
        self.damage.ended(self.censuses.len());
        dropped
    }
}
