//! The band limit and the OTHER band (`-m`, hp2ps step 7; §3.7 of
//! `docs/reference/hp2ps-behaviour.md`).

use crate::profile::{Band, Point};

/// Step 7: keeps `limit` bands by merging the bottom ones into OTHER.
/// Returns whether an OTHER band was made (it is then the bottom band).
pub fn apply_band_limit(bands: &mut Vec<Band>, limit: i64, nsamples: usize) -> bool {
    let (other, gone) = band_limit_keeping(bands, limit, nsamples);
    drop_in_background(gone);
    other
}

/// [`apply_band_limit`], which also hands back the bands it merged into OTHER (or, with
/// a negative limit, dropped), in their order before.
pub(crate) fn band_limit_keeping(
    bands: &mut Vec<Band>,
    limit: i64,
    nsamples: usize,
) -> (bool, Vec<Band>) {
    let n = bands.len() as i64;
    if limit == 0 || n <= limit {
        return (false, Vec::new());
    }
    if limit < 0 {
        return (false, std::mem::take(bands));
    }
    let merged = (n - limit + 1) as usize;
    let mut sums = vec![0.0; nsamples];
    for band in &bands[..merged] {
        for p in &band.points {
            if let Some(s) = sums.get_mut(p.sample as usize) {
                *s += p.value;
            }
        }
    }
    let other = Band {
        name: b"OTHER".to_vec(),
        points: sums
            .into_iter()
            .enumerate()
            .map(|(i, value)| Point {
                sample: i as u32,
                value,
            })
            .collect(),
    };
    let gone: Vec<Band> = bands.splice(..merged, [other]).collect();
    (true, gone)
}

/// Frees a large number of bands on another thread: with a million identifiers, freeing
/// their names and points one by one is a good part of the whole render, and nothing
/// waits for it.
pub(crate) fn drop_in_background(bands: Vec<Band>) {
    if bands.len() < 10_000 {
        return;
    }
    // If no thread can be started, they are freed here.
    let _ = std::thread::Builder::new()
        .name("hp2ps-free".into())
        .spawn(move || drop(bands));
}
