//! Reading a large eventlog that is in memory on every core. Its bulk is heap samples
//! (events 163 and 164), each needing its band looked up by name; the rest is cheap but
//! order-dependent (censuses, GC intervals, block markers).
//!
//! The data is cut between blocks ([`BlockRuns`]) into runs of about a megabyte. Worker
//! threads frame the events of a run, look each sample's band up in a table of the run's
//! own, skip the events the model ignores, and list the rest by offset (which is which,
//! the table of event types says: [`Reading`]; the workers decode nothing the model
//! decodes, so an event the table hands to the model is read the same on every path).
//! The calling thread
//! applies the runs in file order: the run's bands map to the model's keys the first time
//! a point of theirs counts (so keys are numbered as a one-pass read numbers them), points
//! go straight to their bands, and the listed events are framed again and handed to the
//! model. Workers frame events as the one-pass reader does (the same [`Framer`], which
//! looks at the whole file, so it sees past a run's end as the one-pass reading does),
//! but they stop at damage, the end marker or a cut: a run whose events do not end
//! exactly where the next run starts, between blocks, ends the parallel reading there,
//! and everything from that offset on is read one event at a time, as the one-pass
//! reader would, with the framer's state there. So the result is the one-pass reader's,
//! warnings included.

use std::collections::VecDeque;
use std::sync::mpsc::{channel, sync_channel};

use super::container::{
    event_in, fields_fill, read_header, u64_at, BlockRuns, Framer, Head, Notes, SliceInput, Source,
    State, Step, Types, Window,
};
use super::end::End;
use super::events::{
    event_type, Reading, BLOCK_MARKER, HEAP_BIO_PROF_SAMPLE_BEGIN, HEAP_PROF_SAMPLE_BEGIN,
    HEAP_PROF_SAMPLE_END, RUN_THREAD,
};
use super::model::{Block, Model, UNMAPPED};
use super::payload::{block_marker, heap_sample};
use super::reading::read_events;
use super::run_index::RunIndex;
use super::{EventlogError, EventlogOptions, EventlogReport};
use crate::seam::Sink;

/// Bytes per run: a few hundred distinct bands to map per run cost nothing, and a few
/// runs in flight cost little memory.
pub(crate) const CHUNK: usize = 1 << 20;

/// Runs queued or done ahead of the calling thread, per worker: enough that a worker
/// rarely waits for the calling thread to take a run from a slower one.
const IN_FLIGHT: usize = 4;

/// Tag of an entry that is an event for the model, by offset and payload length
/// ([`pack`]).
const EVENT: u32 = u32::MAX;

/// The lowest tag of a RUN_THREAD or STOP_THREAD entry, which holds the event's time: a
/// thread switch is only a time and a capability, so the worker puts the capability in
/// the tag (`SWITCH + 2 * cap + run`) and the calling thread reads neither the event nor
/// the file again (a program that switches threads often writes millions of them).
const SWITCH: u32 = EVENT - 0x2_0000;

/// An event's offset and the payload length it was framed with, in one entry.
fn pack(offset: usize, len: usize) -> u64 {
    (len as u64) << 48 | offset as u64
}

fn unpack(entry: u64) -> (usize, usize) {
    ((entry & ((1 << 48) - 1)) as usize, (entry >> 48) as usize)
}

/// A job for a worker: the run `bytes[from..to]`, and a run whose buffers to reuse.
type Job<'a> = ((usize, usize), Run<'a>);

/// What a worker found in one run (kept afterwards for the buffers of another).
#[derive(Default)]
struct Run<'a> {
    /// The run's bands in order of first appearance: (is a stack, bytes).
    bands: Vec<(bool, &'a [u8])>,
    /// In file order: (band, residency) of a point, ([`EVENT`], [`pack`]ed offset and
    /// length) of an event the model needs, or (a tag from [`SWITCH`] on, time) of a
    /// thread switch.
    entries: Vec<(u32, u64)>,
    /// Where the events are in `entries`: the calling thread goes from one to the next
    /// without looking at the points between them.
    events: Vec<u32>,
    /// The latest time of the run's events: the model learns the times of those it is
    /// handed ([`Model::event`]), not those of the points and thread switches.
    max_time: u64,
    /// The block being read, as the model tracks it. A run starts at a block marker, so
    /// it starts outside any block.
    block: Block,
    /// Where the run's events stopped being framable (its end if they never did).
    clean_end: usize,
    /// The framer's state there, and what it noted up to there.
    state: State,
    notes: Notes,
}

/// Reads `bytes` (a whole eventlog) into `sink`, as [`super::read_eventlog`] would.
pub(crate) fn read_slice<S: Sink + ?Sized>(
    bytes: &[u8],
    opts: &EventlogOptions,
    sink: &mut S,
    release: &mut dyn FnMut(usize),
    chunk: usize,
) -> Result<EventlogReport, EventlogError> {
    let mut m = Model::new(opts);
    let (end, notes) = read_slice_into(bytes, &mut m, release, chunk)?;
    m.finish(end, &notes, sink)
}

