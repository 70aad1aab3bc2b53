//! The sandwich of a cost centre: who calls it and what it calls, merged over every
//! stack it is in. Only its outermost stacks count (a stack of it under another of it is
//! inside the outer one already), so each tree's root holds the cost centre's
//! inherited numbers as the flat table has them.

use super::merge::Merger;
use super::{CallTree, CcId, NodeId, Row};

/// The callers and callees of one cost centre.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Sandwich {
    /// The cost centre.
    pub cc: CcId,
    /// Its callers, inverted: the root is the cost centre, its children the cost
    /// centres that called it, theirs their callers, up to `MAIN`; each node's
    /// inherited numbers are the cost centre's own subtree's, reached through that
    /// chain of callers.
    pub callers: CallTree,
    /// Its callees: the root is the cost centre, below it the subtrees of all its
    /// outermost stacks merged by path.
    pub callees: CallTree,
}

impl CallTree {
    /// The outermost nodes of cost centre `cc` (none of their ancestors is of `cc`).
    pub fn outermost(&self, cc: CcId) -> Vec<NodeId> {
        let mut found = Vec::new();
        let mut n = 0u32;
        while (n as usize) < self.len() {
            if self.cc[n as usize] == cc.0 {
                found.push(NodeId(n));
                n = self.end[n as usize];
            } else {
                n += 1;
            }
        }
        found
    }

    /// The sandwich of cost centre `cc` (two empty trees when no stack has it).
    pub fn sandwich(&self, cc: CcId) -> Sandwich {
        let outer = self.outermost(cc);
        let mut callers = Merger::new(1);
        let mut callees = Merger::new(1);
        let inherited_ticks = self.columns.ticks.then(|| self.subtree_sums(&self.ticks));
        let inherited_bytes = self.columns.bytes.then(|| self.subtree_sums(&self.bytes));
        for &o in &outer {
            // Callers: the path from `o` up to the root, carrying o's whole subtree.
            let chain = self.path(o).into_iter().rev().map(|n| self.cc[n.index()]);
            let top = callers.node(chain);
            let i = o.index();
            let whole = Row {
                entries: self.entries[i],
                time: self.inherited_time[i],
                alloc: self.inherited_alloc[i],
                ticks: inherited_ticks.as_ref().map_or(0, |v| v[i]),
                bytes: inherited_bytes.as_ref().map_or(0, |v| v[i]),
                ..Row::default()
            };
            callers.add(top, 0, &whole);
            // Callees: o's subtree, each node under its path from o.
            let mut at = Vec::new();
            for d in o.0..self.end[i] {
                let depth = self.depth[d as usize] - self.depth[i];
                at.truncate(depth as usize);
                let parent = at.last().copied().unwrap_or(super::NONE);
                let node = callees.child(parent, self.cc[d as usize]);
                at.push(node);
                callees.add(node, 0, &self.own_row(NodeId(d)));
            }
        }
        let header = [self.header.clone()];
        let columns = self.columns;
        Sandwich {
            cc,
            callers: callers.finish(self, columns, &header).0.remove(0),
            callees: callees.finish(self, columns, &header).0.remove(0),
        }
    }

    /// A node's own numbers as a [`Row`] (its inherited ones left 0).
    pub(crate) fn own_row(&self, n: NodeId) -> Row {
        let i = n.index();
        Row {
            entries: self.entries[i],
            time: self.time[i],
            alloc: self.alloc[i],
            ticks: self.ticks.get(i).copied().unwrap_or(0),
            bytes: self.bytes.get(i).copied().unwrap_or(0),
            ..Row::default()
        }
    }
}
