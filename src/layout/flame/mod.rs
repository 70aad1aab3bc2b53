//! The flame graph of a time profile, format-neutral ([`FlameChart`]), as the heap's
//! [`super::chart::Chart`] is for its painters: an icicle (the outermost stack on top,
//! each stack under its caller, as wide as its inherited value of a [`Measure`]), under
//! the project's title box (the program, the total time, the total allocation). The
//! static painters (`paint/flame/`: SVG, PDF, EPS) only write what is here.
//!
//! A stack's children are laid out widest first (ties in the file's order), as
//! speedscope's "left heavy" view does, so that the costliest paths read from the left;
//! a frame narrower than [`FlameOptions::min_width`] is left out with the stacks under
//! it, and so are the rows below [`FlameOptions::max_height`]: the caption says how many
//! stacks are drawn. A file's inherited shares are rounded, so children may add up to a
//! little more than their caller: they are then shrunk to fit under it.
//!
//! Files: the layout (`mod.rs`), the frames' colours (`colour.rs`), labels fitted to
//! their frame or cut with an ellipsis (`fit.rs`), the texts of the title, caption and
//! tooltips (`texts.rs`), and the stacks a page carries of a large tree (`thin.rs`).

mod colour;
mod fit;
#[cfg(test)]
mod tests;
mod texts;
mod thin;

pub(crate) use colour::{change_fill, module_fill};
pub(crate) use fit::{fit_text, text_width};
pub(crate) use thin::{inherited_of, thin_trees, Inherited, Thinned};

use crate::calltree::{CallTree, Measure, NodeId, TreeDiff};
use crate::defaults::{FLAME_FONT, FLAME_MAX_HEIGHT, FLAME_MIN_WIDTH, FLAME_ROW};
use crate::layout::chart::{Anchor, BORDER_WIDTH, TITLE_FONT};

/// How a flame graph is laid out.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FlameOptions {
    /// What a frame's width is: its stack's inherited value of this measure (time,
    /// when the tree has none of it). Default: [`Measure::Time`].
    pub measure: Measure,
    /// The picture's width, in points. Default: 648 (the heap chart's).
    pub width: f64,
    /// A row's height, in points. Default: [`FLAME_ROW`].
    pub row_height: f64,
    /// The labels' size, in points. Default: [`FLAME_FONT`].
    pub font_size: f64,
    /// Frames narrower than this (points) are left out, and the stacks under them.
    /// Default: [`FLAME_MIN_WIDTH`].
    pub min_width: f64,
    /// The picture's tallest height (points): deeper rows are left out. Default:
    /// [`FLAME_MAX_HEIGHT`].
    pub max_height: f64,
}

impl Default for FlameOptions {
    fn default() -> Self {
        FlameOptions {
            measure: Measure::Time,
            width: BORDER_WIDTH,
            row_height: FLAME_ROW,
            font_size: FLAME_FONT,
            min_width: FLAME_MIN_WIDTH,
            max_height: FLAME_MAX_HEIGHT,
        }
    }
}

/// A text and where it goes (points, y upwards: its baseline), aligned by `anchor`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Label {
    /// The text, as shown (already fitted to its room).
    pub(crate) text: String,
    /// Where it is anchored.
    pub(crate) x: f64,
    /// Its baseline.
    pub(crate) y: f64,
    /// How it is aligned on `x`.
    pub(crate) anchor: Anchor,
    /// Its size, in points.
    pub(crate) size: f64,
}

/// The title box: a stroked rectangle and its three texts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlameTitle {
    /// The box's lower-left corner and size, in points.
    pub(crate) x: f64,
    /// See `x`.
    pub(crate) y: f64,
    /// See `x`.
    pub(crate) width: f64,
    /// See `x`.
    pub(crate) height: f64,
    /// The program (left), the total time (middle), the total allocation (right).
    pub(crate) texts: Vec<Label>,
}

/// One stack's frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frame {
    /// The stack (a node of the tree laid out).
    pub(crate) node: NodeId,
    /// Its rectangle's lower-left corner and size, in points.
    pub(crate) x: f64,
    /// See `x`.
    pub(crate) y: f64,
    /// See `x`.
    pub(crate) width: f64,
    /// See `x`.
    pub(crate) height: f64,
    /// Its fill, sRGB.
    pub(crate) fill: [u8; 3],
    /// Its cost centre's label, fitted to the frame (none when not even a letter fits).
    pub(crate) label: Option<Label>,
    /// What a viewer shows when it is pointed at: the cost centre, its module and
    /// source location, its numbers.
    pub(crate) tooltip: String,
}

/// A flame graph laid out: the page's size, its title box and caption, the frames.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlameChart {
    /// The page's size, in points: the border box, from the origin.
    pub(crate) width: f64,
    /// See `width`.
    pub(crate) height: f64,
    /// The document's title (the program and its command line).
    pub(crate) name: String,
    /// The title box.
    pub(crate) title: FlameTitle,
    /// What the widths (and the colours) are, and what is left out: under the title.
    pub(crate) caption: Label,
    /// The frames, in the tree's pre-order (a frame before the frames under it).
    pub(crate) frames: Vec<Frame>,
}

