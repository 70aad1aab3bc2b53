//! The readers: bytes in, statements out to the seam's one `Sink`, in file order.
//!
//! [`hp`] reads GHC's `.hp` text format (streaming, on every core for large inputs),
//! [`eventlog`] a GHC eventlog; [`window`] sits between a reader and the sink to keep only
//! the samples of a time window (`--from`, `--to`). Every reader feeds the same sink, so
//! the profile model and everything after it are shared. These modules hold the readers'
//! options, errors and reports; [`crate::load::load`] is the way to read. What an input
//! is, its first bytes say, in one place ([`kind`]).
//!
//! [`prof`] reads the other model, a time profile (`.prof` text, `-pj` JSON, an
//! eventlog's time samples), into a [`crate::calltree::CallTree`] through its own
//! builder; [`crate::TimeProfile::read`] is the way to read one.

pub(crate) mod eventlog;
pub(crate) mod hp;
pub(crate) mod kind;
pub(crate) mod prof;
pub(crate) mod window;
