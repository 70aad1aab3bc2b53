//! The `.aux` reader, then `-p` with what it read: see [`common::aux_reader`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::aux_reader(data));
