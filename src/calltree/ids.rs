//! The numbers a tree gives its cost centres and nodes, and a cost centre's interned
//! texts: in a file of their own, which the tree and its builder both use.

/// A cost centre's number in its tree ([`CallTree::cost_centre`](super::CallTree::cost_centre)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CcId(pub(crate) u32);

impl CcId {
    /// Its index, from 0, in [`CallTree::cost_centres`]' order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A node's number: its place in the tree's pre-order (the file's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// Its index, from 0.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A cost centre's texts, interned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CcRow {
    pub(crate) label: u32,
    pub(crate) module: u32,
    pub(crate) src: u32,
    pub(crate) is_caf: bool,
}

/// "No node": a root's parent.
pub(crate) const NONE: u32 = u32::MAX;
