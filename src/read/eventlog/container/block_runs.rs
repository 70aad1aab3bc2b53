//! Where a mapped log's data can be cut for the workers: between blocks.

use super::header::{Size, Types};
use super::{u16_at, u32_at};
use crate::read::eventlog::events::BLOCK_MARKER;

/// Cuts the data from some offset on into runs of whole blocks of about `target` bytes
/// each, following the block markers' sizes, a run at a time (so that the pages of the
/// file are touched just before they are read, not all at the start). The first thing
/// that is not a block (an event outside blocks, the end marker, a size that does not
/// fit) ends the cutting: the last run goes to the end of the input. The cuts are only
/// guesses: whoever reads a run checks that its events end exactly at the next cut.
pub(crate) struct BlockRuns {
    /// Where the next run starts (`None` once the last run was given).
    at: Option<usize>,
    /// The smallest block: a marker and its payload.
    smallest: Option<usize>,
    target: usize,
}

impl BlockRuns {
    /// Runs of `bytes` from `start` on, of about `target` bytes.
    pub(crate) fn new(start: usize, types: &Types, target: usize) -> Self {
        let smallest = match types.size(BLOCK_MARKER) {
            Size::Fixed(n) if n >= 4 => Some(10 + n),
            _ => None,
        };
        BlockRuns {
            at: Some(start),
            smallest,
            target: target.max(1),
        }
    }

    /// The next run, `(start, end)`.
    pub(crate) fn next_run(&mut self, bytes: &[u8]) -> Option<(usize, usize)> {
        let start = self.at?;
        let mut at = start;
        if let Some(smallest) = self.smallest {
            while at - start < self.target {
                let Some(head) = bytes.get(at..at + 14) else {
                    break;
                };
                let size = u32_at(head, 10) as usize;
                if u16_at(head, 0) != BLOCK_MARKER || size < smallest || size > bytes.len() - at {
                    break;
                }
                at += size;
            }
        }
        if at == start || at == bytes.len() || at - start < self.target {
            // Not a block, or the last blocks: the rest is one run.
            self.at = None;
            return (start < bytes.len()).then_some((start, bytes.len()));
        }
        self.at = Some(at);
        Some((start, at))
    }
}
