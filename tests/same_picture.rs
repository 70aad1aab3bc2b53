//! The painters draw the same picture. Every golden input, in colour and in grey, is
//! painted as EPS, SVG and PDF; ghostscript, rsvg-convert and pdftocairo rasterise them
//! at 150 dpi, and each of SVG and PDF must match the EPS under the tolerant comparison
//! of `support::raster`. Multi-page charts are compared page by page (the SVG stacks
//! its pages). Negative tests prove that the comparison notices a changed colour, a
//! slightly changed grey, and labels or ticks moved by 3 pt.
//!
//! Scores measured on the 69 golden inputs × 2 (worst of 138; limits 40 differing
//! pixels in a 24 × 24 window and 0.05 % of the image):
//!
//! | pair / change                         | densest window | share    |
//! |---------------------------------------|----------------|----------|
//! | EPS vs SVG, all goldens               | 3              | 0.0002 % |
//! | EPS vs PDF, all goldens               | 18             | 0.0015 % |
//! | key label moved 3 pt right            | 130            | 0.022 %  |
//! | x tick (and label) moved 3 pt         | 231            | 0.030 %  |
//! | y tick (and label) moved 3 pt         | 320            | 0.036 %  |
//! | band colour green → cyan              | 576            | 1.7 %    |
//! | band grey 0.2 → 0.3                   | 554            | 1.3 %    |
//!
//! Environment: `SAME_PICTURE_ONLY=<text>` keeps the golden inputs whose name contains
//! the text; `SAME_PICTURE_SAVE=1` keeps the images of passing comparisons too. Images
//! of failing comparisons go to `<target dir>/same-picture/`. Without the tools the tests
//! skip loudly, or fail when `CI=true` (see `support::tools`).
//!
//! The comparison's own tests are in `raster_self_tests.rs`.

mod support;

use support::golden_dir;
use support::raster;
use support::tools::require_all;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hp2ps::internals::chart::{Chart, Fill};
use hp2ps::internals::paint::{write_pdf, PdfOptions};
use hp2ps::internals::paint::{write_ps, PsOptions};
use hp2ps::internals::paint::{write_svg, SvgOptions};
use hp2ps::{prepare, RenderOptions};

use raster::{compare, Comparison, Image};

/// One chart to draw: a golden input in colour or grey.
struct Case {
    name: String,
    chart: Chart,
}

/// Reads a profile and lays it out as a 648 pt EPS, as `hp2ps -e648pt [-c]` would.
fn chart_of(hp: &[u8], colour: bool) -> Option<Chart> {
    let mut opts = RenderOptions::default();
    opts.layout.colour = colour;
    chart_with(hp, opts)
}

