//! An eventlog's time profile ([`Sampled`]): the same tree as the run's `.prof`, made
//! of its samples (PROF_SAMPLE_COST_CENTRE, a cost-centre stack each tick, one per
//! capability), with the samples kept in time order, so that the tree of any window of
//! the run can be made ([`Sampled::tree_of_window`]: the page brushes a window of the
//! heap chart to see its time profile).

use super::merge::Merger;
use super::{CallTree, CcId, Columns, Header, NodeId, Row, TreeBuilder, NONE};

/// An eventlog's time samples and their tree.
#[derive(Debug, Clone, Default)]
pub struct Sampled {
    /// Every sample counted as a tick of its stack (ticks only: an eventlog has no
    /// entries nor allocation).
    tree: CallTree,
    /// Each sample's time, in seconds on the eventlog's time axis (the heap chart's),
    /// in time order.
    times: Vec<f64>,
    /// Each sample's node in `tree`.
    nodes: Vec<u32>,
}

impl Sampled {
    /// The samples' tree: `stacks` (each outermost cost centre first, cost centres made
    /// by `builder`) and `samples` (each one's time in seconds and stack), in any order;
    /// the stacks are merged by path, children in order of first appearance (in time).
    pub(crate) fn new(
        builder: TreeBuilder,
        stacks: &[Vec<CcId>],
        mut samples: Vec<(f64, u32)>,
        header: Header,
    ) -> Sampled {
        samples.sort_by(|a, b| a.0.total_cmp(&b.0));
        let template = builder.finish();
        let mut merger = Merger::new(1);
        let tick = Row {
            ticks: 1,
            ..Row::default()
        };
        // Each stack's node, made when a sample first has it (in time order).
        let mut node_of = vec![NONE; stacks.len()];
        let mut at: Vec<u32> = Vec::with_capacity(samples.len());
        for &(_, k) in &samples {
            let Some(stack) = stacks.get(k as usize) else {
                at.push(NONE);
                continue;
            };
            if node_of[k as usize] == NONE {
                node_of[k as usize] = merger.node(stack.iter().map(|cc| cc.0));
            }
            let n = node_of[k as usize];
            merger.add(n, 0, &tick);
            at.push(n);
        }
        let columns = Columns::counts(false, false);
        let (mut trees, new_of) = merger.finish(&template, columns, &[header]);
        let tree = trees.remove(0);
        let nodes = (at.into_iter())
            .map(|n| if n == NONE { NONE } else { new_of[n as usize] })
            .collect();
        Sampled {
            tree,
            times: samples.iter().map(|s| s.0).collect(),
            nodes,
        }
    }

    /// The tree of every sample.
    pub fn tree(&self) -> &CallTree {
        &self.tree
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Each sample, in time order: its time (seconds on the eventlog's axis) and node
    /// (`None` for a sample of an empty stack).
    pub fn samples(&self) -> impl Iterator<Item = (f64, Option<NodeId>)> + '_ {
        (self.times.iter().zip(&self.nodes)).map(|(&t, &n)| (t, (n != NONE).then_some(NodeId(n))))
    }

    /// The samples from `t0` to `t1` (seconds, `t0` included, `t1` not).
    fn window(&self, t0: f64, t1: f64) -> std::ops::Range<usize> {
        let from = self.times.partition_point(|&t| t < t0);
        let to = self.times.partition_point(|&t| t < t1).max(from);
        from..to
    }

    /// How many samples fall from `t0` to `t1` (seconds; `t0` included, `t1` not).
    pub fn count_in(&self, t0: f64, t1: f64) -> usize {
        self.window(t0, t1).len()
    }

    /// The tree of the samples from `t0` to `t1` (seconds; `t0` included, `t1` not):
    /// the stacks with a sample there, each with its ticks in the window, shares of the
    /// window's samples; its header's `total_ticks` is their number.
    pub fn tree_of_window(&self, t0: f64, t1: f64) -> CallTree {
        let mut counts = vec![0u64; self.tree.len()];
        let range = self.window(t0, t1);
        let mut total = 0u64;
        for &n in &self.nodes[range] {
            if n != NONE {
                counts[n as usize] += 1;
                total += 1;
            }
        }
        let mut merger = Merger::new(1);
        // Walks the tree in pre-order, keeping each counted node's path.
        for n in self.tree.nodes() {
            let c = counts[n.index()];
            if c > 0 {
                let path = self
                    .tree
                    .path(n)
                    .into_iter()
                    .map(|p| self.tree.cc[p.index()]);
                let m = merger.node(path);
                let row = Row {
                    ticks: c,
                    ..Row::default()
                };
                merger.add(m, 0, &row);
            }
        }
        let mut header = self.tree.header.clone();
        header.total_ticks = Some(total);
        header.total_time = header.tick_interval.map(|i| i * total as f64);
        let columns = self.tree.columns;
        merger.finish(&self.tree, columns, &[header]).0.remove(0)
    }
}
