//! The EPS and PDF figures in LaTeX: included with a bare `\includegraphics`, each must
//! come out at the width it was made for, because that width is the whole point of
//! `-e`.
//!
//! * EPS: `latex` + `dvips`, then ghostscript's `bbox` device measures what is drawn.
//! * PDF: `pdflatex`, then the same measurement on its output.
//!
//! Both also report the box LaTeX reserved for the figure (`\wd`/`\ht` in the log).
//! Needs `latex`, `dvips` and `pdflatex` (Debian: texlive-latex-base) and `gs`; without
//! them the test says SKIPPED, and fails when `CI=true` (see `support::tools`).

mod support;

use std::path::Path;

use support::tools::require_all;
use support::{Cmd, TempDir};

use hp2ps::internals::chart::Chart;
use hp2ps::internals::paint::{write_pdf, PdfOptions};
use hp2ps::internals::paint::{write_ps, PsOptions};
use hp2ps::{prepare, RenderOptions};

/// The width asked for: 4 in.
const WIDTH: f64 = 288.0;
/// How far the measured width may be from it, in points.
const TOLERANCE: f64 = 2.0;
/// TeX points per PostScript point.
const TEX_PT_PER_BP: f64 = 72.27 / 72.0;

/// The man-page profile, laid out.
fn chart() -> Chart {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs/spec7-01-manpage.hp");
    let bytes = std::fs::read(&path).expect("read the man-page profile");
    let (profile, _) = support::read_profile(&bytes[..]).expect("profile reads");
    prepare(profile, None, &RenderOptions::default()).0
}

/// A page holding nothing but the figure, which reports its box in the log.
fn document(figure: &str) -> String {
    format!(
        "\\documentclass{{article}}\n\\usepackage{{graphicx}}\n\\pagestyle{{empty}}\n\
         \\begin{{document}}\n\\noindent\\sbox0{{\\includegraphics{{{figure}}}}}%\n\
         \\typeout{{FIGURE-BOX: \\the\\wd0, \\the\\ht0}}\\usebox0\n\\end{{document}}\n"
    )
}

/// Runs a command in `dir`, failing the test with its output when it fails.
fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = Cmd::new(program).args(args).current_dir(dir).output();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{program} {args:?} failed:\n{text}");
    text
}

/// The width and height in TeX points LaTeX printed for the figure's box.
fn figure_box(log: &str) -> (f64, f64) {
    let line = log
        .lines()
        .find_map(|l| l.strip_prefix("FIGURE-BOX: "))
        .unwrap_or_else(|| panic!("no FIGURE-BOX line in:\n{log}"));
    let dims: Vec<f64> = line
        .split(',')
        .map(|d| {
            d.trim()
                .trim_end_matches("pt")
                .parse()
                .expect("a TeX dimension")
        })
        .collect();
    (dims[0], dims[1])
}

/// What ghostscript's bbox device finds drawn on the first page, as (x0, y0, x1, y1).
fn drawn_box(dir: &Path, file: &str) -> [f64; 4] {
    let text = run(
        dir,
        "gs",
        &[
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-dLastPage=1",
            "-sDEVICE=bbox",
            file,
        ],
    );
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("%%HiResBoundingBox: "))
        .unwrap_or_else(|| panic!("no bounding box from gs:\n{text}"));
    let v: Vec<f64> = line
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    [v[0], v[1], v[2], v[3]]
}

fn assert_near(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= TOLERANCE,
        "{what}: {got:.3} pt, wanted {want:.3} ± {TOLERANCE} pt"
    );
}

/// Checks both the box LaTeX reserved and what was drawn, in PostScript points.
fn check_sizes(kind: &str, log: &str, drawn: [f64; 4]) {
    let height = WIDTH * 432.0 / 648.0;
    let (wd, ht) = figure_box(log);
    eprintln!(
        "{kind}: LaTeX box {:.3} x {:.3} bp, drawn {:.3} x {:.3} pt",
        wd / TEX_PT_PER_BP,
        ht / TEX_PT_PER_BP,
        drawn[2] - drawn[0],
        drawn[3] - drawn[1]
    );
    assert_near(
        &format!("{kind} LaTeX box width"),
        wd / TEX_PT_PER_BP,
        WIDTH,
    );
    assert_near(
        &format!("{kind} LaTeX box height"),
        ht / TEX_PT_PER_BP,
        height,
    );
    assert_near(&format!("{kind} drawn width"), drawn[2] - drawn[0], WIDTH);
    assert_near(&format!("{kind} drawn height"), drawn[3] - drawn[1], height);
}

#[test]
fn eps_through_latex_and_dvips_has_the_asked_width() {
    if !require_all(&["latex", "dvips", "gs"]) {
        return;
    }
    let dir = TempDir::in_tmp("eps");
    let mut eps = Vec::new();
    let mut opts = PsOptions::default();
    opts.eps_width = Some(WIDTH);
    write_ps(&chart(), &opts, &mut eps).expect("write EPS");
    std::fs::write(dir.path().join("fig.eps"), eps).expect("write fig.eps");
    std::fs::write(dir.path().join("doc.tex"), document("fig.eps")).expect("write doc.tex");
    let log = run(
        dir.path(),
        "latex",
        &["-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
    );
    run(dir.path(), "dvips", &["-q", "-o", "doc.ps", "doc.dvi"]);
    check_sizes("EPS", &log, drawn_box(dir.path(), "doc.ps"));
}

#[test]
fn pdf_through_pdflatex_has_the_asked_width() {
    if !require_all(&["pdflatex", "gs"]) {
        return;
    }
    let dir = TempDir::in_tmp("pdf");
    let mut pdf = Vec::new();
    let mut opts = PdfOptions::default();
    opts.width = WIDTH;
    write_pdf(&chart(), &opts, &mut pdf).expect("write PDF");
    std::fs::write(dir.path().join("fig.pdf"), pdf).expect("write fig.pdf");
    std::fs::write(dir.path().join("doc.tex"), document("fig.pdf")).expect("write doc.tex");
    let log = run(
        dir.path(),
        "pdflatex",
        &["-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
    );
    check_sizes("PDF", &log, drawn_box(dir.path(), "doc.pdf"));
}
