//! The model on trees made by hand: its walk, the flat table (recursion counted once),
//! folded stacks, the sandwich, a diff and a window of samples.

use super::*;

/// MAIN > main > (f > f, g > f), with ticks 0, 10, 30, 20, 40, 0 and bytes likewise ×10.
fn example() -> CallTree {
    let mut b = TreeBuilder::new(Columns::report(true));
    b.header_mut().total_ticks = Some(100);
    b.header_mut().total_alloc = Some(1000);
    let main_cc = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let m = b.cost_centre("main", "Main", "M.hs:1:1", false);
    let f = b.cost_centre("f", "Main", "M.hs:2:1", false);
    let g = b.cost_centre("g", "Main", "M.hs:3:1", false);
    let row = |t: u64, inh: u64, entries: u64| Row {
        entries,
        time: t as f64,
        alloc: t as f64,
        inherited_time: inh as f64,
        inherited_alloc: inh as f64,
        ticks: t,
        bytes: t * 10,
    };
    b.push(0, main_cc, Some(1), row(0, 100, 0));
    b.push(1, m, Some(2), row(10, 100, 1));
    b.push(2, f, Some(3), row(30, 50, 5));
    b.push(3, f, Some(4), row(20, 20, 7));
    b.push(2, g, Some(5), row(40, 40, 1));
    b.push(3, f, Some(6), row(0, 0, 2));
    b.finish()
}

fn names(t: &CallTree, nodes: impl Iterator<Item = NodeId>) -> Vec<&str> {
    nodes.map(|n| t.cost_centre(t.cc(n)).label).collect()
}

#[test]
fn the_walk_follows_the_file() {
    let t = example();
    assert_eq!(t.len(), 6);
    assert_eq!(t.cc_count(), 4);
    assert_eq!(names(&t, t.roots()), ["MAIN"]);
    assert_eq!(names(&t, t.children(NodeId(1))), ["f", "g"]);
    assert_eq!(names(&t, t.children(NodeId(2))), ["f"]);
    assert_eq!(t.subtree_end(NodeId(2)), NodeId(4));
    assert_eq!(t.parent(NodeId(5)), Some(NodeId(4)));
    assert_eq!(t.parent(NodeId(0)), None);
    assert_eq!(t.depth(NodeId(5)), 3);
    assert_eq!(
        names(&t, t.path(NodeId(3)).into_iter()),
        ["MAIN", "main", "f", "f"]
    );
    assert_eq!(t.no(NodeId(3)), Some(4));
    assert_eq!(t.find_cc("g", "Main", "M.hs:3:1"), Some(t.cc(NodeId(4))));
    assert_eq!(t.find_cc("g", "Main", ""), None);
    // A level that jumps (an indentation of two) is still a child of the last node.
    let mut b = TreeBuilder::new(Columns::report(false));
    let a = b.cost_centre("a", "M", "", false);
    b.push(0, a, None, Row::default());
    b.push(3, a, None, Row::default());
    b.push(1, a, None, Row::default());
    let t = b.finish();
    assert_eq!(t.parent(NodeId(1)), Some(NodeId(0)));
    assert_eq!(t.parent(NodeId(2)), Some(NodeId(0)));
    assert_eq!(t.depth(NodeId(2)), 1);
}

#[test]
fn the_flat_table_counts_a_recursive_stack_once() {
    let t = example();
    let flat = t.flat_table();
    let f = &flat[t.find_cc("f", "Main", "M.hs:2:1").unwrap().index()];
    assert_eq!(f.stacks, 3);
    assert_eq!(f.entries, 14);
    assert_eq!((f.time, f.ticks, f.bytes), (50.0, Some(50), Some(500)));
    // The outer f (50) and the f under g (0); not the inner f again.
    assert_eq!(f.inherited_time, 50.0);
    assert_eq!(f.inherited_ticks, Some(50));
    let total: f64 = flat.iter().map(|r| r.time).sum();
    assert_eq!(total, 100.0);
}

#[test]
fn folded_stacks_merge_equal_paths_and_sort_them() {
    let t = example();
    let ticks = t.folded(Measure::Ticks).unwrap();
    let expected = [
        ("MAIN.MAIN", 0),
        ("MAIN.MAIN;Main.main", 10),
        ("MAIN.MAIN;Main.main;Main.f", 30),
        ("MAIN.MAIN;Main.main;Main.f;Main.f", 20),
        ("MAIN.MAIN;Main.main;Main.g", 40),
        ("MAIN.MAIN;Main.main;Main.g;Main.f", 0),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(p, v)| (p.to_string(), *v)).collect();
    assert_eq!(ticks, expected);
    // %time in tenths of a percent.
    assert_eq!(t.folded(Measure::Time).unwrap()[3].1, 200);
    let mut text = Vec::new();
    t.write_folded(Measure::Bytes, &mut text).unwrap();
    assert!(String::from_utf8(text)
        .unwrap()
        .contains("Main.main;Main.g 400\n"));
    let no_counts = TreeBuilder::new(Columns::report(false)).finish();
    assert_eq!(no_counts.folded(Measure::Ticks), None);
    assert_eq!(t.inherited(Measure::Ticks).unwrap()[1], 100.0);
}

