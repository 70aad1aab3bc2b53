//! Small charts of big profiles (`--max-points`, and the default limit of SVG, PDF and
//! EPS).
//!
//! 1. **Pixels, real profiles.** Three real GHC profiles of 4,800 to 11,200 samples
//!    (`tests/data/large/`), as drawn by default and with `-t0` (17 to 20 bands, so
//!    2,100 to 2,470 samples within the default budget): the reduced SVG and the full
//!    one, rasterised
//!    at 300 dpi with rsvg-convert and compared with the tolerant comparison of
//!    `support/raster/`, differ in at most 0.05 % of the pixels, and in at most 40
//!    of any 24 × 24 window.
//! 2. **Pixels, a smooth generated profile** (20,000 samples × 16 bands whose values
//!    vary by less than a pixel from one sample to the next): the same.
//! 3. **Noisy profiles** (the benchmark generator's, whose values jump by up to 30 % from
//!    sample to sample, and real corpus profiles repeated end to end into tens of
//!    thousands of samples): the kept samples are exact, shared by every band, and hold
//!    the ends and every edge's highest and lowest point. Their pixels do differ (the
//!    share is printed with `DECIMATE_PIXELS=1`): a full-resolution edge with dozens of
//!    vertices per pixel is drawn as a grey texture whose shade depends on every vertex,
//!    which no subset of 2,000 samples reproduces.
//! 4. The corpus profiles themselves (at most 490 samples) are below the default limit
//!    and come out byte-identical.
//!
//! Without rsvg-convert the pixel tests skip loudly, or fail when `CI=true`.

mod support;

use support::gen::realistic::generated;
use support::raster;

use std::io::Read;

use hp2ps::internals::chart::{Chart, Graph};
use hp2ps::internals::defaults::{VECTOR_MAX_BAND_POINTS, VECTOR_MAX_POINTS};
use hp2ps::internals::paint::{write_svg, SvgOptions};
use hp2ps::internals::samples_within;
use hp2ps::{prepare, RenderOptions};

const DPI: u32 = 300;

/// How a test draws a profile: in colour, with at most `max_points` samples (0: all)
/// or, with `max_points` `None`, within the command line's default budget; `-t0` keeps
/// every band hp2ps's 20-band limit allows.
#[derive(Clone, Copy)]
struct Drawing {
    max_points: Option<usize>,
    all_bands: bool,
}

const FULL: Drawing = Drawing {
    max_points: Some(0),
    all_bands: false,
};
const DEFAULT: Drawing = Drawing {
    max_points: None,
    all_bands: false,
};

impl Drawing {
    fn options(self) -> RenderOptions {
        let mut opts = RenderOptions::default();
        opts.layout.colour = true;
        hp2ps::internals::needs_mut(&mut opts).band_points = VECTOR_MAX_BAND_POINTS;
        opts.aggregate.max_points = self.max_points;
        if self.all_bands {
            opts.aggregate.trace_percent = 0.0;
        }
        opts
    }

    fn full(self) -> Drawing {
        Drawing {
            max_points: Some(0),
            ..self
        }
    }
}

/// The SVG of a profile drawn as `how` says, and the number of samples drawn.
fn svg(hp: &[u8], how: Drawing) -> (Vec<u8>, usize) {
    let chart = chart(hp, &how.options());
    let drawn = chart
        .pages
        .iter()
        .filter_map(|p| p.graph.as_ref())
        .map(|g| g.xs.len())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    write_svg(&chart, &SvgOptions::default(), &mut out).expect("write SVG");
    (out, drawn)
}

