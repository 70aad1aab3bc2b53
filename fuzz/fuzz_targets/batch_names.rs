//! See [`files_check::batch_names`].

#![no_main]

use hp2ps::internals::cli;
mod files_check;
#[path = "run_files.rs"]
mod run;

libfuzzer_sys::fuzz_target!(|data: &[u8]| files_check::batch_names(data));
