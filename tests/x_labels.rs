//! The x tick labels by output format, from the command line: PostScript and EPS keep
//! hp2ps's one decimal (their bytes are GHC's hp2ps's), while SVG, PDF and HTML, which
//! hp2ps does not write, have as many decimals as the tick step needs, so that a run of
//! a fraction of a second (most GHC 9.10 test runs) gets labels that differ.

mod support;

use support::ghc910::{data, run_ok};
use support::html_page::data_of;
use support::TempDir;

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
