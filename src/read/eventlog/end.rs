//! How a reading ended, and what else the log held: what the model keeps while reading
//! and the end of reading reports.

/// How the data section ended.
pub(crate) enum End {
    /// At the 0xFFFF end marker.
    Complete,
    /// The input ran out at this offset.
    Truncated(u64),
}

/// The profiles of other kinds a log holds: time-profile events (167, 168), ticky
/// counters defined (210) and sampled (212).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct OtherProfiles {
    pub(crate) time_events: u64,
    pub(crate) ticky_counters: u64,
    pub(crate) ticky_samples: u64,
}
