//! Painters: one per output format, all drawing the same [`crate::layout::chart::Chart`].
//!
//! The order of the items on a page is defined once, in the page walk (`walk.rs`), which
//! hands each item to a format's painter; the shapes the formats share (box corners,
//! the mark caret, a band's outline, the extent of what is drawn) are computed once, in
//! `geometry.rs`. [`write_chart_with`] picks the painter for a [`Format`].

mod buffer;
mod format;
mod geometry;
mod hatch;
pub(crate) mod html;
pub(crate) mod pdf;
pub(crate) mod ps;
pub(crate) mod svg;
mod walk;

pub use format::{write_chart, write_chart_with, write_runs_page, Format, PaintOptions};
