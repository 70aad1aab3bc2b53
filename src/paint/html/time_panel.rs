//! A time profile's panel of a run's page (`timeprofile.js` and its files draw it): the
//! elements its script fills (header, toolbar, breadcrumbs, the flame graph, its readout,
//! the sandwich, the cost-centre table) and its data, the `time` key of the run
//! (`time_data.rs`): the profile, and beside it what the page can do with it — an
//! eventlog's time samples (the time profile of a window of the heap chart), the heap
//! bands' links (`time_link.rs`), and a comparison with the page's first run.

use super::json::Json;
use super::panel::{Panel, Place};
use super::time_data::{measures_of, stacks_within_budget, write_flat, write_header, CcTable};
use super::time_link::{write_link, LinkKind};
use crate::calltree::{CallTree, NodeId, Sampled, TreeDiff};
use crate::defaults::{PAGE_SAMPLES, PAGE_STACKS, PAGE_TABLE_ROWS};

/// What a time profile is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeKind {
    /// A `.prof` report (`+RTS -p`, `-P`, `-pa`).
    Report,
    /// `-pj` JSON.
    Json,
    /// An eventlog's time samples: the tree is theirs.
    Eventlog,
}

/// What a time profile's panel shows.
pub(crate) struct TimeParts<'a> {
    /// The profile's tree: a report's, `-pj`'s or an eventlog's.
    pub(crate) tree: &'a CallTree,
    /// What it was read from.
    pub(crate) kind: TimeKind,
    /// Its file's name as given (the page keeps the file name only).
    pub(crate) file: Option<&'a str>,
    /// The time samples of the run, when an eventlog has them (the profile's own, or
    /// the heap profile's eventlog's).
    pub(crate) samples: Option<&'a Sampled>,
    /// The reader's warnings, a line each.
    pub(crate) warnings: Vec<String>,
    /// The heap profile of the same run on the page: its bands' names and breakdown.
    pub(crate) heap: Option<(LinkKind, Vec<String>)>,
    /// The page's first time profile's tree and name, when this one is compared with it.
    pub(crate) before: Option<(&'a CallTree, &'a str)>,
}

/// The panel.
pub(crate) struct TimePanel<'a> {
    pub(crate) parts: TimeParts<'a>,
}

/// Its elements, which the script fills.
const HTML: &str = "<section class=\"time-profile\" aria-label=\"Time and allocation profile\">\n\
    <header class=\"time-head\"></header>\n\
    <div class=\"toolbar time-tools\" role=\"toolbar\" aria-label=\"Time profile\"></div>\n\
    <nav class=\"crumbs\" aria-label=\"Zoomed into\"></nav>\n\
    <p class=\"flame-status\" role=\"status\"></p>\n\
    <div class=\"flame\"></div>\n\
    <div class=\"flame-readout\" role=\"status\" hidden></div>\n\
    <section class=\"sandwich\" aria-label=\"The sandwich of the cost centre chosen\" hidden></section>\n\
    <section class=\"cc-table\" aria-label=\"Cost centres\"></section>\n\
    </section>\n";

impl Panel for TimePanel<'_> {
    fn place(&self) -> Place {
        Place::Below
    }

    fn html(&self, out: &mut String) {
        out.push_str(HTML);
    }

    fn data(&self, j: &mut Json) {
        j.key("time");
        write_time(j, &self.parts);
    }

    fn time_script(&self) -> bool {
        true
    }
}

/// What the page of a time profile leaves out, a line each (the command says them on
/// stderr too): the stacks beyond the page's budget.
pub(crate) fn left_out(p: &TimeParts<'_>) -> Vec<String> {
    let stacks = p.tree.len();
    match stacks > PAGE_STACKS {
        true => vec![format!(
            "the page carries the widest of the {} stacks (at most {}): the others are in \
             their callers' \"narrower stacks\" (the cost-centre table has every stack's \
             numbers)",
            crate::num::thousands(stacks as i64),
            crate::num::thousands(PAGE_STACKS as i64)
        )],
        false => Vec::new(),
    }
}

