//! How a time profile is read: in a file of its own, which every reader takes.

use crate::read::eventlog::EventlogOptions;

/// How a time profile is read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TimeProfileOptions {
    /// The longest label, module or source location kept, in bytes: a longer one is cut
    /// (with `...`), with a warning. Default: `65536` ([`crate::defaults::MAX_NAME_LEN`]).
    pub max_name_len: usize,
    /// How an eventlog's samples are placed in time (its time axis).
    /// Default: [`EventlogOptions::default`].
    pub eventlog: EventlogOptions,
    /// The bytes of a report's tree cut into chunks of this size, each parsed on a
    /// thread of its own, however many cores there are (the tests' knob, to compare
    /// chunked and one-thread readings); `None`: chunks of 4 MiB, one per core.
    pub(crate) chunk_bytes: Option<usize>,
}

impl Default for TimeProfileOptions {
    fn default() -> Self {
        TimeProfileOptions {
            max_name_len: crate::defaults::MAX_NAME_LEN,
            eventlog: EventlogOptions::default(),
            chunk_bytes: None,
        }
    }
}
