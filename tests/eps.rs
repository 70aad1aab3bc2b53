//! EPS output: a real EPSF-3.0 header whose bounding box contains everything drawn
//! (checked against ghostscript's bbox device), and that `gs -dEPSCrop` crops to.

mod support;

use std::path::Path;

use support::tools::require_ghostscript;
use support::{golden, Cmd, TempDir};

fn render_eps(dir: &Path, input: &[u8], args: &[&str]) -> Vec<u8> {
    std::fs::write(dir.join("t.hp"), input).unwrap();
    let out = Cmd::hp2ps()
        .args(args)
        .args(["-o", "t.eps", "t.hp"])
        .current_dir(dir)
        .output();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(dir.join("t.eps")).expect("t.eps")
}

/// The four numbers of a `%%<name>: a b c d` line.
fn comment_box(text: &str, name: &str) -> [f64; 4] {
    let prefix = format!("%%{name}: ");
    let line = text
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {}", &text[..text.len().min(400)]));
    let v: Vec<f64> = line[prefix.len()..]
        .split_whitespace()
        .map(|n| n.parse().expect("number"))
        .collect();
    [v[0], v[1], v[2], v[3]]
}

/// What ghostscript's bbox device measures: the ink of the first page.
fn ink_box(dir: &Path) -> [f64; 4] {
    let out = Cmd::new("gs")
        .args([
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=bbox",
            "t.eps",
        ])
        .current_dir(dir)
        .output();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    comment_box(&text, "HiResBoundingBox")
}

fn contains(outer: [f64; 4], inner: [f64; 4]) -> bool {
    outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3]
}

#[test]
fn eps_header_and_trailer() {
    let dir = TempDir::new("eps-header");
    let eps = render_eps(
        dir.path(),
        &golden("spec7-01-manpage.hp"),
        &["--format", "eps"],
    );
    let text = String::from_utf8_lossy(&eps);
    assert!(text.starts_with("%!PS-Adobe-3.0 EPSF-3.0\n"));
    assert!(text.ends_with("showpage\n%%EOF\n"));
    // Without -e the EPS is the graph box at scale 1, the same as -e648pt.
    assert!(text.contains("1.000000 1.000000 scale\n"));
    let same = render_eps(dir.path(), &golden("spec7-01-manpage.hp"), &["-e648pt"]);
    assert_eq!(eps, same);
}

#[test]
fn bounding_box_contains_all_ink_even_with_non_ascii_names() {
    if !require_ghostscript() {
        return;
    }
    let cases: [(&str, &[&str]); 7] = [
        ("spec7-01-manpage.hp", &["-e6in"]),
        ("spec7-01-manpage.hp", &["-e150mm", "-c"]),
        ("unicode-O0-hT.hp", &["-e8in"]),
        ("unicode-O0-hc.hp", &["--format", "eps", "-c"]),
        ("edge-ident-nonascii.hp", &["-e400"]),
        ("spec7-42-control-nonascii-bytes.hp", &["-e7in"]),
        ("longnames-O0-hc-L200.hp", &["--format", "eps"]),
    ];
    for (input, args) in cases {
        let dir = TempDir::new("eps-bbox");
        let eps = render_eps(dir.path(), &golden(input), args);
        let text = String::from_utf8_lossy(&eps).into_owned();
        let declared = comment_box(&text, "BoundingBox");
        let hires = comment_box(&text, "HiResBoundingBox");
        let ink = ink_box(dir.path());
        assert!(
            contains(declared, hires),
            "{input} {args:?}: {declared:?} ⊉ {hires:?}"
        );
        assert!(
            contains(hires, ink),
            "{input} {args:?}: ink {ink:?} outside {hires:?}"
        );
    }
}

#[test]
fn eps_crop_gives_the_bounding_box_size() {
    if !require_ghostscript() {
        return;
    }
    let dir = TempDir::new("eps-crop");
    let eps = render_eps(dir.path(), &golden("spec7-01-manpage.hp"), &["-e6in"]);
    let hires = comment_box(&String::from_utf8_lossy(&eps), "HiResBoundingBox");
    let out = Cmd::new("gs")
        .args([
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-dEPSCrop",
            "-r72",
            "-sDEVICE=png16m",
        ])
        .args(["-sOutputFile=crop.png", "t.eps"])
        .current_dir(dir.path())
        .output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::fs::File::open(dir.path().join("crop.png")).unwrap());
    let reader = decoder.read_info().expect("png");
    let (w, h) = (reader.info().width, reader.info().height);
    // EPSCrop crops to the HiResBoundingBox, to the nearest pixel at 72 dpi.
    let (want_w, want_h) = (hires[2] - hires[0], hires[3] - hires[1]);
    assert!((w as f64 - want_w).abs() <= 1.0, "width {w} for {hires:?}");
    assert!((h as f64 - want_h).abs() <= 1.0, "height {h} for {hires:?}");
}
