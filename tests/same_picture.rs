//! The painters draw the same picture: every golden input, in colour and in grey, is
//! rendered as EPS (ghostscript) and SVG (rsvg-convert), and the renderings must match
//! under the tolerant comparison of `common/raster.rs`. Negative tests prove that the
//! comparison notices a changed colour and a label moved by 3 pt.
//!
//! Failing comparisons leave their images in `<target dir>/same-picture/`.

#[path = "common/raster.rs"]
mod raster;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hp2ps::chart::{Chart, Placement};
use hp2ps::hp::ReadOptions;
use hp2ps::layout::LayoutOptions;
use hp2ps::paint::ps::{write_ps, PsOptions};
use hp2ps::paint::svg::{write_svg, SvgOptions};
use hp2ps::profile::Profile;
use hp2ps::render::{prepare, RenderOptions};

use raster::{compare, Comparison, Image};

const INSTALL: &str = "apt-get install ghostscript librsvg2-bin poppler-utils";

/// One chart to draw: a golden input in colour or grey.
struct Case {
    name: String,
    chart: Chart,
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/inputs")
}

/// Reads a profile and lays it out as a 648 pt EPS, as `hp2ps -e648pt [-c]` would.
fn chart_of(hp: &[u8], colour: bool) -> Option<Chart> {
    let (profile, _) = Profile::read(hp, &ReadOptions::default()).ok()?;
    let opts = RenderOptions {
        layout: LayoutOptions {
            colour,
            eps_width: Some(648.0),
            ..LayoutOptions::default()
        },
        ..RenderOptions::default()
    };
    Some(prepare(profile, None, &opts).0)
}

/// Every coordinate of the chart is finite. hp2ps prints `nan` for some degenerate
/// profiles, which stops the PostScript interpreter, so those charts have no reference
/// picture.
fn finite(chart: &Chart) -> bool {
    let t = &chart.title;
    let mut numbers = vec![t.x, t.y, t.width, t.height, t.job_at.0, t.job_at.1];
    numbers.extend([t.area_at.0, t.area_at.1, t.date_at.0, t.date_at.1]);
    for page in &chart.pages {
        if let Some(a) = &page.axes {
            numbers.extend([a.x0, a.y0, a.width, a.height, a.x_legend_y, a.y_label_x]);
            numbers.extend(a.x_ticks.iter().chain(&a.y_ticks).map(|t| t.at));
        }
        for e in &page.key {
            numbers.extend([e.box_x, e.box_y, e.label_x, e.label_y, e.shade]);
        }
        if let Some(g) = &page.graph {
            numbers.extend(g.xs.iter().chain(&g.marks).copied());
            numbers.extend(g.bands.iter().flat_map(|b| b.top.iter().copied()));
            numbers.push(g.y0);
        }
    }
    numbers.iter().all(|x| x.is_finite())
}

/// All golden inputs that read and lay out to finite numbers, in grey and in colour.
fn golden_cases() -> Vec<Case> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(golden_dir())
        .expect("golden/inputs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hp"))
        .collect();
    paths.sort();
    // SAME_PICTURE_ONLY=<text> keeps the inputs whose name contains it (for debugging).
    let only = std::env::var("SAME_PICTURE_ONLY").unwrap_or_default();
    paths.retain(|p| p.to_string_lossy().contains(&only));
    let mut cases = Vec::new();
    for path in paths {
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let hp = std::fs::read(&path).expect("read golden input");
        for colour in [false, true] {
            let tag = format!("{name}-{}", if colour { "colour" } else { "mono" });
            match chart_of(&hp, colour) {
                Some(chart) if finite(&chart) => cases.push(Case { name: tag, chart }),
                Some(_) => eprintln!("note: {tag}: not finite, no PostScript picture"),
                None => eprintln!("note: {tag}: the profile does not read"),
            }
        }
    }
    assert!(
        !only.is_empty() || cases.len() >= 40,
        "too few golden cases: {}",
        cases.len()
    );
    cases
}

fn eps_of(chart: &Chart) -> Vec<u8> {
    // Every page at the EPS scale, on its own 648 × 432 pt page (hp2ps rotates later
    // pages to landscape, off the EPS page).
    let mut chart = chart.clone();
    chart.later_placement = chart.placement;
    assert!(matches!(chart.placement, Placement::Eps { .. }));
    let mut out = Vec::new();
    write_ps(&chart, &PsOptions::default(), &mut out).expect("write EPS");
    out
}

fn svg_of(chart: &Chart) -> Vec<u8> {
    let mut out = Vec::new();
    write_svg(chart, &SvgOptions::default(), &mut out).expect("write SVG");
    out
}

/// The stacked SVG pages, cut apart.
fn svg_pages(chart: &Chart) -> Result<Vec<Image>, String> {
    let whole = raster::svg_to_png(&svg_of(chart))?;
    let pages = chart.pages.len() as u32;
    let expect = (raster::PAGE_WIDTH_PX, raster::PAGE_HEIGHT_PX * pages);
    if (whole.width, whole.height) != expect {
        return Err(format!(
            "SVG is {}×{}, expected {expect:?}",
            whole.width, whole.height
        ));
    }
    Ok((0..pages)
        .map(|k| whole.rows(k * raster::PAGE_HEIGHT_PX, raster::PAGE_HEIGHT_PX))
        .collect())
}

