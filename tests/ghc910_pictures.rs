//! The same picture from both files of a run: each of the 14 real GHC 9.10.3 pairs in
//! `tests/data/ghc-9.10/`, loaded from its eventlog and from its `.hp` as the command
//! loads them (`--ipe-names address` for `-hi`, so that both have the `.hp`'s bands),
//! draws the same picture (`-c -m0`: every band, no key): byte-identical PostScript, and
//! SVGs that rsvg-convert rasterises alike (`tests/same_picture.rs`'s comparison; the
//! SVGs' tooltips name `-hc` bands as each file does, the `.hp` numbering its stacks).
//!
//! Times are the one thing the two files measure differently: the `.hp`'s x axis is CPU
//! time, the eventlog's is mutator time rebuilt from the log's wall clock, up to 2 % of
//! the run apart (`tests/eventlog_times.rs` checks those residuals, pair by pair). So the
//! eventlog's profile gets the `.hp`'s sample times before drawing, after a check that it
//! has as many samples; everything else (the bands, their values and order, JOB, DATE,
//! the colours) is the eventlog's own. A check that the comparison can fail: the same
//! drawing with one band's values off, or another run's times, is another picture.

mod support;

use std::path::{Path, PathBuf};

use hp2ps::internals::write_chart;
use hp2ps::profile::Profile;
use hp2ps::{load, prepare, Format, IpeNames, LoadOptions, RenderOptions, Source};
use support::raster::{compare, save_images, svg_to_png, Image};
use support::tools;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10")
}

/// The runs: every `.hp` of the directory with its eventlog.
fn stems() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hp"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    stems
}

/// `file` loaded as the command loads it (`--ipe-names address`).
fn profile(file: &str) -> Profile {
    let bytes = std::fs::read(dir().join(file)).unwrap();
    let mut opts = LoadOptions::default();
    opts.ipe_names = IpeNames::Address;
    load(Source::Bytes(&bytes), &opts)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .profile
}

/// `hp2ps -c -m0` of `profile` in `format`.
fn drawing(profile: Profile, format: Format) -> Vec<u8> {
    let mut opts = RenderOptions::default();
    opts.layout.colour = true;
    opts.aggregate.band_limit = 0;
    let (chart, _) = prepare(profile, None, &opts);
    let mut out = Vec::new();
    write_chart(&chart, format, &mut out).unwrap();
    out
}

/// `hp2ps -c -m0 --format svg` of `profile`, rasterised.
fn picture(profile: Profile) -> Image {
    svg_to_png(&drawing(profile, Format::Svg)).unwrap()
}

/// The PostScript is byte-identical: the same bands, values, order, colours, title and
/// axes (no key: the names of `-hc` bands differ, the `.hp` numbering its stacks).
#[test]
fn each_eventlog_draws_the_postscript_of_its_hp() {
    let stems = stems();
    assert_eq!(stems.len(), 14, "{stems:?}");
    for stem in &stems {
        let (hp, log) = on_hp_times(stem);
        let (hp, log) = (drawing(hp, Format::Ps), drawing(log, Format::Ps));
        assert!(hp == log, "{stem}: the PostScript differs");
    }
}

/// The eventlog's profile with the `.hp`'s sample times. Marks: the runtime writes
/// `traceMarker`'s markers to the eventlog only (`marker-hc` has 3, its `.hp` none), so
/// the eventlog's are checked by count where the `.hp` has marks and left out where not.
fn on_hp_times(stem: &str) -> (Profile, Profile) {
    let hp = profile(&format!("{stem}.hp"));
    let mut log = profile(&format!("{stem}.eventlog"));
    assert_eq!(log.times.len(), hp.times.len(), "{stem}: samples");
    log.times.clone_from(&hp.times);
    if hp.marks.is_empty() {
        log.marks.clear();
        log.mark_texts.clear();
    } else {
        assert_eq!(log.marks.len(), hp.marks.len(), "{stem}: marks");
        log.marks.clone_from(&hp.marks);
    }
    (hp, log)
}

#[test]
fn each_eventlog_draws_the_svg_picture_of_its_hp() {
    if !tools::require("rsvg-convert") {
        return;
    }
    let stems = stems();
    assert_eq!(stems.len(), 14, "{stems:?}");
    let mut failures = Vec::new();
    for stem in &stems {
        let (hp, log) = on_hp_times(stem);
        let (hp, log) = (picture(hp), picture(log));
        let c = compare(&hp, &log).unwrap();
        eprintln!("{stem}: {}", c.summary());
        if !c.same_picture() {
            let saved = save_images(stem, &[("hp", &hp), ("eventlog", &log)]);
            failures.push(format!("{stem}: {} (in {})", c.summary(), saved.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison sees a band a tenth off where it is largest, and another run's times.
#[test]
fn another_picture_is_told_apart() {
    if !tools::require("rsvg-convert") {
        return;
    }
    let (hp, mut log) = on_hp_times("leakmap-hd");
    let band = (log.bands.iter_mut())
        .max_by(|a, b| peak(a).total_cmp(&peak(b)))
        .unwrap();
    for p in &mut band.points {
        p.value *= 0.9;
    }
    assert!(!compare(&picture(hp.clone()), &picture(log))
        .unwrap()
        .same_picture());

    let (_, mut log) = on_hp_times("leakmap-hd");
    let other = profile("leakmap-hy.hp");
    assert_eq!(other.times.len(), log.times.len());
    log.times = other.times;
    assert!(!compare(&picture(hp), &picture(log)).unwrap().same_picture());
}

fn peak(band: &hp2ps::profile::Band) -> f64 {
    band.points.iter().map(|p| p.value).fold(0.0, f64::max)
}
