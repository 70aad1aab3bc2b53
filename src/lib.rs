//! hp2ps: render GHC heap profiles (`.hp`) as PostScript, byte-identical to GHC's
//! hp2ps 0.25, plus EPS, SVG and PDF.
//!
//! Data flows one way: [`read`] (the streaming readers) → [`profile::Profile`] →
//! [`aggregate`] → [`layout`] builds a [`layout::chart::Chart`] → a painter in [`paint`].
//! [`pipeline::prepare`] runs the middle of the pipeline in one call; [`aux_file`] reads and
//! writes the `.aux` file that `-p` reuses.
#![doc = include_str!("../docs/library.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod aggregate;
pub mod aux_file;
pub mod defaults;
pub mod fonts;
pub mod layout;
mod num;
pub mod paint;
pub mod pipeline;
pub mod profile;
pub mod read;
pub mod summary;
pub mod symbolize;
#[cfg(test)]
mod test_rng;

/// Internals that the tests, benchmarks and fuzz targets exercise directly. Not part of the
/// API: anything here may change without notice.
#[doc(hidden)]
pub mod internals {
    pub use crate::aggregate::{apply_band_limit, band_total, eliminate_traces, stack_heights};
    pub use crate::num::{
        c_atof, c_atoi, c_trunc_i64, fixed, float_value, integer_value, push_f6, push_fixed,
        push_thousands, thousands,
    };
}
