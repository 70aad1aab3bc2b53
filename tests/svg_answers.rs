//! The "compare runs" additions to the picture: SVG tooltips (bands, marks, shortened key
//! labels), lines over the bands (`Profile.series`, the heap size of an eventlog) and
//! `--key-labels fit`.
//!
//! Rasterising needs `rsvg-convert`, the DOM check `chromium`; without them those tests
//! are skipped loudly, or fail when `CI=true`.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use support::raster;
use support::tools::{find_tool, require};
use support::{Cmd, TempDir};

use hp2ps::internals::chart::{Chart, Graph, BORDER_WIDTH, SMALL_FONT};
use hp2ps::internals::paint::{svg_escape as escape, write_svg, SvgOptions};
use hp2ps::internals::paint::{write_pdf, PdfOptions};
use hp2ps::internals::paint::{write_ps, PsOptions};
use hp2ps::internals::ps_text_width;
use hp2ps::profile::{Band, Point, Profile};
use hp2ps::summary::{Summary, SummaryOptions};
use hp2ps::{load, prepare, LoadOptions, Loaded, RenderOptions, Source};

fn golden_profile(input: &str) -> Profile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden/inputs")
        .join(input);
    let hp = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    support::read_profile(&hp[..]).expect("profile reads").0
}

fn svg_of(chart: &Chart) -> String {
    let mut svg = Vec::new();
    write_svg(chart, &SvgOptions::default(), &mut svg).expect("write SVG");
    String::from_utf8(svg).expect("SVG is UTF-8")
}

fn graph_of(chart: &Chart) -> &Graph {
    chart
        .pages
        .iter()
        .find_map(|p| p.graph.as_ref())
        .expect("a graph page")
}

/// The text of every `<title>` child of a `<polygon>` (bands and marks).
fn polygon_titles(svg: &str) -> Vec<&str> {
    svg.split("<polygon ")
        .skip(1)
        .filter_map(|rest| {
            let element = &rest[..rest.find('\n').unwrap_or(rest.len())];
            let start = element.find("<title>")? + "<title>".len();
            let end = element.find("</title>")?;
            Some(&element[start..end])
        })
        .collect()
}

#[test]
fn every_band_has_a_title_with_name_peak_and_share() {
    let profile = golden_profile("unicode-O0-hc.hp");
    let (chart, _) = prepare(profile, None, &RenderOptions::default());
    let svg = svg_of(&chart);
    let bands = &graph_of(&chart).bands;
    assert!(bands.len() > 3, "a profile with several bands");
    let titles = polygon_titles(&svg);
    assert_eq!(
        titles.len(),
        bands.len(),
        "one title per band (no marks here)"
    );
    for (band, title) in bands.iter().zip(&titles) {
        let name = escape(&band.name);
        assert!(title.starts_with(&format!("{name}: peak ")), "{title}");
        assert!(title.contains(" bytes at "), "{title}");
        assert!(title.ends_with("% of the area"), "{title}");
    }
    // The shares add up to the whole area.
    let total: f64 = titles
        .iter()
        .map(|t| {
            let pct = t.rsplit(", ").next().unwrap();
            pct.trim_end_matches("% of the area")
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    assert!((total - 100.0).abs() < 0.1 * titles.len() as f64, "{total}");
}

#[test]
fn marks_with_text_have_a_tooltip_and_others_none() {
    let mut profile = synthetic(&[b"a", b"b"]);
    profile.marks = vec![1.0, 2.0, 3.0];
    profile.mark_texts = vec![b"GC <major>".to_vec(), Vec::new(), b"phase 2".to_vec()];
    let (chart, _) = prepare(profile, None, &RenderOptions::default());
    let svg = svg_of(&chart);
    let carets: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polygon") && l.contains("fill=\"#fff\""))
        .collect();
    assert_eq!(carets.len(), 3);
    assert!(carets[0].ends_with("<title>GC &lt;major&gt;</title></polygon>"));
    assert!(carets[1].ends_with("/>"), "no text, no tooltip");
    assert!(carets[2].ends_with("<title>phase 2</title></polygon>"));
}

/// Four samples, one band per name with growing values.
fn synthetic(names: &[&[u8]]) -> Profile {
    Profile {
        job: b"synthetic".to_vec(),
        date: b"today".to_vec(),
        sample_unit: b"seconds".to_vec(),
        value_unit: b"bytes".to_vec(),
        times: vec![0.0, 1.0, 2.0, 3.0],
        bands: names
            .iter()
            .enumerate()
            .map(|(i, name)| Band {
                name: name.to_vec(),
                points: (0..4)
                    .map(|s| Point {
                        sample: s,
                        value: 1000.0 * (i + 1) as f64 * f64::from(s + 1),
                    })
                    .collect(),
            })
            .collect(),
        ..Profile::default()
    }
}

