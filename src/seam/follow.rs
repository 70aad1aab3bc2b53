//! [`Follow`]: what a reader that follows an input as it is written (the live stage,
//! `src/live/`) hears from it, census by census, instead of one profile at the end.
//!
//! A follower is told each complete census as soon as the reader has it, with its
//! points by band number; the bands' names come apart ([`Follow::names`]), whenever
//! new bands appeared, because an eventlog's names depend on what the log said before
//! (its cost centres, its `-L`) and may need telling apart once more bands share one.

use super::HeaderField;

/// The lines over the bands an eventlog records (`--heap-size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Line {
    /// HEAP_SIZE (50).
    HeapSize,
    /// HEAP_LIVE (51).
    HeapLive,
    /// BLOCKS_SIZE (91).
    BlocksSize,
}

impl Line {
    /// Every line, in the order the report and the key have them.
    pub(crate) const ALL: [Line; 3] = [Line::HeapSize, Line::HeapLive, Line::BlocksSize];

    /// Its place in [`Line::ALL`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Receives a followed input's statements as they become known.
pub(crate) trait Follow {
    /// A header string (`JOB`, `DATE`, the units), once known.
    fn header(&mut self, field: HeaderField, text: &[u8]);
    /// Every band's name so far, by band number (all different).
    fn names(&mut self, names: &[Vec<u8>]);
    /// A complete census at `time` (seconds on the reader's axis): (band number, value)
    /// for each band it has.
    fn census(&mut self, time: f64, points: &[(u32, f64)]);
    /// A mark at `time`, with its text (empty for a `.hp` MARK).
    fn mark(&mut self, time: f64, text: &[u8]);
    /// A point of a line over the bands.
    fn line(&mut self, line: Line, time: f64, value: f64);
    /// A census that damage cost, in words (where, and which).
    fn lost(&mut self, what: String);
}