/// Reads `bytes` (a whole eventlog) into the model `m`, as [`read_slice`] does; returns
/// how the data ended and what the framer noted, for [`Model::finish`] or a bounded
/// reading's end (`super::bounded`).
pub(crate) fn read_slice_into(
    bytes: &[u8],
    m: &mut Model<'_>,
    release: &mut dyn FnMut(usize),
    chunk: usize,
) -> Result<(End, Notes), EventlogError> {
    let (types, start) = {
        let mut input = SliceInput::new(bytes, release);
        (read_header(&mut input)?, input.offset() as usize)
    };
    m.has_end = types.declares(HEAP_PROF_SAMPLE_END);
    let mut framer = Framer::new(&types);
    let resume = in_parallel(
        bytes,
        &types,
        BlockRuns::new(start, &types, chunk),
        m,
        &mut framer.notes,
        release,
    );
    if let Some((_, state)) = resume {
        framer.state = state;
    }
    let mut input = SliceInput::starting_at(bytes, resume.map_or(start, |r| r.0), release);
    let end = read_events(&mut input, &mut framer, m, |_| {})?;
    let end = end.unwrap_or(End::Truncated(input.offset()));
    Ok((end, framer.notes))
}

/// Applies the runs to `m` in order, scanned by workers, and what their framing noted to
/// `notes`; returns where the one-event-at-a-time reading has to take over, with the
/// framer's state there (`None`: at the start, as the data is not in several runs).
fn in_parallel(
    bytes: &[u8],
    types: &Types,
    mut runs: BlockRuns,
    m: &mut Model<'_>,
    notes: &mut Notes,
    release: &mut dyn FnMut(usize),
) -> Option<(usize, State)> {
    let first = runs.next_run(bytes)?;
    if first.1 == bytes.len() {
        return None;
    }
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 8));
    std::thread::scope(|scope| {
        // Run i goes to worker i % workers, and comes back through that worker's own
        // channel, so the runs arrive in order; at most [`IN_FLIGHT`] per worker are in flight.
        let (jobs, results): (Vec<_>, Vec<_>) = (0..workers)
            .map(|_| {
                let (job_tx, job_rx) = channel::<Job<'_>>();
                let (tx, rx) = sync_channel::<Run<'_>>(IN_FLIGHT);
                scope.spawn(move || {
                    for ((from, to), mut run) in job_rx {
                        scan(bytes, types, from, to, &mut run);
                        if tx.send(run).is_err() {
                            break;
                        }
                    }
                });
                (job_tx, rx)
            })
            .unzip();
        let mut pending = VecDeque::from([first]);
        // Runs applied, whose buffers the next jobs reuse.
        let mut spare: Vec<Run<'_>> = Vec::new();
        let (mut sent, mut applied) = (0usize, 0usize);
        let mut resume = (first.0, State::default());
        loop {
            while sent < applied + IN_FLIGHT * workers {
                let Some(&span) = pending.get(sent - applied) else {
                    break;
                };
                let run = spare.pop().unwrap_or_default();
                if jobs[sent % workers].send((span, run)).is_err() {
                    return Some(resume);
                }
                sent += 1;
                if let Some(next) = runs.next_run(bytes) {
                    pending.push_back(next);
                }
            }
            let Some((_, to)) = pending.pop_front() else {
                return Some(resume);
            };
            let Ok(run) = results[applied % workers].recv() else {
                // A worker died: read the rest one event at a time.
                return Some(resume);
            };
            applied += 1;
            m.progress = Some(to as f64 / bytes.len() as f64);
            apply(bytes, types, &run, m);
            notes.merge(&run.notes);
            resume = (run.clean_end, run.state);
            let between_blocks = run.state.between_blocks(to as u64);
            spare.push(run);
            release(resume.0.saturating_sub(1 << 20));
            // The next run was framed from outside any block: right only if this one
            // ended there.
            if resume.0 != to || to == bytes.len() || !between_blocks {
                // Dropping the job queues ends the workers.
                return Some(resume);
            }
        }
    })
}

