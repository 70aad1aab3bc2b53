//! The `.hp` reader, then the whole pipeline: see [`common::hp_reader`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::hp_reader(data));
