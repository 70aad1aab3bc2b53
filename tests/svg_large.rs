//! Every SVG opens in libxml2-based tools, whatever its size. A band of 500,000 samples
//! drawn whole (`--max-points 0`) was one `points` attribute of 12 MB, beyond libxml2's
//! 10 MB limit: xmllint said "Huge input lookup", rsvg-convert "Premature end of data".
//! Long bands of large documents are now drawn in pieces (`src/paint/svg/pieces.rs`);
//! the picture must not change: the SVG's raster equals the EPS's of the same samples
//! (PostScript has no such limit and draws each band as one path), on a smooth band,
//! where the renderers agree. The seams between the pieces are also checked against the
//! reduced chart, in `tests/decimate.rs`, whose full charts are large enough to be drawn
//! in pieces.

mod support;

use std::fmt::Write;

use support::raster::{compare, eps_to_pngs, save_images, svg_to_png, Image};
use support::{tools, Cmd, TempDir};

/// One band of 400,000 samples (20 MB) rising and falling smoothly three times: its
/// outline is a `points` value of about 11 MB.
fn long_band() -> Vec<u8> {
    let samples = 400_000;
    let mut hp = String::from(
        "JOB \"long\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for k in 0..samples {
        let phase = k as f64 / samples as f64 * 6.0 * std::f64::consts::PI;
        let value = (1_000_000.0 * (2.0 + phase.sin())) as u64;
        // 4 s: ticks every 0.5 s, labelled alike in the SVG (as the step needs) and the
        // EPS (hp2ps's one decimal).
        let t = k as f64 * 0.00001;
        let _ = write!(
            hp,
            "BEGIN_SAMPLE {t:.5}\nMain.go\t{value}\nEND_SAMPLE {t:.5}\n"
        );
    }
    hp.into_bytes()
}

#[test]
fn a_band_of_400_000_samples_opens_in_xmllint_and_rsvg_and_draws_the_same_picture() {
    if !tools::require_all(&["/usr/bin/xmllint", "rsvg-convert", "gs"]) {
        return;
    }
    let dir = TempDir::in_tmp("svg-large");
    let input = dir.write("long.hp", &long_band());
    for format in ["svg", "eps"] {
        let out = dir.join(&format!("long.{format}"));
        let ran = Cmd::hp2ps()
            .args(["-c", "--max-points", "0", "-o"])
            .arg(&out)
            .arg(&input)
            .run();
        assert_eq!(ran.code, Some(0), "{format}: {}", ran.stderr_text());
    }
    let svg_path = dir.join("long.svg");
    let svg = std::fs::read(&svg_path).expect("the SVG");
    assert!(
        svg.len() > 10 << 20,
        "a large document: {} bytes",
        svg.len()
    );
    let longest = svg
        .split(|&b| b == b'\n')
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    assert!(longest < 64 << 10, "an element of {longest} bytes");

    // xmllint with libxml2's default limits (no --huge).
    let lint = Cmd::new("/usr/bin/xmllint")
        .arg("--noout")
        .arg(&svg_path)
        .run();
    assert_eq!(lint.code, Some(0), "xmllint: {}", lint.stderr_text());

    let drawn = svg_to_png(&svg).unwrap_or_else(|e| panic!("rsvg-convert: {e}"));
    let eps = std::fs::read(dir.join("long.eps")).expect("the EPS");
    let reference = eps_to_pngs(&eps).expect("ghostscript").remove(0);
    let c = compare(&drawn, &reference).expect("same size");
    eprintln!("400,000 samples, SVG {} bytes: {}", svg.len(), c.summary());
    // The tolerant comparison forgives thin lines; a seam between two pieces is one (the
    // background showing through a pixel both pieces cover only in part). So also:
    // wherever the EPS is flat (its 3 × 3 neighbourhood one colour: the band's inside,
    // the background), the SVG has that colour too.
    let seams = seam_pixels(&drawn, &reference);
    eprintln!("pixels where the EPS is flat and the SVG is not its colour: {seams}");
    if !c.same_picture() || seams > 0 {
        let diff = c.diff_image(&drawn);
        let saved = save_images(
            "svg-large",
            &[("svg", &drawn), ("eps", &reference), ("diff", &diff)],
        );
        panic!(
            "the SVG in pieces is not the EPS's picture: {}, {seams} seam pixels; images in {}",
            c.summary(),
            saved.display()
        );
    }
}

/// Pixels inside flat areas of `reference` whose colour in `drawn` differs by more than
/// 12 levels in a channel.
fn seam_pixels(drawn: &Image, reference: &Image) -> usize {
    let mut count = 0;
    for y in 1..reference.height - 1 {
        for x in 1..reference.width - 1 {
            let centre = reference.pixel(x, y);
            let flat = (y - 1..=y + 1)
                .all(|yy| (x - 1..=x + 1).all(|xx| reference.pixel(xx, yy) == centre));
            let off = drawn
                .pixel(x, y)
                .iter()
                .zip(centre)
                .any(|(&a, b)| a.abs_diff(b) > 12);
            if flat && off {
                count += 1;
            }
        }
    }
    count
}
