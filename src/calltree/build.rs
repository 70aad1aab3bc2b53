//! [`TreeBuilder`]: how a reader makes a [`CallTree`]. It hands over the header's facts,
//! the cost centres (each distinct (label, module, src) one [`CcId`]) and the nodes in
//! the file's order, each at its level (a text report's indentation, a JSON node's
//! depth): a node's parent is the last node given at a lower level. `finish` closes the
//! subtrees and fills what the file left to be derived: the shares of time and
//! allocation of a `-pj` file or an eventlog, from ticks and bytes.

use super::header::{Header, RetainerSet};
use super::{CallTree, CcId, CcRow, Columns, FlatRow, NodeId, NONE};
use crate::intern::{hash_bytes, NameIndex};

/// One node's numbers as a file gives them (what it does not give stays 0).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
#[non_exhaustive]
pub struct Row {
    /// Entries.
    pub entries: u64,
    /// Individual `%time`.
    pub time: f64,
    /// Individual `%alloc`.
    pub alloc: f64,
    /// Inherited `%time`.
    pub inherited_time: f64,
    /// Inherited `%alloc`.
    pub inherited_alloc: f64,
    /// Ticks.
    pub ticks: u64,
    /// Bytes.
    pub bytes: u64,
}

/// Builds a [`CallTree`] node by node, in the file's order.
pub struct TreeBuilder {
    pub(super) tree: CallTree,
    /// Each cost centre's (label, module, src) numbers as 12 bytes, and their index.
    keys: Vec<[u8; 12]>,
    index: NameIndex,
    /// The open nodes (the path to the last one), each with its level.
    pub(super) open: Vec<(usize, u32)>,
    /// The longest name kept, in bytes, and how many names were cut to it.
    max_name_len: usize,
    names_cut: usize,
}

impl TreeBuilder {
    /// A builder of a tree whose file gives `columns`.
    pub fn new(columns: Columns) -> TreeBuilder {
        let tree = CallTree {
            columns,
            ..CallTree::default()
        };
        TreeBuilder {
            tree,
            keys: Vec::new(),
            index: NameIndex::default(),
            open: Vec::new(),
            max_name_len: usize::MAX,
            names_cut: 0,
        }
    }

    /// Cuts every label, module and location longer than `max` bytes to them (at a
    /// character's start) and `...`.
    pub fn set_name_limit(&mut self, max: usize) {
        self.max_name_len = max;
    }

    /// How many names were cut to the limit so far.
    pub fn names_cut(&self) -> usize {
        self.names_cut
    }

    /// Room for `nodes` nodes without growing.
    pub fn reserve(&mut self, nodes: usize) {
        let t = &mut self.tree;
        for v in [
            &mut t.cc,
            &mut t.parent,
            &mut t.end,
            &mut t.depth,
            &mut t.no,
        ] {
            v.reserve(nodes);
        }
        for v in [&mut t.entries, &mut t.ticks, &mut t.bytes] {
            v.reserve(nodes);
        }
        for v in [
            &mut t.time,
            &mut t.alloc,
            &mut t.inherited_time,
            &mut t.inherited_alloc,
        ] {
            v.reserve(nodes);
        }
    }

    /// Sets the columns the file gives, before any node is added (a report's tree says
    /// them after its head).
    pub fn set_columns(&mut self, columns: Columns) {
        debug_assert!(self.tree.is_empty());
        self.tree.columns = columns;
    }

    /// The header, to fill.
    pub fn header_mut(&mut self) -> &mut Header {
        &mut self.tree.header
    }

    /// The header so far.
    pub fn header(&self) -> &Header {
        &self.tree.header
    }