/// Room around the title box, and the title's texts from its edges (the heap chart's).
const SPACE: f64 = 5.0;
const INSET: f64 = 6.0;
const TITLE_HEIGHT: f64 = 20.0;
/// The caption's size and the room it takes under the title box.
const CAPTION_FONT: f64 = 8.0;
const CAPTION_ROOM: f64 = 16.0;

/// What the frames are drawn from: each node's width value, the frame's fill and
/// tooltip.
struct Source<'a> {
    tree: &'a CallTree,
    values: Vec<f64>,
    fill: &'a dyn Fn(NodeId) -> [u8; 3],
    tooltip: &'a dyn Fn(NodeId) -> String,
}

/// The flame graph of `tree`.
pub(crate) fn flame_chart(tree: &CallTree, opts: &FlameOptions) -> FlameChart {
    let measure = texts::measure_of(tree, opts.measure);
    let values = tree.inherited(measure).unwrap_or_default();
    let own = |n: NodeId| tree.own(n, measure).unwrap_or(0.0);
    let total: f64 = tree.roots().map(|r| values[r.index()].max(0.0)).sum();
    let fill = |n: NodeId| module_fill(tree.cost_centre(tree.cc(n)));
    let tooltip = |n: NodeId| texts::tooltip(tree, n, measure, values[n.index()], own(n), total);
    let source = Source {
        tree,
        values: values.clone(),
        fill: &fill,
        tooltip: &tooltip,
    };
    let heads = texts::title_texts(tree.header());
    lay_out(&source, opts, heads, |drawn, deeper| {
        texts::caption(tree, measure, drawn, deeper)
    })
}

/// The differential flame graph of two runs: frames as wide as the second run's
/// (`diff.after`) inherited value of the measure, coloured by the change of each
/// stack's own share of it (red: more, blue: less; the strongest, the largest change).
pub(crate) fn diff_flame_chart(
    diff: &TreeDiff,
    names: [&str; 2],
    opts: &FlameOptions,
) -> FlameChart {
    let (before, after) = (&diff.before, &diff.after);
    let measure = texts::measure_of(after, opts.measure);
    let values = after.inherited(measure).unwrap_or_default();
    // Each run's own total once, not per node.
    let totals = [before, after]
        .map(|t| -> f64 { t.nodes().map(|m| t.own(m, measure).unwrap_or(0.0)).sum() });
    let share_of = |i: usize, tree: &CallTree, n: NodeId| {
        let own = tree.own(n, measure).unwrap_or(0.0);
        if totals[i] > 0.0 {
            100.0 * own / totals[i]
        } else {
            0.0
        }
    };
    let changes: Vec<f64> = (after.nodes())
        .map(|n| share_of(1, after, n) - share_of(0, before, n))
        .collect();
    let most = changes.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    let fill = |n: NodeId| change_fill(changes[n.index()], most);
    let tooltip = |n: NodeId| {
        texts::diff_tooltip(
            after,
            n,
            measure,
            [share_of(0, before, n), share_of(1, after, n)],
        )
    };
    let source = Source {
        tree: after,
        values,
        fill: &fill,
        tooltip: &tooltip,
    };
    let heads = texts::diff_title_texts(names, [before.header(), after.header()]);
    lay_out(&source, opts, heads, |drawn, deeper| {
        texts::diff_caption(after, measure, names, most, drawn, deeper)
    })
}

