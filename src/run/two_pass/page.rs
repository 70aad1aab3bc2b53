//! The page (`--format html`) of a long mapped `.hp` or eventlog in bounded memory (issue
//! 39): its readings keep the points of the bands it draws and sums of the rest, not
//! every point. An eventlog's censuses are placed by a reading before these (its time
//! axis and bands are known only at its end: `read/eventlog/bounded.rs`), and each of
//! these hands them over as they complete.
//!
//! 1. Every band's total (as `-c`'s first reading: the bands' roles) and the summary's
//!    sums (as `--summary`'s: the stack of every band at each sample, the page's totals,
//!    and each band's peak and area), in one reading (`load_totals_summed`).
//! 2. The drawn bands' points and the sum of those merged into OTHER (as `-c`'s second
//!    reading: the profile drawn), and the bands' growth and sparklines from the means
//!    the first found (as `--summary --sort growth`'s second reading), in one
//!    (`load_drawn_sloped`): with the first's, every band's row of the page's table.
//! 3. Once thinning knows the samples the page carries the bands not drawn at (the drawn
//!    samples and its levels' that fit its budget: they depend on the drawn bands and
//!    the totals alone), those bands' points at those samples only
//!    ([`PageReading::rest`]).
//!
//! The page is the same, byte for byte, when every sum is the same double as the points'
//! (whole values, none negative, below 2^52: the first reading checks it); else, and for
//! the options whose steps need more than the totals, the file is read once, whole.

use super::super::mapped::Mapped;
use crate::aggregate::{every_band_of_sums, page_roles, PageFacts};
use crate::cli::Invocation;
use crate::load::{
    eventlog_placement, load_drawn_sloped, load_totals_summed, Binary, LoadError, LoadOptions,
    Loaded,
};
use crate::profile::keep::{Drawing, Role};
use crate::profile::spill::SpillHandle;
use crate::profile::Band;
use crate::read::kind::InputKind;
use crate::symbolize::address_label;
use crate::{load, Format, RenderOptions, Source};

/// A page's profile read without the points of the bands it does not draw, and what it
/// needs of them instead.
pub(crate) struct PageRead {
    /// The drawn bands' points, the merged bands' sum as the first of them's.
    pub(crate) loaded: Loaded,
    /// Every band's total (aggregation's).
    pub(crate) totals: Vec<i64>,
    /// Every band's numbers, and the stack of every band.
    pub(crate) facts: PageFacts,
    /// Each band's role in the second reading (the last reading's need).
    pub(crate) roles: Vec<Role>,
    /// Where the drawn bands' points are, when not in `loaded` (`super::spill`).
    pub(crate) spill: Option<SpillHandle>,
}

/// The third reading of the map: the bands not drawn at the samples the page carries
/// them at.
pub(crate) struct PageReading {
    map: Mapped,
    opts: LoadOptions,
    /// Each band's role, as the second reading kept it.
    roles: Vec<Role>,
}

impl std::fmt::Debug for PageReading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageReading")
            .field("roles", &self.roles.len())
            .finish_non_exhaustive()
    }
}

impl PageReading {
    /// The last reading of `map`, whose second reading with `opts` kept `roles`.
    pub(crate) fn new(map: Mapped, opts: &LoadOptions, roles: Vec<Role>) -> PageReading {
        PageReading {
            map,
            opts: opts.clone(),
            roles,
        }
    }

    /// The bands not drawn on their own (traces, merged into OTHER), each with its
    /// points in the samples flagged in `wanted` only; the others without points.
    pub(crate) fn rest(&self, wanted: &[bool]) -> Result<Vec<Band>, LoadError> {
        super::ready_again(&self.map, &self.opts);
        let release = &mut |n| self.map.release(n);
        rest_bands(self.map.bytes(), &self.opts, &self.roles, wanted, release)
    }

    /// Whether the file changed while it was read ([`Mapped::changed_while_read`]).
    pub(crate) fn changed_while_read(&self, read_failed: bool) -> bool {
        self.map.changed_while_read(read_failed)
    }
}

/// The last reading of `bytes` ([`PageReading::rest`]), whose second with `opts` kept
/// `roles`.
fn rest_bands(
    bytes: &[u8],
    opts: &LoadOptions,
    roles: &[Role],
    wanted: &[bool],
    release: &mut dyn FnMut(usize),
) -> Result<Vec<Band>, LoadError> {
    let mut opts = opts.clone();
    opts.drawn = Some(rest_drawing(roles, wanted));
    Ok(load(Source::Mapped { bytes, release }, &opts)?
        .profile
        .bands)
}

