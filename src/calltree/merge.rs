//! Trees of merged paths: paths of cost centres added one by one with numbers for their
//! last node, equal paths merged (their numbers summed), children in order of first
//! appearance; then laid out in pre-order as [`CallTree`]s, one per side (a diff has a
//! side per tree, the shape of both). The sandwich, an eventlog's samples, a window of
//! them and a diff are made so. The inherited numbers are subtree sums.

use std::collections::HashMap;

use super::build::derive_shares;
use super::{CallTree, Columns, Header, Row, NONE};
use crate::intern::FxBuild;

/// Paths being merged, in `sides` sets of numbers.
pub(crate) struct Merger {
    sides: usize,
    cc: Vec<u32>,
    parent: Vec<u32>,
    /// The first and last child and the next sibling of each node ([`NONE`]: none).
    first_child: Vec<u32>,
    last_child: Vec<u32>,
    next_sibling: Vec<u32>,
    /// The numbers: `sides` rows per node.
    rows: Vec<Row>,
    /// A node's child of a cost centre: (parent + 1, cc) → node (parent 0: a root).
    index: HashMap<(u32, u32), u32, FxBuild>,
}

impl Merger {
    pub(crate) fn new(sides: usize) -> Merger {
        Merger {
            sides: sides.max(1),
            cc: Vec::new(),
            parent: Vec::new(),
            first_child: Vec::new(),
            last_child: Vec::new(),
            next_sibling: Vec::new(),
            rows: Vec::new(),
            index: HashMap::default(),
        }
    }

    /// The node of `path` (cost centres from the root), made where it is new.
    pub(crate) fn node(&mut self, path: impl IntoIterator<Item = u32>) -> u32 {
        let mut at = NONE;
        for cc in path {
            at = self.child(at, cc);
        }
        at
    }

    /// `parent`'s child of cost centre `cc` ([`NONE`] parent: a root), made if new.
    pub(crate) fn child(&mut self, parent: u32, cc: u32) -> u32 {
        let key = (parent.wrapping_add(1), cc);
        if let Some(&n) = self.index.get(&key) {
            return n;
        }
        let n = self.cc.len() as u32;
        self.index.insert(key, n);
        self.cc.push(cc);
        self.parent.push(parent);
        self.first_child.push(NONE);
        self.last_child.push(NONE);
        self.next_sibling.push(NONE);
        self.rows
            .extend(std::iter::repeat(Row::default()).take(self.sides));
        if parent != NONE {
            let p = parent as usize;
            match self.last_child[p] {
                NONE => self.first_child[p] = n,
                last => self.next_sibling[last as usize] = n,
            }
            self.last_child[p] = n;
        }
        n
    }

    /// Adds `row` to node `n`'s numbers of side `side`.
    pub(crate) fn add(&mut self, n: u32, side: usize, row: &Row) {
        if n == NONE {
            return;
        }
        let r = &mut self.rows[n as usize * self.sides + side];
        r.entries = r.entries.saturating_add(row.entries);
        r.time += row.time;
        r.alloc += row.alloc;
        r.ticks = r.ticks.saturating_add(row.ticks);
        r.bytes = r.bytes.saturating_add(row.bytes);
    }

    /// The merged trees, one per side, each with a copy of `template`'s cost centres,
    /// the `columns` and `header` given (shares are derived from ticks and bytes when
    /// `columns` has no percentages); and where each merged node went (old → new).
    pub(crate) fn finish(
        self,
        template: &CallTree,
        columns: Columns,
        header: &[Header],
    ) -> (Vec<CallTree>, Vec<u32>) {
        let order = self.pre_order();
        let mut new_of = vec![NONE; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old as usize] = new as u32;
        }
        let mut trees = Vec::with_capacity(self.sides);
        for side in 0..self.sides {
            let mut t = CallTree {
                names: template.names.clone(),
                ccs: template.ccs.clone(),
                columns,
                header: header.get(side).cloned().unwrap_or_default(),
                ..CallTree::default()
            };
            let mut depth_of = vec![0u32; order.len()];
            for (new, &old) in order.iter().enumerate() {
                let o = old as usize;
                let row = &self.rows[o * self.sides + side];
                let parent = match self.parent[o] {
                    NONE => NONE,
                    p => new_of[p as usize],
                };
                let depth = if parent == NONE {
                    0
                } else {
                    depth_of[parent as usize] + 1
                };
                depth_of[new] = depth;
                t.cc.push(self.cc[o]);
                t.parent.push(parent);
                t.depth.push(depth);
                t.no.push(NONE);
                t.entries.push(row.entries);
                t.time.push(row.time);
                t.alloc.push(row.alloc);
                if columns.ticks {
                    t.ticks.push(row.ticks);
                }
                if columns.bytes {
                    t.bytes.push(row.bytes);
                }
            }
            t.end = subtree_ends(&t.parent);
            let inherit = Columns {
                inherited: false,
                ..columns
            };
            t.columns = inherit;
            // Inherited shares are subtree sums (of the shares added, or of the counts).
            derive_shares(&mut t);
            t.columns = columns;
            trees.push(t);
        }
        (trees, new_of)
    }

    /// The nodes in pre-order: each root, then its children's subtrees in order.
    fn pre_order(&self) -> Vec<u32> {
        let mut order = Vec::with_capacity(self.cc.len());
        let roots = (0..self.cc.len() as u32).filter(|&n| self.parent[n as usize] == NONE);
        for root in roots {
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                order.push(n);
                // Children pushed last first, so that the first is taken first.
                let mut kids = Vec::new();
                let mut c = self.first_child[n as usize];
                while c != NONE {
                    kids.push(c);
                    c = self.next_sibling[c as usize];
                }
                stack.extend(kids.into_iter().rev());
            }
        }
        order
    }
}

/// Each node's subtree end from its parent, nodes in pre-order.
fn subtree_ends(parent: &[u32]) -> Vec<u32> {
    let len = parent.len() as u32;
    let mut end = vec![len; parent.len()];
    let mut open: Vec<u32> = Vec::new();
    for (n, &p) in parent.iter().enumerate() {
        while let Some(&top) = open.last() {
            if top == p {
                break;
            }
            end[top as usize] = n as u32;
            open.pop();
        }
        open.push(n as u32);
    }
    end
}
