//! The flame graph's words: the title box's texts (the program, the total time, the
//! total allocation), the caption (what a width and a colour are, what is left out) and
//! each frame's tooltip (its cost centre, module and source location, its numbers).

use crate::calltree::{CallTree, Header, Measure, NodeId};
use crate::num::thousands;

/// `m` where the tree has it, else time (which every tree has).
pub(super) fn measure_of(tree: &CallTree, m: Measure) -> Measure {
    if tree.has(m) {
        m
    } else {
        Measure::Time
    }
}

/// What a measure is, in words.
fn measure_name(m: Measure) -> &'static str {
    match m {
        Measure::Time => "time",
        Measure::Alloc => "allocation",
        Measure::Entries => "entries",
        Measure::Ticks => "ticks",
        Measure::Bytes => "bytes allocated",
    }
}

fn count(v: f64) -> String {
    thousands(v.round() as i64)
}

/// The run's total time (`1.10 s (1,098 ticks)`), as far as the header says it.
fn time_of(h: &Header) -> Option<String> {
    let ticks = h.total_ticks.map(|t| thousands(t as i64));
    match (h.total_time, ticks) {
        (Some(s), Some(t)) => Some(format!("{s:.2} s ({t} ticks)")),
        (Some(s), None) => Some(format!("{s:.2} s")),
        (None, Some(t)) => Some(format!("{t} ticks")),
        (None, None) => None,
    }
}

/// The program as its header names it (its command line), else a word.
fn program_of(h: &Header) -> String {
    (h.command_line.clone())
        .or_else(|| h.program.clone())
        .unwrap_or_else(|| String::from("time profile"))
}

/// The title box's left, middle and right texts.
pub(super) fn title_texts(h: &Header) -> [String; 3] {
    [
        program_of(h),
        time_of(h).map_or_else(String::new, |t| format!("total time {t}")),
        (h.total_alloc).map_or_else(String::new, |a| {
            format!("total alloc {} bytes", thousands(a as i64))
        }),
    ]
}

/// Two runs' title texts: their names, their times, their allocations.
pub(super) fn diff_title_texts(names: [&str; 2], h: [&Header; 2]) -> [String; 3] {
    let time = |h: &Header| h.total_time.map_or("?".into(), |s| format!("{s:.2} s"));
    let alloc = |h: &Header| h.total_alloc.map_or("?".into(), |a| thousands(a as i64));
    [
        format!("{} \u{2192} {}", names[0], names[1]),
        format!("time {} \u{2192} {}", time(h[0]), time(h[1])),
        format!("alloc {} \u{2192} {} bytes", alloc(h[0]), alloc(h[1])),
    ]
}

/// What is left out, for a caption: `drawn` of the tree's stacks, rows below.
fn left_out(tree: &CallTree, drawn: usize, deeper: bool) -> String {
    let mut text = format!("{drawn} of {} stacks drawn", thousands(tree.len() as i64));
    if drawn < tree.len() {
        text.push_str(" (the others too narrow to see");
        text.push_str(if deeper {
            ", or below the last row)"
        } else {
            ")"
        });
    }
    text
}

/// The caption of a run's flame graph.
pub(super) fn caption(tree: &CallTree, m: Measure, drawn: usize, deeper: bool) -> String {
    format!(
        "Width: each stack's {} with its callees; colour: its module. {}.",
        measure_name(m),
        left_out(tree, drawn, deeper)
    )
}

/// The caption of a differential flame graph.
pub(super) fn diff_caption(
    tree: &CallTree,
    m: Measure,
    names: [&str; 2],
    most: f64,
    drawn: usize,
    deeper: bool,
) -> String {
    format!(
        "Width: each stack's {} in {} with its callees; colour: the change of its own share, \
         red more, blue less (the most: {most:.1} points). {}.",
        measure_name(m),
        names[1],
        left_out(tree, drawn, deeper)
    )
}

/// A cost centre as a tooltip's first line: `label (module, src)`.
fn named(tree: &CallTree, n: NodeId) -> String {
    let cc = tree.cost_centre(tree.cc(n));
    match cc.src.is_empty() {
        true => format!("{} ({})", cc.label, cc.module),
        false => format!("{} ({}, {})", cc.label, cc.module, cc.src),
    }
}

/// A frame's tooltip: its cost centre; its inherited and own values of `m` (`total`
/// the roots' together); its entries.
pub(super) fn tooltip(
    tree: &CallTree,
    n: NodeId,
    m: Measure,
    inherited: f64,
    own: f64,
    total: f64,
) -> String {
    let what = measure_name(m);
    let numbers = match m {
        Measure::Time | Measure::Alloc => {
            format!("{inherited:.1} % of the {what} with its callees, {own:.1} % its own")
        }
        _ => {
            let share = if total > 0.0 {
                100.0 * inherited / total
            } else {
                0.0
            };
            format!(
                "{} {what} with its callees ({share:.1} %), {} its own",
                count(inherited),
                count(own)
            )
        }
    };
    let entries = match tree.has(Measure::Entries) && m != Measure::Entries {
        true => format!("; {} entries", thousands(tree.entries(n) as i64)),
        false => String::new(),
    };
    format!("{}\n{numbers}{entries}", named(tree, n))
}

/// A differential frame's tooltip: its cost centre, its own share in both runs.
pub(super) fn diff_tooltip(tree: &CallTree, n: NodeId, m: Measure, shares: [f64; 2]) -> String {
    let [before, after] = shares;
    format!(
        "{}\nits own {}: {before:.1} % \u{2192} {after:.1} % ({:+.1} points)",
        named(tree, n),
        measure_name(m),
        after - before
    )
}
