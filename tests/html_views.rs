//! What a reader does with the page beyond pointing (issue 25), in headless Chromium:
//!
//! * marks have their names on the chart, their labels never overlapping; a list jumps
//!   to each, pointing near one names it, and a filter keeps the marks whose text has it;
//! * a band merged into OTHER is drawn on its own from the table (OTHER gives its values
//!   up), and zoomed, the table has numbers for the bands the page carries;
//! * a view is kept in the URL's fragment (the window, view, hidden and added bands, the
//!   filter, the units): reloading shows it again, and so does new data put under it; it
//!   exports as SVG that `xmllint` and `rsvg-convert` accept, and as PNG.
//!
//! Needs `chromium` and `chromedriver`; the exports also `xmllint` (libxml2-utils) and
//! `rsvg-convert` (librsvg2-bin).

mod support;

use serde_json::json;
use support::html_page::*;
use support::tools::require_all;
use support::{Cmd, TempDir};

/// The boxes of the overlay's elements matching `css`, in the viewport.
fn boxes(p: &Page<'_>, css: &str) -> Vec<[f64; 4]> {
    let v = p.js_with(
        "return [...document.querySelectorAll(arguments[0])].map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });",
        json!([css]),
    );
    serde_json::from_value(v).unwrap()
}

#[test]
fn marks_are_named_listed_and_filtered() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-marks");
    let page = page_of(
        &dir,
        "page.html",
        &repo("tests/data/ghc-9.10/marker-hc.eventlog"),
        &[],
    );
    let p = open_offline(&browser, &page);
    let marks = p.data()["marks"].clone();
    let texts: Vec<String> = serde_json::from_value(marks["text"].clone()).unwrap();
    let times: Vec<f64> = serde_json::from_value(marks["t"].clone()).unwrap();
    assert_eq!(texts, ["phase A start", "phase B start", "done été"]);
    // Their names on the chart, no two labels overlapping.
    let labels: Vec<String> = serde_json::from_value(p.js(
        "return [...document.querySelectorAll('#chart .mark-label text')].map(t => t.textContent);",
    ))
    .unwrap();
    assert_eq!(labels, texts);
    let label_boxes = boxes(&p, "#chart .mark-label rect");
    for (i, a) in label_boxes.iter().enumerate() {
        for b in &label_boxes[i + 1..] {
            let apart = a[2] <= b[0] || b[2] <= a[0] || a[3] <= b[1] || b[3] <= a[1];
            assert!(apart, "labels overlap: {a:?} {b:?}");
        }
    }
    // Pointing near a mark names it in the readout.
    let s = p.data()["scale"].clone();
    let f = |k: &str| s[k].as_f64().unwrap();
    let x_of = |t: f64| ((t - f("t0")) / f("tSpan")) * f("width") + f("x0");
    let (cx, cy) = p.client_of(x_of(times[1]) + 1.0, f("y0") + 0.5 * f("height"));
    p.browser.move_to(cx, cy);
    let named =
        p.js("const m = document.querySelector('#readout .mark'); return m && m.textContent;");
    assert!(
        named.as_str().is_some_and(|m| m.contains("phase B start")),
        "{named}"
    );
    p.browser.move_to(2.0, 2.0);
    // The list: a button per mark that shows it.
    p.js("document.querySelector('.marks-panel').open = true; return 0;");
    let listed = p.js(
        "return [...document.querySelectorAll('.marks-panel li button')].map(b => b.textContent);",
    );
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert_eq!(listed.len(), 3);
    assert!(listed[2].contains("done été"), "{listed:?}");
    p.js("document.querySelectorAll('.marks-panel li button')[2].click(); return 0;");
    let shown =
        p.js("return [run.state.window, document.querySelector('#readout .mark').textContent];");
    let window: Vec<f64> = serde_json::from_value(shown[0].clone()).expect("zoomed to it");
    assert!(
        window[0] < times[2] && times[2] < window[1],
        "{window:?} has {}",
        times[2]
    );
    assert!(shown[1].as_str().unwrap().contains("done été"));
    p.js("run.zoomTo(null); return 0;");
    // The filter: the marks whose text has it, on the chart and in the list.
    p.js("const i = document.querySelector('.marks-panel input'); i.value = 'phase'; i.dispatchEvent(new Event('input')); return 0;");
    let kept = p.js(
        "return [document.querySelectorAll('#chart .marks-on line').length, document.querySelectorAll('#chart .mark-label').length, \
           document.querySelectorAll('.marks-panel li').length];",
    );
    assert_eq!(kept, json!([2, 2, 2]));
    p.assert_quiet("marks");
}

