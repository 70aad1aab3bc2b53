//! Readings of a `.hp` whose first wrote its scans down and whose later ones read them
//! back (`crate::read::hp::recording`) against the same readings from the text: the
//! same totals, the same profile (every point, or the drawn bands' and OTHER's), the
//! same warnings and errors, with chunk cuts at every line of every golden input and of
//! generated long profiles; and the records were read back.

use std::sync::Arc;

use super::decide;
use super::tests::{every_golden_input, generated};
use crate::read::hp::pipeline::read_slice_chunked;
use crate::read::hp::recording::Recording;
use crate::seam::{ProfileBuilder, Sink};
use crate::{Format, LoadOptions, ReadOptions, RenderOptions};

/// `sink` after a reading of `bytes` in chunks of `chunk` with `opts`, and the result.
fn read<S: Sink>(bytes: &[u8], opts: &ReadOptions, chunk: usize, mut sink: S) -> (S, String) {
    let read = read_slice_chunked(bytes, opts, &mut sink, chunk, &mut |_| {});
    (sink, format!("{read:?}"))
}

/// Checks `bytes` both ways; how many records were read back, and how many of them
/// from a file at their places.
fn same_replayed(name: &str, bytes: &[u8]) -> (usize, usize) {
    let plain = ReadOptions::default();
    // The second reading's roles, as `-c` of the whole file decides them.
    let render = RenderOptions::for_format(Format::Ps);
    let drawing = decide(bytes, &LoadOptions::default(), &render, &mut |_| {}, &|| {})
        .map(|(drawing, _)| drawing);
    let (mut replayed, mut at_places) = (0, 0);
    for chunk in [1, 13, 200, 4096, 1 << 20] {
        // In memory, read back under the lock; or, for some, as `-c` records: in a file
        // of TMPDIR, read back at places through a second handle.
        let in_file = matches!(chunk, 200 | 4096);
        let recording = match in_file {
            true => super::recording().expect("a recording file in TMPDIR"),
            false => Arc::new(Recording::new(
                Box::new(std::io::Cursor::new(Vec::new())),
                1 << 30,
            )),
        };
        let recorded = ReadOptions {
            recording: Some(recording.clone()),
            ..ReadOptions::default()
        };
        let at = format!("{name}, chunks of {chunk}");
        // The first reading: the bands' totals, the points added up by the workers.
        let (want, want_read) = read(bytes, &plain, chunk, ProfileBuilder::totals_only());
        let (got, got_read) = read(bytes, &recorded, chunk, ProfileBuilder::totals_only());
        assert_eq!(got_read, want_read, "{at}: first reading");
        assert_eq!(got.band_totals(), want.band_totals(), "{at}: totals");
        // Every point.
        let (want, want_read) = read(bytes, &plain, chunk, ProfileBuilder::default());
        let (got, got_read) = read(bytes, &recorded, chunk, ProfileBuilder::default());
        assert_eq!(got_read, want_read, "{at}: reading");
        assert!(got.finish() == want.finish(), "{at}: profile");
        // The drawn bands' points and OTHER's.
        if let Some(drawing) = &drawing {
            let drawn = || ProfileBuilder::drawn_only(drawing.clone());
            let (want, want_read) = read(bytes, &plain, chunk, drawn());
            let (got, got_read) = read(bytes, &recorded, chunk, drawn());
            assert_eq!(got_read, want_read, "{at}: second reading");
            assert!(got.finish() == want.finish(), "{at}: drawn profile");
        }
        let read_back = recording.counts().1 as usize;
        replayed += read_back;
        at_places += if in_file { read_back } else { 0 };
    }
    (replayed, at_places)
}

#[test]
fn every_golden_input_reads_alike_from_its_scans() {
    let replayed = every_golden_input(|name, bytes| same_replayed(name, bytes).0);
    assert!(replayed > 10_000, "records read back: {replayed}");
}

#[test]
fn generated_profiles_read_alike_from_their_scans() {
    for (bands, censuses, cut) in [(60, 300, true), (200, 100, false)] {
        let bytes = generated(bands, censuses, false, cut);
        let (replayed, at_places) = same_replayed(&format!("{bands} bands"), &bytes);
        assert!(replayed > 1000, "records read back: {replayed}");
        assert!(at_places > 100, "records read back at places: {at_places}");
    }
    // A value that is not a whole number is an error: the same one.
    same_replayed("a fraction", &generated(200, 100, true, false));
}

/// A recording's limit: the chunks past it are scanned from the text, with the same
/// result; a reading that failed leaves nothing to read back.
#[test]
fn past_the_limit_and_after_a_failure_the_text_is_scanned() {
    let bytes = generated(60, 300, false, false);
    let (want, want_read) = read(
        &bytes,
        &ReadOptions::default(),
        4096,
        ProfileBuilder::default(),
    );
    let recording = Arc::new(Recording::new(
        Box::new(std::io::Cursor::new(Vec::new())),
        20_000,
    ));
    let opts = ReadOptions {
        recording: Some(recording.clone()),
        ..ReadOptions::default()
    };
    read(&bytes, &opts, 4096, ProfileBuilder::totals_only());
    let (got, got_read) = read(&bytes, &opts, 4096, ProfileBuilder::default());
    let (written, replayed) = recording.counts();
    assert!(
        written <= 20_000 && replayed > 0,
        "{written} written, {replayed} read back"
    );
    assert_eq!(got_read, want_read);
    assert!(got.finish() == want.finish());

    let bad = [
        &bytes[..bytes.len() / 2],
        b"(b1)band/7\tbad\n",
        &bytes[bytes.len() / 2..],
    ]
    .concat();
    let recording = Arc::new(Recording::new(
        Box::new(std::io::Cursor::new(Vec::new())),
        1 << 30,
    ));
    let opts = ReadOptions {
        recording: Some(recording.clone()),
        ..ReadOptions::default()
    };
    let (_, first) = read(&bad, &opts, 4096, ProfileBuilder::totals_only());
    assert!(first.starts_with("Err"), "{first}");
    assert!(!recording.done());
    let (_, again) = read(&bad, &opts, 4096, ProfileBuilder::default());
    assert_eq!(again, first);
    assert_eq!(recording.counts().1, 0);
}

/// A reading that replays a finished recording gives the map's pages back a chunk at a
/// time (it touches a few of each chunk's, and a whole folio is mapped for each);
/// without a recording, or before it is finished, 16 MiB at a time.
#[cfg(target_os = "linux")]
#[test]
fn a_reading_that_replays_gives_the_pages_back_sooner() {
    use crate::run::mapped::{pages_present, Mapped};
    let dir = std::env::temp_dir().join(format!("hp2ps-ready-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.hp");
    std::fs::write(&path, vec![b'x'; 4 << 20]).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let map = Mapped::of(&file).expect("a large regular file is mapped");
    let given_back_after_a_chunk = |opts: &LoadOptions| {
        let touched: u64 = map.bytes().iter().step_by(512).map(|&b| u64::from(b)).sum();
        assert!(touched > 0);
        super::ready_again(&map, opts);
        map.release(1 << 20);
        pages_present(&map.bytes()[..1 << 20]) == 0
    };
    let mut opts = LoadOptions::default();
    assert!(!given_back_after_a_chunk(&opts), "no recording");
    let recording = super::recording().expect("a recording in TMPDIR");
    opts.hp.recording = Some(Arc::clone(&recording));
    assert!(!given_back_after_a_chunk(&opts), "a recording not finished");
    recording.end(true);
    assert!(given_back_after_a_chunk(&opts), "a finished recording");
    drop(map);
    std::fs::remove_dir_all(&dir).unwrap();
}
