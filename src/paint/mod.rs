//! Painters: one per output format, all drawing the same [`crate::chart::Chart`].

mod format;
mod helvetica_widths;
pub mod metrics;
pub mod pdf;
pub mod ps;
pub mod svg;

pub use format::{picture_width, write_chart, Format};
