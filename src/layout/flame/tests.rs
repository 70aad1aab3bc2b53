//! The flame graph's layout on a tree made by hand.

use super::*;
use crate::calltree::{Columns, Row, TreeBuilder};

/// MAIN (0) > main (10) > [f (30) > f (20), g (40)]: ticks, shares of 100.
fn example() -> CallTree {
    let mut b = TreeBuilder::new(Columns::report(true));
    let h = b.header_mut();
    h.total_ticks = Some(100);
    h.total_time = Some(0.1);
    h.total_alloc = Some(1000);
    h.command_line = Some("prog +RTS -P -RTS".into());
    let main_cc = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let m = b.cost_centre("main", "Main", "M.hs:1:1", false);
    let f = b.cost_centre("f", "Main", "M.hs:2:1", false);
    let g = b.cost_centre("a_long_name_of_a_cost_centre", "Data.G", "G.hs:3:1", false);
    let row = |t: u64, inh: u64| Row {
        entries: 1,
        time: t as f64,
        alloc: t as f64,
        inherited_time: inh as f64,
        inherited_alloc: inh as f64,
        ticks: t,
        bytes: t * 10,
    };
    b.push(0, main_cc, Some(1), row(0, 100));
    b.push(1, m, Some(2), row(10, 100));
    b.push(2, f, Some(3), row(30, 50));
    b.push(3, f, Some(4), row(20, 20));
    b.push(2, g, Some(5), row(40, 40));
    b.finish()
}

fn frame_of(c: &FlameChart, n: usize) -> &Frame {
    c.frames
        .iter()
        .find(|f| f.node.index() == n)
        .expect("drawn")
}

#[test]
fn frames_are_as_wide_as_their_stacks_widest_first_under_their_caller() {
    let c = flame_chart(&example(), &FlameOptions::default());
    assert_eq!(c.frames.len(), 5);
    let (root, main) = (frame_of(&c, 0), frame_of(&c, 1));
    let span = c.width - 2.0 * SPACE;
    assert!((root.width - (span - 0.5)).abs() < 1e-9);
    assert_eq!(root.x, main.x);
    // f (50) and g (40) under main (100): g is narrower, so it comes after f.
    let (f, g) = (frame_of(&c, 2), frame_of(&c, 4));
    assert!((f.x - main.x).abs() < 1e-9 && g.x > f.x);
    assert!((g.x - (main.x + span * 0.5)).abs() < 1e-9);
    assert!((g.width + 0.5 - span * 0.4).abs() < 1e-9);
    // Rows go down one per level, from under the caption.
    assert!(main.y < root.y && (root.y - main.y - FLAME_ROW).abs() < 1e-9);
    assert!(root.y + root.height <= c.caption.y);
    assert!(c.caption.y < c.title.y);
    // The frames are in pre-order and the tooltip names the cost centre.
    let nodes: Vec<usize> = c.frames.iter().map(|f| f.node.index()).collect();
    assert_eq!(nodes, [0, 1, 2, 3, 4]);
    assert!(g
        .tooltip
        .starts_with("a_long_name_of_a_cost_centre (Data.G, G.hs:3:1)"));
    assert!(g
        .tooltip
        .contains("40.0 % of the time with its callees, 40.0 % its own"));
}

#[test]
fn labels_fit_their_frames_or_are_cut() {
    let opts = FlameOptions {
        width: 240.0,
        ..FlameOptions::default()
    };
    let c = flame_chart(&example(), &opts);
    for f in &c.frames {
        if let Some(l) = &f.label {
            assert!(text_width(&l.text, l.size) <= f.width - 4.0 + 1e-9, "{l:?}");
        }
    }
    let g = frame_of(&c, 4).label.as_ref().expect("a label");
    assert!(g.text.ends_with('…'), "{g:?}");
    assert_eq!(
        frame_of(&c, 1).label.as_ref().map(|l| &l.text[..]),
        Some("main")
    );
}

#[test]
fn the_title_says_the_program_time_and_allocation() {
    let c = flame_chart(&example(), &FlameOptions::default());
    let texts: Vec<&str> = c.title.texts.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "prog +RTS -P -RTS",
            "total time 0.10 s (100 ticks)",
            "total alloc 1,000 bytes"
        ]
    );
    assert!(
        c.caption.text.contains("5 of 5 stacks drawn"),
        "{}",
        c.caption.text
    );
}

#[test]
fn narrow_frames_and_deep_rows_are_left_out_and_said() {
    let opts = FlameOptions {
        min_width: 300.0,
        ..FlameOptions::default()
    };
    let c = flame_chart(&example(), &opts);
    // f (50 of 100) is about 319 points wide, g (40) narrower than 300.
    assert_eq!(
        c.frames.iter().map(|f| f.node.index()).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert!(c
        .caption
        .text
        .contains("3 of 5 stacks drawn (the others too narrow"));
    let opts = FlameOptions {
        max_height: 2.0 * 20.0 + 16.0 + 2.0 * FLAME_ROW,
        ..FlameOptions::default()
    };
    let c = flame_chart(&example(), &opts);
    assert!(c.frames.iter().all(|f| f.node.index() < 2));
    assert!(c.caption.text.contains("or below the last row"));
}

#[test]
fn a_measure_the_tree_lacks_is_time_and_alloc_widths_follow_alloc() {
    let tree = example();
    let alloc = FlameOptions {
        measure: Measure::Bytes,
        ..FlameOptions::default()
    };
    let c = flame_chart(&tree, &alloc);
    assert!(c
        .caption
        .text
        .starts_with("Width: each stack's bytes allocated"));
    assert!(frame_of(&c, 4)
        .tooltip
        .contains("400 bytes allocated with its callees (40.0 %)"));
}

#[test]
fn a_diff_is_as_wide_as_the_second_run_and_coloured_by_change() {
    let before = example();
    let mut b = TreeBuilder::new(Columns::report(true));
    let main_cc = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let m = b.cost_centre("main", "Main", "M.hs:1:1", false);
    let f = b.cost_centre("f", "Main", "M.hs:2:1", false);
    let row = |t: u64, inh: u64| Row {
        time: t as f64,
        inherited_time: inh as f64,
        ticks: t,
        ..Row::default()
    };
    b.push(0, main_cc, Some(9), row(0, 100));
    b.push(1, m, Some(8), row(20, 100));
    b.push(2, f, Some(7), row(80, 80));
    let after = b.finish();
    let diff = TreeDiff::of(&before, &after);
    let c = diff_flame_chart(&diff, ["a.prof", "b.prof"], &FlameOptions::default());
    assert_eq!(c.title.texts[0].text, "a.prof \u{2192} b.prof");
    let by_label = |label: &str| {
        c.frames
            .iter()
            .find(|fr| diff.after.cost_centre(diff.after.cc(fr.node)).label == label)
    };
    // f grew (30 -> 80 own), main grew (10 -> 20): reds; the gone g is not drawn.
    let fr = by_label("f").expect("f drawn");
    assert!(fr.fill[0] > fr.fill[2], "{:?}", fr.fill);
    assert!(
        fr.tooltip.contains("30.0 % \u{2192} 80.0 % (+50.0 points)"),
        "{}",
        fr.tooltip
    );
    assert!(by_label("a_long_name_of_a_cost_centre").is_none());
    assert!(c.caption.text.contains("the most: 50.0 points"));
}
