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

/// Flag sets every golden input is rendered with (file mode) by `differential.rs`, and
/// every converted eventlog by `eventlog_differential.rs`.
pub const GOLDEN_FLAG_SETS: &[&[&str]] = &[
    &[],
    &["-c"],
    &["-b"],
    &["-s"],
    &["-g"],
    &["-y"],
    &["-d"],
    &["-i"],
    &["-i-"],
    &["-m5"],
    &["-m0"],
    &["-m30"],
    &["-M"],
    &["-t0"],
    &["-t5"],
    &["-e6in"],
    &["-e150mm"],
    &["-e400"],
    &["-c", "-m0", "-t0"],
    &["-g", "-M", "-c"],
    &["-d", "-m3", "-c"],
    &["-e6in", "-M"],
    &["-m-3"],
    &["-i", "-m5", "-b"],
];