/// What the last reading keeps: the bands not drawn in the samples of `wanted`.
fn rest_drawing(roles: &[Role], wanted: &[bool]) -> Drawing {
    let roles = (roles.iter())
        .map(|role| match role {
            Role::Drawn => Role::Dropped,
            Role::Merged | Role::Dropped => Role::Drawn,
        })
        .collect();
    Drawing {
        roles,
        counts: Vec::new(),
        spill: None,
        censuses: wanted.len(),
        at: Some(wanted.to_vec()),
        by_name: None,
    }
}

/// The page of `map` read in parts (the first two readings), when `inv` asks for a page
/// with options whose steps need only what the parts give; `Ok(None)` when not, the map
/// then ready to be read again, whole. Its errors are `load`'s of the same bytes.
pub(crate) fn page_reading(
    inv: &Invocation,
    opts: &mut LoadOptions,
    map: &Mapped,
) -> Result<Option<PageRead>, LoadError> {
    let plain = matches!(inv.format(), Format::Html)
        && !inv.use_aux
        && inv.summary.is_none()
        && !opts.heap_size
        && opts.window().is_everything()
        && opts.filter.is_empty()
        && !matches!(opts.binary, Binary::Given(_));
    if !plain {
        return Ok(None);
    }
    // An eventlog's censuses are placed by a reading of their own first (as for `-c`:
    // `read/eventlog/bounded.rs`); one it does not place is read whole. The placement
    // stays in `opts` for the page's last reading.
    if InputKind::of(map.bytes()) == InputKind::Eventlog {
        opts.placed = eventlog_placement(map.bytes(), opts, false, &mut |n| map.release(n));
        map.read_again();
        if opts.placed.is_none() {
            return Ok(None);
        }
    }
    // A `.hp`'s first reading writes its scans down, and the later ones read them back.
    if opts.placed.is_none() {
        opts.hp.recording = super::recording();
    }
    let again = || super::ready_again(map, opts);
    let spill = super::spill();
    let read = read_parts(map.bytes(), opts, &inv.render, spill, &again, &mut |n| {
        map.release(n)
    });
    if !matches!(read, Ok(Some(_))) {
        opts.placed = None;
    }
    read
}

/// The first two readings of `bytes` for a page of `render` (see the module docs), the
/// drawn bands' points into `spill` when there is one, `again` called after each (the
/// map's pages are dropped anew: `Mapped::read_again`), `release` as the reading goes.
fn read_parts(
    bytes: &[u8],
    opts: &LoadOptions,
    render: &RenderOptions,
    spill: Option<SpillHandle>,
    again: &dyn Fn(),
    release: &mut dyn FnMut(usize),
) -> Result<Option<PageRead>, LoadError> {
    let first = load_totals_summed(bytes, opts, release)?;
    again();
    let Some((mut summed, mut sums, totals)) = first else {
        return Ok(None);
    };
    // Kept through the readings that follow: no room to spare in them (they grew by
    // doubling, up to twice their size).
    summed.profile.times.shrink_to_fit();
    sums.heights.shrink_to_fit();
    // A -hi profile's bands may be renamed and merged: that needs their points.
    let roles = (!totals
        .names
        .iter()
        .all(|name| address_label(name).is_some()))
    .then(|| page_roles(&totals, &render.aggregate, &render.needs))
    .flatten();
    let Some(roles) = roles else {
        return Ok(None);
    };
    let drawing = Drawing {
        roles,
        counts: totals.counts,
        spill: spill.clone(),
        censuses: totals.censuses,
        at: None,
        by_name: None,
    };
    let mut second = opts.clone();
    second.drawn = Some(drawing.clone());
    let read = load_drawn_sloped(bytes, &second, &mut summed, &sums, release)?;
    let Some((loaded, growth)) = read else {
        again();
        return Ok(None);
    };
    // The readings' bands are the same, in the same order, over the same censuses.
    let names =
        |l: &Loaded| -> Vec<Vec<u8>> { (l.profile.bands.iter()).map(|b| b.name.clone()).collect() };
    let (s, p) = (&summed.profile, &loaded.profile);
    if names(&summed) != names(&loaded) || s.times != p.times || !sums.exact {
        again();
        return Ok(None);
    }
    let table = every_band_of_sums(
        &s.bands,
        &sums.bands,
        &growth.slopes,
        &growth.sparks,
        &s.times,
        &sums.heights,
    );
    let facts = PageFacts {
        table,
        heights: sums.heights,
    };
    Ok(Some(PageRead {
        loaded,
        totals: totals.totals,
        facts,
        roles: drawing.roles,
        spill,
    }))
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
