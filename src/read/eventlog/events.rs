//! The event types the reader knows, in one table ([`EVENTS`]): each type's id and name (as
//! GHC's `rts/include/rts/EventLogFormat.h` has them), how much of its payload is read
//! and where a variable-size one's fields end ([`Fields`]), which buffer GHC posts it to
//! ([`Posted`]), and what the reader does with it ([`Reading`]: whether it changes the
//! samples). The framer (sizes and buffers, `container/`), the payload decoder
//! (`payload.rs`), the recovery after damage (`container/resync.rs`) and both consumers
//! (the one-pass model, `model.rs`, and the parallel reader's workers, `parallel.rs`) all
//! read it here, so an event added to the table is framed, decoded and handed to the
//! model alike on every path. (Adding one: `docs/architecture.md`, "A new eventlog
//! event".)

/// RUN_THREAD: a capability starts running a Haskell thread.
pub(crate) const RUN_THREAD: u16 = 1;
/// STOP_THREAD: it stops running it.
pub(crate) const STOP_THREAD: u16 = 2;
/// GC_START.
pub(crate) const GC_START: u16 = 9;
/// GC_END.
pub(crate) const GC_END: u16 = 10;
/// BLOCK_MARKER: the start of a block of one buffer (capability 0xFFFF: the global one).
pub(crate) const BLOCK_MARKER: u16 = 18;
/// GC_DONE: a capability finished its share of a collection's copying.
pub(crate) const GC_DONE: u16 = 22;
/// RTS_IDENTIFIER: `GHC-9.0.2 rts_p`.
pub(crate) const RTS_IDENTIFIER: u16 = 29;
/// PROGRAM_ARGS: the NUL-separated argv.
pub(crate) const PROGRAM_ARGS: u16 = 30;
/// WALL_CLOCK_TIME: Unix time when it was posted.
pub(crate) const WALL_CLOCK_TIME: u16 = 43;
/// HEAP_SIZE: the bytes of the megablocks the RTS holds.
pub(crate) const HEAP_SIZE: u16 = 50;
/// HEAP_LIVE: the live bytes after a collection.
pub(crate) const HEAP_LIVE: u16 = 51;
/// USER_MARKER: `traceMarker`'s text.
pub(crate) const USER_MARKER: u16 = 58;
/// BLOCKS_SIZE (GHC ≥ 9.2): the bytes of the blocks allocated, of the heap size's
/// megablocks; the gap to the live bytes is fragmentation.
pub(crate) const BLOCKS_SIZE: u16 = 91;
/// HEAP_PROF_BEGIN: the heap profile's period, breakdown and filters.
pub(crate) const HEAP_PROF_BEGIN: u16 = 160;
/// HEAP_PROF_COST_CENTRE: a cost centre's id, label, module and flags.
pub(crate) const HEAP_PROF_COST_CENTRE: u16 = 161;
/// HEAP_PROF_SAMPLE_BEGIN: a census begins.
pub(crate) const HEAP_PROF_SAMPLE_BEGIN: u16 = 162;
/// HEAP_PROF_SAMPLE_COST_CENTRE: a `-hc` sample: residency and a stack of cost centres.
pub(crate) const HEAP_PROF_SAMPLE_COST_CENTRE: u16 = 163;
/// HEAP_PROF_SAMPLE_STRING: any other breakdown's sample: residency and a label.
pub(crate) const HEAP_PROF_SAMPLE_STRING: u16 = 164;
/// HEAP_PROF_SAMPLE_END: a census ends (GHC ≥ 8.10).
pub(crate) const HEAP_PROF_SAMPLE_END: u16 = 165;
/// HEAP_BIO_PROF_SAMPLE_BEGIN: a `-hb` census begins, with its own time.
pub(crate) const HEAP_BIO_PROF_SAMPLE_BEGIN: u16 = 166;
/// PROF_SAMPLE_COST_CENTRE: a time profile's sample (`+RTS -p` with `-l`).
pub(crate) const PROF_SAMPLE_COST_CENTRE: u16 = 167;
/// PROF_BEGIN: a time profile begins.
pub(crate) const PROF_BEGIN: u16 = 168;
/// IPE: an info table's address and six strings.
pub(crate) const IPE: u16 = 169;
/// TICKY_COUNTER_DEF: a ticky-ticky counter is defined (`+RTS -lT`).
pub(crate) const TICKY_COUNTER_DEF: u16 = 210;
/// TICKY_BEGIN_SAMPLE: a sample of the ticky-ticky counters begins.
pub(crate) const TICKY_BEGIN_SAMPLE: u16 = 212;