#[test]
fn a_band_of_other_is_drawn_from_the_table() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-draw");
    let input = repo("tests/data/ghc-9.10/ghc-compile-hT.eventlog");
    let page = page_of(&dir, "page.html", &input, &[]);
    let p = open_offline(&browser, &page);
    let before = p.chart_shot();
    // The biggest band in OTHER.
    let name = p.js(
        "const tr = [...document.querySelectorAll('#bands tbody tr')].find(tr => tr.querySelector('td.fate button')); \
         return tr ? tr.dataset.name : null;",
    );
    let name = name
        .as_str()
        .expect("a row in OTHER with a draw button")
        .to_string();
    let other_before: Vec<f64> =
        serde_json::from_value(p.js("return [...run.other.values];")).unwrap();
    p.js_with(
        "[...document.querySelectorAll('#bands tbody tr')].find(tr => tr.dataset.name === arguments[0]).querySelector('td.fate button').click(); return 0;",
        json!([name]),
    );
    let added = p.js_with(
        "const b = run.bands.find(b => b.name === arguments[0]); \
         return [!!document.querySelector('#legend li.added[data-band=\"' + CSS.escape(arguments[0]) + '\"]'), b.colour, [...b.values], [...run.other.values]];",
        json!([name]),
    );
    assert_eq!(added[0], json!(true), "{name} in the legend");
    let colour = hex_rgb(added[1].as_str().unwrap());
    let own: Vec<f64> = serde_json::from_value(added[2].clone()).unwrap();
    let other: Vec<f64> = serde_json::from_value(added[3].clone()).unwrap();
    for i in 0..own.len() {
        assert!(
            (other[i] + own[i] - other_before[i]).abs() < 1e-6,
            "OTHER gives its values up at sample {i}"
        );
    }
    let after = p.chart_shot();
    assert_eq!(pixels_of(&before, colour), 0, "a colour no band had");
    assert!(pixels_of(&after, colour) > 20, "{name} is drawn");
    // Zoomed, the table's rows of the bands the page carries have numbers.
    p.js("const s = run.s; run.zoomTo(s.t0 + s.tSpan * 0.3, s.t0 + s.tSpan * 0.6); return 0;");
    p.settle();
    let missing = p.js(
        "document.querySelector('.more-rows').click(); \
         return [...document.querySelectorAll('#bands tbody tr')].filter(tr => tr.querySelector('td[data-value]').dataset.value === 'NaN').length;",
    );
    assert_eq!(missing, json!(0), "every row has its numbers in the window");
    // And back out of the chart.
    p.js_with(
        "[...document.querySelectorAll('#bands tbody tr')].find(tr => tr.dataset.name === arguments[0]).querySelector('td.fate button').click(); run.zoomTo(null); return 0;",
        json!([name]),
    );
    assert_same_pixels("drawn-and-back", &before, &p.chart_shot());
    p.assert_quiet("drawing a band of OTHER");
}

