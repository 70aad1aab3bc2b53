//! The first reading's totals as the reader's workers add them up (`seam/totals.rs`)
//! against the same reading point by point: the same names, totals, counts, censuses and
//! exactness, with chunk cuts at every line of every golden input and of generated long
//! profiles (an incomplete last census among them); and the files whose sums cannot be
//! taken (a total past 2^53, values past it) read as point by point.

use super::tests::{every_golden_input, generated};
use crate::load::band_totals;
use crate::profile::keep::BandTotals;
use crate::read::hp::pipeline::read_slice_chunked;
use crate::seam::ProfileBuilder;
use crate::{LoadOptions, ReadOptions};

/// The first reading of `bytes` in chunks of `chunk` bytes, added up by the workers
/// (or, with `by_points`, not): the totals (`None` when the reader refused the file),
/// whether the sums were spoiled, and how many runs came added up.
fn first_reading(bytes: &[u8], chunk: usize, by_points: bool) -> (Option<BandTotals>, bool, u64) {
    let mut builder = match by_points {
        true => ProfileBuilder::totals_by_points(),
        false => ProfileBuilder::totals_only(),
    };
    let read = read_slice_chunked(
        bytes,
        &ReadOptions::default(),
        &mut builder,
        chunk,
        &mut |_| {},
    );
    let (spoiled, summed) = (builder.sums_spoiled(), builder.runs_summed());
    (
        read.ok().and_then(|_| builder.band_totals()),
        spoiled,
        summed,
    )
}

/// Checks `bytes` both ways over several chunk sizes; how many runs came added up.
fn same_totals(name: &str, bytes: &[u8]) -> usize {
    let (plain, _, none) = first_reading(bytes, 1 << 20, true);
    assert_eq!(none, 0, "{name}: point by point takes no sums");
    let mut summed = 0;
    for chunk in [1, 13, 200, 4096, 1 << 20] {
        let (totals, spoiled, runs) = first_reading(bytes, chunk, false);
        assert!(!spoiled, "{name}, chunks of {chunk}: spoiled");
        assert_eq!(plain, totals, "{name}, chunks of {chunk}");
        summed += runs as usize;
    }
    summed
}

#[test]
fn every_golden_input_totals_alike_from_sums() {
    let summed = every_golden_input(same_totals);
    assert!(summed > 10_000, "runs added up: {summed}");
}

#[test]
fn generated_profiles_total_alike_from_sums() {
    // (A value that is not whole is refused by the reader: no use trying one.)
    for (bands, censuses, fraction, cut) in [
        (60, 300, false, false),
        (60, 300, false, true),
        (25, 40, false, true),
        (200, 200, false, true),
    ] {
        let bytes = generated(bands, censuses, fraction, cut);
        let name = format!("{bands} bands, fraction {fraction}, cut {cut}");
        let summed = same_totals(&name, &bytes);
        assert!(summed > 100, "{name}: runs added up: {summed}");
        let (totals, _, _) = first_reading(&bytes, 4096, false);
        let totals = totals.expect("read");
        assert_eq!(totals.exact, !fraction, "{name}");
        assert_eq!(totals.censuses, censuses, "{name}: the cut census dropped");
    }
}

/// A profile whose band `big` has `values`, one a census, beside a small band.
fn with_values(values: &[u64]) -> Vec<u8> {
    let mut s = String::from("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    for (c, v) in values.iter().enumerate() {
        s += &format!(
            "BEGIN_SAMPLE {c}.0\nsmall\t{}\nbig\t{v}\nEND_SAMPLE {c}.0\n",
            c + 1
        );
    }
    s.into_bytes()
}

#[test]
fn totals_past_2_53_are_read_again_point_by_point() {
    // Each value below 2^53, their total past it: a double rounds the odd ones away.
    // After the first chunk (64 KiB, read by the statement machine for its header).
    let big = (1u64 << 52) + 1;
    let mut values = vec![1; 5000];
    values.extend([big, big, 3, big, 5]);
    let bytes = with_values(&values);
    let (plain, _, _) = first_reading(&bytes, 1 << 20, true);
    let plain = plain.expect("read");
    let exact: u64 = values.iter().sum();
    assert_ne!(
        plain.totals[1], exact as i64,
        "the double's total is not the sum"
    );
    let (_, spoiled, _) = first_reading(&bytes, 40, false);
    assert!(spoiled, "sums past 2^53 are not taken");
    let mut again = 0;
    let opts = LoadOptions::default();
    let counted = std::cell::Cell::new(0);
    let totals = band_totals(&bytes, &opts, &mut |_| {}, &|| {
        counted.set(counted.get() + 1)
    });
    again += counted.get();
    assert_eq!(totals, Some(plain));
    assert_eq!(again, 1, "the map is told once that it is read again");
}

#[test]
fn values_past_2_53_are_taken_one_by_one() {
    // The scan stops before the value past 2^53 (its band seen once), the statement
    // machine reads the rest of that chunk, and the other bands are added up around it.
    let mut bytes = with_values(&[7, 9, 11, 13, 15, 17]);
    let at = bytes
        .windows(4)
        .position(|w| w == b"big\t")
        .expect("a big line");
    bytes.splice(at..at, b"huge\t1152921504606859191\n".iter().copied());
    let (plain, _, _) = first_reading(&bytes, 1 << 20, true);
    assert_eq!(plain.as_ref().map(|t| t.names.len()), Some(3));
    let mut summed = 0;
    for chunk in [1, 30, 100, 1 << 20] {
        let (totals, spoiled, runs) = first_reading(&bytes, chunk, false);
        assert!(!spoiled, "chunks of {chunk}");
        assert_eq!(totals, plain, "chunks of {chunk}");
        summed += runs;
    }
    assert!(summed > 10, "runs added up: {summed}");
}

/// A census early in the file whose values add up past 2^52 makes the sums not exact,
/// though that census was checked and given up long before the reading ended; and a
/// file whose every census stays below it is exact.
#[test]
fn a_census_past_2_52_long_before_the_end_is_not_exact() {
    let half = 1u64 << 51;
    // Census 3 holds `big` twice and `small` 4: 2^52 + 4 with two halves, 2^52 - 2 with
    // two of 2^51 - 3.
    for (at, big, exact) in [(3, half, false), (3, half - 3, true), (4_999, half, false)] {
        let mut values = vec![1; 5_000];
        values[at] = big;
        let mut bytes = with_values(&values);
        let line = format!("big\t{big}\n");
        let pos = bytes.windows(line.len()).position(|w| w == line.as_bytes());
        let pos = pos.expect("the big line");
        bytes.splice(pos..pos, line.bytes());
        for by_points in [true, false] {
            for chunk in [64, 4096, 1 << 20] {
                let (totals, spoiled, _) = first_reading(&bytes, chunk, by_points);
                let totals = totals.expect("read");
                assert!(!spoiled, "census {at}, chunks of {chunk}");
                assert_eq!(
                    totals.exact, exact,
                    "census {at} ({big}), chunks of {chunk}"
                );
            }
        }
    }
}
