//! `--heap-size` lines run forward in time in every format.
//!
//! With `-N2` and more, each capability writes its own buffer of events, so the file holds
//! one capability's stretch of the run and then another's from earlier on. Read in file
//! order, the heap-size and live-bytes lines stepped back in time (GHC 9.10.3's
//! `threads-hT-N2`: once, mid-run), or ran to the end of the run and started again near
//! its beginning (a 25 MB log of GHC compiling 38 modules with `-N2`: a diagonal back
//! across the whole chart). Each test renders the log and reads the lines back from the
//! output: the PostScript, the SVG, the PDF and the HTML page (its picture and its data).

mod support;

use std::path::{Path, PathBuf};

use support::eventlog::writer::{EventlogWriter, Layout};
use support::html_page::data_of;
use support::{Cmd, TempDir};

/// The real logs of two or four capabilities whose lines stepped back (each of them did),
/// with their number of lines: GHC 9.2 and later write the blocks size too.
const MULTI_CAPABILITY_LOGS: &[(&str, usize)] = &[
    ("ghc-9.10/threads-hT-N2.eventlog", 3),
    ("timeaxis/ghc-9.0.2/par-hT-N2.eventlog", 2),
    ("timeaxis/ghc-9.10.3/par-hT-N2.eventlog", 3),
    ("timeaxis/ghc-9.10.3/par-hc-N2.eventlog", 3),
    ("timeaxis/ghc-9.10.3/par-hT-N4.eventlog", 3),
];

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Renders `input` with `--heap-size` as `name` (its extension picks the format).
fn render(dir: &TempDir, input: &Path, name: &str) -> Vec<u8> {
    render_with(dir, input, name, &["--heap-size"])
}

/// Renders `input` in colour with `flags` as `name`.
fn render_with(dir: &TempDir, input: &Path, name: &str, flags: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let ran = Cmd::hp2ps()
        .current_dir(dir.path())
        .arg("-c")
        .args(flags)
        .arg("-o")
        .arg(&out)
        .arg(input)
        .run();
    assert!(ran.status.success(), "{name}: {}", ran.describe());
    std::fs::read(&out).expect("the output")
}

/// A path's points: (x, y) in the output's own units.
type Path2 = Vec<(f64, f64)>;

/// The stroked paths of a PostScript page: `x y moveto`, `x y lineto`…, `stroke`.
fn ps_strokes(ps: &[u8]) -> Vec<Path2> {
    let text = String::from_utf8_lossy(ps);
    let mut paths = Vec::new();
    let mut current: Path2 = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [x, y, "moveto"] => current = vec![(num(x), num(y))],
            [x, y, "lineto"] => current.push((num(x), num(y))),
            ["stroke"] => paths.push(std::mem::take(&mut current)),
            ["fill"] | ["closepath"] | ["newpath"] => current.clear(),
            _ => {}
        }
    }
    paths
}

/// The stroked paths of a PDF's content streams (`m`, `l`, then `S`); the painter writes
/// them uncompressed.
fn pdf_strokes(pdf: &[u8]) -> Vec<Path2> {
    let text = String::from_utf8_lossy(pdf);
    let mut paths = Vec::new();
    let mut current: Path2 = Vec::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [x, y, "m"] => current = vec![(num(x), num(y))],
            [x, y, "l"] => current.push((num(x), num(y))),
            ["S"] => paths.push(std::mem::take(&mut current)),
            ["f"] | ["s"] | ["h"] | ["n"] | ["f*"] | ["b"] | ["B"] => current.clear(),
            _ => {}
        }
    }
    paths
}

/// The `points` of every `<polyline>` of an SVG (or of the picture in an HTML page).
fn svg_polylines(svg: &[u8]) -> Vec<Path2> {
    let text = String::from_utf8_lossy(svg);
    let mut paths = Vec::new();
    for piece in text.split("<polyline ").skip(1) {
        let tag = &piece[..piece.find('>').expect("the tag's end")];
        let Some(at) = tag.find("points=\"") else {
            continue;
        };
        let points = &tag[at + "points=\"".len()..];
        let points = &points[..points.find('"').expect("the attribute's end")];
        paths.push(
            points
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').expect("x,y");
                    (num(x), num(y))
                })
                .collect(),
        );
    }
    paths
}

fn num(word: &str) -> f64 {
    word.parse()
        .unwrap_or_else(|_| panic!("{word:?} is not a number"))
}

