//! The static flame graph of a time profile (`hp2ps prog.prof`, `-o flame.svg`, PDF,
//! EPS): outside validators accept every generated profile's picture (`xmllint` the
//! SVG, `qpdf --check` the PDF, `rsvg-convert` and ghostscript draw a sample of them),
//! the same bytes each time; the title box says the program, total time and total
//! allocation, `pdftotext` finds them; the command names its outputs as for a `.hp`,
//! in batch, `--output-dir` and `--watch`; and two runs draw their differential flame
//! graph through the library.

mod support;

use std::path::Path;

use hp2ps::{FlameOptions, Format, Measure, TimeProfile};
use support::prof::{data_dir, generated, name, read};
use support::tools::{require, require_all};
use support::{files_in, Cmd, TempDir};

const XMLLINT: &str = "/usr/bin/xmllint";
const QPDF: &str = "/usr/bin/qpdf";
const RSVG: &str = "/usr/bin/rsvg-convert";
const GS: &str = "/usr/bin/gs";
const PDFTOTEXT: &str = "/usr/bin/pdftotext";
const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn flame(path: &Path, format: Format, opts: &FlameOptions) -> Vec<u8> {
    let mut out = Vec::new();
    read(path)
        .write_flame(format, opts, &mut out)
        .expect("painted to memory");
    out
}

