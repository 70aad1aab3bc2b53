//! The eventlog reader, then the whole pipeline: see [`common::eventlog_reader`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::eventlog_reader(data));
