//! A long `.hp` drawn from two readings of its mapped file instead of every point kept
//! (issue 39, `crate::profile::keep`): the first finds every band's total, from which
//! the bands' roles are decided as aggregation would decide them; the second keeps the
//! drawn bands' points and the merged bands' sum. The chart is the same, byte for byte;
//! only the options whose steps need nothing but the totals take this way.

use super::mapped::Mapped;
use crate::cli::Invocation;
use crate::load::{band_totals, Binary, LoadOptions};
use crate::profile::keep::Drawing;
use crate::symbolize::address_label;
use crate::{Format, RenderOptions};

/// What the second reading keeps and every band's total, when `inv` draws a chart
/// whose steps need only those and the first reading of `map` finds them; else `None`
/// (the file is then read once, whole).
pub(super) fn first_reading(
    inv: &Invocation,
    opts: &LoadOptions,
    map: &Mapped,
) -> Option<(Drawing, Vec<i64>)> {
    let drawn_only = matches!(
        inv.format(),
        Format::Ps | Format::Eps | Format::Svg | Format::Pdf
    );
    let plain = !inv.use_aux
        && inv.summary.is_none()
        && !opts.heap_size
        && opts.window().is_everything()
        && opts.filter.is_empty()
        && !matches!(opts.binary, Binary::Given(_));
    if !(drawn_only && plain) {
        return None;
    }
    let first = decide(map.bytes(), opts, &inv.render, &mut |n| map.release(n));
    map.read_again();
    first
}

/// The first reading of `bytes` and the roles it decides for a chart of `render`, if
/// that chart can be drawn from the second reading.
fn decide(
    bytes: &[u8],
    opts: &LoadOptions,
    render: &RenderOptions,
    release: &mut dyn FnMut(usize),
) -> Option<(Drawing, Vec<i64>)> {
    let totals = band_totals(bytes, opts, release)?;
    // A -hi profile's bands (every name an address) may be renamed, and bands of one
    // name merged: that needs their points.
    if (totals.names.iter()).all(|name| address_label(name).is_some()) {
        return None;
    }
    let roles = crate::aggregate::drawn_roles(&totals, &render.aggregate, &render.needs)?;
    let counts = totals.counts;
    Some((Drawing { roles, counts }, totals.totals))
}

#[cfg(test)]
mod tests;