/// The file name of a path as the command line gave it.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The panel's data.
fn write_time(j: &mut Json, p: &TimeParts<'_>) {
    let tree = p.tree;
    let mut ccs = CcTable::default();
    // Every cost centre of the table, in the tree's order (the biggest of them when
    // there are more than a page lists).
    for cc in table_ccs(tree) {
        ccs.of(tree, cc);
    }
    let table = ccs.len();
    let (stacks, carried) = stacks_within_budget(&[tree], &["own"], &mut ccs, PAGE_STACKS);
    j.object(|j| {
        j.key("file");
        match p.file {
            Some(f) => j.string(file_name(f)),
            None => j.raw("null"),
        }
        j.key("kind");
        j.string(match p.kind {
            TimeKind::Report => "report",
            TimeKind::Json => "json",
            TimeKind::Eventlog => "eventlog",
        });
        j.key("header");
        write_header(j, tree);
        j.key("stacks");
        j.number(tree.len() as f64);
        j.key("measures");
        j.list(measures_of(tree), |j, (_, name)| j.string(name));
        j.key("thinned");
        match carried.is_thinned() {
            true => j.object(|j| {
                j.key("threshold");
                j.number(carried.thinned.threshold);
            }),
            false => j.raw("null"),
        }
        j.key("warnings");
        j.list(&p.warnings, |j, w| j.string(w));
        j.key("tree");
        j.raw(&stacks);
        j.key("samples");
        // An eventlog's profile is its samples' tree: their stacks are its.
        let own = p.kind == TimeKind::Eventlog;
        match p.samples {
            Some(s) => write_samples(j, s, own, tree, &carried, &mut ccs),
            None => j.raw("null"),
        }
        j.key("link");
        match &p.heap {
            Some((kind, bands)) => write_link(j, *kind, bands, tree, &carried, &mut ccs),
            None => j.raw("null"),
        }
        j.key("diff");
        match p.before {
            Some((before, name)) => {
                let after = p.file.map_or("after", file_name);
                write_diff(j, before, tree, [file_name(name), after]);
            }
            None => j.raw("null"),
        }
        // Last: every part above may have named cost centres of its own.
        j.key("flat");
        write_flat(j, tree, &ccs, table);
        j.key("tableCcs");
        j.number(table as f64);
        j.key("costCentres");
        j.number(tree.cc_count() as f64);
        j.key("ccs");
        ccs.write(j);
    });
}

/// The cost centres the table lists: all, or the biggest by their own time or
/// allocation when there are more than a page's table holds.
fn table_ccs(tree: &CallTree) -> Vec<crate::calltree::CcId> {
    let all: Vec<_> = tree.cost_centres().collect();
    if all.len() <= PAGE_TABLE_ROWS {
        return all;
    }
    let h = tree.header();
    let mut rows = tree.flat_table();
    rows.sort_by(|a, b| {
        let size = |r: &crate::calltree::FlatRow| r.time_share(h).max(r.alloc_share(h));
        size(b).total_cmp(&size(a)).then(a.cc.cmp(&b.cc))
    });
    let mut top: Vec<_> = rows.iter().take(PAGE_TABLE_ROWS).map(|r| r.cc).collect();
    top.sort();
    top
}

/// An eventlog's samples: their own tree (`null`: the profile's, when the profile is
/// the eventlog's: `own`), and each sample's time (seconds on the heap chart's axis) and stack
/// (its carried index); more than [`PAGE_SAMPLES`] are counted by stack in bins of
/// time (`c`: each entry's count).
fn write_samples<'a>(
    j: &mut Json,
    s: &'a Sampled,
    own: bool,
    tree: &'a CallTree,
    carried: &super::time_data::Carried,
    ccs: &mut CcTable<'a>,
) {
    let (text, sample_carried) = match own {
        true => (String::from("null"), None),
        false => {
            let (text, c) = stacks_within_budget(&[s.tree()], &["own"], ccs, PAGE_STACKS / 4);
            (text, Some(c))
        }
    };
    let place = |n: NodeId| match &sample_carried {
        Some(c) => c.place(s.tree(), n),
        None => carried.place(tree, n),
    };
    let points: Vec<(f64, i64)> = (s.samples())
        .map(|(t, n)| (t, n.and_then(place).map_or(-1, i64::from)))
        .collect();
    let binned = points.len() > PAGE_SAMPLES;
    let (times, nodes, counts) = if binned {
        bins(&points)
    } else {
        let t = points.iter().map(|p| (p.0 * 1e6).round() / 1e6).collect();
        (t, points.iter().map(|p| p.1).collect(), Vec::new())
    };
    j.object(|j| {
        j.key("tree");
        j.raw(&text);
        j.key("interval");
        j.number(s.tree().header().tick_interval.unwrap_or(f64::NAN));
        j.key("t");
        j.numbers(times);
        j.key("n");
        j.numbers(nodes.iter().map(|&n| n as f64));
        j.key("c");
        match binned {
            true => j.numbers(counts.iter().map(|&c| c as f64)),
            false => j.raw("null"),
        }
    });
}

