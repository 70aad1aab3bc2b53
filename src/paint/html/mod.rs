//! The HTML painter: one self-contained, interactive page of one chart, or of several
//! runs' charts to compare.
//!
//! Every page is made by one builder (`page.rs`: [`Page`] of [`RunPage`]s): a file's
//! page, the page of runs compared, the live page of `--serve` and its updates, and the
//! whole run's page at its end. A run's page is its head (its name, what its input
//! told, what its page left out: `notes.rs`) and its panels (`panel.rs`: each a part of
//! the run's section and a part of its data; the heap profile's in `heap_panels.rs`, a
//! time profile's in `time_panel.rs` with its data in `time_data.rs` and its links to
//! the heap's bands in `time_link.rs`), each painted once.
//!
//! The chart's panel shows the SVG painter's picture of the graph page (`picture.rs`),
//! with its elements tagged for the page's script (classes on the ticks, bands and
//! marks), and carries the chart's numbers as JSON (`json.rs`; the format is in
//! `docs/formats.md`) for a hand-written script and style (`assets/`, built in with
//! `include_str!` and put together by `template.rs`). The picture shows before any
//! script runs; the script redraws it, from the data and by the layout's rules
//! ([`crate::layout::chart::DataScale`]), only when the reader hides a band, zooms or
//! changes the view. It needs nothing else: every script, style and font is inline, and
//! a Content-Security-Policy forbids any request (the script and style are allowed by
//! their hashes, see `digest.rs`; the live page asks its own server only).
//!
//! The key is the page's legend, not part of the picture: the chart should be laid out
//! with its key on pages of its own ([`crate::layout::LayoutOptions::multipage`], as
//! `-M`), so that the graph takes the page's whole width, as the command line does for
//! `--format html`. (A key on the graph page is left out of the picture, and its space
//! stays empty.) The page needs the chart's data ([`crate::layout::LayoutOptions::data`]);
//! without it the page shows the picture alone.

mod digest;
mod heap_panels;
mod json;
mod minify;
mod notes;
mod page;
mod panel;
mod picture;
mod template;
mod time_data;
mod time_link;
mod time_panel;

pub(crate) use page::{Page, RunPage};
// The command makes the pages of time profiles (run/time_page.rs).
#[cfg(feature = "cli")]
pub(crate) use time_link::LinkKind;
#[cfg(feature = "cli")]
pub(crate) use time_panel::{TimeKind, TimePanel, TimeParts};

use std::io::{self, Write};

use crate::layout::chart::Chart;
use crate::profile::ProfileFacts;

/// Writes one HTML page of several charts, each named by its input's name (a path; the
/// page keeps its file name only) with the facts its input told, one after the other
/// with the same controls each, and a view of their differences (the charts of several
/// runs to compare: see `docs/guide.md`); with one chart, its page alone.
pub(crate) fn write_html_page<W: Write>(
    charts: &[(&Chart, Option<&str>, &ProfileFacts)],
    out: &mut W,
) -> io::Result<()> {
    let runs = (charts.iter())
        .map(|&(chart, source, facts)| RunPage::heap(chart, source, facts, charts.len()))
        .collect::<io::Result<Vec<_>>>()?;
    Page::of(&runs).write(out)
}

#[cfg(test)]
mod tests;