fn ok(out: &std::process::Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_generated_profiles_svg_passes_xmllint_and_pdf_qpdf() {
    if !require_all(&[XMLLINT, QPDF]) {
        return;
    }
    let dir = TempDir::in_tmp("prof-pictures-valid");
    let mut svgs = Vec::new();
    for (i, path) in generated().iter().enumerate() {
        let n = name(path);
        // Every measure, on some file or other.
        let measure = [
            Measure::Time,
            Measure::Alloc,
            Measure::Entries,
            Measure::Bytes,
        ][i % 4];
        let mut opts = FlameOptions::default();
        opts.measure = measure;
        let svg = flame(path, Format::Svg, &opts);
        assert_eq!(svg, flame(path, Format::Svg, &opts), "{n}: the same bytes");
        svgs.push(dir.write(&format!("{i}.svg"), &svg));
        let pdf = dir.write("check.pdf", &flame(path, Format::Pdf, &opts));
        ok(&Cmd::new(QPDF).arg("--check").arg(&pdf).output(), &n);
    }
    // xmllint reads them all in one run.
    ok(
        &Cmd::new(XMLLINT).arg("--noout").args(&svgs).output(),
        "xmllint",
    );
    assert!(svgs.len() > 150, "{} files", svgs.len());
}

#[test]
fn rsvg_and_ghostscript_draw_them() {
    if !require_all(&[RSVG, GS]) {
        return;
    }
    let dir = TempDir::in_tmp("prof-pictures-draw");
    for file in [
        "textproc-calls-ghc9.0.2-p.prof",
        "unicode-ghc9.10.3-P.prof",
        "oddnamestabs-ghc9.10.3-pj.prof",
        "threads-ghc9.0.2-pa.prof",
    ] {
        let path = data_dir().join(file);
        let svg = dir.write(
            "f.svg",
            &flame(&path, Format::Svg, &FlameOptions::default()),
        );
        let png = dir.join("f.png");
        ok(&Cmd::new(RSVG).arg("-o").arg(&png).arg(&svg).output(), file);
        assert!(std::fs::metadata(&png).unwrap().len() > 1000);
        let eps = dir.write(
            "f.eps",
            &flame(&path, Format::Eps, &FlameOptions::default()),
        );
        let out = Cmd::new(GS)
            .args([
                "-q",
                "-dSAFER",
                "-dBATCH",
                "-dNOPAUSE",
                "-dEPSCrop",
                "-sDEVICE=png16m",
            ])
            .arg(format!("-sOutputFile={}", dir.join("e.png").display()))
            .arg(&eps)
            .output();
        ok(&out, file);
        assert!(
            out.stderr.is_empty(),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_title_box_says_program_time_and_allocation() {
    if !require(PDFTOTEXT) {
        return;
    }
    let dir = TempDir::in_tmp("prof-pictures-text");
    let path = data_dir().join("leakmap-ghc9.0.2-P.prof");
    let pdf = dir.write(
        "f.pdf",
        &flame(&path, Format::Pdf, &FlameOptions::default()),
    );
    let out = Cmd::new(PDFTOTEXT).arg(&pdf).arg("-").output();
    ok(&out, "pdftotext");
    let text = String::from_utf8_lossy(&out.stdout);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "leakmap +RTS -P -RTS",
        "total time 0.89 s (887 ticks)",
        "total alloc 369,662,800 bytes",
        "countWords.step",
        "MAIN",
    ] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
}

#[test]
fn the_command_names_its_outputs_as_for_a_heap_profile() {
    let dir = TempDir::new("prof-pictures-cli");
    for f in ["leakmap-ghc9.0.2-p.prof", "arrays-ghc9.10.3-pj.prof"] {
        std::fs::copy(data_dir().join(f), dir.join(f)).unwrap();
    }
    let run = |args: &[&str]| support::run_in(BIN, dir.path(), args, None);
    // File mode: ./prog.ps, no .aux; again, the same bytes.
    ok(&run(&["leakmap-ghc9.0.2-p.prof"]), "file mode");
    let ps = std::fs::read(dir.join("leakmap-ghc9.0.2-p.ps")).unwrap();
    assert!(ps.starts_with(b"%!PS-Adobe-3.0\n"));
    assert!(!dir.join("leakmap-ghc9.0.2-p.aux").exists());
    ok(&run(&["leakmap-ghc9.0.2-p.prof"]), "again");
    assert_eq!(
        std::fs::read(dir.join("leakmap-ghc9.0.2-p.ps")).unwrap(),
        ps
    );
    // -o and its extension; batch into --output-dir (a -pj file is named .prof too).
    ok(&run(&["-o", "f.pdf", "leakmap-ghc9.0.2-p.prof"]), "-o");
    assert!(std::fs::read(dir.join("f.pdf"))
        .unwrap()
        .starts_with(b"%PDF-"));
    let both = [
        "--format",
        "svg",
        "--output-dir",
        "out",
        "leakmap-ghc9.0.2-p.prof",
        "arrays-ghc9.10.3-pj.prof",
    ];
    ok(&run(&both), "batch");
    assert_eq!(
        files_in(&dir.join("out")),
        ["arrays-ghc9.10.3-pj.svg", "leakmap-ghc9.0.2-p.svg"]
    );
    // --summary with a picture prints the time profile's summary too.
    let s = run(&["--summary=json", "-o", "g.svg", "leakmap-ghc9.0.2-p.prof"]);
    ok(&s, "summary");
    let v: serde_json::Value = serde_json::from_slice(&s.stdout).expect("JSON");
    assert_eq!(v["kind"], "time");
    assert!(dir.join("g.svg").exists());
    // A file that is no profile writes nothing.
    std::fs::write(dir.join("bad.prof"), "not a profile\n").unwrap();
    let bad = run(&["-o", "bad.svg", "bad.prof"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(!dir.join("bad.svg").exists());
}

#[test]
fn watch_draws_the_profile_when_it_changes() {
    let dir = TempDir::new("prof-pictures-watch");
    let src = data_dir().join("marker-ghc9.10.3-p.prof");
    std::fs::copy(&src, dir.join("m.prof")).unwrap();
    let out = Cmd::hp2ps()
        .current_dir(dir.path())
        .args([
            "--watch",
            "--watch-max-renders",
            "1",
            "-o",
            "m.svg",
            "m.prof",
        ])
        .timeout(std::time::Duration::from_secs(30))
        .output();
    ok(&out, "watch");
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("render 1:") && e.contains("stacks to m.svg"),
        "{e}"
    );
    assert!(std::fs::read(dir.join("m.svg"))
        .unwrap()
        .starts_with(b"<?xml"));
}

#[test]
fn two_runs_draw_their_differential_flame_graph() {
    if !require(XMLLINT) {
        return;
    }
    let before = read(&data_dir().join("leakmap-ghc9.0.2-p.prof"));
    let after = read(&data_dir().join("leakmap-ghc9.10.3-p.prof"));
    let mut svg = Vec::new();
    let opts = FlameOptions::default();
    TimeProfile::write_flame_diff(
        [&before, &after],
        ["9.0.2", "9.10.3"],
        Format::Svg,
        &opts,
        &mut svg,
    )
    .expect("painted");
    let text = String::from_utf8(svg.clone()).unwrap();
    assert!(text.contains("9.0.2 \u{2192} 9.10.3"), "{text}");
    assert!(
        text.contains("points)</title>"),
        "each frame says its change"
    );
    let dir = TempDir::in_tmp("prof-pictures-diff");
    let path = dir.write("d.svg", &svg);
    ok(
        &Cmd::new(XMLLINT).arg("--noout").arg(&path).output(),
        "xmllint",
    );
}
