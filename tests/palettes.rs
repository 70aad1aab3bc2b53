//! `--palette`, `--colour-by name` and `--pattern` do what they promise, read back from
//! the pixels of the rendered charts: a name keeps its colour from file to file, a
//! palette's neighbouring bands differ clearly, a patterned chart stays readable in grey,
//! and every format renders with the new options.
//!
//! Key boxes are found in the EPS (`X Y moveto` followed by `0 14 rlineto`), the bands'
//! names in the `.aux` ORDER lines (bottom band first, the key's order); the EPS, SVG
//! and PDF all draw the 648 × 432 pt border box at the same scale, so a key box has the
//! same pixels in each.

mod support;

use std::path::Path;

use hp2ps::internals::{difference, OTHER_COLOUR};
use support::raster::{eps_to_pngs, pdf_to_pngs, svg_to_png, Image, DPI};
use support::tools::{ghostscript_accepts, require, require_all};
use support::{golden, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");
const KEY_BOX: f64 = 14.0;

/// Renders `name.hp` in `dir` in `format` with `args`; returns the chart's bytes.
fn render(dir: &Path, name: &str, format: &str, args: &[&str]) -> Vec<u8> {
    let mut all: Vec<&str> = args.to_vec();
    let file = format!("{name}.hp");
    all.extend(["--format", format, &file]);
    let out = support::run_in(BIN, dir, &all, None);
    assert!(
        out.status.success(),
        "hp2ps {all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(dir.join(format!("{name}.{format}"))).expect("the chart")
}

/// The bands drawn, bottom first, from the `.aux` ORDER lines.
fn order(dir: &Path, name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join(format!("{name}.aux"))).expect("the .aux");
    text.lines()
        .filter_map(|l| l.strip_prefix("ORDER "))
        .map(|l| l.rsplit_once(' ').expect("ORDER name n").0.to_string())
        .collect()
}

/// The lower-left corners of the key boxes of an EPS, in order.
fn key_boxes(eps: &[u8]) -> Vec<(f64, f64)> {
    let text = String::from_utf8_lossy(eps);
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[1] == "0 14 rlineto" && w[0].ends_with(" moveto"))
        .map(|w| {
            let n: Vec<f64> = w[0]
                .split(' ')
                .take(2)
                .map(|v| v.parse().expect("a number"))
                .collect();
            (n[0], n[1])
        })
        .collect()
}

/// The pixels inside a key box (2 pt in from its stroke).
fn inside(image: &Image, (x, y): (f64, f64)) -> Image {
    let px = |pt: f64| (pt * f64::from(DPI) / 72.0).round() as u32;
    let inset = 2.0;
    let side = KEY_BOX - 2.0 * inset;
    image.crop(
        px(x + inset),
        px(432.0 - (y + KEY_BOX - inset)),
        px(side),
        px(side),
    )
}

/// The mean colour of an image.
fn mean(image: &Image) -> [u8; 3] {
    let n = (image.rgb.len() / 3).max(1) as f64;
    let mut sum = [0.0; 3];
    for p in image.rgb.chunks_exact(3) {
        for c in 0..3 {
            sum[c] += f64::from(p[c]);
        }
    }
    sum.map(|s| (s / n).round() as u8)
}

/// Mean and standard deviation of an image's luminance, in [0, 255].
fn grey_stats(image: &Image) -> (f64, f64) {
    let lum: Vec<f64> = image
        .rgb
        .chunks_exact(3)
        .map(|p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
        .collect();
    let n = lum.len().max(1) as f64;
    let m = lum.iter().sum::<f64>() / n;
    let var = lum.iter().map(|l| (l - m) * (l - m)).sum::<f64>() / n;
    (m, var.sqrt())
}

/// The colour of each band's key box, by name, in a rasterised chart.
fn key_colours(image: &Image, eps: &[u8], names: &[String]) -> Vec<(String, [u8; 3])> {
    let boxes = key_boxes(eps);
    assert_eq!(boxes.len(), names.len(), "one key box per band");
    names
        .iter()
        .zip(boxes)
        .map(|(n, b)| (n.clone(), mean(&inside(image, b))))
        .collect()
}

/// The profile without the bands whose names contain any of `drop`.
fn without(hp: &[u8], drop: &[&str]) -> Vec<u8> {
    let text = String::from_utf8_lossy(hp);
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let name = l.rsplit_once('\t').map_or("", |(n, _)| n);
            name.is_empty() || !drop.iter().any(|d| name.contains(d))
        })
        .collect();
    (kept.join("\n") + "\n").into_bytes()
}

