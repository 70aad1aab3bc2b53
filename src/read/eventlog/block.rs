//! The block of events being read, which tells whose buffer an event is in (the model
//! and the parallel reader's workers track it alike).

/// The block of events being read: the capability whose buffer it is, and where it
/// ends. (The one-pass reader and the parallel reader's workers track it alike.)
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Block {
    cap: u16,
    end: u64,
}

impl Block {
    /// The block that a block marker at `offset` of `size` bytes and capability `cap`
    /// opens.
    pub(crate) fn at_marker(offset: u64, size: u32, cap: u16) -> Block {
        Block {
            cap,
            end: offset.saturating_add(u64::from(size)),
        }
    }

    /// The capability whose buffer holds an event at `offset` (0xFFFE outside blocks).
    #[inline(always)]
    pub(crate) fn cap_at(&self, offset: u64) -> u16 {
        if offset < self.end {
            self.cap
        } else {
            0xFFFE
        }
    }
}
