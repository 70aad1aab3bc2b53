//! The eventlog's one event loop: the header, then the data framed event by event into
//! the one model, to its end. A stream read in one pass, the part of a mapped log the
//! workers leave, and a log followed as it is written (which this loop can leave at the
//! end of the bytes it has, and take up again) all read through it.

use super::container::{next_event, read_header, Framer, Next, Source};
use super::end::End;
use super::model::Model;
use super::{events, EventlogError, EventlogOptions, EventlogReport, EventlogWarning};
use crate::seam::Sink;

pub(super) fn read_from<I: Source, S: Sink + ?Sized>(
    input: &mut I,
    opts: &EventlogOptions,
    sink: &mut S,
) -> Result<EventlogReport, EventlogError> {
    let types = read_header(input)?;
    let mut m = Model::new(opts);
    m.has_end = types.declares(events::HEAP_PROF_SAMPLE_END);
    let mut framer = Framer::new(&types);
    let end = read_events(input, &mut framer, &mut m, |_| {})?;
    let end = end.unwrap_or(End::Truncated(Source::offset(input)));
    m.finish(end, &framer.notes, sink)
}

/// Reads the events from where `input` stands to the end of the data, each into the
/// model, then `after` of the model. `Ok(None)` when `input` has no more bytes for now
/// (a log followed as it is written: the reading goes on from there when more come).
pub(super) fn read_events<I: Source>(
    input: &mut I,
    framer: &mut Framer<'_>,
    m: &mut Model<'_>,
    mut after: impl FnMut(&mut Model<'_>),
) -> Result<Option<End>, EventlogError> {
    let pending = |e: &std::io::Error| e.kind() == std::io::ErrorKind::WouldBlock;
    Ok(Some(loop {
        match next_event(input, framer) {
            Ok(Next::Event(raw)) => m.event(&raw),
            Ok(Next::Damaged { from, to }) => m.damaged(from, to),
            Ok(Next::End) => {
                let offset = Source::offset(input);
                // A followed log's bytes after its end are not waited for.
                match Source::at_end(input) {
                    Ok(false) => m.warn(EventlogWarning::TrailingBytes { offset }),
                    Err(e) if !pending(&e) => return Err(e.into()),
                    _ => {}
                }
                break End::Complete;
            }
            Ok(Next::Truncated { offset }) => break End::Truncated(offset),
            Err(e) if pending(&e) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        after(m);
    }))
}
