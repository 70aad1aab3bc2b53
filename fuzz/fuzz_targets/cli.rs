//! The command line: see [`common::cli_check`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::cli_check::check(data));