/// Renders the full and the reduced SVG and compares them; returns the share of
/// differing pixels. Saves the images and fails unless they are the same picture by the
/// tests' comparison: at most 0.05 % of the pixels differ (the limit), and at
/// most 40 in any 24 × 24 window (so a lost spike of a few hundred pixels shows too).
fn same_picture(name: &str, hp: &[u8], how: Drawing) -> f64 {
    let (full, all) = svg(hp, how.full());
    let (reduced, kept) = svg(hp, how);
    assert!(kept < all, "{name}: nothing was reduced ({all} samples)");
    let a = raster::svg_to_png_at(&full, DPI)
        .unwrap_or_else(|e| panic!("{name}: rendering the full SVG: {e}"));
    let b = raster::svg_to_png_at(&reduced, DPI)
        .unwrap_or_else(|e| panic!("{name}: rendering the reduced SVG: {e}"));
    let c = raster::compare(&a, &b).expect("same size");
    let share = c.share();
    eprintln!(
        "{name}: {all} → {kept} samples, SVG {} → {} bytes; {}",
        full.len(),
        reduced.len(),
        c.summary()
    );
    if !c.same_picture() {
        let diff = c.diff_image(&a);
        let dir = raster::save_images(
            &format!("decimate-{name}"),
            &[("full", &a), ("reduced", &b), ("diff", &diff)],
        );
        panic!(
            "{name}: not the same picture: {}; images in {}",
            c.summary(),
            dir.display()
        );
    }
    share
}

/// A real profile repeated `times` times end to end, sample times shifted so they keep
/// increasing at the profile's own pace.
fn repeated(hp: &[u8], times: usize) -> Vec<u8> {
    let (p, _) = support::read_profile(hp).expect("reads");
    let n = p.times.len();
    let mut per_sample: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (b, band) in p.bands.iter().enumerate() {
        for pt in &band.points {
            let (s, v) = (pt.sample as usize, pt.value);
            per_sample[s].push((b, v));
        }
    }
    let first = p.times[0];
    let last = p.times[n - 1];
    let step = (last - first) / (n.max(2) - 1) as f64;
    let period = last - first + step;
    let mut out = Vec::new();
    let quoted = |s: &[u8]| String::from_utf8_lossy(s).replace('"', "\"\"");
    out.extend_from_slice(
        format!(
            "JOB \"{}\"\nDATE \"{}\"\nSAMPLE_UNIT \"{}\"\nVALUE_UNIT \"{}\"\n",
            quoted(&p.job),
            quoted(&p.date),
            quoted(&p.sample_unit),
            quoted(&p.value_unit)
        )
        .as_bytes(),
    );
    for r in 0..times {
        for (s, points) in per_sample.iter().enumerate() {
            let t = p.times[s] + r as f64 * period;
            out.extend_from_slice(format!("BEGIN_SAMPLE {t:.6}\n").as_bytes());
            for &(b, v) in points {
                out.extend_from_slice(&p.bands[b].name);
                out.extend_from_slice(format!("\t{v:.0}\n").as_bytes());
            }
            out.extend_from_slice(format!("END_SAMPLE {t:.6}\n").as_bytes());
        }
    }
    out
}

fn corpus(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden/inputs")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A gzipped profile of `tests/data/large/`.
fn large(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/large")
        .join(name);
    let gz = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut hp = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut hp)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    hp
}

const LARGE_REAL: [&str; 3] = [
    "longrun-O1-hc-i0.0001.hp.gz",
    "longrun-O1-hd-i0.0001.hp.gz",
    "leakmap-O0-hc-i0.00005.hp.gz",
];

#[test]
fn large_real_profiles_look_the_same_reduced() {
    if !support::tools::require_data(&["tests/data/large"]) {
        return;
    }
    if !support::tools::require("rsvg-convert") {
        return;
    }
    for name in LARGE_REAL {
        let hp = large(name);
        same_picture(name, &hp, DEFAULT);
    }
}