#[test]
fn a_name_keeps_its_colour_in_two_files_and_other_its_own() {
    if !require_all(&["gs", "rsvg-convert"]) {
        return;
    }
    let dir = TempDir::new("palettes-by-name");
    let hp = golden("arrays-O1-hc.hp");
    std::fs::write(dir.join("a.hp"), &hp).unwrap();
    std::fs::write(dir.join("b.hp"), without(&hp, &["lazyCounter"])).unwrap();
    for palette in ["hp2ps", "tol-muted", "okabe-ito"] {
        let args = ["-c", "-m7", "--colour-by", "name", "--palette", palette];
        let mut per_file = Vec::new();
        for name in ["a", "b"] {
            let eps = render(dir.path(), name, "eps", &args);
            let svg = render(dir.path(), name, "svg", &args);
            let names = order(dir.path(), name);
            assert_eq!(names[0], "OTHER", "{palette}: -m7 merges bands into OTHER");
            let from_ps = key_colours(&eps_to_pngs(&eps).unwrap()[0], &eps, &names);
            let from_svg = key_colours(&svg_to_png(&svg).unwrap(), &eps, &names);
            for ((n, p), (_, s)) in from_ps.iter().zip(&from_svg) {
                let d = difference(*p, *s);
                assert!(
                    d < 3.0,
                    "{palette} {name}: {n} is {p:?} in PS, {s:?} in SVG"
                );
            }
            let other = if palette == "hp2ps" {
                [128, 128, 128]
            } else {
                OTHER_COLOUR
            };
            let d = difference(from_svg[0].1, other);
            assert!(d < 3.0, "{palette}: OTHER is {:?}", from_svg[0].1);
            per_file.push(from_svg);
        }
        let mut shared = 0;
        for (n, a) in &per_file[0] {
            if let Some((_, b)) = per_file[1].iter().find(|(m, _)| m == n) {
                shared += 1;
                let d = difference(*a, *b);
                assert!(d < 3.0, "{palette}: {n} is {a:?} in a, {b:?} in b");
            }
        }
        // The band sets differ, so first come, first served would move the colours.
        assert_ne!(
            per_file[0].len() - shared,
            0,
            "{palette}: the band sets differ"
        );
        assert!(shared >= 3, "{palette}: only {shared} names in both charts");
    }
}

#[test]
fn neighbouring_bands_differ_clearly_in_every_palette() {
    if !require_all(&["gs", "pdftocairo"]) {
        return;
    }
    let dir = TempDir::new("palettes-contrast");
    std::fs::write(dir.join("a.hp"), golden("arrays-O1-hc.hp")).unwrap();
    for palette in ["okabe-ito", "tol-bright", "tol-muted", "viridis"] {
        let args = ["--palette", palette];
        let eps = render(dir.path(), "a", "eps", &args);
        let pdf = render(dir.path(), "a", "pdf", &args);
        let names = order(dir.path(), "a");
        assert!(names.len() >= 8, "{} bands", names.len());
        for (format, image) in [
            ("eps", eps_to_pngs(&eps).unwrap().remove(0)),
            ("pdf", pdf_to_pngs(&pdf).unwrap().remove(0)),
        ] {
            let colours = key_colours(&image, &eps, &names);
            for pair in colours.windows(2) {
                let d = difference(pair[0].1, pair[1].1);
                assert!(
                    d > 10.0,
                    "{palette} {format}: {} {:?} and {} {:?} differ by {d}",
                    pair[0].0,
                    pair[0].1,
                    pair[1].0,
                    pair[1].1
                );
            }
        }
    }
}

