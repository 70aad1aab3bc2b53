//! Which numbers a file gives: what the tree says of itself and its builder is told.

/// Which numbers a file gives (the others are derived, or zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Columns {
    /// `entries`.
    pub entries: bool,
    /// The individual `%time` and `%alloc` (a text report's; `-pj` and an eventlog's
    /// are derived from ticks and bytes).
    pub percentages: bool,
    /// The inherited `%time` and `%alloc` (a text report's; else subtree sums).
    pub inherited: bool,
    /// `ticks` (`-P`, `-pa`, `-pj`, an eventlog's samples).
    pub ticks: bool,
    /// `bytes` (`-P`, `-pa`; `-pj`'s `alloc`).
    pub bytes: bool,
}

impl Columns {
    /// A text report's columns: entries and shares, and `ticks bytes` when `counts`.
    pub fn report(counts: bool) -> Columns {
        Columns {
            entries: true,
            percentages: true,
            inherited: true,
            ticks: counts,
            bytes: counts,
        }
    }

    /// Counted numbers only (`-pj`: entries, ticks, bytes; an eventlog: ticks).
    pub fn counts(entries: bool, bytes: bool) -> Columns {
        Columns {
            entries,
            percentages: false,
            inherited: false,
            ticks: true,
            bytes,
        }
    }
}
