//! The binary's file handling that the `batch_names` and `watch_paths` targets fuzz
//! (`src/run/`, compiled in here as `crate::run`, beside `crate::cli`, as the binary has
//! them): file names and the outputs' collisions, and the look at a watched path.

#![allow(dead_code)]

#[path = "../../src/run/names.rs"]
pub(crate) mod names;
#[path = "../../src/run/outputs.rs"]
pub(crate) mod outputs;
#[path = "../../src/run/regular.rs"]
pub(crate) mod regular;
#[path = "../../src/run/version.rs"]
pub(crate) mod version;
#[path = "../../src/run/watched.rs"]
pub(crate) mod watched;