/// A real eventlog with its heap size and live bytes as lines (`--heap-size`).
fn eventlog_with_heap_size() -> Loaded {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/eventlog/leakmap-hc.eventlog");
    let log = std::fs::read(&path).expect("eventlog");
    let mut opts = LoadOptions::default();
    opts.heap_size = true;
    let loaded = load(Source::Bytes(&log), &opts).expect("eventlog reads");
    let names: Vec<&[u8]> = (loaded.profile.series.iter())
        .map(|s| s.name.as_slice())
        .collect();
    assert_eq!(names, [&b"heap size"[..], b"live bytes"]);
    loaded
}

#[test]
fn heap_size_lines_fit_the_graph_and_have_key_entries() {
    let loaded = eventlog_with_heap_size();
    let summary = Summary::of(&loaded, None, &SummaryOptions::default());
    assert_eq!(summary.series.len(), 2);
    assert!(
        summary.series[0].peak >= summary.peak.total,
        "the heap holds the profile"
    );
    let mut json = Vec::new();
    summary.write_json(&mut json).unwrap();
    assert!(String::from_utf8(json)
        .unwrap()
        .contains("\"series\":[{\"name\":\"heap size\""));

    let (chart, _) = prepare(loaded.profile, None, &RenderOptions::default());
    let page = chart.pages.iter().find(|p| p.graph.is_some()).unwrap();
    let axes = page.axes.as_ref().unwrap();
    let graph = graph_of(&chart);
    assert_eq!(graph.lines.len(), 2);
    for line in &graph.lines {
        assert!(line.points.len() > 2, "{:?}", line.name);
        for &(x, y) in &line.points {
            assert!(
                x >= axes.x0 - 1e-9 && x <= axes.x0 + axes.width + 1e-9,
                "x {x}"
            );
            assert!(
                y >= axes.y0 - 1e-9 && y <= axes.y0 + axes.height + 1e-9,
                "y {y}"
            );
        }
    }
    let keyed: Vec<&[u8]> = page
        .key
        .iter()
        .filter(|e| e.line.is_some())
        .map(|e| e.label.as_slice())
        .collect();
    assert_eq!(keyed, [&b"heap size"[..], b"live bytes"]);

    // Every format draws them: a stroke in the line's colour, dashed for the second.
    let svg = svg_of(&chart);
    assert_eq!(
        svg.matches("stroke=\"#990000\"").count(),
        2,
        "line and key sample"
    );
    assert_eq!(svg.matches("stroke-dasharray").count(), 2);
    assert!(svg.contains("<title>heap size: peak "));
    let mut ps = Vec::new();
    write_ps(&chart, &PsOptions::default(), &mut ps).unwrap();
    let ps = String::from_utf8_lossy(&ps);
    assert_eq!(
        ps.matches("0.600000 0.000000 0.000000 setrgbcolor").count(),
        2
    );
    assert_eq!(ps.matches("setdash").count(), 2);
    // The EPS bounding box holds the lines, strokes included.
    let mut eps_opts = PsOptions::default();
    eps_opts.eps_width = Some(BORDER_WIDTH);
    let mut eps = Vec::new();
    write_ps(&chart, &eps_opts, &mut eps).unwrap();
    let eps = String::from_utf8_lossy(&eps);
    let bbox: Vec<f64> = eps
        .lines()
        .find_map(|l| l.strip_prefix("%%HiResBoundingBox: "))
        .expect("a bounding box")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    for line in &graph.lines {
        let h = line.style.width / 2.0;
        for &(x, y) in &line.points {
            assert!(x - h >= bbox[0] && y - h >= bbox[1], "{x} {y} in {bbox:?}");
            assert!(x + h <= bbox[2] && y + h <= bbox[3], "{x} {y} in {bbox:?}");
        }
    }
    let mut pdf = Vec::new();
    write_pdf(&chart, &PdfOptions::default(), &mut pdf).unwrap();
    assert!(
        pdf.windows(3).any(|w| w == b" d\n"),
        "a dash pattern in the PDF"
    );
}

#[test]
fn heap_size_line_is_drawn_above_the_band_stack() {
    if !require("rsvg-convert") {
        return;
    }
    let (chart, _) = prepare(
        eventlog_with_heap_size().profile,
        None,
        &RenderOptions::default(),
    );
    let graph = graph_of(&chart);
    let heap = &graph.lines[0];
    let image = raster::svg_to_png(svg_of(&chart).as_bytes()).expect("rsvg-convert");
    if std::env::var_os("SAME_PICTURE_SAVE").is_some() {
        let dir = raster::save_images("heap-size", &[("svg", &image)]);
        eprintln!("images in {}", dir.display());
    }
    let px = |x: f64| (x * f64::from(raster::DPI) / 72.0).round() as i64;
    let py = |y: f64| ((432.0 - y) * f64::from(raster::DPI) / 72.0).round() as i64;
    let dark_red = |p: [u8; 3]| p[0] > 110 && p[1] < 70 && p[2] < 70;
    let mut checked = 0;
    let n = graph.xs.len();
    for k in (n / 8..n).step_by((n / 8).max(1)).take(6) {
        let x = graph.xs[k];
        let stack_top = graph.bands.last().map_or(graph.y0, |b| b.top[k]);
        // The line's y at this x, on its segment.
        let Some(w) = heap.points.windows(2).find(|w| w[0].0 <= x && x <= w[1].0) else {
            continue;
        };
        let t = if w[1].0 > w[0].0 {
            (x - w[0].0) / (w[1].0 - w[0].0)
        } else {
            0.0
        };
        let y = w[0].1 + t * (w[1].1 - w[0].1);
        assert!(
            y >= stack_top - 0.01,
            "heap size below the stack at x {x}: {y} < {stack_top}"
        );
        // Dark red pixels near the line, none of them below the stack's top.
        let (cx, cy) = (px(x), py(y));
        let found: Vec<i64> = (cy - 4..=cy + 4)
            .filter(|&r| r >= 0 && (r as u32) < image.height)
            .filter(|&r| dark_red(image.pixel(cx as u32, r as u32)))
            .collect();
        assert!(
            !found.is_empty(),
            "no heap-size pixel at x {x} (px {cx}, row {cy})"
        );
        let stack_row = py(stack_top);
        assert!(
            found.iter().all(|&r| r <= stack_row + 2),
            "line pixel below the stack at x {x}"
        );
        checked += 1;
    }
    assert!(checked >= 4, "checked {checked} positions");
}

