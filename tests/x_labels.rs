//! The x tick labels by output format, from the command line: PostScript and EPS keep
//! hp2ps's one decimal (their bytes are GHC's hp2ps's), while SVG, PDF and HTML, which
//! hp2ps does not write, have as many decimals as the tick step needs, so that a run of
//! a fraction of a second (most GHC 9.10 test runs) gets labels that differ;
//! `--x-labels exact` gives PostScript and EPS those labels too.

mod support;

use support::compare::ps_body;
use support::ghc910::{data, run_ok};
use support::html_page::data_of;
use support::tools::{require_all, GHOSTSCRIPT, REFERENCE};
use support::{Cmd, TempDir};

/// The x tick labels of an SVG: its texts that are a number with a point (the y labels
/// have none), glyph spans joined.
fn svg_labels(svg: &[u8]) -> Vec<String> {
    let svg = String::from_utf8_lossy(svg);
    let mut labels = Vec::new();
    for text in svg.split("<text ").skip(1) {
        let Some(start) = text.find('>') else {
            continue;
        };
        let Some(end) = text.find("</text>") else {
            continue;
        };
        let mut inner = &text[start + 1..end];
        let mut label = String::new();
        while let Some(open) = inner.find('<') {
            label.push_str(&inner[..open]);
            inner = inner[open..].split_once('>').map_or("", |(_, rest)| rest);
        }
        label.push_str(inner);
        labels.push(label);
    }
    labels.retain(|l| is_x_label(l));
    labels
}

/// The x tick labels of a PostScript file: its strings that are a number with a point.
fn ps_labels(ps: &[u8]) -> Vec<String> {
    (String::from_utf8_lossy(ps).lines())
        .filter_map(|l| l.strip_prefix('(')?.strip_suffix(')'))
        .filter(|l| is_x_label(l))
        .map(str::to_string)
        .collect()
}

fn is_x_label(text: &str) -> bool {
    text.contains('.') && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

fn decimals(label: &str) -> usize {
    label.split_once('.').map_or(0, |(_, d)| d.len())
}

fn distinct(labels: &[String]) -> bool {
    labels.windows(2).all(|w| w[0] != w[1])
}

#[test]
fn a_short_real_run_has_distinct_x_labels_in_svg_and_html_and_hp2ps_labels_in_ps() {
    let dir = TempDir::new("x-labels");
    // 0.23 s of LeakMap under GHC 9.10.3: ticks every 0.02 s.
    let log = data("leakmap-hi.eventlog").display().to_string();
    let run = |args: &[&str]| {
        let mut all = vec!["-c"];
        all.extend_from_slice(args);
        all.push(&log);
        run_ok(dir.path(), &all);
    };
    // The format given, and the format the output's name says.
    run(&["--format", "svg", "-o", "given.svg"]);
    run(&["-o", "named.svg"]);
    run(&["-o", "short.ps"]);
    run(&["--format", "eps", "-o", "short.eps"]);
    run(&["--format", "html", "-o", "short.html"]);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();

    let svg = svg_labels(&read("given.svg"));
    assert!(svg.len() >= 5, "x labels of the SVG: {svg:?}");
    assert!(distinct(&svg), "the SVG's x labels repeat: {svg:?}");
    assert!(svg.iter().all(|l| decimals(l) == 2), "{svg:?}");
    assert_eq!(svg_labels(&read("named.svg")), svg);

    for ps in ["short.ps", "short.eps"] {
        let labels = ps_labels(&read(ps));
        assert_eq!(labels.len(), svg.len(), "{ps}: the same ticks: {labels:?}");
        assert!(labels.iter().all(|l| decimals(l) == 1), "{ps}: {labels:?}");
        assert!(
            !distinct(&labels),
            "{ps}: hp2ps's labels repeat: {labels:?}"
        );
    }

    // The page's script labels the whole run's ticks with the layout's decimals.
    let page = data_of(&read("short.html"));
    let scale = &page["runs"][0]["scale"];
    assert_eq!(scale["xDecimals"], 2, "{scale}");
}

/// The x tick labels of an EPS as ghostscript reads it (its text device): the words of
/// the line that ends with the x axis's title, "seconds".
fn eps_labels_read_back(eps: &std::path::Path) -> Vec<String> {
    let out = Cmd::new(GHOSTSCRIPT)
        .args(["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite"])
        .arg("-sOutputFile=-")
        .arg(eps)
        .output();
    assert!(out.status.success(), "gs: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let axis = text
        .lines()
        .find(|l| l.trim_end().ends_with("seconds") && l.trim_start().starts_with('0'))
        .unwrap_or_else(|| panic!("no x axis in what gs read: {text}"));
    let words: Vec<String> = axis.split_whitespace().map(str::to_string).collect();
    words[..words.len() - 1].to_vec()
}

#[test]
fn eps_with_exact_x_labels_reads_right_and_without_the_flag_stays_hp2ps_s() {
    if !require_all(&[GHOSTSCRIPT, REFERENCE]) {
        return;
    }
    // 0.053 s of a real run (GHC 9.0.2, -hT -i0.01): a tick every 0.005 s.
    let dir = TempDir::new("x-labels-eps");
    let input = dir.write("keywords.hp", &support::golden("keywords-O0-hT.hp"));
    let hp = input.to_str().unwrap();
    run_ok(dir.path(), &["-e6in", "-o", "default.eps", hp]);
    run_ok(
        dir.path(),
        &["-e6in", "--x-labels", "hp2ps", "-o", "hp2ps.eps", hp],
    );
    run_ok(
        dir.path(),
        &["-e6in", "--x-labels", "exact", "-o", "exact.eps", hp],
    );
    let reference = Cmd::new(REFERENCE)
        .args(["-e6in", "keywords.hp"])
        .current_dir(dir.path())
        .output();
    assert!(reference.status.success(), "{reference:?}");

    // Without the flag (or with its default named), GHC's hp2ps's bytes, as every EPS:
    // the same after the header comments, but for the %%EOF line that ends ours
    // (docs/compat.md).
    let theirs = std::fs::read(dir.join("keywords.ps")).unwrap();
    for name in ["default.eps", "hp2ps.eps"] {
        let ours = std::fs::read(dir.join(name)).unwrap();
        let body = ps_body(&ours).0.strip_suffix(b"%%EOF\n");
        assert!(
            body == Some(ps_body(&theirs).0),
            "{name} differs from GHC's hp2ps's EPS after %%EndComments"
        );
    }
    let hp2ps = eps_labels_read_back(&dir.join("default.eps"));
    assert!(hp2ps.len() >= 8, "{hp2ps:?}");
    assert!(
        hp2ps.iter().all(|l| l == "0.0"),
        "hp2ps's labels: {hp2ps:?}"
    );

    // With it, the labels a reader of the figure needs: 0.000, 0.005, ... 0.045.
    let exact = eps_labels_read_back(&dir.join("exact.eps"));
    let expected: Vec<String> = (0..exact.len())
        .map(|i| format!("{:.3}", i as f64 * 0.005))
        .collect();
    assert_eq!(exact, expected);
    assert_eq!(exact.len(), hp2ps.len(), "the same ticks");
}
