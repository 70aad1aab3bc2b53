//! Painters: one per output format, all drawing the same [`crate::layout::chart::Chart`].
//!
//! The order of the items on a page is defined once, in the page walk (`walk.rs`), which
//! hands each item to a format's painter; the shapes the formats share (box corners,
//! the mark caret, a band's outline, the extent of what is drawn) are computed once, in
//! `geometry.rs`. [`Chart::write`](crate::Chart::write) picks the painter for a [`Format`].
//!
//! Files: `format.rs`: [`Format`], what each format needs of the stages before it
//! ([`Format::needs`], in one place), [`PaintOptions`] (the EPS width, the input's name
//! for the page, the exports' options); `write.rs`: [`Chart::write`](crate::Chart::write),
//! the one place that picks a painter; one output buffer
//! (`buffer.rs`);
//! `hatch.rs` turns a pattern into the lines and dots every painter draws. The painters:
//! `ps/` (with string escaping, the EPS bounding box, and the polygons of long bands put
//! together from numbers formatted once: `long_bands.rs`), `svg/` (the long bands of
//! large documents in pieces that libxml2 reads: `pieces.rs`; text placed glyph by glyph:
//! `glyphs.rs`), `pdf/`, and `html/` (the interactive page, made by one builder for files, runs
//! compared and the live page: `page.rs`, a run's head and its panels (`panel.rs`, the
//! heap profile's in `heap_panels.rs`, a time profile's in `time_panel.rs`), the SVG
//! painter's picture with classes on what its script redraws, the chart's data as
//! escaped JSON (`json.rs`), the CSP hashes in `digest.rs`, the script, style and
//! template in `assets/`, carried without comments and needless spaces by `minify.rs`;
//! several runs' charts in one page:
//! [`Chart::write_runs_page`](crate::Chart::write_runs_page); see `docs/formats.md`).
//! The exports, formats of the chart's numbers rather than its picture: `prometheus/`
//! (Prometheus's and OpenMetrics's text, `--format prometheus`) and `pprof/` (one
//! census as pprof's `profile.proto`), both reading what `census.rs` gives them of the
//! chart (every band, the census chosen, the program and the kind of profile;
//! [`PaintOptions`]). A time profile's static flame graph: `flame/` (SVG, PDF, PS and
//! EPS of `layout::flame`'s `FlameChart`).

mod buffer;
mod census;
mod flame;
mod format;
mod geometry;
mod hatch;
pub(crate) mod html;
pub(crate) mod pdf;
mod pprof;
pub(crate) mod prometheus;
pub(crate) mod ps;
pub(crate) mod svg;
mod walk;
mod write;

pub use census::Census;
pub(crate) use flame::write_flame;
pub use format::{Format, PaintOptions};
// The command's (run/).
#[cfg(feature = "cli")]
pub(crate) use pprof::write_time_pprof;
