//! Small charts of big profiles (`--max-points`).
//!
//! 1. **Pixels.** On a large smooth profile (20,000 samples × 16 bands whose values vary
//!    by less than a pixel from one sample to the next, as a real program's heap does
//!    when it is sampled often), the reduced SVG is the same picture as the full one:
//!    both are rasterised at 300 dpi with rsvg-convert and compared with the tolerant
//!    comparison of `support/raster.rs`; at most 0.05 % of the pixels may differ.
//! 2. **Envelopes.** On noisy profiles (the benchmark generator's, whose values jump by
//!    up to 30 % from sample to sample, and real corpus profiles repeated end to end into
//!    tens of thousands of samples), every band edge keeps its highest and lowest point
//!    in every 2 pt of the x axis, to within 2 pt. Their pixels do differ (the share is
//!    printed): a full-resolution edge with dozens of vertices per pixel is drawn as a
//!    grey texture whose shade depends on every vertex, which no subset of the samples
//!    reproduces; the reduction keeps its extent, not its shade.
//! 3. The corpus profiles themselves (at most 490 samples) are below the default limit
//!    and come out byte-identical.
//!
//! Without rsvg-convert the pixel test skips loudly, or fails when `CI=true`.

mod support;

use support::gen::realistic::generated;
use support::raster;

use hp2ps::aggregate::VECTOR_MAX_POINTS;
use hp2ps::paint::svg::{write_svg, SvgOptions};
use hp2ps::pipeline::{prepare, RenderOptions};
use hp2ps::profile::Profile;
use hp2ps::read::hp::ReadOptions;

const DPI: u32 = 300;
/// The limit: at most 0.05 % of the pixels differ.
const MAX_SHARE: f64 = 0.0005;

