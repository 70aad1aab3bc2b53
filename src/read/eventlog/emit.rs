//! The end of reading: choose the time axis, name the bands, and hand the profile to the
//! sink in `.hp` order (header strings, marks, the empty first sample, one sample per
//! census, the empty last sample).

use super::container::Notes;
use super::end::End;
use super::error::FramingRule;
use super::localtime::hp_date;
use super::model::Model;
use super::names::{argv, is_profiled_rts, job, one_line, split_args};
use super::timeaxis::{gc_threads_spin, Clock};
use super::{Breakdown, EventlogError, EventlogReport, EventlogWarning, Marker, TimeAxis};
use crate::seam::{HeaderField, SampleBlock, Sink};

impl Model<'_> {
    /// The sampling interval in seconds, once HEAP_PROF_BEGIN has come.
    pub(crate) fn sampling_period(&self) -> Option<f64> {
        self.breakdown.map(|_| self.period as f64 / 1e9)
    }

    /// The runtime that writes the log, as it names itself (`GHC-9.10.3 rts_thr`).
    pub(crate) fn rts_name(&self) -> Option<String> {
        (self.rts.as_deref()).map(|r| String::from_utf8_lossy(r).into_owned())
    }

    /// Whether the program was built for profiling (`-prof`): its runtime says so
    /// (`rts_p`), or, when it names none, the log declares cost centres.
    pub(crate) fn is_profiled(&self) -> bool {
        match &self.rts {
            Some(r) => is_profiled_rts(r),
            None => !self.ccs.is_empty(),
        }
    }

    /// Ends the data (see [`Model::end_data`]) and warns of the damage and of what the
    /// framer tolerated (`notes`).
    pub(crate) fn end_warnings(&mut self, end: &End, notes: &Notes) {
        let dropped_sample = self.end_data(end);
        for (rule, note) in [
            (FramingRule::ByFields, notes.by_fields),
            (FramingRule::ExtraBytes, notes.extra_bytes),
            (FramingRule::MarkerLies, notes.marker_lies),
            (FramingRule::Retimed, notes.retimed),
        ] {
            if let Some((offset, id)) = note.first {
                self.warn(rule.warning(offset, id, note.count));
            }
        }
        if let Some(w) = self.damage.warning() {
            self.warn(w);
        }
        if let End::Truncated(offset) = *end {
            self.warn(EventlogWarning::Truncated {
                offset,
                dropped_sample,
            });
        }
    }

    /// Ends reading: reports the damage and what the framer tolerated (`notes`), then
    /// hands everything to `sink`.
    pub(crate) fn finish<S: Sink + ?Sized>(
        &mut self,
        end: End,
        notes: &Notes,
        sink: &mut S,
    ) -> Result<EventlogReport, EventlogError> {
        self.end_warnings(&end, notes);
        if self.censuses.is_empty() {
            return Err(EventlogError::NoSamples {
                why: self.why_empty(&end),
                time_profile: self.others.time_events > 0,
            });
        }
        if self.stray > 0 {
            let count = self.stray;
            self.warn(EventlogWarning::StrayBands { count });
        }
        let breakdown = self.breakdown.map(Breakdown::from_code);
        if breakdown == Some(Breakdown::Retainer) {
            self.warn(EventlogWarning::NoManyBand);
        }
        let mut report = EventlogReport {
            ipe_one_byte_long: notes.ipe_one_byte_long.count,
            censuses: self.censuses.len(),
            bands: self.keys.len(),
            ..EventlogReport::default()
        };
        self.report_facts(&mut report);
        let profiled = self.is_profiled();
        let args_raw = self.args.take().unwrap_or_default();
        let args = argv(&args_raw);
        let axis = self.axis(&args, &mut report);
        let (times, end_time) = self.sample_times(&axis, profiled, &mut report);
        report.program = (args.first()).map(|a| String::from_utf8_lossy(a).into_owned());
        self.header(sink, &args, profiled);
        let marks = self.marks(&axis, &mut report);
        report.lines = (self.lines.iter_mut())
            .map(|points| in_time_order(points, &axis))
            .collect();
        report.time_samples = self.prof.take(&self.ccs, &axis);

        // Samples: the empty one at 0, one per census, the empty one at the end.
        let names = self.band_names(&args);
        let censuses = times.len();
        let mut sample_times = Vec::with_capacity(censuses + 2);
        sample_times.push(0.0);
        sample_times.extend(times);
        sample_times.push(end_time);
        sink.samples(SampleBlock::placed(
            sample_times,
            1..1 + censuses,
            names,
            std::mem::take(&mut self.points),
            marks,
        ));

        report.ipe = std::mem::take(&mut self.ipe);
        report.warnings = std::mem::take(&mut self.warnings);
        Ok(report)
    }

    /// The axis: mutator time needs GC events; the runtime (event 29) and its options
    /// tell whether it has a timer thread, whose CPU time counts too.
    pub(crate) fn axis(&mut self, args: &[&[u8]], report: &mut EventlogReport) -> Clock {
        let mutator = self.opts.time == TimeAxis::Mutator;
        if mutator && !self.time.any_gc() {
            self.warn(EventlogWarning::NoGcEvents);
        }
        let time = std::mem::take(&mut self.time);
        let capabilities = time.capabilities();
        let rts = self.rts.as_deref().unwrap_or_default();
        if mutator && time.any_gc() && capabilities > 1 && gc_threads_spin(rts) {
            self.warn(EventlogWarning::SpinningGcThreads { capabilities });
        }
        let rts = self.rts.as_deref().unwrap_or_default();
        let clock = Clock::of(mutator, time, self.max_time, rts, &split_args(args).1);
        report.time_axis = match clock {
            Clock::Mutator(_) => TimeAxis::Mutator,
            Clock::Elapsed => TimeAxis::Elapsed,
        };
        clock
    }

    /// Each census's time and the end's.
    fn sample_times(
        &mut self,
        axis: &Clock,
        profiled: bool,
        report: &mut EventlogReport,
    ) -> (Vec<f64>, f64) {
        let mut end_time = axis.seconds(self.max_time);
        let bio = report.breakdown == Some(Breakdown::Biography);
        if let (Some(clock), true) = (axis.mutator(), profiled) {
            // A profiling runtime's exit time counts the census work as mutator time.
            let work = (self.censuses.iter())
                .map(|c| clock.census_work(c.time, bio))
                .fold(0u64, u64::saturating_add);
            end_time += work as f64 / 1e9;
        }
        let mut times: Vec<f64> = self.censuses.iter().map(|c| axis.seconds(c.time)).collect();
        if self.ldv_filtered || (bio && self.all_same_time()) {
            // Every census was stamped at exit: spread them by the sampling period.
            let period = match self.period {
                0 => 0.1,
                p => p as f64 / 1e9,
            };
            for (i, t) in times.iter_mut().enumerate() {
                *t = (i + 1) as f64 * period;
            }
            report.estimated_times = true;
            self.warn(EventlogWarning::TimesUnavailable { period });
        }
        (times, end_time)
    }

    /// JOB, DATE and the units, as the `.hp` of the same run has them.
    pub(crate) fn header<S: Sink + ?Sized>(
        &mut self,
        sink: &mut S,
        args: &[&[u8]],
        profiled: bool,
    ) {
        let mut job = job(args, profiled);
        one_line(&mut job);
        sink.header(HeaderField::Job, &job);
        match self.wall {
            Some(sec) => {
                let (date, why) = hp_date(i64::try_from(sec).unwrap_or(i64::MAX / 2));
                if let Some(why) = why {
                    self.warn(EventlogWarning::DateInUtc { why });
                }
                sink.header(HeaderField::Date, date.as_bytes());
            }
            None => {
                self.warn(EventlogWarning::NoDate);
                sink.header(HeaderField::Date, b"");
            }
        }
        sink.header(HeaderField::SampleUnit, b"seconds");
        sink.header(HeaderField::ValueUnit, b"bytes");
    }

    /// Every mark (time, text: empty when it was not kept), in file order; the marker
    /// texts also go to the report. (Their order and where each stands among the
    /// samples are [`SampleBlock::placed`]'s.)
    fn marks(&mut self, axis: &Clock, report: &mut EventlogReport) -> Vec<(f64, Vec<u8>)> {
        // A text was kept right after its mark, so the two lists pair up in file order.
        let mut texts = self.texts.iter().peekable();
        let marks: Vec<(f64, Vec<u8>)> = (std::mem::take(&mut self.marks).into_iter())
            .map(|t| {
                let text = texts.next_if(|(tt, _)| *tt == t).map(|(_, s)| s.clone());
                (axis.seconds(t), text.unwrap_or_default().into_bytes())
            })
            .collect();
        report.markers = (self.texts.drain(..))
            .map(|(t, text)| Marker {
                time: axis.seconds(t),
                text,
            })
            .collect();
        report.markers.sort_by(|a, b| a.time.total_cmp(&b.time));
        if self.marks_dropped > 0 || self.texts_dropped > 0 {
            let count = self.marks_dropped + self.texts_dropped;
            self.warn(EventlogWarning::MarkerTextsDropped { count });
        }
        marks
    }

    /// Whether every census has the same timestamp (an LDV profile written at exit).
    fn all_same_time(&self) -> bool {
        self.censuses.len() > 1
            && self
                .censuses
                .iter()
                .all(|c| c.time == self.censuses[0].time)
    }

    /// Why there is no sample, and what to do about it (`end`: how the data ended).
    fn why_empty(&self, end: &End) -> String {
        if let Some(damage) = self.damage.warning() {
            // What was lost where: the error is all the user sees.
            let what = match (self.breakdown.is_some(), self.damage.lost()) {
                (true, 0) => "the heap profile began, but no census completed",
                (true, _) => "the heap profile began, but damage cost every census",
                (false, _) => "no heap-profile start or census survived the damage",
            };
            return format!("{what}: {damage}");
        }
        if self.breakdown.is_some() {
            return "the heap profile began but no census completed (the run was shorter \
                    than the sampling interval, or the log is cut): run longer or with a \
                    smaller -i"
                .to_string();
        }
        if !self.saw_global_block && self.rts.is_none() {
            return "the log has no global-buffer data, as when the program was killed: \
                    GHC up to 9.0 writes heap samples only at exit, so stop the program \
                    with Ctrl-C (SIGINT), or on GHC 9.2+ run with \
                    --eventlog-flush-interval=1"
                .to_string();
        }
        if let End::Truncated(offset) = *end {
            // A log copied or read while its program runs: the heap-profile events sit in
            // the global buffer, which GHC writes only when it flushes.
            return format!(
                "the log is cut at byte {offset} (no end marker) before any heap-profile \
                 event: GHC writes them when it flushes its global buffer (at exit, or \
                 every --eventlog-flush-interval on GHC 9.2+): read the log once the \
                 program has ended, or follow it with --serve"
            );
        }
        let others = self.others;
        let held = if others.time_events > 0 {
            format!(
                "a time profile ({} events of +RTS -p), not a heap profile: run the program \
                 with +RTS -hc -l for its heap by cost-centre stack, or -hT -l",
                others.time_events
            )
        } else if others.ticky_counters + others.ticky_samples > 0 {
            let s = if others.ticky_counters == 1 { "" } else { "s" };
            format!(
                "ticky-ticky counters ({} counter{s}, {} samples of +RTS -lT), not a heap \
                 profile: run the program with +RTS -hT -l (-hc and the other breakdowns \
                 need a -prof build)",
                others.ticky_counters, others.ticky_samples
            )
        } else {
            "only the runtime's scheduler and GC events: run the program with +RTS -hT -l \
             (or another -h breakdown; -hc etc. need a -prof build)"
                .to_string()
        };
        format!("the run made no heap profile; the log holds {held}")
    }
}

/// A line's points (event time, bytes) on the axis, in time order. Each capability
/// writes its own buffer of events and the runtime flushes a buffer when it fills (or at
/// the end), so with `-N2` and more the file holds one capability's stretch of the run,
/// then another's from earlier on: in file order such a line runs to the end of the run
/// and starts again near its beginning. A stable sort keeps the file's order among
/// events of the same time.
fn in_time_order(points: &mut [(u64, u64)], axis: &Clock) -> Vec<(f64, u64)> {
    points.sort_by_key(|&(t, _)| t);
    points.iter().map(|&(t, b)| (axis.seconds(t), b)).collect()
}
