//! The stacks a page carries of a large time profile: a million stacks are far more
//! than a page can hold (or a screen show: at 1,280 pixels, a stack under a
//! 1,280th of its caller's width is less than a pixel). A tree of more than the budget
//! keeps its widest stacks, by their largest share of any measure the tree has (so that
//! a stack wide in allocation is kept though it took no time), and every caller of one
//! kept; what the others held stays in their callers' inherited numbers, which the page
//! draws as a remainder ("narrower stacks"). The page draws only what is a pixel wide in
//! the view, and zooming in draws the kept stacks under the frame zoomed into.

use crate::calltree::{CallTree, Measure, NodeId};

/// The stacks a page carries.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Thinned {
    /// The nodes kept, in pre-order; a kept node's caller is kept.
    pub(crate) kept: Vec<NodeId>,
    /// The share of the whole (0 to 1, of its widest measure) of the widest stack left
    /// out: 0 when every stack is kept.
    pub(crate) threshold: f64,
}

/// Every measure a flame graph may be drawn by.
pub(crate) const MEASURES: [Measure; 5] = [
    Measure::Time,
    Measure::Alloc,
    Measure::Entries,
    Measure::Ticks,
    Measure::Bytes,
];

/// A tree's inherited values of each of [`MEASURES`] (`None`: the tree has none), worked
/// out once for the thinning and the page's data.
pub(crate) type Inherited = Vec<Option<Vec<f64>>>;

/// `tree`'s [`Inherited`].
pub(crate) fn inherited_of(tree: &CallTree) -> Inherited {
    MEASURES.iter().map(|&m| tree.inherited(m)).collect()
}

/// Each node's largest share of the whole, over the measures the trees have (trees of
/// one shape: a comparison's two runs), from their inherited values.
fn widths(trees: &[(&CallTree, &Inherited)]) -> Vec<f32> {
    let len = trees.first().map_or(0, |t| t.0.len());
    let mut widest = vec![0f32; len];
    for (tree, inherited) in trees {
        for values in inherited.iter().flatten() {
            let total: f64 = tree.roots().map(|r| values[r.index()].max(0.0)).sum();
            if total <= 0.0 {
                continue;
            }
            for (w, v) in widest.iter_mut().zip(values) {
                *w = w.max((v / total) as f32);
            }
        }
    }
    widest
}

/// The stacks of `tree` a page of at most `budget` stacks carries.
#[cfg(test)]
pub(crate) fn thin(tree: &CallTree, budget: usize) -> Thinned {
    thin_trees(&[(tree, &inherited_of(tree))], budget)
}

/// The stacks of `trees` (of one shape: node `i` is the same stack in each; each with
/// its [`Inherited`]) a page of at most `budget` stacks carries, by their widest share
/// in any of them.
pub(crate) fn thin_trees(trees: &[(&CallTree, &Inherited)], budget: usize) -> Thinned {
    let Some(&(tree, _)) = trees.first() else {
        return Thinned {
            kept: Vec::new(),
            threshold: 0.0,
        };
    };
    if tree.len() <= budget {
        return Thinned {
            kept: tree.nodes().collect(),
            threshold: 0.0,
        };
    }
    let widest = widths(trees);
    // The budget-th widest share: the stacks wider are kept, and of those as wide as
    // it, the first ones in the file's order that the wider ones leave room for.
    let mut order = widest.clone();
    let nth = budget.saturating_sub(1);
    let (_, &mut cut, _) = order.select_nth_unstable_by(nth, |a, b| b.total_cmp(a));
    drop(order);
    // Of the stacks as wide as the cut, as many as the wider ones leave room for.
    let wider = widest.iter().filter(|&&w| w > cut).count();
    let mut ties = budget.saturating_sub(wider);
    let mut kept = Vec::with_capacity(budget);
    let mut dropped_widest = 0f32;
    let mut n = 0usize;
    while n < tree.len() {
        let w = widest[n];
        let tie = w == cut && ties > 0;
        if (w > cut || tie) && kept.len() < budget {
            ties -= usize::from(tie && w <= cut);
            kept.push(NodeId(n as u32));
            n += 1;
        } else {
            // Left out with its whole subtree (no stack under it is kept).
            dropped_widest = dropped_widest.max(w);
            n = tree.subtree_end(NodeId(n as u32)).index().max(n + 1);
        }
    }
    Thinned {
        kept,
        threshold: f64::from(dropped_widest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calltree::{Columns, Row, TreeBuilder};

    /// MAIN with `n` children, the i-th of `ticks[i]` ticks, each with a child of one.
    fn fan(ticks: &[u64]) -> CallTree {
        let mut b = TreeBuilder::new(Columns::counts(false, false));
        let main = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
        b.push(0, main, None, Row::default());
        for (i, &t) in ticks.iter().enumerate() {
            let cc = b.cost_centre(&format!("f{i}"), "M", "", false);
            let row = Row {
                ticks: t,
                ..Row::default()
            };
            b.push(1, cc, None, row);
            let leaf = b.cost_centre(&format!("g{i}"), "M", "", false);
            let one = Row {
                ticks: 1,
                ..Row::default()
            };
            b.push(2, leaf, None, one);
        }
        b.finish()
    }

    #[test]
    fn a_small_tree_is_kept_whole() {
        let tree = fan(&[5, 3]);
        let t = thin(&tree, 100);
        assert_eq!(t.kept.len(), tree.len());
        assert_eq!(t.threshold, 0.0);
    }

    #[test]
    fn the_widest_stacks_are_kept_with_their_callers() {
        let tree = fan(&[50, 1, 30, 0, 10]);
        let t = thin(&tree, 6);
        assert_eq!(t.kept.len(), 6);
        // Every kept node's caller is kept, and nothing kept is narrower than a stack
        // left out.
        let kept: std::collections::HashSet<_> = t.kept.iter().copied().collect();
        for &n in &t.kept {
            if let Some(p) = tree.parent(n) {
                assert!(kept.contains(&p));
            }
        }
        let names: Vec<_> = (t.kept.iter())
            .map(|&n| tree.cost_centre(tree.cc(n)).label)
            .collect();
        // The five wider than the cut (a width of 1), then the first of those as wide.
        assert_eq!(names, ["MAIN", "f0", "g0", "f1", "f2", "f4"]);
        assert!(t.threshold > 0.0 && t.threshold < 0.1, "{}", t.threshold);
    }
}