/// Samples (time, stack) counted by stack in [`PAGE_SAMPLES`] / 25 bins of time: each
/// bin's start, stack and count, in time order.
fn bins(points: &[(f64, i64)]) -> (Vec<f64>, Vec<i64>, Vec<u64>) {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Default::default();
    };
    let count = (PAGE_SAMPLES / 25).max(1);
    let width = ((last.0 - first.0) / count as f64).max(1e-9);
    let mut out: Vec<(u64, i64, u64)> = Vec::new();
    let mut at: std::collections::BTreeMap<(u64, i64), u64> = Default::default();
    for &(t, n) in points {
        let bin = ((t - first.0) / width).floor().max(0.0) as u64;
        *at.entry((bin, n)).or_insert(0) += 1;
    }
    out.extend(at.into_iter().map(|((b, n), c)| (b, n, c)));
    let start = |b: u64| ((first.0 + b as f64 * width) * 1e6).round() / 1e6;
    (
        out.iter().map(|e| start(e.0)).collect(),
        out.iter().map(|e| e.1).collect(),
        out.iter().map(|e| e.2).collect(),
    )
}

/// The comparison of `before` with `after` (`calltree::TreeDiff`): both runs' stacks
/// in one shape with their own values, their cost centres, and each one's change.
fn write_diff(j: &mut Json, before: &CallTree, after: &CallTree, names: [&str; 2]) {
    let diff = TreeDiff::of(before, after);
    let mut ccs = CcTable::default();
    let trees = [&diff.before, &diff.after];
    let (stacks, _) = stacks_within_budget(&trees, &["before", "after"], &mut ccs, PAGE_STACKS / 2);
    j.object(|j| {
        j.key("names");
        j.list(names, |j, n| j.string(n));
        j.key("tree");
        j.raw(&stacks);
        j.key("changes");
        let rows: Vec<_> = diff.changes.iter().collect();
        let index: Vec<u32> = rows.iter().map(|c| ccs.of(&diff.after, c.cc)).collect();
        j.object(|j| {
            j.key("cc");
            j.numbers(index.iter().map(|&i| f64::from(i)));
            j.key("runs");
            j.list(&rows, |j, c| {
                j.string(match (c.before.is_some(), c.after.is_some()) {
                    (true, true) => "both",
                    (true, false) => "before",
                    _ => "after",
                })
            });
            for (key, side) in [("time", 0), ("alloc", 1), ("entries", 2)] {
                j.key(key);
                j.list(&rows, |j, c| {
                    let v = |s: Option<crate::calltree::Side>| {
                        let s = s.unwrap_or_default();
                        [s.time, s.alloc, s.entries as f64][side]
                    };
                    j.numbers([v(c.before), v(c.after)].map(|x| (x * 1e4).round() / 1e4));
                });
            }
        });
        j.key("ccs");
        ccs.write(j);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_samples_are_counted_by_stack_in_bins_of_time() {
        // 0..1 s, stacks 0 and 1 alternating, and one of no stack.
        let mut points: Vec<(f64, i64)> =
            (0..10_000).map(|i| (i as f64 / 10_000.0, i % 2)).collect();
        points.push((1.0, -1));
        let (times, nodes, counts) = bins(&points);
        assert_eq!(counts.iter().sum::<u64>(), 10_001);
        assert!(
            times.len() <= 2 * (PAGE_SAMPLES / 25) + 1,
            "{}",
            times.len()
        );
        // In time order, each bin's stacks once.
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        let first: Vec<(f64, i64, u64)> = (0..2).map(|i| (times[i], nodes[i], counts[i])).collect();
        assert_eq!(first[0].0, 0.0);
        assert_eq!((first[0].1, first[1].1), (0, 1));
        assert_eq!(nodes.last(), Some(&-1));
    }
}