/// Names far longer than the page.
fn long_names() -> Vec<Vec<u8>> {
    (0..3)
        .map(|i| {
            format!(
                "Data.Map.Internal.insert{i}/{}main",
                "Some.Very.Long.Module.Path.".repeat(6)
            )
            .into_bytes()
        })
        .collect()
}

fn chart_with_long_names(fit: bool, multipage: bool) -> Chart {
    let names = long_names();
    let refs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let mut opts = RenderOptions::default();
    opts.layout.fit_key_labels = fit;
    opts.layout.multipage = multipage;
    prepare(synthetic(&refs), None, &opts).0
}

#[test]
fn long_labels_fit_the_page_with_fit_key_labels() {
    let names = long_names();
    for multipage in [false, true] {
        let chart = chart_with_long_names(true, multipage);
        let key: Vec<_> = chart.pages.iter().flat_map(|p| &p.key).collect();
        assert_eq!(key.len(), names.len());
        for e in &key {
            let right = e.label_x + ps_text_width(&e.label, SMALL_FONT);
            assert!(
                e.label_x >= 0.0 && right <= BORDER_WIDTH - 5.0,
                "{right} (multipage {multipage})"
            );
            let full = e.full_label.as_ref().expect("shortened");
            assert!(names.contains(full));
            assert!(e.label.starts_with(b"Data.Map.Inte"));
            assert!(e.label.ends_with(b"main"));
            assert!(e.label.windows(3).any(|w| w == b"..."));
        }
        let graph_page = chart.pages.iter().find(|p| p.axes.is_some()).unwrap();
        assert!(
            graph_page.axes.as_ref().unwrap().width > 200.0,
            "the graph keeps its room"
        );
        // The full name stays in the SVG, as the label's tooltip.
        let svg = svg_of(&chart);
        for name in &names {
            let title = format!("<title>{}</title>", escape(name));
            assert!(svg.contains(&title), "no tooltip for {}", escape(name));
        }
    }
}

#[test]
fn long_labels_are_unchanged_without_fit_key_labels() {
    let names = long_names();
    let chart = chart_with_long_names(false, false);
    let key = &chart.pages[0].key;
    assert_eq!(key.len(), names.len());
    for (e, name) in key.iter().zip(&names) {
        assert_eq!(&e.label, name);
        assert!(e.full_label.is_none());
    }
    // As hp2ps: the key pushes the graph to a negative width and its labels off the page.
    let left = key.iter().map(|e| e.label_x).fold(f64::INFINITY, f64::min);
    assert!(left < 0.0, "hp2ps's layout starts the labels at {left}");
    // And labels that fit are not touched by `fit`.
    let mut opts = RenderOptions::default();
    opts.layout.fit_key_labels = true;
    let short = prepare(synthetic(&[b"short", b"names"]), None, &opts).0;
    let plain = prepare(
        synthetic(&[b"short", b"names"]),
        None,
        &RenderOptions::default(),
    )
    .0;
    assert_eq!(short, plain);
}

/// Chromium's DOM of the SVG holds every band's title.
#[test]
fn chromium_exposes_the_band_titles() {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| find_tool(name).is_some())
    else {
        require("chromium");
        return;
    };
    let (chart, _) = prepare(
        golden_profile("spec7-01-manpage.hp"),
        None,
        &RenderOptions::default(),
    );
    let svg = svg_of(&chart);
    let want = polygon_titles(&svg);
    assert!(!want.is_empty());
    let dir = TempDir::in_tmp("chromium-dom");
    let page = dir.write("chart.svg", svg.as_bytes());
    let cmd = Cmd::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("file://{}", page.display()))
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"));
    raster::run(cmd, dir.path(), Duration::from_secs(120)).expect("chromium --dump-dom");
    let dom = std::fs::read_to_string(dir.path().join("stdout.log")).expect("the DOM");
    let got = polygon_titles(&dom);
    assert_eq!(got, want, "the DOM's band titles");
}