    /// The number of nodes given so far.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// Whether no node was given yet.
    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    /// The cost centre of this label, module and source location (a new one the first
    /// time). `is_caf` is kept from its first time.
    pub fn cost_centre(&mut self, label: &str, module: &str, src: &str, is_caf: bool) -> CcId {
        let max = self.max_name_len;
        let cut = |name: &str| -> String {
            let mut end = max;
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}...", &name[..end])
        };
        let mut names = [label, module, src].map(std::borrow::Cow::Borrowed);
        for name in &mut names {
            if name.len() > max {
                *name = cut(name).into();
                self.names_cut += 1;
            }
        }
        let names_table = &mut self.tree.names;
        let ids = names.map(|n| names_table.intern(&n));
        let mut key = [0u8; 12];
        for (k, id) in key.chunks_exact_mut(4).zip(ids) {
            k.copy_from_slice(&id.to_le_bytes());
        }
        let hash = hash_bytes(&key);
        let keys = &self.keys;
        match self.index.find(&key, hash, |id| &keys[id as usize][..]) {
            Ok(id) => CcId(id),
            Err(slot) => {
                let id = self.keys.len() as u32;
                self.keys.push(key);
                self.index.insert(slot, hash, id);
                self.tree.ccs.push(CcRow {
                    label: ids[0],
                    module: ids[1],
                    src: ids[2],
                    is_caf,
                });
                CcId(id)
            }
        }
    }

    /// Adds a node of cost centre `cc` at `level`: its parent is the last node added at
    /// a lower level (none: a root). `no` is the file's number of it, if any.
    pub fn push(&mut self, level: usize, cc: CcId, no: Option<u32>, row: Row) -> NodeId {
        let id = self.tree.len() as u32;
        while let Some(&(l, n)) = self.open.last() {
            if l < level {
                break;
            }
            self.tree.end[n as usize] = id;
            self.open.pop();
        }
        let t = &mut self.tree;
        t.cc.push(cc.0);
        t.parent.push(self.open.last().map_or(NONE, |&(_, p)| p));
        t.end.push(id + 1);
        t.depth.push(self.open.len() as u32);
        t.no.push(no.unwrap_or(NONE));
        t.entries.push(row.entries);
        t.time.push(row.time);
        t.alloc.push(row.alloc);
        t.inherited_time.push(row.inherited_time);
        t.inherited_alloc.push(row.inherited_alloc);
        if t.columns.ticks {
            t.ticks.push(row.ticks);
        }
        if t.columns.bytes {
            t.bytes.push(row.bytes);
        }
        self.open.push((level, id));
        NodeId(id)
    }

    /// Replaces node `n`'s numbers (a `-pj` node's numbers after its children).
    pub fn set_row(&mut self, n: NodeId, row: Row) {
        if n.index() < self.tree.len() {
            self.rows_from(n.index()).set_numbers(0, &row);
        }
    }

    /// Adds a retainer set of the report's table.
    pub fn retainer_set(&mut self, set: RetainerSet) {
        self.tree.retainer_sets.push(set);
    }

    /// Adds a row of the report's own table of its costliest cost centres.
    pub fn listed(&mut self, row: FlatRow) {
        self.tree.listed.push(row);
    }

    /// The tree: every subtree closed; the shares a file does not give derived from its
    /// ticks and bytes (over the header's totals, else the tree's), and inherited
    /// shares from subtree sums.
    pub fn finish(mut self) -> CallTree {
        let len = self.tree.len() as u32;
        for (_, n) in self.open.drain(..) {
            self.tree.end[n as usize] = len;
        }
        let mut tree = self.tree;
        derive_shares(&mut tree);
        tree
    }
}

/// Fills the shares the file did not give (see [`TreeBuilder::finish`]).
pub(crate) fn derive_shares(tree: &mut CallTree) {
    let c = tree.columns;
    if !c.percentages {
        if c.ticks {
            let total = (tree.header.total_ticks).unwrap_or_else(|| tree.ticks.iter().sum());
            tree.time = shares(&tree.ticks, total);
        }
        if c.bytes {
            let total = (tree.header.total_alloc).unwrap_or_else(|| tree.bytes.iter().sum());
            tree.alloc = shares(&tree.bytes, total);
        }
    }
    if !c.inherited {
        if c.ticks && !c.percentages {
            let total = (tree.header.total_ticks).unwrap_or_else(|| tree.ticks.iter().sum());
            tree.inherited_time = shares(&tree.subtree_sums(&tree.ticks), total);
        } else {
            tree.inherited_time = float_sums(tree, &tree.time);
        }
        if c.bytes && !c.percentages {
            let total = (tree.header.total_alloc).unwrap_or_else(|| tree.bytes.iter().sum());
            tree.inherited_alloc = shares(&tree.subtree_sums(&tree.bytes), total);
        } else {
            tree.inherited_alloc = float_sums(tree, &tree.alloc);
        }
    }
}

/// Each count's share of `total`, in percent (0 when the total is 0).
fn shares(counts: &[u64], total: u64) -> Vec<f64> {
    let total = total as f64;
    (counts.iter())
        .map(|&c| {
            if total > 0.0 {
                100.0 * c as f64 / total
            } else {
                0.0
            }
        })
        .collect()
}

/// Subtree sums of a float per node.
pub(crate) fn float_sums(tree: &CallTree, values: &[f64]) -> Vec<f64> {
    let mut sums = values.to_vec();
    sums.resize(tree.len(), 0.0);
    for n in (0..tree.len()).rev() {
        let p = tree.parent[n];
        if p != NONE {
            sums[p as usize] += sums[n];
        }
    }
    sums
}
