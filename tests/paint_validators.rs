//! The SVG and PDF painters' output, checked by outside validators: `xmllint` for the
//! SVG, `qpdf --check` and `pdftotext` for the PDF.
//!
//! A missing tool skips its test with a loud `SKIPPED` message, except under CI
//! (`support::tools::require`: `CI=true` fails instead).

mod support;

use hp2ps::internals::chart::Chart;
use hp2ps::internals::write_chart;
use hp2ps::{prepare, Format, LayoutOptions, RenderOptions};

use support::tools::require;
use support::{Cmd, TempDir};

const XMLLINT: &str = "/usr/bin/xmllint";
const QPDF: &str = "/usr/bin/qpdf";
const PDFTOTEXT: &str = "/usr/bin/pdftotext";

fn chart_of(hp: &[u8], layout: LayoutOptions) -> Option<Chart> {
    let (profile, _) = support::read_profile(hp).ok()?;
    let mut opts = RenderOptions::default();
    opts.layout = layout;
    Some(prepare(profile, None, &opts).0)
}

fn painted(chart: &Chart, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    write_chart(chart, format, &mut out).expect("paints to memory");
    out
}

/// Runs `xmllint --noout` on the document and fails the test if it rejects it.
fn xmllint_accepts(svg: &[u8], tag: &str) {
    let result = Cmd::new(XMLLINT)
        .args(["--noout", "-"])
        .stdin_bytes(svg)
        .output();
    assert!(
        result.status.success(),
        "xmllint rejects the SVG of {tag}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn svg_of_names_with_bad_bytes_and_specials_passes_xmllint() {
    if !require(XMLLINT) {
        return;
    }
    let hp = b"JOB \"a<&>\"\"b\x01\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
               BEGIN_SAMPLE 0.0\ncaf\xe9 10\nx\xe2\x86 5\na<b>&\"' 3\nEND_SAMPLE 0.0\n\
               BEGIN_SAMPLE 1.0\ncaf\xe9 10\nEND_SAMPLE 1.0\n";
    let chart = chart_of(hp, LayoutOptions::default()).expect("profile reads");
    xmllint_accepts(&painted(&chart, Format::Svg), "bad-bytes");
}

#[test]
fn svg_of_real_profiles_passes_xmllint() {
    if !require(XMLLINT) {
        return;
    }
    let mut layout = LayoutOptions::default();
    layout.colour = true;
    for name in [
        "spec7-01-manpage.hp",
        "unicode-O0-hc.hp",
        "oddnames-O0-hd.hp",
    ] {
        let hp = support::golden(name);
        let chart = chart_of(&hp, layout.clone()).expect("profile reads");
        xmllint_accepts(&painted(&chart, Format::Svg), name);
    }
}

#[test]
fn pdf_of_real_profiles_passes_qpdf() {
    if !require(QPDF) {
        return;
    }
    let dir = TempDir::in_tmp("paint-validators-qpdf");
    for (n, (file, hp)) in support::golden_inputs().iter().enumerate() {
        let mut layout = LayoutOptions::default();
        layout.colour = n % 2 == 1;
        layout.multipage = n % 3 == 0;
        // Profiles hp2ps rejects have no chart.
        let Some(chart) = chart_of(hp, layout) else {
            continue;
        };
        let path = dir.write("check.pdf", &painted(&chart, Format::Pdf));
        let out = Cmd::new(QPDF).arg("--check").arg(&path).output();
        assert!(
            out.status.success(),
            "{file}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn pdftotext_finds_the_title_and_key_labels() {
    if !require(PDFTOTEXT) {
        return;
    }
    let hp = "JOB \"prog +RTS -hT\"\nDATE \"Thu Jan  1 00:00 1970\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\nMAIN\t1000\ncaf\u{e9}\t500\nfoo\u{2192}bar\t300\nEND_SAMPLE 1.0\n\
        MARK 1.5\n\
        BEGIN_SAMPLE 2.0\nMAIN\t2000\ncaf\u{e9}\t800\nfoo\u{2192}bar\t100\nEND_SAMPLE 2.0\n";
    let chart = chart_of(hp.as_bytes(), LayoutOptions::default()).expect("profile reads");
    let dir = TempDir::in_tmp("paint-validators-pdftotext");
    let path = dir.write("text.pdf", &painted(&chart, Format::Pdf));
    let out = Cmd::new(PDFTOTEXT).arg(&path).arg("-").output();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let squeezed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "prog +RTS -hT",
        "Thu Jan 1 00:00 1970",
        "MAIN",
        "café",
        "foo?bar",
        "seconds",
    ] {
        assert!(squeezed.contains(want), "{want:?} not in {text}");
    }
}
