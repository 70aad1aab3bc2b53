use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::*;
use crate::symbolize::IpeNames;

const HEAD: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n";

fn hp(body: &str) -> Vec<u8> {
    format!("{HEAD}{body}").into_bytes()
}

fn two_samples() -> Vec<u8> {
    hp("BEGIN_SAMPLE 0.0\na 1\nb 4\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 2\nEND_SAMPLE 1.0\n")
}

/// A `-hi` profile: its bands are info-table addresses.
fn info_tables() -> Vec<u8> {
    hp("BEGIN_SAMPLE 0.0\n0x40b010 16\n0x40b0a8 32\nEND_SAMPLE 0.0\n")
}

fn from_stream(bytes: &[u8], opts: &LoadOptions) -> Result<Loaded, LoadError> {
    let mut input = bytes;
    load(Source::Stream(&mut input), opts)
}

fn from_bytes(bytes: &[u8], opts: &LoadOptions) -> Result<Loaded, LoadError> {
    load(Source::Bytes(bytes), opts)
}

#[test]
fn text_is_read_as_a_hp_file_from_a_stream_and_from_bytes() {
    for read in [from_stream, from_bytes] {
        let loaded = read(&two_samples(), &LoadOptions::default()).unwrap();
        assert_eq!(loaded.profile.times, [0.0, 1.0]);
        assert_eq!(loaded.profile.bands.len(), 2);
        assert!(loaded.warnings.is_empty() && loaded.eventlog.is_none());
        assert!(loaded.naming.is_none() && loaded.filtered.is_none());
    }
}

#[test]
fn the_magic_picks_the_eventlog_reader() {
    for read in [from_stream, from_bytes] {
        let err = read(b"hdrb and then nothing", &LoadOptions::default());
        assert!(matches!(err, Err(LoadError::Eventlog(_))), "{err:?}");
        // Short or empty inputs are `.hp` files (and fail as such).
        for short in [&b"hd"[..], b""] {
            let err = read(short, &LoadOptions::default());
            assert!(matches!(err, Err(LoadError::Hp(_))), "{err:?}");
        }
    }
}

/// A mapped input is read as bytes, and handed back as it is read.
#[test]
fn mapped_bytes_give_the_profile_of_the_stream_and_are_released() {
    let text = two_samples();
    let mut released = 0;
    let mut release = |n: usize| released = released.max(n);
    let source = Source::Mapped {
        bytes: &text,
        release: &mut release,
    };
    let mapped = load(source, &LoadOptions::default()).unwrap();
    let streamed = from_stream(&text, &LoadOptions::default()).unwrap();
    assert_eq!(mapped.profile, streamed.profile);
    assert_eq!(released, text.len());
}

#[test]
fn a_window_keeps_its_samples_and_refuses_an_empty_one() {
    let mut opts = LoadOptions {
        from: Some(0.5),
        ..LoadOptions::default()
    };
    for read in [from_stream, from_bytes] {
        assert_eq!(read(&two_samples(), &opts).unwrap().profile.times, [1.0]);
    }
    opts.from = Some(5.0);
    let err = from_bytes(&two_samples(), &opts);
    assert!(
        matches!(err, Err(LoadError::NoSampleInWindow { .. })),
        "{err:?}"
    );
}

/// The reader's warnings come first, positioned, then the steps'.
#[test]
fn a_hp_asked_for_heap_size_lines_gets_a_warning_after_the_readers() {
    let mut opts = LoadOptions {
        heap_size: true,
        ..LoadOptions::default()
    };
    let cut = [two_samples(), b"BEGIN_SAMPLE 2.0\na 3\n".to_vec()].concat();
    let loaded = from_bytes(&cut, &opts).unwrap();
    assert!(loaded.profile.series.is_empty());
    assert!(matches!(
        &loaded.warnings[..],
        [
            Warning::IncompleteLastSample { .. },
            Warning::HeapSizeNeedsEventlog
        ]
    ));
    let first = loaded.warnings[0].line("t.hp");
    assert!(
        first.starts_with("t.hp:14:1: the profile ends inside a sample"),
        "{first}"
    );
    assert_eq!(
        loaded.warnings[1].line("t.hp"),
        "t.hp: --heap-size needs an eventlog (prog +RTS -h -l); a .hp has no heap size"
    );
    opts.heap_size = false;
    assert_eq!(from_bytes(&cut, &opts).unwrap().warnings.len(), 1);
}