#[test]
fn large_real_profiles_look_the_same_reduced_with_every_band() {
    if !support::tools::require_data(&["tests/data/large"]) {
        return;
    }
    if !support::tools::require("rsvg-convert") {
        return;
    }
    let how = Drawing {
        all_bands: true,
        ..DEFAULT
    };
    for name in LARGE_REAL {
        let hp = large(name);
        // 17 bands in all in the first, 20 drawn (19 and OTHER) in the others: 2,100 to
        // 2,470 samples.
        let reduced = graph(&hp, how);
        let bands = reduced.bands.len();
        assert!((17..=21).contains(&bands), "{name}: {bands} bands");
        assert_eq!(
            reduced.xs.len(),
            samples_within(VECTOR_MAX_BAND_POINTS, bands),
            "{name}"
        );
        same_picture(&format!("{name} -t0"), &hp, how);
    }
}

#[test]
fn a_large_smooth_profile_looks_the_same_reduced() {
    if !support::tools::require("rsvg-convert") {
        return;
    }
    let hp = smooth(20_000, 16);
    let how = Drawing {
        max_points: Some(VECTOR_MAX_POINTS),
        all_bands: false,
    };
    same_picture("smooth-20000x16", &hp, how);
}

#[test]
fn noisy_profiles_keep_their_ends_peaks_and_stack() {
    let mut cases = vec![(
        "generated-20000x30".to_string(),
        generated(&["--samples", "20000", "--bands", "30"]),
    )];
    for (name, times) in [("longrun-O1-hc.hp", 40), ("manycc-O0-hc.hp", 400)] {
        cases.push((format!("{name} x{times}"), repeated(&corpus(name), times)));
    }
    let how = Drawing {
        max_points: Some(VECTOR_MAX_POINTS),
        all_bands: false,
    };
    for (name, hp) in &cases {
        exact_where_kept(name, hp, how);
    }
    // The pixels, for the record (see the module docs).
    if std::env::var_os("DECIMATE_PIXELS").is_some() && support::tools::require("rsvg-convert") {
        for (name, hp) in &cases {
            let _ = std::panic::catch_unwind(|| same_picture(name, hp, how));
        }
    }
}

/// The reduced chart keeps the full chart's first and last x, at most the budget of
/// samples, every band's top exactly at every kept sample, and every band top's highest
/// and lowest point.
fn exact_where_kept(name: &str, hp: &[u8], how: Drawing) {
    let full = graph(hp, how.full());
    let reduced = graph(hp, how);
    let budget = how.max_points.expect("a budget");
    assert!(reduced.xs.len() <= budget, "{name}");
    assert!(
        reduced.xs.len() * 2 > budget,
        "{name}: {}",
        reduced.xs.len()
    );
    assert_eq!(full.xs.first(), reduced.xs.first(), "{name}: first x");
    assert_eq!(full.xs.last(), reduced.xs.last(), "{name}: last x");
    assert_eq!(full.bands.len(), reduced.bands.len(), "{name}");
    // Each kept x is a sample of the full chart, in order (equal x: the first left).
    let mut at = Vec::with_capacity(reduced.xs.len());
    let mut from = 0;
    for &x in &reduced.xs {
        let i = from
            + full.xs[from..]
                .iter()
                .position(|&f| f == x)
                .unwrap_or_else(|| panic!("{name}: x {x} is no sample of the full chart"));
        at.push(i);
        from = i + 1;
    }
    for (f, r) in full.bands.iter().zip(&reduced.bands) {
        for (&i, &y) in at.iter().zip(&r.top) {
            assert_eq!(f.top[i], y, "{name}: {:?} at x {}", f.name, full.xs[i]);
        }
        let (fmin, fmax) = extent(&f.top);
        assert_eq!(extent(&r.top), (fmin, fmax), "{name}: {:?}", f.name);
    }
    eprintln!(
        "{name}: {} → {} samples, exact where kept",
        full.xs.len(),
        reduced.xs.len()
    );
}

/// The lowest and highest of `ys`.
fn extent(ys: &[f64]) -> (f64, f64) {
    let min = ys.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (min, max)
}

