//! The second reading of a long `.hp` into a spill with its points split by role in the
//! reader's workers (`Form::Split`: the drawn bands' points by band, the merged bands'
//! added up by census, the dropped bands' not kept) against the same reading with every
//! point by band: the same profile, the same points of every band in the spill, the
//! same stack heights (bit for bit) and OTHER's sum, with chunk cuts at every line of
//! every golden input and of generated long profiles (an incomplete last census among
//! them), under every option set of the two readings.

use super::decide;
use super::tests::{every_golden_input, generated, option_sets};
use crate::profile::keep::Drawing;
use crate::profile::spill::{Spill, SpillHandle};
use crate::read::hp::pipeline::read_slice_chunked;
use crate::seam::ProfileBuilder;
use crate::{Format, LoadOptions, ReadOptions, RenderOptions};

/// The second reading of `bytes` in chunks of `chunk` bytes as `drawing` says, into a
/// spill in memory: what it found, as text, and how many runs came split.
fn second_reading(bytes: &[u8], drawing: &Drawing, chunk: usize) -> (String, u64) {
    let (found, split, _) = second_reading_held(bytes, drawing, chunk);
    (found, split)
}

/// [`second_reading`], and the most censuses the builder held at once.
fn second_reading_held(bytes: &[u8], drawing: &Drawing, chunk: usize) -> (String, u64, usize) {
    let spill = SpillHandle::new(Spill::new(Box::new(std::io::Cursor::new(Vec::new()))));
    let mut drawing = drawing.clone();
    drawing.spill = Some(spill.clone());
    let mut builder = ProfileBuilder::drawn_only(drawing);
    let read = read_slice_chunked(
        bytes,
        &ReadOptions::default(),
        &mut builder,
        chunk,
        &mut |_| {},
    );
    let (split, held) = (builder.runs_split(), builder.most_censuses_held());
    let profile = builder.finish();
    let mut spill = spill.lock();
    let finished = spill.finish().map_err(|e| e.to_string());
    let mut heights = Vec::new();
    let read_heights = spill.read_heights(&mut |ps| {
        heights.extend(ps.iter().map(|p| (p.sample, p.value.to_bits())));
    });
    let heights = (read_heights.map_err(|e| e.to_string()), heights);
    let mut bands = Vec::new();
    for band in 0..profile.bands.len() as u32 {
        let mut points = Vec::new();
        let read = spill.read_band(band, &mut |p| points.extend_from_slice(p));
        bands.push((read.map_err(|e| e.to_string()), points));
    }
    let found = format!(
        "{:?}\n{profile:?}\n{finished:?} {:?} {:?}\n{heights:?}\n{bands:?}",
        read.map(|_| ()),
        spill.carrier,
        spill.names
    );
    (found, split, held)
}

/// Checks `bytes` both ways, for every option set that reads it twice; how many runs
/// came split.
fn same_split(name: &str, bytes: &[u8]) -> usize {
    let mut split = 0;
    for aggregate in option_sets() {
        let mut render = RenderOptions::for_format(Format::Ps);
        render.aggregate = aggregate.clone();
        let opts = LoadOptions::default();
        let Some((drawing, _)) = decide(bytes, &opts, &render, &mut |_| {}, &|| {}) else {
            continue;
        };
        assert!(drawing.by_name.is_some(), "{name}: roles by name");
        let plain = Drawing {
            by_name: None,
            ..drawing.clone()
        };
        let (want, none) = second_reading(bytes, &plain, 1 << 20);
        assert_eq!(none, 0, "{name}: without roles by name, no run is split");
        for chunk in [1, 13, 200, 4096, 1 << 20] {
            let (got, runs) = second_reading(bytes, &drawing, chunk);
            assert!(
                got == want,
                "{name}, {aggregate:?}, chunks of {chunk}:\n{got}\n{want}"
            );
            split += runs as usize;
        }
    }
    split
}

#[test]
fn every_golden_input_reads_alike_split_by_role() {
    let split = every_golden_input(same_split);
    assert!(split > 10_000, "runs split: {split}");
}

#[test]
fn generated_profiles_read_alike_split_by_role() {
    for (bands, censuses, cut) in [(60, 300, false), (60, 300, true), (200, 100, true)] {
        let bytes = generated(bands, censuses, false, cut);
        let split = same_split(&format!("{bands} bands, cut {cut}"), &bytes);
        assert!(split > 100, "runs split: {split}");
    }
}

/// The second reading into a spill holds the heights and OTHER's sum of the censuses
/// still open only (a run's, split by role or not), not one of each census of the file.
#[test]
fn the_second_reading_holds_the_open_censuses_only() {
    let bytes = generated(60, 300, false, true);
    let mut render = RenderOptions::for_format(Format::Ps);
    render.aggregate = option_sets().swap_remove(0);
    let opts = LoadOptions::default();
    let (drawing, _) = decide(&bytes, &opts, &render, &mut |_| {}, &|| {}).expect("two readings");
    let plain = Drawing {
        by_name: None,
        ..drawing.clone()
    };
    for (how, drawing) in [("split", &drawing), ("by band", &plain)] {
        let (_, _, whole) = second_reading_held(&bytes, drawing, 1 << 20);
        assert!(
            whole >= 100,
            "{how}: a long run holds its censuses: {whole}"
        );
        let (_, _, held) = second_reading_held(&bytes, drawing, 4096);
        // A 4 KiB chunk holds about five censuses of 60 bands.
        assert!(held <= 10, "{how}: {held} censuses held at once");
    }
}
