//! A long `.hp` drawn from two readings of its mapped file instead of every point kept
//! (issue 39, `crate::profile::keep`): the first finds every band's total, from which
//! the bands' roles are decided as aggregation would decide them; the second keeps the
//! drawn bands' points and the merged bands' sum. The chart is the same, byte for byte;
//! only the options whose steps need nothing but the totals take this way.
//!
//! `--summary` alone of a long `.hp` reads it once, keeping no point but the sums the
//! summary needs ([`summary_reading`]; with `--sort growth`, twice: the bands' growth
//! needs their means first), unless the options or the file need the points.

pub(super) use page::{page_reading, PageReading};

use super::mapped::Mapped;
use crate::cli::Invocation;
use crate::load::{
    band_totals, eventlog_placement, load_slopes, load_summed, Binary, LoadError, LoadOptions,
    Loaded,
};
use std::sync::Arc;

use crate::profile::keep::{Drawing, RunRoles};
use crate::profile::spill::{Spill, SpillHandle};
use crate::read::hp::recording::Recording;
use crate::summary::{summarize_sums, Summary};
use crate::symbolize::address_label;
use crate::{Format, RenderOptions};

/// The most bytes of a `.hp`'s scans written down (about a seventh of GHC's usual text:
/// the first 3.5 GB of a profile; the rest is scanned twice).
const RECORDING_LIMIT: u64 = 512 << 20;

/// The most bands whose roles the second reading's workers are given by name.
const ROLES_BY_NAME_UP_TO: usize = 1 << 16;

/// What the second reading keeps and every band's total, when `inv` draws a chart
/// whose steps need only those and the first reading of `map` finds them; else `None`
/// (the file is then read once, whole).
pub(super) fn first_reading(
    inv: &Invocation,
    opts: &mut LoadOptions,
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
    // An eventlog's censuses are placed, and its bands' totals found, by a reading of
    // their own first (`decide` then reads nothing).
    opts.placed = eventlog_placement(map.bytes(), opts, true, &mut |n| map.release(n));
    map.read_again();
    // A `.hp`'s first reading writes its scans down, and the second reads them back.
    if opts.placed.is_none() {
        opts.hp.recording = recording();
    }
    let again = || map.read_again();
    let first = decide(
        map.bytes(),
        opts,
        &inv.render,
        &mut |n| map.release(n),
        &again,
    );
    ready_again(map, opts);
    if first.is_none() {
        opts.placed = None;
    }
    first.map(|(mut drawing, totals)| {
        drawing.spill = spill();
        if drawing.spill.is_none() {
            // Only a spill takes the points split by role.
            drawing.by_name = None;
        }
        (drawing, totals)
    })
}

/// Where the first reading of a `.hp` writes its scans down for the second
/// (`crate::read::hp::recording`): a new file in TMPDIR, of at most [`RECORDING_LIMIT`]
/// bytes; `None` when no file can be made there (the second reading then scans the
/// text again, as it does past the limit).
pub(super) fn recording() -> Option<Arc<Recording>> {
    let file = super::spill_file::spill_file(&std::env::temp_dir()).ok()?;
    // A second handle, for the second reading's workers to read at places at once.
    let again = file.try_clone().ok();
    let recording = Recording::new(Box::new(file), RECORDING_LIMIT);
    Some(Arc::new(match again {
        Some(again) => recording.read_at_places(again),
        None => recording,
    }))
}

/// Where the second reading puts the drawn bands' points: a new spill file in TMPDIR
/// (`spill_file.rs`), from which PostScript of every sample draws them
/// ([`painted_from_spill`]) and the thinning of the other charts reads them back at the
/// samples it keeps (`aggregate::thin_filled`); `None` when no file can be made there:
/// the points are then kept in memory, as before.
pub(super) fn spill() -> Option<SpillHandle> {
    #[cfg(test)]
    if let Some(make) = command_spill_tests::SPILL_INTO.with(|f| f.get()) {
        return Some(SpillHandle::new(Spill::new(make())));
    }
    let file = super::spill_file::spill_file(&std::env::temp_dir()).ok()?;
    Some(SpillHandle::new(Spill::new(Box::new(file))))
}

/// Whether a chart in `format` with `render` is drawn from a spill by its painter
/// (PostScript, every sample: `paint/ps/spilled_bands.rs`) rather than read back by
/// thinning.
pub(super) fn painted_from_spill(format: Format, render: &RenderOptions) -> bool {
    let every_sample = matches!(render.aggregate.max_points, None | Some(0));
    format == Format::Ps && every_sample && render.needs.band_points == 0
}

