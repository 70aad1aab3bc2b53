//! The time profile's readers, then every view of the tree and its summaries: see
//! [`common::prof_reader`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::prof_reader(data));
