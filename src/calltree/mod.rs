//! The second model, beside the heap series: a time and allocation profile as a tree of
//! cost-centre stacks ([`CallTree`]), as GHC's `+RTS -p` report, its `-pj` JSON and an
//! eventlog's time samples give it. Data only: the readers (`src/read/prof/`) build it
//! through [`TreeBuilder`]; the summary and the page's panels read it.
//!
//! The nodes are kept in the file's order, which is a pre-order walk (a node, then its
//! children's subtrees, in order), as columns (one vector per field, a node's fields at
//! its index): a node's subtree is the run of nodes from it to its [`CallTree::subtree_end`],
//! so its children, a flame graph's walk and subtree sums need no pointers. Texts are
//! interned ([`names`]); cost centres are told apart by (label, module, source location),
//! never by the file's `no.` (which every build numbers anew).
//!
//! Files: the tree and its reading (`mod.rs`), the interned texts (`names.rs`), the
//! header's facts and the retainer sets (`header.rs`), how readers build a tree
//! (`build.rs`; rows written in place by several threads: `in_place.rs`), trees of merged paths (`merge.rs`: the sandwich's, a window's and a
//! diff's), the derived views: the flat table (`flat.rs`), folded stacks (`folded.rs`),
//! the sandwich (`sandwich.rs`), the diff of two trees (`diff.rs`); an eventlog's samples
//! in time order and the tree of a window of them (`sampled.rs`).

mod build;
mod columns;
mod diff;
mod flat;
mod flat_row;
mod folded;
mod header;
mod ids;
mod in_place;
mod merge;
mod names;
mod sampled;
mod sandwich;
#[cfg(test)]
mod tests;

pub use build::{Row, TreeBuilder};
pub use columns::Columns;
pub use diff::{CcChange, Side, TreeDiff};
pub use flat_row::FlatRow;
pub use folded::Measure;
pub use header::{Header, RetainerSet};
pub use ids::{CcId, NodeId};
pub(crate) use ids::{CcRow, NONE};
pub(crate) use in_place::{RowsMut, DROPPED};
pub use sampled::Sampled;
pub use sandwich::Sandwich;

use names::Names;

/// A cost centre, as its tree names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostCentre<'a> {
    /// Its label (`main.go`, `CAF`, `CAF:main1`).
    pub label: &'a str,
    /// Its module (`Main`; `MAIN`, `SYSTEM`, `GC`, … for the runtime's own).
    pub module: &'a str,
    /// Its source location (`Main.hs:(3,1)-(5,20)`, `<built-in>`,
    /// `<no location info>`); empty when the file has no SRC column.
    pub src: &'a str,
    /// Whether it is a CAF's (the label `CAF` or `CAF:…`, or `-pj`'s `is_caf`).
    pub is_caf: bool,
}

/// A time and allocation profile: cost centres, the tree of their stacks with each
/// stack's numbers as the file gives them, and the header's facts.
#[derive(Debug, Clone, Default)]
pub struct CallTree {
    pub(crate) names: Names,
    pub(crate) ccs: Vec<CcRow>,
    /// Per node (pre-order): its cost centre, parent ([`NONE`] for a root), the end of
    /// its subtree (exclusive), its depth (0 for a root) and the file's `no.` (a hint:
    /// [`NONE`] when there is none).
    pub(crate) cc: Vec<u32>,
    pub(crate) parent: Vec<u32>,
    pub(crate) end: Vec<u32>,
    pub(crate) depth: Vec<u32>,
    pub(crate) no: Vec<u32>,
    /// Per node: entries, individual and inherited shares (percent) of time and
    /// allocation; ticks and bytes when [`Columns`] says the file has them (else empty).
    pub(crate) entries: Vec<u64>,
    pub(crate) time: Vec<f64>,
    pub(crate) alloc: Vec<f64>,
    pub(crate) inherited_time: Vec<f64>,
    pub(crate) inherited_alloc: Vec<f64>,
    pub(crate) ticks: Vec<u64>,
    pub(crate) bytes: Vec<u64>,
    pub(crate) columns: Columns,
    pub(crate) header: Header,
    pub(crate) retainer_sets: Vec<RetainerSet>,
    /// The report's own table of the costliest cost centres (`COST CENTRE MODULE …
    /// %time %alloc`): its rows as listed, to check the tree against.
    pub(crate) listed: Vec<FlatRow>,
}

impl CallTree {
    /// The number of nodes (cost-centre stacks).
    pub fn len(&self) -> usize {
        self.cc.len()
    }

    /// Whether it has no node (a report cut before its tree).
    pub fn is_empty(&self) -> bool {
        self.cc.is_empty()
    }

    /// Every node, in pre-order.
    pub fn nodes(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator {
        (0..self.len() as u32).map(NodeId)
    }

    /// The nodes without a parent (a report has one, `MAIN`), in order.
    pub fn roots(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.siblings_from(0, self.len() as u32)
    }

    /// A node's children, in the file's order.
    pub fn children(&self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.siblings_from(n.0 + 1, self.end[n.index()])
    }

    /// The nodes from `first` that start each subtree until `end`.
    fn siblings_from(&self, first: u32, end: u32) -> impl Iterator<Item = NodeId> + '_ {
        let mut next = first;
        std::iter::from_fn(move || {
            (next < end).then(|| {
                let n = next;
                next = self.end[n as usize];
                NodeId(n)
            })
        })
    }

