//! The key fits its page: with `--heap-size` a GHC 9.10 eventlog of 20 bands (19 and
//! OTHER) has 23 key entries, three more than hp2ps's key ever holds. Every entry must stay between
//! the title box and the page's bottom border, clear of the others, in every format and
//! with `-M`. Checked on the pixels: in the key's column, each entry is one run of inked
//! rows, with white rows between it and the next, and white rows at both ends.

mod support;

use std::path::PathBuf;

use hp2ps::internals::chart::{Chart, BORDER_HEIGHT, BORDER_WIDTH};
use hp2ps::{load, prepare, LoadOptions, RenderOptions, Source};
use support::raster::{eps_to_pngs, pdf_to_pngs, save_images, svg_to_png, Image, DPI};
use support::{tools, Cmd, TempDir};

/// A GHC 9.10 `-hd` run with more than 20 bands (`-t0` keeps them).
fn input() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10/leakmap-hd.eventlog")
}

/// The chart the command draws for `-c -t0 --heap-size` (and `-M`), built through the
/// library: the key's geometry and its entries per page.
fn chart(multipage: bool) -> Chart {
    let bytes = std::fs::read(input()).expect("the eventlog");
    let mut load_opts = LoadOptions::default();
    load_opts.heap_size = true;
    let profile = load(Source::Bytes(&bytes), &load_opts)
        .expect("read")
        .profile;
    assert_eq!(
        profile.series.len(),
        3,
        "the heap size, live bytes and blocks size"
    );
    let mut opts = RenderOptions::default();
    opts.aggregate.trace_percent = 0.0;
    opts.layout.colour = true;
    opts.layout.multipage = multipage;
    prepare(profile, None, &opts).0
}

/// The rendered pages of `hp2ps -c -t0 --heap-size [-M]` in `format`: one image per page
/// (an SVG's stacked pages cut apart).
fn pages(format: &str, multipage: bool) -> Vec<Image> {
    let dir = TempDir::in_tmp("key-fits");
    let out = dir.join(&format!("out.{format}"));
    let mut args = vec!["-c", "-t0", "--heap-size", "-o"];
    let out_arg = out.to_string_lossy().into_owned();
    args.push(&out_arg);
    if multipage {
        args.push("-M");
    }
    let ran = Cmd::hp2ps().args(&args).arg(input()).run();
    assert_eq!(ran.code, Some(0), "{}", ran.stderr_text());
    let bytes = std::fs::read(&out).expect("the chart");
    let rendered = match format {
        "eps" => eps_to_pngs(&bytes),
        "pdf" => pdf_to_pngs(&bytes),
        _ => svg_to_png(&bytes).map(|all| {
            let page = (BORDER_HEIGHT * f64::from(DPI) / 72.0).round() as u32;
            (0..all.height / page)
                .map(|k| all.rows(k * page, page))
                .collect()
        }),
    };
    rendered.unwrap_or_else(|e| panic!("{format}: {e}"))
}

/// Pixels per point.
fn scale() -> f64 {
    f64::from(DPI) / 72.0
}

/// The runs of rows (top to bottom, as pixel row ranges) with ink in the columns from
/// `left` to the border's right, between `top` and `bottom` (chart points, y up), with
/// whether the window's first and last rows are inked.
fn inked_runs(page: &Image, left: f64, (top, bottom): (f64, f64)) -> (Vec<(u32, u32)>, bool, bool) {
    let s = scale();
    let x0 = (left * s).floor() as u32;
    let x1 = ((BORDER_WIDTH - 1.0) * s).floor() as u32;
    let r0 = ((BORDER_HEIGHT - top) * s).ceil() as u32;
    let r1 = ((BORDER_HEIGHT - bottom) * s).floor() as u32;
    let inked = |r: u32| (x0..x1).any(|x| page.pixel(x, r).iter().any(|&c| c < 235));
    let mut runs = Vec::new();
    let mut open: Option<u32> = None;
    for r in r0..r1 {
        match (inked(r), open) {
            (true, None) => open = Some(r),
            (false, Some(start)) => {
                runs.push((start, r));
                open = None;
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        runs.push((start, r1));
    }
    (runs, inked(r0), inked(r1 - 1))
}

/// Every key page of `format` holds its entries as separate runs of ink, inside the
/// window between the title box and the bottom border.
fn check(format: &str, multipage: bool) {
    let chart = chart(multipage);
    let images = pages(format, multipage);
    assert_eq!(images.len(), chart.pages.len(), "{format}: pages");
    let mut checked = 0;
    for (k, (page, image)) in chart.pages.iter().zip(&images).enumerate() {
        if page.key.is_empty() {
            continue;
        }
        let left = page
            .key
            .iter()
            .map(|e| e.box_x)
            .fold(f64::INFINITY, f64::min)
            - 1.0;
        // Inside the border and below the title box, clear of their strokes.
        let window = (chart.title.y - 1.0, 1.0);
        let (runs, touches_top, touches_bottom) = inked_runs(image, left, window);
        let what = format!(
            "{format}{} page {}: {} key entries drawn as {} runs of ink {runs:?}",
            if multipage { " -M" } else { "" },
            k + 1,
            page.key.len(),
            runs.len()
        );
        let fits = runs.len() == page.key.len() && !touches_top && !touches_bottom;
        if !fits {
            let dir = save_images(&format!("key-fits-{format}-{k}"), &[("page", image)]);
            panic!(
                "{what}{}{} (image in {})",
                if touches_top {
                    "; an entry reaches the title box"
                } else {
                    ""
                },
                if touches_bottom {
                    "; an entry reaches the bottom border"
                } else {
                    ""
                },
                dir.display()
            );
        }
        checked += page.key.len();
    }
    let entries: usize = chart.pages.iter().map(|p| p.key.len()).sum();
    assert_eq!(checked, entries);
    assert_eq!(entries, 23, "20 bands and the three lines");
}

#[test]
fn twenty_bands_and_two_lines_fit_the_eps_key() {
    if tools::require_ghostscript() {
        check("eps", false);
    }
}

#[test]
fn twenty_bands_and_two_lines_fit_the_svg_key() {
    if tools::require("rsvg-convert") {
        check("svg", false);
        check("svg", true);
    }
}

#[test]
fn twenty_bands_and_two_lines_fit_the_pdf_key() {
    if tools::require("pdftocairo") {
        check("pdf", false);
        check("pdf", true);
    }
}