/// How much of an event's payload the reader reads. A payload longer than that is read by
/// its prefix (fields are only ever appended); one shorter is short: damage, or an older
/// layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fields {
    /// A prefix of at least this many bytes (0: nothing but the time and the buffer).
    AtLeast(u8),
    /// `count` NUL-terminated strings from byte `from` on, then `after` bytes: a
    /// variable-size event whose fields the framer knows, and checks its declared length
    /// against (GHC 9.10 declares its IPE events one byte longer than their strings).
    Strings {
        /// Where the first string starts (the fixed fields before it).
        from: u8,
        /// How many strings.
        count: u8,
        /// The fixed bytes after the last string.
        after: u8,
    },
    /// A cost-centre stack: a depth byte at 9, then that many 4-byte ids.
    Stack,
}

impl Fields {
    /// The shortest payload that holds the fields read.
    pub(crate) const fn minimum(self) -> usize {
        match self {
            Fields::AtLeast(n) => n as usize,
            Fields::Strings { from, .. } => from as usize,
            Fields::Stack => 10,
        }
    }

    /// Whether the framer knows where the fields end whatever the declared length says.
    pub(crate) const fn known_end(self) -> bool {
        !matches!(self, Fields::AtLeast(_))
    }
}

/// Which buffer GHC posts events of a type to (the RTS source's `post…` functions; in the
/// 28 real logs of 9.0.2 and 9.10.3 the two sets never meet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Posted {
    /// The global buffer.
    Global,
    /// A capability's buffer.
    Capability,
    /// Either, or not known.
    Either,
}

/// What the reader does with an event of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// A point of a band: a heap sample (the bulk of a log, whose band the parallel
    /// workers look up themselves).
    Point,
    /// A thread switch, for the time axis's busy time: the parallel workers pass on its
    /// time and capability alone.
    Switch,
    /// Decoded and applied by the model: a census's begin or end, a collection, a name,
    /// the header's strings. The parallel workers hand it to the one model as it stands,
    /// and decode nothing of it.
    Model,
    /// A point of a line over the bands ([`LINES`]): a capset (u32), then bytes (u64).
    /// Handed to the model as a [`Reading::Model`] event is, and decoded alike for every
    /// line.
    Line,
    /// Nothing but its time (the log's latest time is the last sample's).
    Time,
}

impl Reading {
    /// Whether events of the type change the samples or what is reported with them.
    pub(crate) const fn changes_samples(self) -> bool {
        !matches!(self, Reading::Time)
    }
}

/// One event type the reader knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EventType {
    /// Its id.
    pub(crate) id: u16,
    /// Its name in GHC's `EventLogFormat.h`, without `EVENT_`.
    pub(crate) name: &'static str,
    /// How much of its payload is read.
    pub(crate) fields: Fields,
    /// Which buffer GHC posts it to.
    pub(crate) posted: Posted,
    /// What the reader does with it.
    pub(crate) reading: Reading,
}

/// A row of [`EVENTS`].
const fn event(
    id: u16,
    name: &'static str,
    fields: Fields,
    posted: Posted,
    reading: Reading,
) -> EventType {
    EventType {
        id,
        name,
        fields,
        posted,
        reading,
    }
}

/// A type read for its time alone, posted to `posted`.
const fn timed(id: u16, name: &'static str, posted: Posted) -> EventType {
    event(id, name, Fields::AtLeast(0), posted, Reading::Time)
}

