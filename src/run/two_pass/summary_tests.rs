//! The summary of a profile read without its points (`load_summed`, `summarize_sums`)
//! against the summary of every point kept (`load`, `summarize`): the same bytes, as
//! JSON and as text, and the same warnings, for every golden input, every `.hp` of
//! `tests/data` (long GHC runs among them), and generated profiles (an incomplete last
//! census, a band only in it, bands absent from censuses and listed in changing
//! orders, a band twice in a census, marks), with `--heap-size`, time windows, several
//! `top`s and the bands' growth (a second reading's); and the inputs and options that
//! need the points are read whole.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::tests::generated;
use crate::load::{load_slopes, load_summed};
use crate::summary::{summarize, summarize_sums, Summary, SummaryOptions};
use crate::{load, LoadOptions, Loaded, Source};

fn whole(bytes: &[u8], opts: &LoadOptions) -> Loaded {
    let source = Source::Mapped {
        bytes,
        release: &mut |_| {},
    };
    load(source, opts).unwrap_or_else(|e| panic!("read whole: {e}"))
}

/// The profile loaded without its points and its sums, when the reading takes that way.
fn summed(bytes: &[u8], opts: &LoadOptions) -> Option<(Loaded, crate::profile::keep::Sums)> {
    load_summed(bytes, opts, &mut |_| {}).unwrap_or_else(|e| panic!("read summed: {e}"))
}

/// The summary's bytes: its JSON line and its text.
fn bytes_of(s: &Summary) -> (Vec<u8>, Vec<u8>) {
    let (mut json, mut text) = (Vec::new(), Vec::new());
    s.write_json(&mut json)
        .unwrap_or_else(|e| panic!("json: {e}"));
    s.write_text(&mut text)
        .unwrap_or_else(|e| panic!("text: {e}"));
    (json, text)
}

/// The summary options compared: the default's ten bands, every band, one, and every
/// band with its growth (`--sort growth`).
fn summary_options() -> Vec<SummaryOptions> {
    [(10, false), (100_000, false), (1, false), (100_000, true)]
        .into_iter()
        .map(|(top, slopes)| SummaryOptions { top, slopes })
        .collect()
}

/// The load options compared: the default, `--heap-size`, and three time windows (the
/// middle third of the censuses' times, from the middle on, up to it), placed by the
/// profile's times as read whole.
fn load_options(bytes: &[u8]) -> Vec<LoadOptions> {
    let times = whole(bytes, &LoadOptions::default()).profile.times;
    let at = |share: usize| times[(times.len() - 1) * share / 3];
    let window = |from, to| LoadOptions {
        from,
        to,
        ..LoadOptions::default()
    };
    vec![
        LoadOptions::default(),
        LoadOptions {
            heap_size: true,
            ..LoadOptions::default()
        },
        window(Some(at(1)), Some(at(2))),
        window(Some(at(1)), None),
        window(None, Some(at(2))),
    ]
}

/// Compares both ways with the [`load_options`]; returns how many summaries were made
/// from the sums (0 when the reading needs the points).
fn same_both_ways(name: &str, bytes: &[u8]) -> usize {
    let mut made = 0;
    for opts in load_options(bytes) {
        let Some((part, sums)) = summed(bytes, &opts) else {
            continue;
        };
        let all = whole(bytes, &opts);
        assert_eq!(all.warnings, part.warnings, "{name}: warnings");
        let points: usize = part.profile.bands.iter().map(|b| b.points.len()).sum();
        assert_eq!(points, 0, "{name}: the summary's reading kept points");
        let slopes = load_slopes(bytes, &opts, &part, &sums, &mut |_| {})
            .unwrap_or_else(|e| panic!("{name}: read for the slopes: {e}"))
            .unwrap_or_else(|| panic!("{name}: no slopes"))
            .slopes;
        for sopts in summary_options() {
            let one = summarize(&all, Some(name), &sopts);
            let slopes = sopts.slopes.then_some(&slopes[..]);
            let two = summarize_sums(&part, &sums, slopes, Some(name), &sopts)
                .unwrap_or_else(|| panic!("{name}: no summary from the sums"));
            let ((json1, text1), (json2, text2)) = (bytes_of(&one), bytes_of(&two));
            assert!(
                json1 == json2,
                "{name}: top {} differs as JSON:\n{}\n{}",
                sopts.top,
                String::from_utf8_lossy(&json1),
                String::from_utf8_lossy(&json2)
            );
            assert!(text1 == text2, "{name}: top {} differs as text", sopts.top);
            made += 1;
        }
    }
    made
}

fn hp_files_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let name = path.to_string_lossy();
        if path.is_dir() {
            hp_files_under(&path, found);
        } else if name.ends_with(".hp") || name.ends_with(".hp.gz") {
            found.push(path);
        }
    }
}