/// The chart of a profile drawn with `opts`.
fn chart(hp: &[u8], opts: &RenderOptions) -> Chart {
    let (profile, _) = support::read_profile(hp).expect("reads");
    prepare(profile, None, opts).0
}

/// The graph of a profile drawn as `how` says.
fn graph(hp: &[u8], how: Drawing) -> Graph {
    graph_with(hp, &how.options())
}

fn graph_with(hp: &[u8], opts: &RenderOptions) -> Graph {
    chart(hp, opts)
        .pages
        .into_iter()
        .find_map(|p| p.graph)
        .expect("a graph")
}

/// A smooth profile: every band a slow wave, with noise far below a pixel.
fn smooth(samples: usize, bands: usize) -> Vec<u8> {
    let mut out = String::from(
        "JOB \"smooth\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    let mut seed = 0x1234_5678_9abc_def0u64;
    for s in 0..samples {
        let t = s as f64 * 0.01;
        out.push_str(&format!("BEGIN_SAMPLE {t:.2}\n"));
        for b in 0..bands {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let noise = (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            let u = s as f64 / samples as f64;
            let phase = b as f64 * 0.7;
            let amp = 1_000_000.0 * (1.0 + (b % 7) as f64);
            let v = amp
                * (1.2 + (std::f64::consts::TAU * (u * (1.0 + b as f64 / 10.0)) + phase).sin())
                * (1.0 + 0.0005 * noise);
            out.push_str(&format!("band_{b:02}\t{:.0}\n", v.max(0.0)));
        }
        out.push_str(&format!("END_SAMPLE {t:.2}\n"));
    }
    out.into_bytes()
}

#[test]
fn the_corpus_is_untouched_by_the_default_limit() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("golden inputs") {
        let path = entry.expect("entry").path();
        let hp = std::fs::read(&path).expect("read");
        if support::read_profile(hp.as_slice()).is_err() {
            continue;
        }
        let (full, all) = svg(&hp, FULL);
        let (reduced, kept) = svg(&hp, DEFAULT);
        assert!(all <= VECTOR_MAX_POINTS, "{}", path.display());
        assert_eq!(all, kept);
        assert!(full == reduced, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 40);
}

#[test]
fn max_points_replaces_the_formats_budget() {
    let hp = generated(&["--samples", "9000", "--bands", "30"]);
    let drawn = |max_points: Option<usize>| {
        let mut opts = DEFAULT.options();
        opts.aggregate.max_points = max_points;
        let graph = graph_with(&hp, &opts);
        (graph.xs.len(), graph.bands.len())
    };
    assert_eq!(drawn(Some(300)).0, 300);
    let (samples, bands) = drawn(None);
    assert_eq!(samples, samples_within(VECTOR_MAX_BAND_POINTS, bands));
    assert!(samples < 8000);
    // More than the budget allows, as --max-points 8000 draws them.
    assert_eq!(drawn(Some(8000)).0, 8000);
}

#[test]
fn the_reduced_svg_is_small() {
    // 20,000 samples of 30 bands: 6 drawn by default (the rest are traces), 21 with -t0.
    let hp = generated(&["--samples", "20000", "--bands", "30"]);
    for all_bands in [false, true] {
        let how = Drawing {
            all_bands,
            ..DEFAULT
        };
        let (full, all) = svg(&hp, how.full());
        let (reduced, kept) = svg(&hp, how);
        let bands = graph(&hp, how).bands.len();
        assert_eq!(kept, VECTOR_MAX_BAND_POINTS / bands, "{bands} bands");
        assert_eq!(all, 20_000);
        assert!(
            reduced.len() * 2 < full.len(),
            "{} vs {}",
            reduced.len(),
            full.len()
        );
        // At most 1.5 MB however many bands: about 30 bytes per band vertex.
        assert!(
            reduced.len() < 1_500_000,
            "{bands} bands: {}",
            reduced.len()
        );
    }
}
