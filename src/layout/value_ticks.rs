//! The y axis's ticks and legend: hp2ps's (decimal steps, labels in thousands or
//! millions: "35M"), or, for people reading memory, binary or decimal units
//! ([`ValueUnits`]): the step a round number of KiB, MiB or GiB (or kB, MB, GB), each
//! tick labelled with that number alone and the y legend naming the unit, so that the
//! axis, the page's readout and its table say one thing ("7.18 MiB" sits at 7.18).

use super::chart::Tick;
use super::frame::{round_step, LEGEND_CLEARANCE, TARGET_TICKS, Y0};
use super::value_units::ValueUnits;
use super::width_estimate::estimated_width;
use crate::aggregate::Aggregated;
use crate::num::{self as cfmt, c_trunc_i64};

/// The unit a step of `raw` (the value span over the target number of ticks) is counted
/// in: its size and its name (`None`: hp2ps's labels, with their own suffixes).
fn unit(units: ValueUnits, value_unit: &[u8], raw: f64) -> Option<(f64, Vec<u8>)> {
    let bytes = value_unit == b"bytes";
    let (base, names): (f64, [&str; 5]) = match units {
        ValueUnits::Hp2ps => return None,
        ValueUnits::Binary if bytes => (1024.0, ["bytes", "KiB", "MiB", "GiB", "TiB"]),
        _ if bytes => (1000.0, ["bytes", "kB", "MB", "GB", "TB"]),
        _ => (1000.0, ["", "k", "M", "G", "T"]),
    };
    let mut size = 1.0;
    let mut i = 0;
    while i + 1 < names.len() && raw >= size * base {
        size *= base;
        i += 1;
    }
    let name = match (bytes, i) {
        (false, 0) => value_unit.to_vec(),
        (false, _) if value_unit.is_empty() => names[i].as_bytes().to_vec(),
        (false, _) => [names[i].as_bytes(), b" ", value_unit].concat(),
        (true, _) => names[i].as_bytes().to_vec(),
    };
    Some((size, name))
}

/// Every legend the axis can have in these units, for the room the ticks leave it.
fn legends(units: ValueUnits, value_unit: &[u8]) -> Vec<Vec<u8>> {
    (0..5)
        .filter_map(|k| unit(units, value_unit, 1024f64.powi(k)).map(|(_, name)| name))
        .chain(std::iter::once(value_unit.to_vec()))
        .collect()
}

/// The y ticks up to the value span, and the y legend (VALUE_UNIT, or the unit of the
/// labels).
pub(super) fn y_ticks(
    agg: &Aggregated,
    gh: f64,
    trace_percent: f64,
    units: ValueUnits,
) -> (Vec<Tick>, Vec<u8>) {
    let raw = agg.y_range / TARGET_TICKS;
    let counted = unit(units, &agg.value_unit, raw);
    let (step, divisor, suffix, legend): (f64, f64, &[u8], Vec<u8>) = match &counted {
        None => {
            let step = round_step(if raw > 1.0 { raw } else { 1.0 });
            let (divisor, suffix): (f64, &[u8]) = if step >= 1e6 {
                (1e6, b"M")
            } else if step >= 1e3 {
                (1e3, b"k")
            } else {
                (1.0, b"")
            };
            (step, divisor, suffix, agg.value_unit.clone())
        }
        Some((size, name)) => {
            let step = round_step((raw / size).max(1.0)) * size;
            (step, *size, b"", name.clone())
        }
    };
    let room = y_tick_room(agg, gh, trace_percent, units);
    let mut ticks = Vec::new();
    let mut v = 0.0;
    while v <= agg.y_range {
        let py = v * (gh / agg.y_range);
        if py < room {
            let mut label = Vec::new();
            cfmt::push_thousands(&mut label, c_trunc_i64(v / divisor + 0.5));
            label.extend_from_slice(suffix);
            ticks.push(Tick { at: Y0 + py, label });
        }
        let next = v + step;
        if next <= v {
            break;
        }
        v = next;
    }
    (ticks, legend)
}

/// How far above the origin a y tick may be: the y legend takes the rest (the widest it
/// can be in these units, so that a page's redraw in another unit keeps the room).
pub(super) fn y_tick_room(agg: &Aggregated, gh: f64, trace_percent: f64, units: ValueUnits) -> f64 {
    let widest = (legends(units, &agg.value_unit).iter())
        .map(|l| estimated_width(l, trace_percent))
        .fold(0.0, f64::max);
    gh - (widest + LEGEND_CLEARANCE)
}
