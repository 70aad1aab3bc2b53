//! A program binary for a `-hi` profile's names: see [`common::binary`].

#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| common::binary(data));