/// Lays out the frames of `src` under a title of `heads` (left, middle, right) and the
/// caption that `caption` writes of the stacks drawn and whether rows were left out.
fn lay_out(
    src: &Source<'_>,
    opts: &FlameOptions,
    heads: [String; 3],
    caption: impl FnOnce(usize, bool) -> String,
) -> FlameChart {
    let width = if opts.width.is_finite() && opts.width > 100.0 {
        opts.width
    } else {
        BORDER_WIDTH
    };
    let row = opts.row_height.max(1.0);
    let tree = src.tree;
    let max_rows = ((opts.max_height - 2.0 * TITLE_HEIGHT - CAPTION_ROOM) / row).floor();
    let max_rows = max_rows.max(1.0) as usize;
    let deepest = tree.nodes().map(|n| tree.depth(n) + 1).max().unwrap_or(0);
    let rows = deepest.min(max_rows);
    let height = SPACE + TITLE_HEIGHT + CAPTION_ROOM + rows as f64 * row + SPACE;
    let top = height - SPACE - TITLE_HEIGHT - CAPTION_ROOM;
    let (x0, span) = (SPACE, width - 2.0 * SPACE);
    let mut frames = Vec::new();
    let mut deeper = false;
    let total: f64 = tree.roots().map(|r| src.values[r.index()].max(0.0)).sum();
    if total > 0.0 {
        // (node, left edge, width) of the frames still to place, the next on top.
        let mut todo: Vec<(NodeId, f64, f64)> = Vec::new();
        let min = opts.min_width;
        push_children(
            src,
            tree.roots().collect(),
            (x0, span, total, min),
            &mut todo,
        );
        while let Some((n, x, w)) = todo.pop() {
            let depth = tree.depth(n);
            if depth >= rows {
                deeper = true;
                continue;
            }
            let y = top - (depth + 1) as f64 * row;
            frames.push(frame(src, opts, n, (x, y, w, row)));
            let value = src.values[n.index()].max(0.0);
            push_children(
                src,
                tree.children(n).collect(),
                (x, w, value, min),
                &mut todo,
            );
        }
    }
    // Pre-order, as the doc says: the stack above was popped in reverse, so sort by node.
    frames.sort_by_key(|f| f.node);
    let drawn = frames.len();
    let name = heads[0].clone();
    FlameChart {
        width,
        height,
        name,
        title: title(width, height, heads),
        caption: Label {
            text: fit_text(&caption(drawn, deeper), span, CAPTION_FONT),
            x: x0,
            y: top + (CAPTION_ROOM - CAPTION_FONT) / 2.0,
            anchor: Anchor::Start,
            size: CAPTION_FONT,
        },
        frames,
    }
}

/// Puts `kids` (widest first) side by side from `x` over `width` (`value` of their
/// caller's), those at least `min` wide onto `todo` (the rightmost first, so that the
/// leftmost is placed first); the narrower ones are left out with their stacks.
fn push_children(
    src: &Source<'_>,
    mut kids: Vec<NodeId>,
    (x, width, value, min): (f64, f64, f64, f64),
    todo: &mut Vec<(NodeId, f64, f64)>,
) {
    let v = |n: NodeId| src.values[n.index()].max(0.0);
    kids.sort_by(|&a, &b| v(b).total_cmp(&v(a)).then(a.cmp(&b)));
    let sum: f64 = kids.iter().map(|&k| v(k)).sum();
    if !(value > 0.0 && sum > 0.0) {
        return;
    }
    // Children never wider than their caller (rounded shares may add up to more).
    let scale = width / value.max(sum);
    let mut placed = Vec::with_capacity(kids.len());
    let mut at = x;
    for k in kids {
        let w = v(k) * scale;
        placed.push((k, at, w));
        at += w;
    }
    let min = min.max(f64::MIN_POSITIVE);
    todo.extend(placed.into_iter().rev().filter(|&(_, _, w)| w >= min));
}

/// Node `n`'s frame at `(x, y, w, row)` (its row's lower-left corner, its width and
/// the row's height): a hairline of white between frames, its label fitted.
fn frame(src: &Source<'_>, opts: &FlameOptions, n: NodeId, rect: (f64, f64, f64, f64)) -> Frame {
    let (x, y, w, row) = rect;
    let gap = if w > 2.0 { 0.5 } else { 0.0 };
    let cc = src.tree.cost_centre(src.tree.cc(n));
    let room = w - gap - 2.0 * 2.0;
    let text = fit_text(cc.label, room, opts.font_size);
    let label = (!text.is_empty()).then(|| Label {
        text,
        x: x + 2.0,
        y: y + (row - opts.font_size) / 2.0 + 1.5,
        anchor: Anchor::Start,
        size: opts.font_size,
    });
    Frame {
        node: n,
        x,
        y: y + 0.5,
        width: w - gap,
        height: row - 1.0,
        fill: (src.fill)(n),
        label,
        tooltip: (src.tooltip)(n),
    }
}

/// The title box over the whole width, its texts fitted: the middle one whole (when it
/// fits), the left and right ones in what it leaves them.
fn title(width: f64, height: f64, heads: [String; 3]) -> FlameTitle {
    let (x, w) = (SPACE, width - 2.0 * SPACE);
    let y = height - SPACE - TITLE_HEIGHT;
    let baseline = y + INSET;
    let [left, middle, right] = heads;
    let middle = fit_text(&middle, w - 2.0 * INSET, TITLE_FONT);
    let half = (w - text_width(&middle, TITLE_FONT)) / 2.0 - INSET - 8.0;
    let side = |t: &str| fit_text(t, half.max(0.0), TITLE_FONT);
    let label = |text: String, x: f64, anchor: Anchor| Label {
        text,
        x,
        y: baseline,
        anchor,
        size: TITLE_FONT,
    };
    FlameTitle {
        x,
        y,
        width: w,
        height: TITLE_HEIGHT,
        texts: vec![
            label(side(&left), x + INSET, Anchor::Start),
            label(middle, width / 2.0, Anchor::Middle),
            label(side(&right), x + w - INSET, Anchor::End),
        ],
    }
}