/// Reads a profile and lays it out with `opts`.
fn chart_with(hp: &[u8], opts: RenderOptions) -> Option<Chart> {
    let (profile, _) = support::read_profile(hp).ok()?;
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
            numbers.extend([e.box_x, e.box_y, e.label_x, e.label_y]);
            if let Fill::Grey(v) | Fill::Shade(v) = e.fill {
                numbers.push(v);
            }
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

/// The chart with every byte outside printable ASCII in its texts replaced by `?`.
///
/// Like hp2ps, the PostScript shows a name's raw bytes with Helvetica's StandardEncoding,
/// so UTF-8 and Latin-1 names come out as unrelated Latin glyphs (and control bytes as
/// blanks), while the SVG shows the characters themselves. That difference is by
/// design; the glyphs of such texts are made equal before comparing so that everything
/// else about them (where they are, how long they are) is still compared.
fn printable_ascii(chart: &Chart) -> Chart {
    fn fix(text: &mut [u8]) {
        for b in text.iter_mut() {
            if !(0x20..0x7f).contains(b) {
                *b = b'?';
            }
        }
    }
    let mut chart = chart.clone();
    let t = &mut chart.title;
    for text in [&mut t.job, &mut t.area_text, &mut t.date] {
        fix(text);
    }
    for page in &mut chart.pages {
        if let Some(a) = &mut page.axes {
            fix(&mut a.x_legend);
            fix(&mut a.y_legend);
            a.x_ticks
                .iter_mut()
                .chain(&mut a.y_ticks)
                .for_each(|t| fix(&mut t.label));
        }
        page.key.iter_mut().for_each(|e| fix(&mut e.label));
    }
    chart
}

/// Every page rendered by ghostscript as a 648 pt EPS (`-e648pt`) on `page`. Each page
/// is its own EPS, so every page is at the EPS scale, at the origin (in one EPS, hp2ps
/// turns pages after the first to landscape, off the EPS page; the other painters keep
/// the scale).
fn eps_pngs_on(chart: &Chart, page: raster::PageGeometry) -> Result<Vec<Image>, String> {
    let mut images = Vec::new();
    for one in &chart.pages {
        let mut single = chart.clone();
        single.pages = vec![one.clone()];
        let mut opts = PsOptions::default();
        opts.eps_width = Some(648.0);
        let mut eps = Vec::new();
        write_ps(&single, &opts, &mut eps).expect("write EPS");
        images.extend(raster::eps_to_pngs_on(&eps, page)?);
    }
    Ok(images)
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
        // SAME_PICTURE_SAVE=1 keeps the images of passing comparisons too.
        if !c.same_picture() || std::env::var_os("SAME_PICTURE_SAVE").is_some() {
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

fn pdf_of(chart: &Chart) -> Vec<u8> {
    let mut out = Vec::new();
    write_pdf(chart, &PdfOptions::default(), &mut out).expect("write PDF");
    out
}

/// Where the PDF puts the border box: its pages hold everything drawn, so they are the
/// border box grown by at least half the border's line width, with the box's origin
/// moved by the content stream's first transform (`s 0 0 s tx ty cm`).
fn pdf_page_geometry(pdf: &[u8]) -> Result<raster::PageGeometry, String> {
    let text = String::from_utf8_lossy(pdf);
    let numbers = |words: &str| -> Result<Vec<f64>, String> {
        let parsed: Result<Vec<f64>, _> = words.split_whitespace().map(str::parse).collect();
        parsed.map_err(|e| format!("PDF number in {words:?}: {e}"))
    };
    let media_start = text.find("/MediaBox [").ok_or("no /MediaBox")? + "/MediaBox [".len();
    let media_end = media_start + text[media_start..].find(']').ok_or("unclosed /MediaBox")?;
    let media = numbers(&text[media_start..media_end])?;
    let cm = text
        .find(" cm")
        .ok_or("no cm in the first content stream")?;
    let line_start = text[..cm].rfind('\n').map_or(0, |i| i + 1);
    let transform = numbers(&text[line_start..cm])?;
    if media.len() != 4 || transform.len() != 6 {
        return Err(format!("unexpected PDF page: {media:?}, {transform:?}"));
    }
    Ok(raster::PageGeometry {
        width: media[2] - media[0],
        height: media[3] - media[1],
        origin: (transform[4], transform[5]),
    })
}

/// EPS against PDF for one chart. The EPS is rendered on the PDF's page, its origin
/// where the PDF puts the border box's, so the pictures line up to the sub-pixel.
fn eps_vs_pdf(tag: &str, chart: &Chart) -> Result<Comparison, String> {
    let pdf_bytes = pdf_of(chart);
    let pdf = raster::pdf_to_pngs(&pdf_bytes)?;
    let first = pdf.first().ok_or("pdftocairo rendered no page")?;
    let page = pixel_aligned(pdf_page_geometry(&pdf_bytes)?, first.height);
    let eps = eps_pngs_on(chart, page)?;
    // The renderers round a fractional page width differently (by one column).
    let width = first.width.min(eps.first().map_or(0, |p| p.width));
    let cut = |pages: &[Image]| -> Vec<Image> {
        pages
            .iter()
            .map(|p| p.crop(0, 0, width, p.height))
            .collect()
    };
    compare_pages(
        &format!("{tag}-pdf"),
        &cut(&eps),
        &cut(&pdf),
        ("eps", "pdf"),
    )
}

/// The PDF's page for ghostscript, made exactly `rows` pixels high. pdftocairo puts the
/// page's top on the first row, ghostscript puts its bottom on the last row: when the
/// page's height is not a whole number of pixels, they disagree by a fraction of a
/// pixel unless the page is grown to whole pixels and the drawing moved up with it.
fn pixel_aligned(page: raster::PageGeometry, rows: u32) -> raster::PageGeometry {
    let height = f64::from(rows) * 72.0 / f64::from(raster::DPI);
    raster::PageGeometry {
        width: page.width,
        height,
        origin: (page.origin.0, page.origin.1 + height - page.height),
    }
}

/// EPS against SVG for one chart.
fn eps_vs_svg(tag: &str, eps_chart: &Chart, svg_chart: &Chart) -> Result<Comparison, String> {
    let eps = eps_pngs_on(eps_chart, raster::BORDER_PAGE)?;
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
    require_all(&["gs", "rsvg-convert"])
}

#[test]
fn eps_and_svg_are_the_same_picture() {
    if !tools_present() {
        return;
    }
    let cases = golden_cases();
    let results = for_all(&cases, |case| {
        let chart = printable_ascii(&case.chart);
        eps_vs_svg(&case.name, &chart, &chart)
    });
    assert_all_same("EPS vs SVG", &results);
}

#[test]
fn eps_and_pdf_are_the_same_picture() {
    if !require_all(&["gs", "pdftocairo"]) {
        return;
    }
    let cases = golden_cases();
    let results = for_all(&cases, |case| {
        eps_vs_pdf(&case.name, &printable_ascii(&case.chart))
    });
    assert_all_same("EPS vs PDF", &results);
}

#[test]
fn multi_page_charts_are_the_same_picture() {
    if !require_all(&["gs", "rsvg-convert", "pdftocairo"]) {
        return;
    }
    let read = |name: &str| std::fs::read(golden_dir().join(name)).expect("golden input");
    // -M: the key on a page of its own, then the graph.
    let mut key_page = RenderOptions::default();
    key_page.layout.multipage = true;
    key_page.layout.colour = true;
    // -m30 with 45 identifiers: 20 keys, 10 keys, then the graph.
    let mut many = RenderOptions::default();
    many.aggregate.band_limit = 30;
    let charts = [
        ("manpage-M", read("spec7-01-manpage.hp"), key_page, 2),
        ("45-idents-m30", read("spec7-32-45-idents.hp"), many, 3),
    ];
    let cases: Vec<Case> = charts
        .into_iter()
        .map(|(name, hp, opts, pages)| {
            let chart = chart_with(&hp, opts).expect("profile reads");
            assert_eq!(chart.pages.len(), pages, "{name}");
            Case {
                name: name.to_string(),
                chart: printable_ascii(&chart),
            }
        })
        .collect();
    let svg = for_all(&cases, |case| {
        eps_vs_svg(&case.name, &case.chart, &case.chart)
    });
    assert_all_same("EPS vs SVG", &svg);
    let pdf = for_all(&cases, |case| eps_vs_pdf(&case.name, &case.chart));
    assert_all_same("EPS vs PDF", &pdf);
}

/// The man-page profile: small enough to be quick, with a key and marks.
fn manpage(colour: bool) -> Chart {
    let hp = std::fs::read(golden_dir().join("spec7-01-manpage.hp")).expect("man-page input");
    chart_of(&hp, colour).expect("man-page profile reads")
}

/// The comparison must FAIL after `change` is applied to the SVG's chart only.
fn assert_caught(tag: &str, change: impl FnOnce(&mut Chart)) {
    assert_caught_in(tag, true, change);
}

fn assert_caught_in(tag: &str, colour: bool, change: impl FnOnce(&mut Chart)) {
    if !tools_present() {
        return;
    }
    let chart = manpage(colour);
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
        assert_eq!(graph.bands[2].fill, Fill::Shade(0.001));
        graph.bands[2].fill = Fill::Shade(0.001010);
    });
}

#[test]
fn a_slightly_changed_grey_is_caught() {
    assert_caught_in("band-grey", false, |chart| {
        let graph = chart.pages[0].graph.as_mut().expect("graph");
        // Band 1 is 0.2 grey; 0.3 is the nearest other grey of the palette.
        assert_eq!(graph.bands[1].fill, Fill::Grey(0.2));
        graph.bands[1].fill = Fill::Grey(0.3);
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