use Fields::{AtLeast, Stack, Strings};
use Posted::{Capability, Either, Global};
use Reading::{Line, Model, Point, Switch};

/// A line over the bands (`--heap-size`) that an eventlog records: the event that gives
/// its points, and its name (in the key, the page and the summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineKind {
    pub(crate) event: u16,
    pub(crate) name: &'static str,
}

/// Every line over the bands, in the order the report, the key, the page and the
/// summary have them (eventlog2html's Heap tab has these three; the blocks' gap to the
/// live bytes is fragmentation). A new line is a row here, and its event's row of
/// [`EVENTS`] read as [`Reading::Line`]: the model, the report (`EventlogReport::line`),
/// the live page's reader and store, `--heap-size` and the page take it from here.
pub(crate) const LINES: [LineKind; 3] = [
    LineKind {
        event: HEAP_SIZE,
        name: "heap size",
    },
    LineKind {
        event: HEAP_LIVE,
        name: "live bytes",
    },
    LineKind {
        event: BLOCKS_SIZE,
        name: "blocks size",
    },
];

/// The place in [`LINES`] of the line whose points event `id` gives.
#[inline]
pub(crate) fn line_of(id: u16) -> Option<usize> {
    LINES.iter().position(|l| l.event == id)
}

/// Every event type the reader knows, by id. A type not here is framed by its declared
/// size and read for its time alone.
pub(crate) const EVENTS: &[EventType] = &[
    timed(0, "CREATE_THREAD", Capability),
    event(RUN_THREAD, "RUN_THREAD", AtLeast(0), Capability, Switch),
    event(STOP_THREAD, "STOP_THREAD", AtLeast(0), Capability, Switch),
    timed(3, "THREAD_RUNNABLE", Capability),
    timed(4, "MIGRATE_THREAD", Capability),
    timed(5, "SHUTDOWN (deprecated)", Capability),
    timed(6, "RUN_SPARK (deprecated)", Capability),
    timed(7, "STEAL_SPARK (deprecated)", Capability),
    timed(8, "THREAD_WAKEUP", Capability),
    event(GC_START, "GC_START", AtLeast(0), Capability, Model),
    event(GC_END, "GC_END", AtLeast(0), Capability, Model),
    timed(11, "REQUEST_SEQ_GC", Capability),
    timed(12, "REQUEST_PAR_GC", Capability),
    timed(13, "CREATE_SPARK (deprecated)", Capability),
    timed(14, "SPARK_TO_THREAD (deprecated)", Capability),
    timed(15, "CREATE_SPARK_THREAD", Capability),
    timed(16, "LOG_MSG", Either),
    // capability u16 at 12: the block's buffer.
    event(BLOCK_MARKER, "BLOCK_MARKER", AtLeast(14), Either, Model),
    timed(19, "USER_MSG", Capability),
    timed(20, "GC_IDLE", Capability),
    timed(21, "GC_WORK", Capability),
    event(GC_DONE, "GC_DONE", AtLeast(0), Capability, Model),
    timed(25, "CAPSET_CREATE", Global),
    timed(26, "CAPSET_DELETE", Global),
    timed(27, "CAPSET_ASSIGN_CAP", Global),
    timed(28, "CAPSET_REMOVE_CAP", Global),
    // capset u32, then the string.
    event(RTS_IDENTIFIER, "RTS_IDENTIFIER", AtLeast(4), Global, Model),
    event(PROGRAM_ARGS, "PROGRAM_ARGS", AtLeast(4), Global, Model),
    timed(31, "PROGRAM_ENV", Global),
    timed(32, "OSPROCESS_PID", Global),
    timed(33, "OSPROCESS_PPID", Global),
    timed(34, "SPARK_COUNTERS", Capability),
    timed(35, "SPARK_CREATE", Capability),
    timed(36, "SPARK_DUD", Capability),
    timed(37, "SPARK_OVERFLOW", Capability),
    timed(38, "SPARK_RUN", Capability),
    timed(39, "SPARK_STEAL", Capability),
    timed(40, "SPARK_FIZZLE", Capability),
    timed(41, "SPARK_GC", Capability),
    timed(42, "INTERN_STRING", Either),
    // capset u32, seconds u64, nanoseconds u32.
    event(
        WALL_CLOCK_TIME,
        "WALL_CLOCK_TIME",
        AtLeast(16),
        Global,
        Model,
    ),
    timed(44, "THREAD_LABEL", Capability),
    timed(45, "CAP_CREATE", Global),
    timed(46, "CAP_DELETE", Global),
    timed(47, "CAP_DISABLE", Global),
    timed(48, "CAP_ENABLE", Global),
    timed(49, "HEAP_ALLOCATED", Capability),
    // capset u32, bytes u64.
    event(HEAP_SIZE, "HEAP_SIZE", AtLeast(12), Capability, Line),
    event(HEAP_LIVE, "HEAP_LIVE", AtLeast(12), Capability, Line),
    timed(52, "HEAP_INFO_GHC", Global),
    timed(53, "GC_STATS_GHC", Capability),
    timed(54, "GC_GLOBAL_SYNC", Capability),
    timed(55, "TASK_CREATE", Global),
    timed(56, "TASK_MIGRATE", Global),
    timed(57, "TASK_DELETE", Global),
    event(USER_MARKER, "USER_MARKER", AtLeast(0), Capability, Model),
    timed(59, "HACK_BUG_T9003", Either),
    timed(90, "MEM_RETURN", Capability),
    // capset u32, bytes u64.
    event(BLOCKS_SIZE, "BLOCKS_SIZE", AtLeast(12), Capability, Line),
    // profile id u8, period u64, breakdown u32, then the seven filters.
    event(
        HEAP_PROF_BEGIN,
        "HEAP_PROF_BEGIN",
        Strings {
            from: 13,
            count: 7,
            after: 0,
        },
        Global,
        Model,
    ),
    // ccid u32, label, module, source location, then the flags byte.
    event(
        HEAP_PROF_COST_CENTRE,
        "HEAP_PROF_COST_CENTRE",
        Strings {
            from: 4,
            count: 3,
            after: 1,
        },
        Global,
        Model,
    ),
    event(
        HEAP_PROF_SAMPLE_BEGIN,
        "HEAP_PROF_SAMPLE_BEGIN",
        AtLeast(0),
        Global,
        Model,
    ),
    // profile id u8, residency u64, depth u8, then the stack.
    event(
        HEAP_PROF_SAMPLE_COST_CENTRE,
        "HEAP_PROF_SAMPLE_COST_CENTRE",
        Stack,
        Global,
        Point,
    ),
    // profile id u8, residency u64, then the label.
    event(
        HEAP_PROF_SAMPLE_STRING,
        "HEAP_PROF_SAMPLE_STRING",
        Strings {
            from: 9,
            count: 1,
            after: 0,
        },
        Global,
        Point,
    ),
    event(
        HEAP_PROF_SAMPLE_END,
        "HEAP_PROF_SAMPLE_END",
        AtLeast(0),
        Global,
        Model,
    ),
    // era u64, census time u64.
    event(
        HEAP_BIO_PROF_SAMPLE_BEGIN,
        "HEAP_BIO_PROF_SAMPLE_BEGIN",
        AtLeast(16),
        Global,
        Model,
    ),
    // A time profile's samples (`+RTS -p -l`): capability u32, tick u64, depth u8, then
    // the stack's ccids (innermost first); the model keeps them for the time profile
    // (src/read/prof/eventlog.rs), and counts them to say what a log without a heap
    // profile holds.
    event(
        PROF_SAMPLE_COST_CENTRE,
        "PROF_SAMPLE_COST_CENTRE",
        AtLeast(13),
        Global,
        Model,
    ),
    // The tick interval, u64 nanoseconds.
    event(PROF_BEGIN, "PROF_BEGIN", AtLeast(8), Global, Model),
    // Ticky counters are counted likewise.
    // address u64, then table name, closure type, type, label, module, location.
    event(
        IPE,
        "IPE",
        Strings {
            from: 8,
            count: 6,
            after: 0,
        },
        Global,
        Model,
    ),
    timed(181, "USER_BINARY_MSG", Capability),
    event(
        TICKY_COUNTER_DEF,
        "TICKY_COUNTER_DEF",
        AtLeast(0),
        Either,
        Model,
    ),
    event(
        TICKY_BEGIN_SAMPLE,
        "TICKY_BEGIN_SAMPLE",
        AtLeast(0),
        Either,
        Model,
    ),
];