#[test]
fn the_filter_takes_its_bands_out_and_says_what_they_were() {
    let mut opts = LoadOptions::default();
    opts.filter.exclude("^b$").unwrap();
    let loaded = from_bytes(&two_samples(), &opts).unwrap();
    let names: Vec<&[u8]> = loaded.profile.bands.iter().map(|b| &b.name[..]).collect();
    assert_eq!(names, [b"a"]);
    let out = loaded.filtered.unwrap();
    // `b` is 4 at 0 s and absent at 1 s: 2 byte-seconds of the stack's 3.5.
    assert_eq!((out.bands, out.area), (1, 2.0));
    assert_eq!(out.share, 2.0 / 3.5);
}

/// The filter sees the names the naming step gave (here: the addresses a `-hi` profile
/// keeps without IPE entries or a binary).
#[test]
fn the_filter_runs_after_the_naming() {
    let mut opts = LoadOptions::default();
    opts.filter.include("^0x40b010$").unwrap();
    let loaded = from_bytes(&info_tables(), &opts).unwrap();
    let naming = loaded.naming.expect("a -hi profile is named");
    assert_eq!((naming.bands, naming.unresolved), (2, 2));
    assert_eq!(loaded.profile.bands.len(), 1);
}

fn counting_find(calls: &Arc<AtomicUsize>) -> Binary {
    let calls = Arc::clone(calls);
    Binary::Find(Arc::new(move |_: &str| {
        calls.fetch_add(1, Ordering::Relaxed);
        None
    }))
}

/// A `.hp` names no program, so a binary to find is never looked for; a given one that
/// is no binary is refused with a warning; with `--ipe-names address` nothing is named.
#[test]
fn a_hp_of_info_tables_is_named_with_the_binary_given_only() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut opts = LoadOptions {
        binary: counting_find(&calls),
        ..LoadOptions::default()
    };
    let loaded = from_bytes(&info_tables(), &opts).unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 0);
    assert!(loaded.warnings.is_empty());
    assert!(loaded.naming.as_ref().is_some_and(|n| n.binary.is_none()));
    assert_eq!(loaded.naming.map(|n| n.unresolved), Some(2));

    opts.binary = Binary::Given(Program::new("./not-a-program", &b"#!/bin/sh\n"[..]));
    let loaded = from_bytes(&info_tables(), &opts).unwrap();
    assert!(loaded.naming.as_ref().is_some_and(|n| n.binary.is_none()));
    match &loaded.warnings[..] {
        [w @ Warning::BinaryUnusable { binary, .. }] => {
            assert_eq!(binary, "./not-a-program");
            assert!(
                w.to_string().starts_with("./not-a-program is not used: "),
                "{w}"
            );
        }
        other => panic!("{other:?}"),
    }

    opts.ipe_names = IpeNames::Address;
    let loaded = from_bytes(&info_tables(), &opts).unwrap();
    assert!(loaded.naming.is_none() && loaded.warnings.is_empty());
}

/// Bands that are not addresses are not renamed; a binary given for them is named in a
/// warning, and one to be found is not looked for.
#[test]
fn a_binary_names_nothing_in_a_profile_of_other_bands() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut opts = LoadOptions {
        binary: counting_find(&calls),
        ..LoadOptions::default()
    };
    let loaded = from_bytes(&two_samples(), &opts).unwrap();
    assert!(loaded.naming.is_none() && loaded.warnings.is_empty());
    assert_eq!(calls.load(Ordering::Relaxed), 0);
    opts.binary = Binary::Given(Program::new("prog", Vec::new()));
    let loaded = from_bytes(&two_samples(), &opts).unwrap();
    assert_eq!(
        loaded.warnings,
        [Warning::BinaryNamesNothing {
            binary: "prog".into()
        }]
    );
    assert_eq!(
        loaded.warnings[0].line("t.hp"),
        "t.hp: its bands are not info-table addresses (a -hi profile): --binary prog names nothing"
    );
}

/// A program's bytes that count how often they are asked for.
struct Counted(Vec<u8>, AtomicUsize);

impl AsRef<[u8]> for Counted {
    fn as_ref(&self) -> &[u8] {
        self.1.fetch_add(1, Ordering::Relaxed);
        &self.0
    }
}

/// A binary's symbols are read once for every load that uses it, clones of its options
/// too (a live page names its bands again with every update), and so is why it has
/// none: the warning stays.
#[test]
fn a_binary_is_read_once_for_every_load() {
    let bytes = Arc::new(Counted(b"#!/bin/sh\n".to_vec(), AtomicUsize::new(0)));
    let program = Program::shared("./not-a-program", bytes.clone());
    let opts = LoadOptions {
        binary: Binary::Given(program),
        ..LoadOptions::default()
    };
    for _ in 0..3 {
        let loaded = from_bytes(&info_tables(), &opts.clone()).unwrap();
        assert!(matches!(
            &loaded.warnings[..],
            [Warning::BinaryUnusable { .. }]
        ));
    }
    assert_eq!(bytes.1.load(Ordering::Relaxed), 1);
}
