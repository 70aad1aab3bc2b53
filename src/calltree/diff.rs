//! Two runs compared ([`TreeDiff`]): their stacks matched by their path of (label,
//! module, source location), never by the files' `no.` (every build numbers its stacks
//! anew), in one shape holding both runs' numbers; and each cost centre's change in
//! time, allocation and entries (its flat table rows, matched by the same names).

use super::merge::Merger;
use super::{CallTree, CcId, Columns, TreeBuilder};

/// Two runs' trees in one shape, and every cost centre's change.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TreeDiff {
    /// The first run's numbers, on every stack of either run (0 where it has none).
    pub before: CallTree,
    /// The second run's, on the same nodes (a node is the same path in both trees).
    pub after: CallTree,
    /// A row per cost centre on a stack of either run ([`CcId`]s of `before` and
    /// `after` alike), in order of first appearance (the first run's first).
    pub changes: Vec<CcChange>,
}

/// One run's numbers of a cost centre (summed over its stacks, as the flat table has
/// them).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct Side {
    /// Individual share of the time, in percent ([`super::FlatRow::time_share`]).
    pub time: f64,
    /// Individual share of the allocation, in percent
    /// ([`super::FlatRow::alloc_share`]).
    pub alloc: f64,
    /// Entries.
    pub entries: u64,
    /// Its time in seconds: ticks × the tick interval, else its share of the total
    /// time (`None` when the run says neither).
    pub seconds: Option<f64>,
    /// Bytes allocated: the `bytes` column, else its share of the total allocation
    /// (`None` when the run says neither).
    pub alloc_bytes: Option<f64>,
}

/// A cost centre's numbers in both runs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CcChange {
    /// The cost centre (in [`TreeDiff::before`] and [`TreeDiff::after`] alike).
    pub cc: CcId,
    /// Its numbers in the first run (`None`: not in it).
    pub before: Option<Side>,
    /// Its numbers in the second run (`None`: not in it).
    pub after: Option<Side>,
}

impl CcChange {
    fn get(side: Option<Side>) -> Side {
        side.unwrap_or_default()
    }

    /// The change of its share of the time, in percentage points.
    pub fn time_change(&self) -> f64 {
        Self::get(self.after).time - Self::get(self.before).time
    }

    /// The change of its share of the allocation, in percentage points.
    pub fn alloc_change(&self) -> f64 {
        Self::get(self.after).alloc - Self::get(self.before).alloc
    }

    /// The change of its entries.
    pub fn entries_change(&self) -> i128 {
        i128::from(Self::get(self.after).entries) - i128::from(Self::get(self.before).entries)
    }

    /// The change of its seconds, when both runs say.
    pub fn seconds_change(&self) -> Option<f64> {
        Some(Self::get(self.after).seconds? - Self::get(self.before).seconds?)
    }

    /// The change of its bytes, when both runs say.
    pub fn bytes_change(&self) -> Option<f64> {
        Some(Self::get(self.after).alloc_bytes? - Self::get(self.before).alloc_bytes?)
    }
}

impl TreeDiff {
    /// Compares `before` with `after`.
    pub fn of(before: &CallTree, after: &CallTree) -> TreeDiff {
        // One table of cost centres for both, and each run's ids in it.
        let mut catalogue = TreeBuilder::new(Columns::default());
        let mut ids = [Vec::new(), Vec::new()];
        for (side, tree) in [before, after].into_iter().enumerate() {
            ids[side] = (tree.cost_centres())
                .map(|cc| {
                    let c = tree.cost_centre(cc);
                    catalogue.cost_centre(c.label, c.module, c.src, c.is_caf)
                })
                .collect::<Vec<CcId>>();
        }
        let template = catalogue.finish();
        let mut merger = Merger::new(2);
        for (side, tree) in [before, after].into_iter().enumerate() {
            let mut at: Vec<u32> = Vec::new();
            for n in tree.nodes() {
                at.truncate(tree.depth(n));
                let parent = at.last().copied().unwrap_or(super::NONE);
                let cc = ids[side][tree.cc(n).index()];
                let node = merger.child(parent, cc.0);
                at.push(node);
                merger.add(node, side, &tree.own_row(n));
            }
        }
        let columns = Columns {
            entries: before.columns.entries || after.columns.entries,
            percentages: true,
            inherited: false,
            ticks: before.columns.ticks && after.columns.ticks,
            bytes: before.columns.bytes && after.columns.bytes,
        };
        let headers = [before.header.clone(), after.header.clone()];
        let (mut trees, _) = merger.finish(&template, columns, &headers);
        let after_tree = trees.pop().unwrap_or_default();
        let before_tree = trees.pop().unwrap_or_default();
        let mut changes: Vec<CcChange> = (template.cost_centres())
            .map(|cc| CcChange {
                cc,
                before: None,
                after: None,
            })
            .collect();
        for (side, tree) in [before, after].into_iter().enumerate() {
            for row in tree.flat_table().into_iter().filter(|r| r.stacks > 0) {
                let h = &tree.header;
                let seconds = match (row.ticks, h.tick_interval) {
                    (Some(t), Some(i)) => Some(t as f64 * i),
                    _ => h.total_time.map(|total| total * row.time / 100.0),
                };
                let alloc_bytes = (row.bytes.map(|b| b as f64))
                    .or_else(|| h.total_alloc.map(|t| t as f64 * row.alloc / 100.0));
                let s = Side {
                    time: row.time_share(h),
                    alloc: row.alloc_share(h),
                    entries: row.entries,
                    seconds,
                    alloc_bytes,
                };
                let change = &mut changes[ids[side][row.cc.index()].index()];
                match side {
                    0 => change.before = Some(s),
                    _ => change.after = Some(s),
                }
            }
        }
        // A cost centre declared but on no stack of either run (an eventlog declares
        // every one the program has) changed in neither.
        changes.retain(|c| c.before.is_some() || c.after.is_some());
        TreeDiff {
            before: before_tree,
            after: after_tree,
            changes,
        }
    }
}