#[test]
fn the_sandwich_merges_callers_and_callees() {
    let t = example();
    let f = t.find_cc("f", "Main", "M.hs:2:1").unwrap();
    assert_eq!(t.outermost(f), [NodeId(2), NodeId(5)]);
    let s = t.sandwich(f);
    let c = &s.callers;
    assert_eq!(
        names(c, c.nodes()),
        ["f", "main", "MAIN", "g", "main", "MAIN"]
    );
    assert_eq!(c.inherited(Measure::Ticks).unwrap()[0], 50.0);
    assert_eq!(c.inherited_time(NodeId(1)), 50.0);
    assert_eq!(c.inherited_time(NodeId(3)), 0.0);
    let e = &s.callees;
    assert_eq!(names(e, e.nodes()), ["f", "f"]);
    assert_eq!(e.ticks(NodeId(0)), Some(30));
    assert_eq!(e.entries(NodeId(0)), 7);
    assert_eq!(e.inherited_time(NodeId(0)), 50.0);
}

#[test]
fn a_diff_matches_stacks_by_names_not_numbers() {
    let before = example();
    // The same program, numbered otherwise, with g twice as slow and a new h.
    let mut b = TreeBuilder::new(Columns::report(true));
    b.header_mut().total_ticks = Some(140);
    let h = b.cost_centre("h", "Main", "M.hs:4:1", false);
    let g = b.cost_centre("g", "Main", "M.hs:3:1", false);
    let m = b.cost_centre("main", "Main", "M.hs:1:1", false);
    let main_cc = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let row = |t: u64| Row {
        time: t as f64,
        ticks: t,
        ..Row::default()
    };
    b.push(0, main_cc, Some(90), row(0));
    b.push(1, m, Some(91), row(10));
    b.push(2, g, Some(92), row(80));
    b.push(2, h, Some(93), row(50));
    let after = b.finish();
    let d = TreeDiff::of(&before, &after);
    assert_eq!(d.before.len(), d.after.len());
    assert_eq!(
        names(&d.before, d.before.nodes()),
        ["MAIN", "main", "f", "f", "g", "f", "h"]
    );
    assert_eq!(d.after.ticks(NodeId(4)), Some(80));
    assert_eq!(d.before.ticks(NodeId(4)), Some(40));
    assert_eq!(d.after.ticks(NodeId(2)), Some(0));
    let by = |label: &str| {
        (d.changes.iter())
            .find(|c| d.before.cost_centre(c.cc).label == label)
            .unwrap()
            .clone()
    };
    // Shares of each run's own total: 80 of 140 ticks, 40 of 100.
    assert_eq!(by("g").time_change(), 100.0 * 80.0 / 140.0 - 40.0);
    assert_eq!(by("h").before, None);
    assert_eq!(by("f").after, None);
    assert_eq!(by("f").entries_change(), -14);
    assert_eq!(by("main").time_change(), 100.0 * 10.0 / 140.0 - 10.0);
}

#[test]
fn samples_make_a_tree_and_any_window_its_own() {
    let mut b = TreeBuilder::new(Columns::counts(false, false));
    let main_cc = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let f = b.cost_centre("f", "Main", "", false);
    let g = b.cost_centre("g", "Main", "", false);
    let stacks = [vec![main_cc, g], vec![main_cc, f], vec![main_cc], vec![]];
    let samples = vec![(0.3, 0), (0.1, 1), (0.2, 1), (0.4, 2), (0.5, 3), (0.6, 9)];
    let header = Header {
        total_ticks: Some(4),
        ..Header::default()
    };
    let s = Sampled::new(b, &stacks, samples, header);
    // An empty stack and one out of range are samples of no node.
    assert_eq!(s.len(), 6);
    assert_eq!(s.samples().filter(|(_, n)| n.is_none()).count(), 2);
    let t = s.tree();
    assert_eq!(names(t, t.nodes()), ["MAIN", "f", "g"]);
    assert_eq!((t.ticks(NodeId(0)), t.ticks(NodeId(1))), (Some(1), Some(2)));
    assert_eq!(t.inherited_time(NodeId(0)), 100.0);
    assert_eq!(t.time(NodeId(1)), 50.0);
    let times: Vec<f64> = s.samples().map(|(t, _)| t).collect();
    assert_eq!(times, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
    assert_eq!(s.count_in(0.15, 0.35), 2);
    let w = s.tree_of_window(0.15, 0.35);
    assert_eq!(names(&w, w.nodes()), ["MAIN", "f", "g"]);
    assert_eq!(w.header().total_ticks, Some(2));
    assert_eq!((w.time(NodeId(1)), w.time(NodeId(2))), (50.0, 50.0));
    assert_eq!(w.ticks(NodeId(0)), Some(0));
    assert!(s.tree_of_window(1.0, 2.0).is_empty());
    assert!(s.tree_of_window(0.3, 0.1).is_empty());
}
