//! The flat table: one row per cost centre, its stacks merged. Individual numbers are
//! the sums over its stacks; inherited ones count each stack of it only once when it
//! calls itself (a recursive stack under another of the same cost centre is inside the
//! outer one's inherited numbers already: only the outermost ones are added).

use super::{CallTree, FlatRow, NodeId};

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