#[test]
fn a_view_is_kept_in_the_url_and_exported() {
    let Some(browser) = browser() else {
        return;
    };
    let tools = require_all(&["xmllint", "rsvg-convert"]);
    let dir = TempDir::new("html-share");
    let page = page_of(
        &dir,
        "page.html",
        &repo("tests/data/page/leakmap-O1-hc.hp"),
        &[],
    );
    let p = open_offline(&browser, &page);
    let trace = p.js("return run.rest.find(r => run.d.table.fate[r.row] === 'trace').name;");
    let hidden = p.js("return run.bands[run.bands.length - 1].name;");
    // Zoomed, lines, a band hidden, a filter: from the controls.
    p.js_with(
        "const s = run.s; run.zoomTo(s.t0 + s.tSpan * 0.2, s.t0 + s.tSpan * 0.7); document.querySelectorAll('button.view')[2].click(); \
         run.toggle(run.bands.findIndex(b => b.name === arguments[0])); \
         const i = document.querySelector('#legend input[type=search]'); i.value = 'o'; i.dispatchEvent(new Event('input')); return 0;",
        json!([hidden]),
    );
    p.settle();
    let url = p.js("return location.href;");
    assert!(
        url.as_str().unwrap().contains('#'),
        "the view is in the URL: {url}"
    );
    // Decimal units, and a trace drawn on its own.
    p.js_with(
        "run.setUnits('decimal'); run.addBand(arguments[0], true); return 0;",
        json!([trace]),
    );
    p.settle();
    let state = "return [run.state.window, run.state.view, run.state.units, [...run.state.hidden], run.state.added, run.state.query, run.searchBox.value];";
    let before = p.js(state);
    let url = p.js("return location.href;");
    let url = url.as_str().unwrap();
    assert!(url.contains('#'), "the view is in the URL: {url}");
    // A fresh load of that URL shows the same view.
    p.browser.goto("about:blank");
    p.browser.goto(url);
    let after = p.js(state);
    assert_eq!(after, before, "the view again");
    assert_eq!(before[1], json!("lines"));
    // New data under the view (a page that follows a running program) keeps it.
    p.js("run.update(window.hp2ps.data.runs[0]); return 0;");
    assert_eq!(p.js(state), before, "the view kept over new data");
    // The view as SVG and PNG.
    let svg = p.js("return run.exportSvg();");
    let svg = svg.as_str().unwrap();
    assert!(
        svg.contains("leakmap-O1-hc.hp") && svg.contains(trace.as_str().unwrap()),
        "the file and its bands named"
    );
    let file = dir.write("view.svg", svg.as_bytes());
    if tools {
        let lint = Cmd::new("xmllint")
            .args(["--noout", file.to_str().unwrap()])
            .run();
        assert!(lint.status.success(), "xmllint: {}", lint.describe());
        let png = Cmd::new("rsvg-convert")
            .args([file.to_str().unwrap()])
            .run();
        assert!(png.status.success(), "rsvg-convert: {}", png.describe());
        assert!(png_has_ink(&png.stdout), "rsvg-convert draws the view");
    }
    let data = p.browser.async_script(
        "const done = arguments[arguments.length - 1]; window.hp2ps.runs[0].exportPng().then(done, (e) => done(String(e)));",
        json!([]),
    );
    let data = data.as_str().unwrap();
    let b64 = data.strip_prefix("data:image/png;base64,").expect("a PNG");
    assert!(
        png_has_ink(&support::webdriver::base64_decode(b64)),
        "the PNG has the chart"
    );
    p.assert_quiet("sharing");
}

/// Whether a PNG decodes and is not one colour.
fn png_has_ink(bytes: &[u8]) -> bool {
    let image = png(bytes);
    let first = image.pixel(0, 0);
    (0..image.height).any(|y| (0..image.width).any(|x| image.pixel(x, y) != first))
}

#[test]
fn zoomed_a_strip_of_the_whole_run_shows_the_window_and_moves_it() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-overview");
    let page = page_of(
        &dir,
        "page.html",
        &repo("tests/data/page/leakmap-O1-hc.hp"),
        &[],
    );
    let p = open_offline(&browser, &page);
    assert_eq!(
        p.js("return document.querySelector('.overview').hidden;"),
        json!(true),
        "not while whole"
    );
    p.js("const s = run.s; run.zoomTo(s.t0 + s.tSpan * 0.2, s.t0 + s.tSpan * 0.4); return 0;");
    // The window's box on the strip is where the window is in the run.
    let at = p.js(
        "const o = document.querySelector('.overview svg').getBoundingClientRect(); const w = document.querySelector('.overview .window').getBoundingClientRect(); \
         const x = (t) => o.left + (run.s.x0 + (t - run.s.t0) / run.s.tSpan * run.s.width) / 648 * o.width; \
         return [document.querySelector('.overview').hidden, w.left, x(run.state.window[0]), w.right, x(run.state.window[1]), (w.top + w.bottom) / 2];",
    );
    let f = |i: usize| at[i].as_f64().unwrap();
    assert_eq!(at[0], json!(false), "shown while zoomed");
    assert!(
        (f(1) - f(2)).abs() < 2.0 && (f(3) - f(4)).abs() < 2.0,
        "the window on the strip: {at}"
    );
    // Dragging the window by a tenth of the strip moves the chart's window by a tenth of
    // the run, keeping its width.
    let before: Vec<f64> = serde_json::from_value(p.js("return run.state.window;")).unwrap();
    let width = p.js("return document.querySelector('.overview svg').getBoundingClientRect().width * run.s.width / 648;");
    let dx = width.as_f64().unwrap() / 10.0;
    let from = ((f(1) + f(3)) / 2.0, f(5));
    p.browser.drag(from, (from.0 + dx, from.1));
    let after: Vec<f64> = serde_json::from_value(p.js("return run.state.window;")).unwrap();
    let span = p.data()["scale"]["tSpan"].as_f64().unwrap();
    let moved = after[0] - before[0];
    assert!(
        (moved - span / 10.0).abs() < span / 100.0,
        "moved {moved} of {span}"
    );
    assert!(
        ((after[1] - after[0]) - (before[1] - before[0])).abs() < 1e-9,
        "the same width"
    );
    p.assert_quiet("the strip");
}
