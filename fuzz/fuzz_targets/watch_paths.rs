//! See [`files_check::watch_paths`].

#![no_main]

#[allow(dead_code)]
#[path = "../../src/cli/mod.rs"]
mod cli;
mod files_check;
#[path = "run_files.rs"]
mod run;

libfuzzer_sys::fuzz_target!(|data: &[u8]| files_check::watch_paths(data));