/// The lines over the bands among a page's paths: the axes, ticks and key swatches have
/// two points, the lines more.
fn lines_of(paths: Vec<Path2>) -> Vec<Path2> {
    paths.into_iter().filter(|p| p.len() > 2).collect()
}

/// Where `line`'s x steps back, as (index, from, to).
fn backsteps(line: &[(f64, f64)]) -> Vec<(usize, f64, f64)> {
    (line.windows(2).enumerate())
        .filter(|(_, w)| w[1].0 < w[0].0)
        .map(|(i, w)| (i, w[0].0, w[1].0))
        .collect()
}

/// Every format's lines of `input` run forward, and each format draws the same number of
/// points: each event once, none doubled.
fn assert_lines_run_forward(input: &Path, expect_lines: usize) {
    let dir = TempDir::new("heap_lines");
    let what = input.display();
    let page = render(&dir, input, "out.html");
    let data = data_of(&page);
    let data_lines = data["runs"][0]["lines"]
        .as_array()
        .expect("the page's lines");
    assert_eq!(data_lines.len(), expect_lines, "{what}: the page's data");
    let mut counts = Vec::new();
    for line in data_lines {
        let t: Vec<f64> = (line["t"].as_array().expect("times").iter())
            .map(|v| v.as_f64().expect("a time"))
            .collect();
        assert!(t.len() > 2, "{what}: {}", line["name"]);
        let back: Vec<_> = t.windows(2).filter(|w| w[1] < w[0]).collect();
        assert!(
            back.is_empty(),
            "{what}: the page's {} steps back in time: {back:?}",
            line["name"]
        );
        counts.push(t.len());
    }
    for (format, paths) in [
        ("PostScript", ps_strokes(&render(&dir, input, "out.ps"))),
        ("SVG", svg_polylines(&render(&dir, input, "out.svg"))),
        ("PDF", pdf_strokes(&render(&dir, input, "out.pdf"))),
    ] {
        let lines = lines_of(paths);
        assert_eq!(lines.len(), expect_lines, "{what}: {format} lines");
        // The page draws them from its data, in a panel of their own (issue 37).
        assert!(
            lines_of(svg_polylines(&page)).is_empty(),
            "{what}: lines in the page's picture"
        );
        for (line, &count) in lines.iter().zip(&counts) {
            assert_eq!(line.len(), count, "{what}: {format}: a point per event");
            let back = backsteps(line);
            assert!(back.is_empty(), "{what}: {format} steps back: {back:?}");
        }
    }
}

#[test]
fn real_multi_capability_logs_draw_their_lines_forward() {
    for &(name, lines) in MULTI_CAPABILITY_LOGS {
        assert_lines_run_forward(&data(name), lines);
    }
}

/// A log shaped as the 25 MB one: capability 0's block covers the whole run and comes
/// first, then capability 1's block covers the whole run again. In file order the line
/// runs to the end and starts again at the beginning.
#[test]
fn a_capability_whose_block_comes_last_does_not_restart_the_line() {
    const MS: u64 = 1_000_000;
    let mut w = EventlogWriter::new(Layout::ghc_9_10().with_max_events_per_block(1000));
    w.startup(0, 2);
    for k in 0..10u64 {
        w.heap_size(0, (2 * k + 1) * MS, (10 + 2 * k) << 20);
        w.heap_live(0, (2 * k + 1) * MS, (2 * k + 1) << 20);
    }
    for k in 0..10u64 {
        w.heap_size(1, (2 * k + 2) * MS, (11 + 2 * k) << 20);
        w.heap_live(1, (2 * k + 2) * MS, (2 * k + 2) << 20);
    }
    for k in 0..4u64 {
        w.string_census((5 * k + 2) * MS, &[("X", 1000 * (k + 1))]);
    }
    w.shutdown(21 * MS, 2);
    let bytes = w.finish();
    let dir = TempDir::new("heap_lines_synthetic");
    let input = dir.join("restart.eventlog");
    std::fs::write(&input, bytes).expect("the log");
    assert_lines_run_forward(&input, 2);

    // In time order the two capabilities' points alternate, so heap size only grows.
    let data = data_of(&render(&dir, &input, "again.html"));
    let heap = &data["runs"][0]["lines"][0];
    assert_eq!(heap["name"], "heap size");
    let values: Vec<f64> = (heap["v"].as_array().expect("values").iter())
        .map(|v| v.as_f64().expect("a value"))
        .collect();
    assert_eq!(values.len(), 20);
    assert!(values.windows(2).all(|w| w[1] > w[0]), "{values:?}");
}