/// The profile of `map` loaded without its bands' points, and its summary from the sums
/// the reading made of them instead (`crate::load::load_summed`), when `inv` asks for
/// the summary alone (`file`: the input's name in it) with options it can be made of
/// that way; `Ok(None)` when not (after a reading that found the file needs its points,
/// the map is ready to be read again, whole). Its errors are `load`'s of the same bytes.
pub(super) fn summary_reading(
    inv: &Invocation,
    opts: &LoadOptions,
    map: &Mapped,
    file: Option<&str>,
) -> Result<Option<(Loaded, Summary)>, LoadError> {
    if inv.summary.is_none() || inv.renders() {
        return Ok(None);
    }
    let summary = &inv.summary_options;
    // An eventlog's censuses are placed by a reading of their own first.
    // (A band filter needs the points: no use placing them.)
    let placement = match opts.filter.is_empty() {
        true => eventlog_placement(map.bytes(), opts, false, &mut |n| map.release(n)),
        false => None,
    };
    map.read_again();
    // A `.hp`'s first reading writes its scans down for the second (the bands' growth).
    let placed;
    let opts = match (placement, summary.slopes) {
        (Some(placement), _) => {
            placed = LoadOptions {
                placed: Some(placement),
                ..opts.clone()
            };
            &placed
        }
        (None, true) => {
            let mut recorded = opts.clone();
            recorded.hp.recording = recording();
            placed = recorded;
            &placed
        }
        (None, false) => opts,
    };
    let Some((loaded, sums)) = load_summed(map.bytes(), opts, &mut |n| map.release(n))? else {
        map.read_again();
        return Ok(None);
    };
    // The bands' growth needs their means first: a second reading.
    let slopes = match summary.slopes {
        true => {
            ready_again(map, opts);
            let bytes = map.bytes();
            let growth = load_slopes(bytes, opts, &loaded, &sums, &mut |n| map.release(n))?;
            growth.map(|g| g.slopes)
        }
        false => None,
    };
    let made = summarize_sums(&loaded, &sums, slopes.as_deref(), file, summary);
    if made.is_none() {
        map.read_again();
    }
    Ok(made.map(|summary| (loaded, summary)))
}

/// Makes `map` ready for its next reading with `opts`. One that replays a recording of
/// the first reading's scans touches a few pages of each chunk: it gives them back a
/// chunk at a time ([`Mapped::read_again_sparsely`]). The 1.6 GB profile's `-c` held
/// 8 to 16 MB of its pages through that reading, which was its peak.
pub(super) fn ready_again(map: &Mapped, opts: &LoadOptions) {
    match opts.hp.recording.as_deref().is_some_and(Recording::done) {
        true => map.read_again_sparsely(),
        false => map.read_again(),
    }
}

/// The first reading of `bytes` and the roles it decides for a chart of `render`, if
/// that chart can be drawn from the second reading.
fn decide(
    bytes: &[u8],
    opts: &LoadOptions,
    render: &RenderOptions,
    release: &mut dyn FnMut(usize),
    again: &dyn Fn(),
) -> Option<(Drawing, Vec<i64>)> {
    let totals = band_totals(bytes, opts, release, again)?;
    // A -hi profile's bands (every name an address) may be renamed, and bands of one
    // name merged: that needs their points.
    if (totals.names.iter()).all(|name| address_label(name).is_some()) {
        return None;
    }
    let roles = crate::aggregate::drawn_roles(&totals, &render.aggregate, &render.needs)?;
    // The workers of the second reading look each new name of a chunk up in it: for a
    // profile of a few bands (the map is kept through the reading).
    let by_name = (totals.names.len() <= ROLES_BY_NAME_UP_TO).then(|| {
        let names = totals.names.into_iter().map(Vec::into_boxed_slice);
        Arc::new(RunRoles(names.zip(roles.iter().copied()).collect()))
    });
    let drawing = Drawing {
        roles,
        counts: totals.counts,
        spill: None,
        censuses: totals.censuses,
        at: None,
        by_name,
    };
    Some((drawing, totals.totals))
}

#[cfg(test)]
mod command_spill_tests;
#[cfg(test)]
mod eventlog_tests;
mod page;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod split_tests;
#[cfg(test)]
mod summary_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod totals_tests;