/// What an unknown type is: read by its declared size, for its time alone.
const UNKNOWN: EventType = event(0xFFFF, "(unknown)", AtLeast(0), Either, Reading::Time);

/// [`EVENTS`] by id below 256 (every id GHC writes), [`UNKNOWN`] for the rest: made from
/// the table when the reader is compiled, so that a lookup is one load, in the framer's
/// and the decoder's loops.
static BY_ID: [EventType; 256] = {
    let mut by_id = [UNKNOWN; 256];
    let mut row = 0;
    while row < EVENTS.len() {
        let id = EVENTS[row].id as usize;
        assert!(
            id < 256 && by_id[id].id == UNKNOWN.id,
            "ids below 256, each once"
        );
        by_id[id] = EVENTS[row];
        row += 1;
    }
    by_id
};

/// The type of id `id`: its row of [`EVENTS`], or [`UNKNOWN`].
#[inline(always)]
pub(crate) fn event_type(id: u16) -> &'static EventType {
    BY_ID.get(usize::from(id)).unwrap_or(&UNKNOWN)
}

/// Which buffer GHC posts events of type `id` to: the global one (`Some(true)`), a
/// capability's (`Some(false)`), or either or unknown (`None`).
pub(crate) fn posted_by(id: u16) -> Option<bool> {
    match event_type(id).posted {
        Global => Some(true),
        Capability => Some(false),
        Either => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_in_order_and_named() {
        assert!(EVENTS.windows(2).all(|w| w[0].id < w[1].id));
        assert!(EVENTS.iter().all(|e| !e.name.is_empty()));
        assert_eq!(
            event_type(HEAP_PROF_SAMPLE_STRING).name,
            "HEAP_PROF_SAMPLE_STRING"
        );
        assert_eq!(event_type(17), &UNKNOWN);
        assert_eq!(event_type(0xFFFF), &UNKNOWN);
    }

    /// The buffers, as the framer had them before the table (`container/bounds.rs`).
    #[test]
    fn buffers_are_ghcs() {
        for id in 0..=300u16 {
            let was = match id {
                25..=33 | 43 | 45..=48 | 52 | 55..=57 | 160..=169 => Some(true),
                0..=15 | 19..=22 | 34..=41 | 44 | 49..=51 | 53 | 54 | 58 | 90 | 91 | 181 => {
                    Some(false)
                }
                _ => None,
            };
            assert_eq!(posted_by(id), was, "id {id}");
        }
    }

    /// Every line's event is read as a line, and every event read as a line is a line's.
    #[test]
    fn the_lines_and_their_events_agree() {
        for e in EVENTS {
            assert_eq!(e.reading == Line, line_of(e.id).is_some(), "{}", e.name);
        }
        let names: Vec<&str> = LINES.iter().map(|l| l.name).collect();
        assert_eq!(names, ["heap size", "live bytes", "blocks size"]);
    }

    #[test]
    fn only_heap_samples_are_points_and_only_thread_switches_switches() {
        for e in EVENTS {
            let sample = matches!(e.id, 163 | 164);
            assert_eq!(e.reading == Point, sample, "{}", e.name);
            assert_eq!(e.reading == Switch, matches!(e.id, 1 | 2), "{}", e.name);
            // What is read beyond its time is what changes the samples.
            if e.fields != AtLeast(0) {
                assert!(e.reading.changes_samples(), "{}", e.name);
            }
        }
    }
}
