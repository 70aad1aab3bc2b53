//! The flat table: one row per cost centre, its stacks merged. Individual numbers are
//! the sums over its stacks; inherited ones count each stack of it only once when it
//! calls itself (a recursive stack under another of the same cost centre is inside the
//! outer one's inherited numbers already: only the outermost ones are added).

use super::{CallTree, CcId, Header, NodeId};

/// One cost centre's numbers over all its stacks (or, in [`CallTree::listed`], as the
/// report's own table lists them: no entries, no inherited numbers, no stacks).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FlatRow {
    /// The cost centre.
    pub cc: CcId,
    /// How many stacks (nodes) it is the top of.
    pub stacks: usize,
    /// Their entries.
    pub entries: u64,
    /// Their individual shares of time and allocation, in percent.
    pub time: f64,
    /// See `time`.
    pub alloc: f64,
    /// The inherited shares of its outermost stacks, in percent.
    pub inherited_time: f64,
    /// See `inherited_time`.
    pub inherited_alloc: f64,
    /// Their ticks and bytes, when the file counts them.
    pub ticks: Option<u64>,
    /// See `ticks`.
    pub bytes: Option<u64>,
    /// The ticks and bytes of its outermost stacks' subtrees.
    pub inherited_ticks: Option<u64>,
    /// See `inherited_ticks`.
    pub inherited_bytes: Option<u64>,
}

impl FlatRow {
    /// An empty row of `cc`, with counts when `counts` says the file has them.
    pub(crate) fn empty(cc: CcId, ticks: bool, bytes: bool) -> FlatRow {
        FlatRow {
            cc,
            stacks: 0,
            entries: 0,
            time: 0.0,
            alloc: 0.0,
            inherited_time: 0.0,
            inherited_alloc: 0.0,
            ticks: ticks.then_some(0),
            bytes: bytes.then_some(0),
            inherited_ticks: ticks.then_some(0),
            inherited_bytes: bytes.then_some(0),
        }
    }
}

impl FlatRow {
    /// Its share of the run's time, in percent: its ticks over the header's total when
    /// the file counts them (exact), else its stacks' shares summed (rounded to the
    /// file's tenth of a percent, which the sum of rounded shares is no finer than).
    pub fn time_share(&self, header: &Header) -> f64 {
        share(self.ticks, header.total_ticks, self.time)
    }

    /// Its share of the run's allocation, in percent (as [`Self::time_share`]: from its
    /// bytes when the file counts them).
    pub fn alloc_share(&self, header: &Header) -> f64 {
        share(self.bytes, header.total_alloc, self.alloc)
    }
}

fn share(count: Option<u64>, total: Option<u64>, summed: f64) -> f64 {
    match (count, total) {
        (Some(c), Some(t)) if t > 0 => 100.0 * c as f64 / t as f64,
        (Some(_), Some(_)) => 0.0,
        _ => (summed * 10.0).round() / 10.0,
    }
}

fn add(to: &mut Option<u64>, value: Option<u64>) {
    if let (Some(t), Some(v)) = (to.as_mut(), value) {
        *t = t.saturating_add(v);
    }
}

impl CallTree {
    /// The flat table: a row per cost centre, in [`CallTree::cost_centres`]' order
    /// (indexed by [`CcId::index`]).
    pub fn flat_table(&self) -> Vec<FlatRow> {
        let c = self.columns;
        let mut rows: Vec<FlatRow> = (self.cost_centres())
            .map(|cc| FlatRow::empty(cc, c.ticks, c.bytes))
            .collect();
        let inherited_ticks = c.ticks.then(|| self.subtree_sums(&self.ticks));
        let inherited_bytes = c.bytes.then(|| self.subtree_sums(&self.bytes));
        // How many of the current path's nodes are of each cost centre.
        let mut on_path = vec![0u32; rows.len()];
        let mut path: Vec<NodeId> = Vec::new();
        for n in self.nodes() {
            while let Some(&top) = path.last() {
                if self.end[top.index()] > n.0 {
                    break;
                }
                on_path[self.cc[top.index()] as usize] -= 1;
                path.pop();
            }
            let i = n.index();
            let cc = self.cc[i] as usize;
            let row = &mut rows[cc];
            row.stacks += 1;
            row.entries = row.entries.saturating_add(self.entries[i]);
            row.time += self.time[i];
            row.alloc += self.alloc[i];
            add(&mut row.ticks, self.ticks(n));
            add(&mut row.bytes, self.bytes(n));
            if on_path[cc] == 0 {
                row.inherited_time += self.inherited_time[i];
                row.inherited_alloc += self.inherited_alloc[i];
                add(
                    &mut row.inherited_ticks,
                    inherited_ticks.as_ref().map(|v| v[i]),
                );
                add(
                    &mut row.inherited_bytes,
                    inherited_bytes.as_ref().map(|v| v[i]),
                );
            }
            on_path[cc] += 1;
            path.push(n);
        }
        rows
    }
}