#[test]
fn patterns_stay_apart_in_grey() {
    if !require_all(&["gs", "rsvg-convert", "pdftocairo"]) {
        return;
    }
    let dir = TempDir::new("palettes-pattern");
    std::fs::write(dir.join("a.hp"), golden("manycc-O0-hc.hp")).unwrap();
    for colour in [&[][..], &["-c", "--palette", "viridis"][..]] {
        let mut args = vec!["--pattern"];
        args.extend_from_slice(colour);
        let eps = render(dir.path(), "a", "eps", &args);
        let svg = render(dir.path(), "a", "svg", &args);
        let pdf = render(dir.path(), "a", "pdf", &args);
        let names = order(dir.path(), "a");
        assert!(names.len() >= 10, "{} bands", names.len());
        let boxes = key_boxes(&eps);
        for (format, image) in [
            ("eps", eps_to_pngs(&eps).unwrap().remove(0)),
            ("svg", svg_to_png(&svg).unwrap()),
            ("pdf", pdf_to_pngs(&pdf).unwrap().remove(0)),
        ] {
            let stats: Vec<(f64, f64)> = boxes
                .iter()
                .map(|&b| grey_stats(&inside(&image, b)))
                .collect();
            for (i, pair) in stats.windows(2).enumerate() {
                let ((m0, s0), (m1, s1)) = (pair[0], pair[1]);
                // Hatched, not flat: the ink shows.
                assert!(s0 > 15.0, "{format} {args:?}: box {i} is flat ({s0})");
                assert!(
                    (m0 - m1).abs() > 20.0,
                    "{format} {args:?}: boxes {i} and {} print alike: mean {m0:.0} / {m1:.0}, \
                     deviation {s0:.0} / {s1:.0}",
                    i + 1
                );
            }
            // No colour: every pixel is a grey.
            let coloured = image
                .rgb
                .chunks_exact(3)
                .filter(|p| p.iter().max().unwrap() - p.iter().min().unwrap() > 8)
                .count();
            assert_eq!(coloured, 0, "{format} {args:?}: {coloured} coloured pixels");
        }
    }
}

#[test]
fn every_format_renders_with_the_new_options() {
    if !require_all(&["gs", "rsvg-convert", "pdftocairo", "qpdf"]) {
        return;
    }
    let dir = TempDir::new("palettes-formats");
    std::fs::write(dir.join("a.hp"), golden("arrays-O1-hc.hp")).unwrap();
    let option_sets: [&[&str]; 5] = [
        &["--palette", "tol-bright"],
        &["--colour-by", "name"],
        &["-c", "--colour-by", "name", "--palette", "viridis", "-m4"],
        &["--pattern"],
        &["--pattern", "-M", "-e4in"],
    ];
    for args in option_sets {
        let ps = render(dir.path(), "a", "ps", args);
        ghostscript_accepts(&ps).unwrap_or_else(|e| panic!("{args:?} ps: {e}"));
        let eps = render(dir.path(), "a", "eps", args);
        for page in eps_to_pngs(&eps).unwrap() {
            assert!(page.ink() > 0.001, "{args:?} eps: nothing drawn");
        }
        let svg = render(dir.path(), "a", "svg", args);
        assert!(svg_to_png(&svg).unwrap().ink() > 0.01, "{args:?} svg");
        let pdf = render(dir.path(), "a", "pdf", args);
        for page in pdf_to_pngs(&pdf).unwrap() {
            assert!(page.ink() > 0.001, "{args:?} pdf: nothing drawn");
        }
        if require("qpdf") {
            let path = dir.join("a.pdf");
            let out = support::run_in(
                "qpdf",
                dir.path(),
                &["--check", path.to_str().unwrap()],
                None,
            );
            assert!(out.status.success(), "{args:?}: qpdf --check: {out:?}");
        }
    }
}

#[test]
fn p_gives_a_palette_the_colours_of_the_previous_run() {
    if !require("rsvg-convert") {
        return;
    }
    let dir = TempDir::new("palettes-aux");
    std::fs::write(dir.join("a.hp"), golden("arrays-O1-hc.hp")).unwrap();
    let args = ["--palette", "okabe-ito"];
    let eps = render(dir.path(), "a", "eps", &args);
    let svg = render(dir.path(), "a", "svg", &args);
    let first = key_colours(&svg_to_png(&svg).unwrap(), &eps, &order(dir.path(), "a"));
    // The same file without its two biggest bands, drawn with the first run's .aux:
    // first come, first served alone would hand the colours out anew.
    let hp = without(&golden("arrays-O1-hc.hp"), &["buckets"]);
    std::fs::write(dir.join("a.hp"), hp).unwrap();
    let args = ["-p", "--palette", "okabe-ito"];
    let eps = render(dir.path(), "a", "eps", &args);
    let svg = render(dir.path(), "a", "svg", &args);
    let second = key_colours(&svg_to_png(&svg).unwrap(), &eps, &order(dir.path(), "a"));
    let mut shared = 0;
    for (n, b) in &second {
        if let Some((_, a)) = first.iter().find(|(m, _)| m == n) {
            shared += 1;
            assert!(difference(*a, *b) < 3.0, "{n}: {a:?} then {b:?}");
        }
    }
    assert!(shared >= 3, "{shared} bands in both runs");
}