    /// A node's parent (`None` for a root).
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        let p = self.parent[n.index()];
        (p != NONE).then_some(NodeId(p))
    }

    /// The end of a node's subtree: its descendants are the nodes after it up to this
    /// one (excluded).
    pub fn subtree_end(&self, n: NodeId) -> NodeId {
        NodeId(self.end[n.index()])
    }

    /// A node's depth (0 for a root).
    pub fn depth(&self, n: NodeId) -> usize {
        self.depth[n.index()] as usize
    }

    /// The path from the root to `n`, both included.
    pub fn path(&self, n: NodeId) -> Vec<NodeId> {
        let mut path = vec![n];
        let mut at = n;
        while let Some(p) = self.parent(at) {
            path.push(p);
            at = p;
        }
        path.reverse();
        path
    }

    /// A node's cost centre.
    pub fn cc(&self, n: NodeId) -> CcId {
        CcId(self.cc[n.index()])
    }

    /// The file's `no.` of a node (`None` for `-pj`'s and an eventlog's): a hint only,
    /// renumbered by every build.
    pub fn no(&self, n: NodeId) -> Option<u32> {
        let no = self.no[n.index()];
        (no != NONE).then_some(no)
    }

    /// How many times the node's stack was entered (0 when the file does not say).
    pub fn entries(&self, n: NodeId) -> u64 {
        self.entries[n.index()]
    }

    /// The node's own share of the time, in percent.
    pub fn time(&self, n: NodeId) -> f64 {
        self.time[n.index()]
    }

    /// The node's own share of the allocation, in percent.
    pub fn alloc(&self, n: NodeId) -> f64 {
        self.alloc[n.index()]
    }

    /// The share of the time of the node's subtree, in percent.
    pub fn inherited_time(&self, n: NodeId) -> f64 {
        self.inherited_time[n.index()]
    }

    /// The share of the allocation of the node's subtree, in percent.
    pub fn inherited_alloc(&self, n: NodeId) -> f64 {
        self.inherited_alloc[n.index()]
    }

    /// The node's own ticks, when the file counts them (`-P`, `-pa`, `-pj`, eventlog).
    pub fn ticks(&self, n: NodeId) -> Option<u64> {
        self.ticks.get(n.index()).copied()
    }

    /// The node's own bytes allocated, when the file counts them (`-P`, `-pa`, `-pj`).
    pub fn bytes(&self, n: NodeId) -> Option<u64> {
        self.bytes.get(n.index()).copied()
    }

    /// Which numbers the file gives.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// What the file says of its run.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The retainer sets of a `-p -hr` run's report, in its order (empty otherwise).
    pub fn retainer_sets(&self) -> &[RetainerSet] {
        &self.retainer_sets
    }

    /// The retainer set numbered `id` (the `.hp`'s band `(id)…`).
    pub fn retainer_set(&self, id: u64) -> Option<&RetainerSet> {
        self.retainer_sets.iter().find(|s| s.id == id)
    }

    /// The number of distinct cost centres.
    pub fn cc_count(&self) -> usize {
        self.ccs.len()
    }

    /// Every cost centre, in order of first appearance.
    pub fn cost_centres(&self) -> impl ExactSizeIterator<Item = CcId> {
        (0..self.ccs.len() as u32).map(CcId)
    }

    /// A cost centre's names.
    pub fn cost_centre(&self, cc: CcId) -> CostCentre<'_> {
        let row = self.ccs[cc.index()];
        CostCentre {
            label: self.names.get(row.label),
            module: self.names.get(row.module),
            src: self.names.get(row.src),
            is_caf: row.is_caf,
        }
    }

    /// The cost centre of this label, module and source location, if the tree has it.
    pub fn find_cc(&self, label: &str, module: &str, src: &str) -> Option<CcId> {
        self.cost_centres().find(|&cc| {
            let c = self.cost_centre(cc);
            (c.label, c.module, c.src) == (label, module, src)
        })
    }

    /// The report's own table of its costliest cost centres, as listed (empty for
    /// `-pj` and eventlogs): to check [`Self::flat_table`] against.
    pub fn listed(&self) -> &[FlatRow] {
        &self.listed
    }

    /// Each node's value of `values` plus its descendants' (subtree sums), by node.
    pub fn subtree_sums(&self, values: &[u64]) -> Vec<u64> {
        let mut sums = values.to_vec();
        sums.resize(self.len(), 0);
        for n in (0..self.len()).rev() {
            let p = self.parent[n];
            if p != NONE {
                sums[p as usize] = sums[p as usize].saturating_add(sums[n]);
            }
        }
        sums
    }

    /// The bytes the tree holds (its vectors and texts), for the memory budget.
    pub fn heap_bytes(&self) -> usize {
        let u32s = self.cc.capacity()
            + self.parent.capacity()
            + self.end.capacity()
            + self.depth.capacity()
            + self.no.capacity();
        let u64s = self.entries.capacity()
            + self.time.capacity()
            + self.alloc.capacity()
            + self.inherited_time.capacity()
            + self.inherited_alloc.capacity()
            + self.ticks.capacity()
            + self.bytes.capacity();
        u32s * 4 + u64s * 8 + self.names.heap_bytes() + self.ccs.capacity() * 16
    }
}