/// The worst page comparison of two renderings, or why there is none.
fn compare_pages(
    tag: &str,
    a: &[Image],
    b: &[Image],
    names: (&str, &str),
) -> Result<Comparison, String> {
    if a.len() != b.len() {
        return Err(format!("{} pages vs {}", a.len(), b.len()));
    }
    let mut worst: Option<Comparison> = None;
    for (k, (pa, pb)) in a.iter().zip(b).enumerate() {
        let c = compare(pa, pb)?;
        if !c.same_picture() {
            let dir = raster::save_images(
                &format!("{tag}-p{}", k + 1),
                &[(names.0, pa), (names.1, pb), ("diff", &c.diff_image(pa))],
            );
            eprintln!(
                "{tag} page {}: {} — images in {}",
                k + 1,
                c.summary(),
                dir.display()
            );
        }
        let worse = worst.as_ref().map_or(true, |w| {
            (!c.same_picture(), c.densest) > (!w.same_picture(), w.densest)
        });
        if worse {
            worst = Some(c);
        }
    }
    worst.ok_or_else(|| "no pages".to_string())
}

/// EPS against SVG for one chart.
fn eps_vs_svg(tag: &str, eps_chart: &Chart, svg_chart: &Chart) -> Result<Comparison, String> {
    let eps = raster::eps_to_pngs(&eps_of(eps_chart))?;
    let svg = svg_pages(svg_chart)?;
    compare_pages(tag, &eps, &svg, ("eps", "svg"))
}

/// Runs `check` on every case on all cores; returns (name, result) in case order.
fn for_all<T: Send>(cases: &[Case], check: impl Fn(&Case) -> T + Sync) -> Vec<(String, T)> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let r = check(case);
                results
                    .lock()
                    .expect("results lock")
                    .push((i, case.name.clone(), r));
            });
        }
    });
    let mut results = results.into_inner().expect("results lock");
    results.sort_by_key(|(i, _, _)| *i);
    results.into_iter().map(|(_, n, r)| (n, r)).collect()
}

/// Prints the scores and fails on any mismatch or error.
fn assert_all_same(what: &str, results: &[(String, Result<Comparison, String>)]) {
    let mut failures = Vec::new();
    let mut densest = 0;
    let mut share: f64 = 0.0;
    for (name, r) in results {
        match r {
            Ok(c) => {
                eprintln!("{what} {name}: {}", c.summary());
                densest = densest.max(c.densest);
                share = share.max(c.share());
                if !c.same_picture() {
                    failures.push(format!("{name}: {}", c.summary()));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{what}: {} cases, worst densest window {densest}, worst share {:.4}%",
        results.len(),
        100.0 * share
    );
    assert!(
        failures.is_empty(),
        "{what}: {} of {} differ (images in {}):\n{}",
        failures.len(),
        results.len(),
        raster::failure_dir().display(),
        failures.join("\n")
    );
}

fn tools_present() -> bool {
    raster::require_tools(&["gs", "rsvg-convert"], INSTALL)
}

#[test]
fn eps_and_svg_are_the_same_picture() {
    if !tools_present() {
        return;
    }
    let cases = golden_cases();
    let results = for_all(&cases, |case| {
        eps_vs_svg(&case.name, &case.chart, &case.chart)
    });
    assert_all_same("EPS vs SVG", &results);
}

/// The man-page profile in colour: small enough to be quick, with a key and marks.
fn manpage() -> Chart {
    let hp = std::fs::read(golden_dir().join("spec7-01-manpage.hp")).expect("man-page input");
    chart_of(&hp, true).expect("man-page profile reads")
}

/// The comparison must FAIL after `change` is applied to the SVG's chart only.
fn assert_caught(tag: &str, change: impl FnOnce(&mut Chart)) {
    if !tools_present() {
        return;
    }
    let chart = manpage();
    let mut changed = chart.clone();
    change(&mut changed);
    assert_ne!(chart, changed, "the change changes nothing");
    let c = eps_vs_svg(tag, &chart, &changed).expect("renderings");
    eprintln!("negative {tag}: {}", c.summary());
    assert!(!c.same_picture(), "{tag} went unnoticed: {}", c.summary());
}

#[test]
fn a_changed_band_colour_is_caught() {
    assert_caught("band-shade", |chart| {
        let graph = chart.pages[0].graph.as_mut().expect("graph");
        // Band 2 (green, 0.001) becomes palette entry 4 (cyan, 0.001010).
        graph.bands[2].shade = 0.001010;
    });
}

#[test]
fn a_moved_key_label_is_caught() {
    assert_caught("key-label-x", |chart| chart.pages[0].key[3].label_x += 3.0);
}

#[test]
fn a_moved_y_tick_is_caught() {
    assert_caught("y-tick", |chart| {
        let axes = chart.pages[0].axes.as_mut().expect("axes");
        axes.y_ticks[2].at += 3.0;
    });
}

#[test]
fn a_moved_x_tick_label_is_caught() {
    assert_caught("x-tick", |chart| {
        let axes = chart.pages[0].axes.as_mut().expect("axes");
        axes.x_ticks[1].at += 3.0;
    });
}
