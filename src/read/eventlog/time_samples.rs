//! An eventlog's time profile (`+RTS -p -l`): PROF_BEGIN (168) says the tick interval,
//! and every tick posts a PROF_SAMPLE_COST_CENTRE (167) per capability, the stack it was
//! running. The model keeps each sample's time and stack ([`ProfSamples`]); at the end
//! they are placed on the run's time axis, the heap's ([`TimeSamples`]), for the time
//! profile's reader (`src/read/prof/eventlog.rs`). [`read_time_samples`] reads a log for
//! them alone, whether it holds a heap profile or not.

use std::collections::HashMap;

use super::end::End;
use super::model::Model;
use super::names::{argv, CostCentre};
use super::reading::read_events;
use super::timeaxis::Clock;
use super::{container, events};
use super::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning};
use crate::intern::FxBuild;

/// The samples as read: each one's event time and stack (by number), the stacks, the
/// capabilities seen.
#[derive(Default)]
pub(crate) struct ProfSamples {
    index: HashMap<Box<[u8]>, u32, FxBuild>,
    stacks: Vec<Box<[u8]>>,
    samples: Vec<(u64, u32)>,
    interval: Option<u64>,
    caps: Vec<bool>,
}

impl ProfSamples {
    /// A sample at `t` of capability `cap`: `stack`'s raw ccids, innermost first.
    pub(crate) fn sample(&mut self, t: u64, cap: u32, stack: &[u8]) {
        let key = match self.index.get(stack) {
            Some(&k) => k,
            None => {
                let k = self.stacks.len() as u32;
                self.index.insert(stack.into(), k);
                self.stacks.push(stack.into());
                k
            }
        };
        self.samples.push((t, key));
        // The capabilities seen (a hostile number is not a vector's length).
        if let Some(i) = usize::try_from(cap).ok().filter(|&c| c < 4096) {
            if self.caps.len() <= i {
                self.caps.resize(i + 1, false);
            }
            self.caps[i] = true;
        }
    }

    /// The profile begins, ticking every `interval` nanoseconds.
    pub(crate) fn begin(&mut self, interval: u64) {
        self.interval.get_or_insert(interval);
    }

    /// The samples on `axis`, in time order, with the cost centres `ccs` of their
    /// stacks; `None` when there is no sample.
    pub(crate) fn take(
        &mut self,
        ccs: &HashMap<u32, CostCentre>,
        axis: &Clock,
    ) -> Option<TimeSamples> {
        if self.samples.is_empty() {
            return None;
        }
        let mut samples = std::mem::take(&mut self.samples);
        // Stable: samples of one time keep the file's order.
        samples.sort_by_key(|&(t, _)| t);
        let stacks: Vec<Vec<u32>> = (self.stacks.drain(..))
            .map(|raw| {
                let mut ids: Vec<u32> = (raw.chunks_exact(4))
                    .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                ids.reverse();
                ids
            })
            .collect();
        let mut named: Vec<(u32, CostCentre)> =
            ccs.iter().map(|(&id, cc)| (id, cc.clone())).collect();
        named.sort_by_key(|&(id, _)| id);
        Some(TimeSamples {
            ccs: named,
            stacks,
            samples: samples
                .into_iter()
                .map(|(t, k)| (axis.seconds(t), k))
                .collect(),
            interval: self.interval.map(|ns| ns as f64 / 1e9),
            capabilities: self.caps.iter().filter(|&&c| c).count(),
            args: Vec::new(),
        })
    }
}

/// An eventlog's time profile, on its time axis.
#[derive(Debug, Clone, Default)]
pub(crate) struct TimeSamples {
    /// The cost centres the log declares (161), by id.
    pub(crate) ccs: Vec<(u32, CostCentre)>,
    /// Each stack's ccids, outermost first.
    pub(crate) stacks: Vec<Vec<u32>>,
    /// Each sample's time (seconds on the axis) and stack, in time order.
    pub(crate) samples: Vec<(f64, u32)>,
    /// The tick interval (168), in seconds.
    pub(crate) interval: Option<f64>,
    /// How many capabilities took samples.
    pub(crate) capabilities: usize,
    /// The program's argv (its RTS options among them); empty when read with a heap
    /// profile (whose report has the program).
    pub(crate) args: Vec<String>,
}

/// Reads an eventlog's time profile alone (its heap profile, if any, is not made).
pub(crate) fn read_time_samples(
    bytes: &[u8],
    opts: &EventlogOptions,
) -> Result<(TimeSamples, Vec<EventlogWarning>), EventlogError> {
    let mut release = |_| {};
    let mut input = container::SliceInput::new(bytes, &mut release);
    let types = container::read_header(&mut input)?;
    let mut m = Model::new(opts);
    m.has_end = types.declares(events::HEAP_PROF_SAMPLE_END);
    let mut framer = container::Framer::new(&types);
    // A slice is all there is: the reading ends at its end (never pending).
    let end = read_events(&mut input, &mut framer, &mut m, |_| {})?.unwrap_or(End::Complete);
    m.finish_time(end, &framer.notes)
}

impl Model<'_> {
    /// Ends reading for the time profile alone.
    fn finish_time(
        mut self,
        end: End,
        notes: &container::Notes,
    ) -> Result<(TimeSamples, Vec<EventlogWarning>), EventlogError> {
        self.end_warnings(&end, notes);
        let args_raw = self.args.take().unwrap_or_default();
        let args = argv(&args_raw);
        let axis = self.axis(&args, &mut EventlogReport::default());
        let Some(mut samples) = self.prof.take(&self.ccs, &axis) else {
            let why = if self.ccs.is_empty() {
                "the log declares no cost centre: the program was not built for profiling \
                 (ghc -prof), or the log is cut before its global buffer"
            } else {
                "run the program with +RTS -p -l (the log holds no PROF_SAMPLE_COST_CENTRE \
                 event)"
            };
            return Err(EventlogError::NoTimeSamples {
                why: why.to_string(),
            });
        };
        samples.args = (args.iter())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        Ok((samples, self.warnings))
    }
}
