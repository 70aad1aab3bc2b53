//! The readers: bytes in, statements out to one [`Sink`], in file order.
//!
//! [`hp`] reads GHC's `.hp` text format (streaming, on two threads for large inputs);
//! [`window`] sits between a reader and the sink to keep only the samples of a time window
//! (`--from`, `--to`); [`aux`] reads the `.aux` file an earlier run wrote (`-p`). Every
//! reader feeds the same [`Sink`], so the profile model and everything after it are shared.

pub mod aux;
pub mod eventlog;
pub mod hp;
mod sink;
pub mod window;

pub use sink::{HeaderField, Sink};
