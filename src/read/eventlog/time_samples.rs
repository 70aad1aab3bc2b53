//! An eventlog's time profile (`+RTS -p -l`): PROF_BEGIN (168) says the tick interval,
//! and every tick posts a PROF_SAMPLE_COST_CENTRE (167) per capability, the stack it was
//! running. The model keeps each sample's time and stack ([`ProfSamples`]); at the end
//! they are placed on the run's time axis, the heap's ([`TimeSamples`], in `prof_samples.rs`
//! with [`ProfSamples`]), for the time profile's reader (`src/read/prof/eventlog.rs`). [`read_time_samples`] reads a log for
//! them alone, whether it holds a heap profile or not.

use super::end::End;
use super::model::Model;
use super::names::argv;
use super::prof_samples::TimeSamples;
use super::reading::read_events;
use super::{container, events};
use super::{EventlogError, EventlogOptions, EventlogReport, EventlogWarning};

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
