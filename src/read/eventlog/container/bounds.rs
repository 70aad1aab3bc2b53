//! The block an event lies in, as its marker gives it, and what may stand in it.

/// How much earlier than the event before it in a capability's block an event's
/// timestamp may be: GHC back-dates GC_END to the end of the collection (by up to 36 µs
/// in the logs examined, the only step back within a buffer). The global buffer, which
/// holds the heap profile, never steps back.
pub(super) const EARLY: u64 = 10_000_000;

/// The longest time a block can span (2^56 ns: two years). A slowly sampled profile
/// of a long-running program may fill its global buffer over days; a marker read from
/// other bytes (text, mostly) spans far more.
pub(super) const LONGEST: u64 = 1 << 56;

/// The block an event lies in, as its marker describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// The marker's offset.
    pub(super) start: u64,
    /// Where the block ends (the marker's offset plus its size); `None` once the marker
    /// has shown to lie: then another marker may come anywhere.
    pub(super) end: Option<u64>,
    /// When it was written (the marker's end time): no event of the block is later.
    pub(super) to: u64,
    /// When it opened (the marker's timestamp).
    pub(super) opened: u64,
    /// The latest timestamp so far in the block (`opened` at first): its buffer posts
    /// events in time order.
    pub(super) last: u64,
    /// Whether it is the global buffer's (capability 0xFFFF) or a capability's; `None`
    /// once its marker has shown to lie.
    pub(super) global: Option<bool>,
}

impl Block {
    /// Whether `offset` lies before the block's end.
    #[inline(always)]
    pub(super) fn holds(&self, offset: u64) -> bool {
        self.end.map_or(true, |end| offset < end)
    }

    /// The block without what its marker would have lied about for an event at `time`
    /// to have `fault`: its size (no end), its end time (the longest span), its own time
    /// (the order of the events so far kept), or its capability (no buffer). `None` when
    /// the marker cannot explain the fault.
    pub(super) fn without_lie(&self, fault: Fault, time: u64) -> Option<Block> {
        let b = *self;
        match fault {
            Fault::Crosses | Fault::Inside => Some(Block { end: None, ..b }),
            Fault::Buffer => Some(Block { global: None, ..b }),
            Fault::Span if time > b.to => Some(Block {
                to: b.to.max(b.last).saturating_add(LONGEST),
                ..b
            }),
            Fault::Span if b.last == b.opened => Some(Block {
                last: 0,
                opened: 0,
                ..b
            }),
            _ => None,
        }
    }
}

/// Why an event cannot stand where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fault {
    /// Its type is not declared, or an end marker stands inside a block.
    Undeclared,
    /// A block marker whose block is smaller than the marker, closes before it opens, or
    /// spans more than [`LONGEST`].
    Insane,
    /// Its timestamp is outside its block's span, or earlier than the events before it
    /// in the block.
    Span,
    /// It runs past its block's end.
    Crosses,
    /// A block marker inside a block: GHC's blocks tile the data.
    Inside,
    /// An event in the other kind of buffer (global or a capability's) than GHC posts it
    /// to.
    Buffer,
}
