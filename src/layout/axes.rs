//! The page's frame and its axes: the spaces around the graph and its origin, hp2ps's
//! 1-2-5 tick steps, and the x ticks with their labels (the y ticks' values are
//! `value_ticks.rs`'s).

use super::chart::{Axes, Tick};
use super::frame::{round_step, BORDER_SPACE, LEGEND_CLEARANCE, TARGET_TICKS, X0, Y0};
use super::options::LayoutOptions;
use super::value_ticks::y_ticks;
use super::width_estimate::estimated_width;
use crate::aggregate::Aggregated;
use crate::needs::{Needs, XLabels};
use crate::num as cfmt;

pub(super) fn axes(
    agg: &Aggregated,
    gw: f64,
    gh: f64,
    trace_percent: f64,
    opts: &LayoutOptions,
    needs: &Needs,
) -> Axes {
    let (y_ticks, y_legend) = y_ticks(agg, gh, trace_percent, opts.value_units);
    Axes {
        x0: X0,
        y0: Y0,
        width: gw,
        height: gh,
        x_legend: agg.sample_unit.clone(),
        x_legend_y: BORDER_SPACE,
        x_ticks: x_ticks(
            agg,
            gw,
            trace_percent,
            x_label_decimals(agg, needs.x_labels),
        ),
        y_legend,
        y_ticks,
        y_label_x: X0 - BORDER_SPACE,
    }
}

/// The decimals of the x tick labels: hp2ps's one, or as many as the tick step needs.
pub(super) fn x_label_decimals(agg: &Aggregated, how: XLabels) -> usize {
    // More would tell nothing apart in a double; the page's script formats with these too.
    const MOST: f64 = 20.0;
    let step = round_step(agg.x_range / TARGET_TICKS);
    match how {
        XLabels::Hp2ps => 1,
        // The slack keeps a step of 0.1 whose log10 is a hair above -1 at one decimal.
        XLabels::ByStep if step.is_finite() && step > 0.0 => {
            (-step.log10() - 1e-9).ceil().clamp(0.0, MOST) as usize
        }
        XLabels::ByStep => 1,
    }
}

/// x ticks start at the first sample time and stop before the last one (or before the end
/// of a shared range).
fn x_ticks(agg: &Aggregated, gw: f64, trace_percent: f64, decimals: usize) -> Vec<Tick> {
    let (first, last) = (agg.first_time(), agg.x_axis_end);
    let step = round_step(agg.x_range / TARGET_TICKS);
    let room = x_tick_room(agg, gw, trace_percent);
    let mut ticks = Vec::new();
    let mut v = first;
    while v < last {
        let px = (v - first) * (gw / agg.x_range);
        if px < room {
            ticks.push(Tick {
                at: X0 + px,
                label: cfmt::fixed(v, decimals).into_bytes(),
            });
        }
        let next = v + step;
        // hp2ps loops forever when the step vanishes next to huge times.
        if next <= v {
            break;
        }
        v = next;
    }
    ticks
}

/// How far right of the origin an x tick may be: the x legend (SAMPLE_UNIT) takes the rest.
pub(super) fn x_tick_room(agg: &Aggregated, gw: f64, trace_percent: f64) -> f64 {
    gw - (estimated_width(&agg.sample_unit, trace_percent) + LEGEND_CLEARANCE)
}