/// A worker's reading of the run `bytes[from..to]` into `run`, whose buffers are reused.
fn scan<'a>(bytes: &'a [u8], types: &Types, from: usize, to: usize, run: &mut Run<'a>) {
    run.bands.clear();
    run.entries.clear();
    run.events.clear();
    run.max_time = 0;
    run.block = Block::default();
    let mut index = RunIndex::default();
    // The whole file: the framer checks the header after each event, past the run's end.
    let w = Window::whole(bytes);
    let mut framer = Framer::new(types);
    let time_at = |at: usize| u64_at(bytes, at + 2);
    let mut at = from;
    while at < to {
        // The bulk, framed in the quick loop; the band lookup tells on the way whether a
        // heap sample's fields fill it.
        at = framer.quick(&w, at, to, |head, at, payload| {
            list(run, &mut index, &head, at, payload, true)
        });
        if at >= to {
            break;
        }
        let before = (framer.state, framer.notes);
        match framer.step_fully(&w, at) {
            // (An event read with another time than its own is damage: its listing
            // would lose that time.)
            Ok(Step::Event { head, len, next }) if next <= to && head.time == time_at(at) => {
                let payload = &bytes[at + head.head..at + head.head + len];
                list(run, &mut index, &head, at, payload, false);
                at = next;
            }
            // Damage, the end, a cut, or runs cut inside a block: the one-pass reading
            // takes over here, as the framer was.
            _ => {
                (framer.state, framer.notes) = before;
                break;
            }
        }
    }
    run.clean_end = at;
    run.state = framer.state;
    run.notes = framer.notes;
}

/// Lists the event `head` at `at` with `payload` in `run`: a heap sample as a point of its
/// band, a thread switch by its time and capability, an event the model needs
/// ([`Reading::Model`], or a heap sample too short to be one) by offset; nothing else.
/// With `must_fill`, an event whose fields do not fill its payload is not listed: false.
#[inline(always)]
fn list<'a>(
    run: &mut Run<'a>,
    index: &mut RunIndex,
    head: &Head,
    at: usize,
    payload: &'a [u8],
    must_fill: bool,
) -> bool {
    if let Some((is_stack, residency, text)) = heap_sample(head.id, payload) {
        let (band, label_fills) = index.band(&mut run.bands, is_stack, text);
        let fills = match is_stack {
            true => text.len() + 10 == payload.len(),
            false => label_fills,
        };
        if must_fill && !fills {
            return false;
        }
        run.max_time = run.max_time.max(head.time);
        run.entries.push((band, residency));
        return true;
    }
    match event_type(head.id).reading {
        Reading::Switch => list_switch(run, head, at, head.id == RUN_THREAD),
        _ => list_other(run, index, head, at, payload, must_fill),
    }
}

/// [`list`] for a thread switch (which fills any payload: nothing of it is read): out of
/// the samples' loop, and without [`list_other`]'s decoding.
#[inline(never)]
fn list_switch(run: &mut Run<'_>, head: &Head, at: usize, running: bool) -> bool {
    let cap = run.block.cap_at(at as u64);
    let tag = SWITCH + 2 * u32::from(cap) + u32::from(running);
    run.max_time = run.max_time.max(head.time);
    run.events.push(run.entries.len() as u32);
    run.entries.push((tag, head.time));
    true
}

/// [`list`] for an event that is neither a heap sample nor a thread switch: out of the
/// samples' loop. The model gets it whole, as the table says; the worker only follows the
/// blocks (for the thread switches' capabilities) and the censuses (for its band guesses).
#[inline(never)]
fn list_other<'a>(
    run: &mut Run<'a>,
    index: &mut RunIndex,
    head: &Head,
    at: usize,
    payload: &'a [u8],
    must_fill: bool,
) -> bool {
    if must_fill && !fields_fill(head.id, payload) {
        return false;
    }
    run.max_time = run.max_time.max(head.time);
    let kind = event_type(head.id);
    if !kind.reading.changes_samples() {
        // Nothing the model keeps but the time.
        return true;
    }
    match head.id {
        BLOCK_MARKER => {
            if let Some((size, cap)) = block_marker(payload) {
                run.block = Block::at_marker(at as u64, size, cap);
            }
        }
        HEAP_PROF_SAMPLE_BEGIN | HEAP_BIO_PROF_SAMPLE_BEGIN
            if payload.len() >= kind.fields.minimum() =>
        {
            index.previous = 0;
        }
        _ => {}
    }
    run.events.push(run.entries.len() as u32);
    run.entries.push((EVENT, pack(at, payload.len())));
    true
}

/// Applies a worker's run to the model, in file order.
fn apply(bytes: &[u8], types: &Types, run: &Run<'_>, m: &mut Model<'_>) {
    let mut keys = vec![UNMAPPED; run.bands.len()];
    // The points between two events all land in the same census (or none): they go in
    // as one batch.
    let mut start = 0;
    for &at in &run.events {
        let at = at as usize;
        // Thread switches come in pairs, and in a program that switches often they
        // outnumber the points: no call for no points.
        if start < at {
            m.push_points(&run.entries[start..at], &mut keys, &run.bands);
        }
        match run.entries[at] {
            (EVENT, entry) => {
                let (offset, len) = unpack(entry);
                m.event(&event_in(bytes, types, offset, len));
            }
            (tag, time) => {
                let switch = tag - SWITCH;
                m.thread_switch(switch & 1 == 1, (switch >> 1) as u16, time);
            }
        }
        start = at + 1;
    }
    m.push_points(&run.entries[start..], &mut keys, &run.bands);
    m.saw_time(run.max_time);
}
