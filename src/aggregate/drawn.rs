//! The roles of a long profile's bands, decided from their totals alone (the first of
//! its two readings: `crate::profile::keep`), as [`super::aggregate`] would decide them
//! from every point: the hash-bucket order, trace elimination, then the band limit. Only
//! for the options whose passes need nothing but the totals.

use super::order::hash_order_of_names;
use super::traces::kept_after_traces;
use super::AggregateOptions;
use crate::needs::Needs;
use crate::profile::keep::{BandTotals, Role};

/// Each band's role, or `None` when the options or the format need more than the bands'
/// totals (`-d`, `-i`, `--sort growth`, a negative band limit; the page's data, table or
/// bands not drawn), or when the merged bands cannot be added up in file order exactly.
/// `-p`'s order is the caller's to rule out (it is not among these options).
pub(crate) fn drawn_roles(
    totals: &BandTotals,
    opts: &AggregateOptions,
    needs: &Needs,
) -> Option<Vec<Role>> {
    let needs_bands = needs.data || needs.band_table || needs.rest || needs.every_band;
    if needs_bands {
        return None;
    }
    roles_of(totals, opts)
}

/// [`drawn_roles`] for a chart that carries its data (the page: [`Needs::data`], its
/// band table, the bands not drawn), whose numbers and heights the caller finds from
/// readings of its own ([`super::PageFacts`]); `None` as [`drawn_roles`], and for a format
/// that exports every band whole ([`Needs::every_band`]).
pub(crate) fn page_roles(
    totals: &BandTotals,
    opts: &AggregateOptions,
    needs: &Needs,
) -> Option<Vec<Role>> {
    match needs.every_band {
        true => None,
        false => roles_of(totals, opts),
    }
}

/// Each band's role, as [`drawn_roles`] decides it whatever the format needs.
fn roles_of(totals: &BandTotals, opts: &AggregateOptions) -> Option<Vec<Role>> {
    let needs_points = opts.by_deviation || opts.by_name.is_some() || opts.by_growth;
    if needs_points || opts.band_limit < 0 || !totals.exact {
        return None;
    }
    let order = hash_order_of_names(totals.names.iter().map(Vec::as_slice));
    let kept = kept_after_traces(&totals.totals, &order, opts.trace_percent);
    let mut roles = vec![Role::Dropped; totals.names.len()];
    // As `limit::band_limit_keeping`: the first `n - limit + 1` bands of the order after
    // the traces' sort merge into OTHER.
    let n = kept.len() as i64;
    let merged = match opts.band_limit {
        0 => 0,
        limit if n <= limit => 0,
        limit => (n - limit + 1) as usize,
    };
    for (at, &id) in kept.iter().enumerate() {
        roles[id as usize] = if at < merged {
            Role::Merged
        } else {
            Role::Drawn
        };
    }
    Some(roles)
}
