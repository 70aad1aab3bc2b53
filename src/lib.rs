//! hp2ps: render GHC heap profiles (`.hp`) as PostScript, byte-identical to GHC's
//! hp2ps 0.25, plus EPS, SVG and PDF.
//!
//! Data flows one way: the readers ([`read`]) → [`profile::Profile`] → [`aggregate`] →
//! [`layout`] builds a [`layout::chart::Chart`] → a painter in [`paint`]. [`load::load`]
//! reads either input format into a profile with the steps the command applies after
//! reading; [`pipeline::prepare`] runs the middle of the pipeline in one call;
//! [`aux_file`] reads and writes the `.aux` file that `-p` reuses.
#![doc = include_str!("../docs/library.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod aggregate;
pub mod aux_file;
pub mod defaults;
pub mod fonts;
mod intern;
pub mod layout;
pub mod load;
pub mod needs;
mod num;
pub mod paint;
pub mod pipeline;
pub mod profile;
pub mod read;
mod seam;
pub mod summary;
pub mod symbolize;
#[cfg(test)]
mod test_rng;

/// Internals that the tests, benchmarks and fuzz targets exercise directly. Not part of the
/// API: anything here may change without notice.
#[doc(hidden)]
pub mod internals {
    pub use crate::aggregate::{apply_band_limit, band_total, eliminate_traces};
    pub use crate::num::{
        c_atof, c_atoi, c_trunc_i64, fixed, float_value, integer_value, push_f6, push_fixed,
        push_thousands, thousands,
    };
    pub use crate::profile::stack_heights;
    /// The seam between the readers and the model, for sinks of the tests' own.
    pub use crate::seam::{
        BlockMark, HeaderField, ProfileBuilder, SampleBlock, Sink, StatementRun,
    };

    /// The `.hp` reader's ways in: one thread, and on every core with chunks of a
    /// chosen size.
    pub mod hp {
        pub use crate::read::hp::pipeline::{read_chunked, read_into_parallel, read_slice_chunked};
        pub use crate::read::hp::serial::read_into;
    }

    /// The eventlog reader's ways in: one pass over a stream, and bytes on every core
    /// with runs of a chosen size.
    pub mod eventlog {
        pub use crate::read::eventlog::entry::{read_eventlog, read_eventlog_slice_chunked};
    }
}