fn contents(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if !path.to_string_lossy().ends_with(".gz") {
        return bytes;
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

#[test]
fn every_golden_and_test_profile_is_summarised_alike_without_its_points() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    hp_files_under(&root.join("golden/inputs"), &mut inputs);
    hp_files_under(&root.join("tests/data"), &mut inputs);
    inputs.sort();
    assert!(inputs.len() > 120, "the inputs: {}", inputs.len());
    let (mut made, mut long) = (0, 0);
    for path in &inputs {
        let bytes = contents(path);
        let n = same_both_ways(&path.display().to_string(), &bytes);
        made += n;
        long += usize::from(n > 0 && bytes.len() > 2 << 20);
    }
    // Not vacuous: most inputs were summarised from their sums, long ones (read in many
    // runs of the parallel reader) among them.
    assert!(made > 2000, "summaries made from the sums: {made}");
    assert!(long >= 3, "long inputs summarised from their sums: {long}");
}

/// A profile whose bands come and go, in changing orders, a band twice in one census,
/// with marks; long enough for several runs of the parallel reader.
fn shuffled(bands: usize, censuses: usize) -> Vec<u8> {
    let mut next = crate::test_rng::xorshift(7);
    let mut s = String::from("JOB \"shuffled\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n");
    s += "VALUE_UNIT \"bytes\"\n";
    for c in 0..censuses {
        let t = c as f64 * 0.37 + (next() % 7) as f64 * 0.01;
        s += &format!("BEGIN_SAMPLE {t:.3}\n");
        let start = next() as usize % bands;
        for k in 0..bands {
            let b = (start + k * 7) % bands;
            if next() % 4 != 0 {
                s += &format!("band{b}\t{}\n", next() % 100_000);
            }
        }
        if c % 5 == 0 {
            s += &format!("band3\t{}\n", next() % 50);
        }
        s += &format!("END_SAMPLE {t:.3}\n");
        if c % 97 == 0 {
            s += &format!("MARK {t:.3}\n");
        }
    }
    s.into_bytes()
}

#[test]
fn generated_profiles_are_summarised_alike_without_their_points() {
    let mut made = 0;
    for (bands, censuses, cut) in [(60, 300, false), (60, 300, true), (25, 40, true)] {
        let bytes = generated(bands, censuses, false, cut);
        made += same_both_ways(&format!("{bands} bands, cut {cut}"), &bytes);
    }
    // Over 3 MB: the parallel reader's runs of a megabyte split censuses.
    let bytes = shuffled(120, 2_700);
    assert!(bytes.len() > 3 << 20, "{}", bytes.len());
    made += same_both_ways("shuffled", &bytes);
    let mut cut = shuffled(30, 500);
    cut.extend_from_slice(b"BEGIN_SAMPLE 999.0\nband1\t5\nonly-in-the-cut\t7\n");
    made += same_both_ways("shuffled, cut", &cut);
    // One census.
    made += same_both_ways("one census", &shuffled(10, 1));
    assert_eq!(made, 6 * 5 * 4, "every profile summarised from its sums");
}

#[test]
fn what_needs_the_points_is_read_whole() {
    let plain = generated(30, 50, false, false);
    assert!(summed(&plain, &LoadOptions::default()).is_some());
    // Sums that a double does not hold exactly: in file order they may not be the
    // bands' order's.
    let text = String::from_utf8_lossy(&plain);
    let huge = text.replacen("\t", "\t4503599627", 5);
    assert!(summed(huge.as_bytes(), &LoadOptions::default()).is_some());
    let huge = text.replacen("\t", "\t4503599627370", 5);
    assert!(summed(huge.as_bytes(), &LoadOptions::default()).is_none());
    // The reader refuses what it refuses either way, with the same error.
    let fraction = generated(30, 50, true, false);
    let error = load_summed(&fraction, &LoadOptions::default(), &mut |_| {}).err();
    let once = load(Source::Bytes(&fraction), &LoadOptions::default()).err();
    assert_eq!(error.map(|e| e.to_string()), once.map(|e| e.to_string()));
    // A band filter takes bands out after reading.
    let mut filtered = LoadOptions::default();
    filtered
        .filter
        .exclude("band/3")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(summed(&plain, &filtered).is_none());
    // A window without a census, or upside down: the same error either way.
    for (from, to) in [(Some(1e9), None), (Some(2.0), Some(1.0))] {
        let opts = LoadOptions {
            from,
            to,
            ..LoadOptions::default()
        };
        let error = load_summed(&plain, &opts, &mut |_| {}).err();
        let once = load(Source::Bytes(&plain), &opts).err();
        assert!(error.is_some(), "{from:?} to {to:?}");
        assert_eq!(error.map(|e| e.to_string()), once.map(|e| e.to_string()));
    }
    // -hi: its bands are renamed, and those of one name merged.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hi = contents(&root.join("tests/data/symbolize/leakmap-pie-hi.hp"));
    assert!(summed(&hi, &LoadOptions::default()).is_none());
    // An eventlog.
    let log = contents(&root.join("tests/data/eventlog/leakmap-hc.eventlog"));
    assert!(summed(&log, &LoadOptions::default()).is_none());
    // The bands' growth needs a second reading's slopes.
    let (part, sums) =
        summed(&plain, &LoadOptions::default()).unwrap_or_else(|| panic!("read summed"));
    let slopes = SummaryOptions {
        slopes: true,
        ..SummaryOptions::default()
    };
    assert!(summarize_sums(&part, &sums, None, None, &slopes).is_none());
}
