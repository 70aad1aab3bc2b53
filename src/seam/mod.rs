//! The seam between the readers and the model: [`Sink`], which receives a profile's
//! statements in file order, already checked, and the types it hands over. Every reader
//! (`.hp`, eventlog, and anything that stands between a reader and the model, such as
//! the time window) speaks it, and [`ProfileBuilder`] turns it into a
//! [`Profile`](crate::profile::Profile), so the model is built one way and knows no
//! reader.
//!
//! Besides one statement at a time, a reader may hand over whole samples with their
//! points grouped by band ([`SampleBlock`], how an eventlog gives its censuses) or a run
//! of statements its worker threads scanned ([`StatementRun`], how the parallel `.hp`
//! reader gives a chunk), so that the builder interns each name once per run. A reader
//! that follows an input as it is written (the live page's) says each census as soon as
//! it is complete, its bands by number ([`Sink::census`], [`Sink::band_name`]), with the
//! points of the lines over the bands and the censuses damage cost: the same seam, whose
//! defaults make any sink follow an input (a test's profile builder, the time window).
//!
//! What the builder keeps of the points is `keeping.rs`'s: every one, or for the two
//! readings of a long mapped `.hp` (`crate::profile::keep`) each band's total, then the
//! drawn bands' points and the sum of those merged into OTHER; for `--summary` of a
//! long `.hp`, no point but the stack's heights and each band's peak and area
//! (`summing.rs`), then, for its bands' growth, a second reading's slopes
//! (`sloping.rs`).

mod block;
mod builder;
mod closing;
mod keeping;
mod run;
mod sink;
mod sloping;
mod summing;
mod totals;

pub use block::{BlockMark, SampleBlock};
pub(crate) use builder::make_room;
pub use builder::ProfileBuilder;
pub use run::StatementRun;
pub(crate) use run::{BandSum, RunEntry, RunSplit, RunSums, BEGIN, END, MARK};
pub use sink::{HeaderField, Sink};
