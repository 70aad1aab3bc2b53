//! The readers: bytes in, statements out to one [`Sink`], in file order.
//!
//! [`read_input`] picks the reader by the input's first bytes: [`hp`] reads GHC's `.hp`
//! text format (streaming, on two threads for large inputs), [`eventlog`] a GHC eventlog;
//! [`window`] sits between a reader and the sink to keep only the samples of a time window
//! (`--from`, `--to`). Every
//! reader feeds the same [`Sink`], so the profile model and everything after it are shared.

mod block;
pub mod eventlog;
pub mod hp;
mod input;
mod sink;
pub mod window;

pub use block::{BlockMark, SampleBlock};
pub use input::{read_input, read_input_slice, InputError, InputOptions, Notes, EVENTLOG_MAGIC};
pub use sink::{HeaderField, Sink};