/// The text an SVG shows, glyph by glyph as the painter places it, as whole strings: each
/// `<text>` element's characters together.
fn svg_texts(svg: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(svg);
    let mut texts = Vec::new();
    for piece in text.split("<text ").skip(1) {
        let body = &piece[piece.find('>').expect("the tag's end") + 1..];
        let body = &body[..body.find("</text>").expect("the element's end")];
        let mut shown = String::new();
        let mut in_tag = false;
        for c in body.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => shown.push(c),
                _ => {}
            }
        }
        texts.push(shown);
    }
    texts
}

/// BLOCKS_SIZE (event 91), which GHC 9.2 and later post with every heap size: with
/// `--heap-size` a third line, "blocks size", between the heap size and the live bytes
/// (the gap to the live bytes is fragmentation), one point per event, drawn by every
/// format with its key entry (the page's legend is its data's lines); without
/// `--heap-size`, nowhere.
#[test]
fn the_blocks_size_is_a_third_line_with_a_key_entry_in_every_format() {
    use hp2ps::{load, LoadOptions, Source};
    let input = data("ghc-9.10/leakmap-hc.eventlog");
    let log = std::fs::read(&input).expect("the log");
    let mut opts = LoadOptions::default();
    opts.heap_size = true;
    let loaded = load(Source::Bytes(&log), &opts).expect("reads");
    let names: Vec<&[u8]> = (loaded.profile.series.iter())
        .map(|s| s.name.as_slice())
        .collect();
    assert_eq!(names, [&b"heap size"[..], b"live bytes", b"blocks size"]);
    let report = loaded.eventlog.as_ref().expect("an eventlog");
    // The log's 276 BLOCKS_SIZE events (as many as its HEAP_SIZE events, posted together).
    assert_eq!(report.line("blocks size").len(), 276);
    assert_eq!(report.line("heap size").len(), 276);
    for (&(t, blocks), &(heap_t, heap)) in report
        .line("blocks size")
        .iter()
        .zip(report.line("heap size"))
    {
        assert!(
            (t - heap_t).abs() < 1e-3,
            "posted with the heap size: {t} {heap_t}"
        );
        assert!(
            blocks <= heap && blocks > 0,
            "{blocks} of {heap} bytes at {t}"
        );
    }
    let live_peak = report
        .line("live bytes")
        .iter()
        .map(|p| p.1)
        .max()
        .expect("live bytes");
    let blocks_peak = report
        .line("blocks size")
        .iter()
        .map(|p| p.1)
        .max()
        .expect("blocks");
    assert!(
        blocks_peak > live_peak,
        "the blocks hold the live bytes and more"
    );

    assert_lines_run_forward(&input, 3);
    let dir = TempDir::new("blocks_size");
    let ps = String::from_utf8(render(&dir, &input, "out.ps")).expect("ASCII");
    let pdf = String::from_utf8_lossy(&render(&dir, &input, "out.pdf")).into_owned();
    let svg = svg_texts(&render(&dir, &input, "out.svg"));
    let page = data_of(&render(&dir, &input, "out.html"));
    // The key: a label each, and the line's own dotted dark green stroke.
    assert!(ps.contains("(blocks size) show"), "PostScript key");
    assert!(pdf.contains("(blocks size) Tj"), "PDF key");
    assert!(svg.iter().any(|t| t == "blocks size"), "SVG key: {svg:?}");
    let line = &page["runs"][0]["lines"][2];
    assert_eq!(line["name"], "blocks size", "the page's legend");
    assert_eq!(line["colour"], "#006600");
    assert_eq!(line["t"].as_array().expect("times").len(), 276);
    assert!(
        ps.contains("[1.000000 1.500000] 0 setdash"),
        "PostScript's dots"
    );

    // Without --heap-size, no line and no entry.
    let plain = render_with(&dir, &input, "plain.ps", &[]);
    assert!(!String::from_utf8_lossy(&plain).contains("blocks size"));
    // A GHC 9.0.2 log has none: two lines.
    assert_lines_run_forward(&data("eventlog/leakmap-hc.eventlog"), 2);
}
