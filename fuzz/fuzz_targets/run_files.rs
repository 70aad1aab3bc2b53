//! The command's file handling that the `batch_names` and `watch_paths` targets fuzz
//! (`src/run/`, reached through `hp2ps::internals::run` as `crate::run`, beside
//! `crate::cli`, as the command has them): file names and the outputs' collisions, and the
//! look at a watched path.

pub(crate) use hp2ps::internals::run::{names, outputs, regular, watched};
