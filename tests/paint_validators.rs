//! The SVG and PDF painters' output, checked by outside validators: `xmllint` for the
//! SVG, `qpdf --check` and `pdftotext` for the PDF.
//!
//! A missing tool skips its test with a loud `SKIPPED` message, except under CI (`CI`
//! exactly `true`), where the tools are installed and a missing one fails the test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hp2ps::layout::chart::Chart;
use hp2ps::layout::LayoutOptions;
use hp2ps::paint::{write_chart, Format};
use hp2ps::pipeline::{prepare, RenderOptions};
use hp2ps::profile::Profile;

/// A command for `program` if it runs; otherwise says loudly that the test is skipped,
/// or panics under CI.
fn tool(program: &str, package: &str) -> Option<Command> {
    match Command::new(program).arg("--version").output() {
        Ok(_) => Some(Command::new(program)),
        Err(e) => {
            let message = format!("{program} not runnable ({e}); install {package}");
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{message}: CI=true, so this fails"
            );
            eprintln!("SKIPPED: {message}");
            None
        }
    }
}

fn chart_of(hp: &[u8], layout: LayoutOptions) -> Option<Chart> {
    let (profile, _) = Profile::read(hp, &Default::default()).ok()?;
    let mut opts = RenderOptions::default();
    opts.layout = layout;
    Some(prepare(profile, None, &opts).0)
}

fn painted(chart: &Chart, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    write_chart(chart, format, &mut out).expect("paints to memory");
    out
}

fn golden_input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden/inputs")
        .join(name)
}

/// The `.hp` files of the golden tests.
fn golden_inputs() -> Vec<PathBuf> {
    let dir = golden_input("");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("golden/inputs exists")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hp"))
        .collect();
    files.sort();
    files
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hp2ps-paint-validators-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("temp file");
    path
}

/// Runs `xmllint --noout` on the document and fails the test if it rejects it.
fn xmllint_accepts(mut xmllint: Command, svg: &[u8], tag: &str) {
    let mut child = xmllint
        .args(["--noout", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xmllint starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(svg).expect("feed xmllint");
    drop(stdin);
    let result = child.wait_with_output().expect("xmllint runs");
    assert!(
        result.status.success(),
        "xmllint rejects the SVG of {tag}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn svg_of_names_with_bad_bytes_and_specials_passes_xmllint() {
    let Some(xmllint) = tool("xmllint", "libxml2-utils") else {
        return;
    };
    let hp = b"JOB \"a<&>\"\"b\x01\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
               BEGIN_SAMPLE 0.0\ncaf\xe9 10\nx\xe2\x86 5\na<b>&\"' 3\nEND_SAMPLE 0.0\n\
               BEGIN_SAMPLE 1.0\ncaf\xe9 10\nEND_SAMPLE 1.0\n";
    let chart = chart_of(hp, LayoutOptions::default()).expect("profile reads");
    xmllint_accepts(xmllint, &painted(&chart, Format::Svg), "bad-bytes");
}

#[test]
fn svg_of_real_profiles_passes_xmllint() {
    let mut layout = LayoutOptions::default();
    layout.colour = true;
    for name in [
        "spec7-01-manpage.hp",
        "unicode-O0-hc.hp",
        "oddnames-O0-hd.hp",
    ] {
        let Some(xmllint) = tool("xmllint", "libxml2-utils") else {
            return;
        };
        let hp = std::fs::read(golden_input(name)).expect("golden input");
        let chart = chart_of(&hp, layout.clone()).expect("profile reads");
        xmllint_accepts(xmllint, &painted(&chart, Format::Svg), name);
    }
}

#[test]
fn pdf_of_real_profiles_passes_qpdf() {
    let files = golden_inputs();
    assert!(!files.is_empty());
    for (n, file) in files.iter().enumerate() {
        let Some(mut qpdf) = tool("qpdf", "qpdf") else {
            return;
        };
        let hp = std::fs::read(file).expect("golden input");
        let mut layout = LayoutOptions::default();
        layout.colour = n % 2 == 1;
        layout.multipage = n % 3 == 0;
        // Profiles hp2ps rejects have no chart.
        let Some(chart) = chart_of(&hp, layout) else {
            continue;
        };
        let path = temp_file("check.pdf", &painted(&chart, Format::Pdf));
        let out = qpdf.arg("--check").arg(&path).output().expect("qpdf runs");
        assert!(
            out.status.success(),
            "{}: {}{}",
            file.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn pdftotext_finds_the_title_and_key_labels() {
    let Some(mut pdftotext) = tool("pdftotext", "poppler-utils") else {
        return;
    };
    let hp = "JOB \"prog +RTS -hT\"\nDATE \"Thu Jan  1 00:00 1970\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\nMAIN\t1000\ncaf\u{e9}\t500\nfoo\u{2192}bar\t300\nEND_SAMPLE 1.0\n\
        MARK 1.5\n\
        BEGIN_SAMPLE 2.0\nMAIN\t2000\ncaf\u{e9}\t800\nfoo\u{2192}bar\t100\nEND_SAMPLE 2.0\n";
    let chart = chart_of(hp.as_bytes(), LayoutOptions::default()).expect("profile reads");
    let path = temp_file("text.pdf", &painted(&chart, Format::Pdf));
    let out = pdftotext
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext runs");
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
