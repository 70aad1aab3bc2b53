//! The HTML page's first picture against the SVG painter's ([`the_picture_is_the_svgs`],
//! a check of `html_browser.rs`): the standalone SVG's bands and texts read from its
//! markup, the page's picture and the script's redraw of it compared number for number
//! and pixel for pixel, light and dark. Apart from `html_browser.rs`, which drives the
//! page's interactions, because this is one long comparison with its own SVG reading.

use std::path::Path;

use serde_json::json;

use super::html_page::{hp2ps, page_of, Page};
use super::raster::{self, Image};
use super::TempDir;

/// The page's first picture is the SVG painter's picture of the chart, laid out as for
/// the page (`--palette screen --units binary`): the standalone SVG's bands (outline and
/// fill) and texts, below the title box (whose JOB and DATE the page's header shows). The
/// script's redraw of it has the painter's numbers in every element and is the same
/// picture, in the light and the dark scheme. Also of a window that starts inside the
/// run, where the first sample's values are not 0, and of a window of 0.3 s, whose x
/// labels need two decimals. (`-m0`: no key in either, so the graph has the same width.)
pub fn the_picture_is_the_svgs(p: &Page<'_>, dir: &TempDir, input: &Path) {
    for (tag, window) in [
        ("whole", &[][..]),
        ("window", &["--from", "0.1"][..]),
        ("short", &["--from", "0.1", "--to", "0.4"][..]),
    ] {
        // -t0 too: the page's scale is every band's total (traces included, the
        // profile's peak), the SVG's the drawn bands' (hp2ps's); without traces they agree.
        let mut flags = vec!["-m0", "-t0"];
        flags.extend_from_slice(window);
        let page = page_of(dir, &format!("m0-{tag}.html"), input, &flags);
        let svg_name = format!("m0-{tag}.svg");
        let input_arg = input.display().to_string();
        let mut args = flags.clone();
        args.extend(["--palette", "screen", "--units", "binary"]);
        args.extend(["--format", "svg", "-o", &svg_name, &input_arg]);
        hp2ps(dir.path(), &args);
        let svg = std::fs::read_to_string(dir.join(&svg_name)).expect("the SVG");
        p.browser.open(&page);
        let first = p.chart_shot();
        assert!(first.ink() > 0.05, "the chart is drawn");
        let page_parts = p.js(
            "return [[...run.picture.querySelectorAll('g.bands polygon')].map(e => e.getAttribute('points') + ' ' + e.getAttribute('fill')), \
             [...run.picture.querySelectorAll('text')].map(t => t.textContent)];",
        );
        let (bands, texts) = svg_bands_and_texts(&svg);
        assert_eq!(page_parts[0], json!(bands), "{tag}: the SVG's bands");
        assert_eq!(page_parts[1], json!(texts), "{tag}: the SVG's texts");
        // Every band, the ticks, the lines and marks redrawn by the script, from the data:
        // the same numbers in every element the script draws, the same picture.
        let geometry = "const g = (svg) => [...svg.querySelectorAll(\
            'g.bands polygon, .xt, .yt, .series, .mark')].map(e => [e.tagName, \
            ...['points', 'x', 'y', 'fill'].map(a => e.getAttribute(a)), e.textContent, \
            [...e.querySelectorAll('tspan')].map(t => t.getAttribute('x')).join(' ')]);";
        let before = p.js(&format!("{geometry} return g(run.picture);"));
        if tag == "short" {
            let labels = p.x_tick_labels();
            assert!(labels.len() >= 3, "{labels:?}");
            assert!(
                labels.windows(2).all(|w| w[0] < w[1]),
                "distinct: {labels:?}"
            );
        }
        p.js("run.redraw(true); return 0;");
        let on =
            p.js("return document.querySelector('#chart svg.on').classList.contains('redrawn');");
        assert_eq!(on, json!(true), "the script's copy is shown");
        let after = p.js(&format!("{geometry} return g(run.copy.svg);"));
        assert!(before.as_array().is_some_and(|a| a.len() > 20), "{before}");
        assert_eq!(
            before, after,
            "{tag}: the script draws what the painter drew"
        );
        let redrawn = p.chart_shot();
        same_picture(tag, &first, &redrawn);
        // In the dark: the picture, and the redraw, alike.
        p.js("document.documentElement.dataset.theme = 'dark'; run.themeChanged(); run.show(run.picture); return 0;");
        let dark = p.chart_shot();
        assert!(
            dark.pixel(2, 2) != first.pixel(2, 2),
            "{tag}: a dark background"
        );
        p.js("run.redraw(true); return 0;");
        same_picture(&format!("{tag}, dark"), &dark, &p.chart_shot());
        p.js("delete document.documentElement.dataset.theme; run.themeChanged(); return 0;");
        p.assert_quiet("-m0 page");
    }
}

fn same_picture(tag: &str, painter: &Image, script: &Image) {
    let c = raster::compare(painter, script).expect("same size");
    if !c.same_picture() {
        let dir = raster::save_images("html-redrawn", &[("painter", painter), ("script", script)]);
        panic!(
            "{tag}: the redraw is not the picture: {} ({})",
            c.summary(),
            dir.display()
        );
    }
}

/// A standalone SVG's filled polygons but the marks' (outline and fill), and the text of
/// each of its texts (glyph spans joined), in order.
fn svg_bands_and_texts(svg: &str) -> (Vec<String>, Vec<String>) {
    let mut bands = Vec::new();
    for polygon in svg.split("<polygon ").skip(1) {
        let polygon = polygon.split('>').next().unwrap_or("");
        let attr = |name: &str| {
            let start = polygon
                .find(&format!("{name}=\""))
                .map(|i| i + name.len() + 2)?;
            let end = polygon[start..].find('"')?;
            Some(polygon[start..start + end].to_string())
        };
        if let (Some(points), Some(fill)) = (attr("points"), attr("fill")) {
            if fill != "#fff" {
                bands.push(format!("{points} {fill}"));
            }
        }
    }
    let mut texts = Vec::new();
    for text in svg.split("<text ").skip(1) {
        let (Some(start), Some(end)) = (text.find('>'), text.find("</text>")) else {
            continue;
        };
        let mut inner = &text[start + 1..end];
        let mut shown = String::new();
        while let Some(open) = inner.find('<') {
            shown.push_str(&inner[..open]);
            let rest = &inner[open..];
            // A tooltip's <title>…</title> is not shown.
            inner = match rest.strip_prefix("<title>") {
                Some(t) => t.split_once("</title>").map_or("", |(_, r)| r),
                None => rest.split_once('>').map_or("", |(_, r)| r),
            };
        }
        shown.push_str(inner);
        texts.push(
            shown
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'"),
        );
    }
    (bands, texts)
}
