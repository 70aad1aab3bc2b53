//! The profile generators of the tests, one module:
//!
//! - [`random`]: small random profiles from the whole `.hp` language (odd names,
//!   whitespace, marks, ties, skip cases) with random command lines, for the
//!   differential and property tests; reproducible from one seed.
//! - [`realistic`]: large, realistic GHC profiles (cost-centre stacks, closure
//!   descriptions, band shapes) of a given size. `examples/gen_profile.rs` is its
//!   command line (used by `scripts/compare-hp2ps.sh`) and `benches/pipeline.rs`
//!   includes it too, both with `#[path]`; so it depends on `std` only.

pub mod random;
#[allow(dead_code)]
pub mod realistic;