/// The SVG of a profile, in colour, with at most `max_points` samples (0: all); and the
/// number of samples drawn.
fn svg(hp: &[u8], max_points: usize) -> (Vec<u8>, usize) {
    let (profile, _) = Profile::read(hp, &ReadOptions::default()).expect("reads");
    let mut opts = RenderOptions::default();
    opts.layout.colour = true;
    opts.max_points = max_points;
    let (chart, _) = prepare(profile, None, &opts);
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
/// differing pixels. Saves the images when the share is over the limit.
fn same_picture(name: &str, hp: &[u8], max_points: usize) -> f64 {
    let (full, all) = svg(hp, 0);
    let (reduced, kept) = svg(hp, max_points);
    assert!(kept <= max_points, "{name}: {kept} samples drawn");
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
    if share > MAX_SHARE {
        let diff = c.diff_image(&a);
        let dir = raster::save_images(
            &format!("decimate-{name}"),
            &[("full", &a), ("reduced", &b), ("diff", &diff)],
        );
        panic!(
            "{name}: {:.4} % of the pixels differ (limit {:.2} %); images in {}",
            100.0 * share,
            100.0 * MAX_SHARE,
            dir.display()
        );
    }
    share
}

/// A real profile repeated `times` times end to end, sample times shifted so they keep
/// increasing at the profile's own pace.
fn repeated(hp: &[u8], times: usize) -> Vec<u8> {
    let (p, _) = Profile::read(hp, &ReadOptions::default()).expect("reads");
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

#[test]
fn a_large_generated_profile_looks_the_same_reduced() {
    if !support::tools::require("rsvg-convert") {
        return;
    }
    let hp = smooth(20_000, 16);
    same_picture("smooth-20000x16", &hp, VECTOR_MAX_POINTS);
}

#[test]
fn noisy_profiles_keep_every_edge_envelope() {
    let mut cases = vec![(
        "generated-20000x30".to_string(),
        generated(&["--samples", "20000", "--bands", "30"]),
    )];
    for (name, times) in [("longrun-O1-hc.hp", 40), ("manycc-O0-hc.hp", 400)] {
        cases.push((format!("{name} x{times}"), repeated(&corpus(name), times)));
    }
    for (name, hp) in &cases {
        same_envelopes(name, hp, VECTOR_MAX_POINTS);
    }
    // The pixels, for the record (see the module docs).
    if std::env::var_os("DECIMATE_PIXELS").is_some() && support::tools::require("rsvg-convert") {
        for (name, hp) in &cases {
            let _ = std::panic::catch_unwind(|| same_picture(name, hp, VECTOR_MAX_POINTS));
        }
    }
}

/// Every band edge of the reduced chart has the same highest and lowest point as the
/// full chart in every 2 pt slice of the x axis, to within 2 pt on either side (the
/// reduction's slices of time are about that wide when every band keeps its own
/// extremes within 2,000 samples).
fn same_envelopes(name: &str, hp: &[u8], max_points: usize) {
    let full = graph(hp, 0);
    let reduced = graph(hp, max_points);
    assert!(reduced.xs.len() <= max_points, "{name}");
    assert_eq!(full.xs.first(), reduced.xs.first(), "{name}: first x");
    assert_eq!(full.xs.last(), reduced.xs.last(), "{name}: last x");
    let (slice, slack) = (2.0, 2.0);
    let x0 = full.xs[0];
    let slices = ((full.xs[full.xs.len() - 1] - x0) / slice) as usize + 1;
    let mut checked = 0;
    for (f, r) in full.bands.iter().zip(&reduced.bands) {
        for k in 0..slices {
            let (a, b) = (x0 + k as f64 * slice, x0 + (k + 1) as f64 * slice);
            let Some((fmin, fmax)) = extent(&full.xs, &f.top, a, b) else {
                continue;
            };
            let (rmin, rmax) = extent(&reduced.xs, &r.top, a - slack, b + slack)
                .unwrap_or((f64::INFINITY, f64::NEG_INFINITY));
            assert!(
                rmax >= fmax && rmin <= fmin,
                "{name}: band {:?} in x {a}..{b}: full {fmin}..{fmax}, reduced {rmin}..{rmax}",
                String::from_utf8_lossy(&f.name)
            );
            // Nothing beyond the full chart's extremes within the slack either.
            let (wmin, wmax) = extent(&full.xs, &f.top, a - slack, b + slack).expect("wider");
            let (smin, smax) = extent(&reduced.xs, &r.top, a, b).unwrap_or((fmin, fmax));
            assert!(
                smax <= wmax && smin >= wmin,
                "{name}: reduced overshoots in {a}..{b}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{name}: only {checked} slices");
    eprintln!(
        "{name}: {} → {} samples; {checked} band slices keep their extremes",
        full.xs.len(),
        reduced.xs.len()
    );
}

/// The lowest and highest y of the vertices with x in `a..b`.
fn extent(xs: &[f64], ys: &[f64], a: f64, b: f64) -> Option<(f64, f64)> {
    let from = xs.partition_point(|&x| x < a);
    let to = xs.partition_point(|&x| x < b);
    let ys = &ys[from..to];
    if ys.is_empty() {
        return None;
    }
    let min = ys.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    Some((min, max))
}

fn graph(hp: &[u8], max_points: usize) -> hp2ps::layout::chart::Graph {
    let (profile, _) = Profile::read(hp, &ReadOptions::default()).expect("reads");
    let mut opts = RenderOptions::default();
    opts.max_points = max_points;
    let (chart, _) = prepare(profile, None, &opts);
    chart
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
        if Profile::read(hp.as_slice(), &ReadOptions::default()).is_err() {
            continue;
        }
        let (full, all) = svg(&hp, 0);
        let (reduced, kept) = svg(&hp, VECTOR_MAX_POINTS);
        assert!(all <= VECTOR_MAX_POINTS, "{}", path.display());
        assert_eq!(all, kept);
        assert!(full == reduced, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 40);
}

#[test]
fn the_reduced_svg_is_small() {
    // 20,000 samples of 30 bands (21 drawn): the full SVG is about 20 times the reduced.
    let hp = generated(&["--samples", "20000", "--bands", "30"]);
    let (full, _) = svg(&hp, 0);
    let (reduced, kept) = svg(&hp, VECTOR_MAX_POINTS);
    assert!(kept <= VECTOR_MAX_POINTS);
    assert!(
        reduced.len() * 5 < full.len(),
        "{} vs {}",
        reduced.len(),
        full.len()
    );
    // At most 1.5 MB whatever the length: about 700 bytes per kept sample with 21 bands.
    assert!(reduced.len() < 1_500_000, "{}", reduced.len());
}
