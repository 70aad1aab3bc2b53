//! The HTML page (`--format html`) in a real browser: headless Chromium driven over
//! WebDriver (`support::webdriver`), on a real GHC profile and a real GHC eventlog.
//!
//! * it loads with no console error and fetches nothing (the network emulated offline,
//!   the Resource Timing API empty; from a static server: `html_pages.rs`);
//! * it opens on the SVG's picture, and the script's redraw has the painter's numbers in
//!   every element and is the same picture;
//! * pointing at a sample shows its time and the `.hp`'s values there in `#readout`;
//! * a legend entry hides and shows its band's pixels; Alt-click isolates it;
//! * dragging zooms (the x ticks inside the dragged range), a double-click zooms out;
//!   the keyboard pans;
//! * the search box filters the chart, the legend and the table; the table lists every
//!   band with `--summary=json`'s numbers, sorts, and highlights a row's band; the views
//!   redraw; "Fit y axis" follows the data shown.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`); without
//! them the tests are skipped loudly, or fail when `CI=true`.

mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::html_page::*;
use support::raster::{self, Image};
use support::TempDir;

#[test]
fn a_real_profile_in_the_browser() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-profile");
    let input = repo("golden/inputs/leakmap-O0-hc-bio-dragvoid.hp");
    let page = page_of(&dir, "page.html", &input, &[]);
    let p = open_offline(&browser, &page);
    let data = p.data();
    let profile = profile_of(&input);
    the_picture_is_the_svgs(&p, &dir, &input);
    browser.open(&page);
    let before = p.chart_shot();
    pointing_shows_the_hp_values(&p, &profile, &data, 0.0);
    a_legend_entry_hides_and_shows_its_band(&p, &data, &before);
    dragging_zooms_and_a_double_click_zooms_out(&p, &data, &before);
    the_keyboard_pans(&p);
    the_views_redraw(&p, &before);
    the_search_box_filters(&p, &data);
    the_y_axis_follows_the_visible_data(&p, &data);
    the_table_has_the_summarys_numbers(&p, &dir, &input, &[]);
    the_table_sorts_and_a_row_highlights_its_band(&p);
    p.assert_quiet("after the interactions");
}

/// The page's first picture is the SVG painter's picture of the chart, laid out as for
/// the page (`--palette screen --units binary`): the standalone SVG's bands (outline and
/// fill) and texts, below the title box (whose JOB and DATE the page's header shows). The
/// script's redraw of it has the painter's numbers in every element and is the same
/// picture, in the light and the dark scheme. Also of a window that starts inside the
/// run, where the first sample's values are not 0, and of a window of 0.3 s, whose x
/// labels need two decimals. (`-m0`: no key in either, so the graph has the same width.)
fn the_picture_is_the_svgs(p: &Page<'_>, dir: &TempDir, input: &Path) {
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

/// The drawn band with the most pixels of a colour no other band has (nor the page:
/// not white, not black).
fn a_band_of_its_own_colour(data: &Value, shot: &Image) -> (String, [u8; 3]) {
    let bands = data["bands"].as_array().unwrap();
    let colours: Vec<[u8; 3]> = bands
        .iter()
        .map(|b| hex_rgb(b["colour"].as_str().unwrap()))
        .collect();
    let unique = (0..bands.len()).filter(|&k| {
        let c = colours[k];
        c != [255; 3] && c != [0; 3] && colours.iter().filter(|&&o| o == c).count() == 1
    });
    let k = unique
        .max_by_key(|&k| pixels_of(shot, colours[k]))
        .expect("a band of its own colour");
    (bands[k]["name"].as_str().unwrap().to_string(), colours[k])
}

fn legend_entry(name: &str) -> String {
    format!(
        "#legend li[data-band=\"{}\"] .toggle",
        name.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

fn a_legend_entry_hides_and_shows_its_band(p: &Page<'_>, data: &Value, before: &Image) {
    let (name, rgb) = a_band_of_its_own_colour(data, before);
    assert!(pixels_of(before, rgb) > 200, "{name} is drawn");
    let (x, y) = p.centre_of(&legend_entry(&name));
    p.browser.click_at(x, y, 1, None);
    let hidden = p.chart_shot();
    if pixels_of(&hidden, rgb) != 0 {
        let dir = raster::save_images("html-hidden", &[("before", before), ("hidden", &hidden)]);
        panic!(
            "{name}'s pixels are not all gone: {} left ({})",
            pixels_of(&hidden, rgb),
            dir.display()
        );
    }
    assert!(hidden.ink() > 0.02, "the other bands are still drawn");
    let pressed = p.browser.script(
        "return document.querySelector(arguments[0]).getAttribute('aria-pressed');",
        json!([legend_entry(&name)]),
    );
    assert_eq!(pressed, json!("false"));
    let (x, y) = p.centre_of(&legend_entry(&name));
    p.browser.click_at(x, y, 1, None);
    assert_same_pixels("hidden-and-shown", before, &p.chart_shot());

    // Alt-click: that band alone; again: every band.
    let (x, y) = p.centre_of(&legend_entry(&name));
    p.browser.click_at(x, y, 1, Some("\u{E00A}"));
    let alone = p.chart_shot();
    assert!(pixels_of(&alone, rgb) > 0, "{name} still drawn");
    for b in data["bands"].as_array().unwrap() {
        let c = hex_rgb(b["colour"].as_str().unwrap());
        if b["name"] != json!(name) && c != rgb && c != [255; 3] && c != [0; 3] {
            assert_eq!(pixels_of(&alone, c), 0, "{} is hidden", b["name"]);
        }
    }
    let (x, y) = p.centre_of(&legend_entry(&name));
    p.browser.click_at(x, y, 1, Some("\u{E00A}"));
    assert_same_pixels("isolated-and-back", before, &p.chart_shot());
}

fn dragging_zooms_and_a_double_click_zooms_out(p: &Page<'_>, data: &Value, before: &Image) {
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    let full_ticks = p.x_tick_labels();
    let y = f("y0") + f("height") / 2.0;
    let from = p.client_of(f("x0") + 0.3 * f("width"), y);
    let to = p.client_of(f("x0") + 0.62 * f("width"), y);
    p.browser.drag(from, to);
    // The dragged range in seconds, from the pointer's CSS pixels.
    let (left, _) = p.client_of(f("x0"), y);
    let (right, _) = p.client_of(f("x0") + f("width"), y);
    let time_at = |cx: f64| f("t0") + (cx.round() - left) / (right - left) * f("tSpan");
    let (a, b) = (time_at(from.0), time_at(to.0));
    let pixel = f("tSpan") / (right - left);
    let window = p.js("return run.state.window;");
    let w: Vec<f64> = serde_json::from_value(window).expect("zoomed");
    assert!(
        (w[0] - a).abs() <= pixel && (w[1] - b).abs() <= pixel,
        "window {w:?}, dragged {a}..{b}"
    );
    let ticks = p.x_tick_labels();
    assert!(ticks.len() >= 3, "ticks in the window: {ticks:?}");
    for t in &ticks {
        assert!(
            *t >= a - pixel && *t <= b + pixel,
            "tick {t} outside {a}..{b}"
        );
    }
    assert_ne!(ticks, full_ticks);
    // The axis is as long as before: the window fills the graph.
    let centre = p.client_of(f("x0") + f("width") / 2.0, y);
    p.browser.click_at(centre.0, centre.1, 2, None);
    assert_eq!(p.js("return run.state.window;"), Value::Null);
    assert_eq!(p.x_tick_labels(), full_ticks);
    assert_same_pixels("zoomed-and-back", before, &p.chart_shot());
}

fn the_keyboard_pans(p: &Page<'_>) {
    p.js("document.getElementById('chart').focus(); return 0;");
    p.browser.keys(&["+"]);
    let w0: Vec<f64> = serde_json::from_value(p.js("return run.state.window;")).expect("zoomed in");
    p.browser.keys(&["\u{E014}"]); // ArrowRight
    let w1: Vec<f64> = serde_json::from_value(p.js("return run.state.window;")).expect("panned");
    let width = w0[1] - w0[0];
    assert!(
        (w1[0] - w0[0] - width * 0.1).abs() < width * 1e-9,
        "{w0:?} -> {w1:?}"
    );
    assert!(((w1[1] - w1[0]) - width).abs() < width * 1e-9, "same width");
    p.browser.keys(&["\u{E00C}"]); // Escape
    assert_eq!(p.js("return run.state.window;"), Value::Null);
}

fn the_views_redraw(p: &Page<'_>, before: &Image) {
    let view = |label: &str| {
        let css = format!(".toolbar .seg[aria-label=View] button:nth-of-type({label})");
        let (x, y) = p.centre_of(&css);
        p.browser.click_at(x, y, 1, None);
    };
    view("2"); // 100 %
    let labels = p.js(
        "return [...document.querySelectorAll('#chart svg.on text.yt')].map(t => t.textContent);",
    );
    let labels: Vec<String> = serde_json::from_value(labels).unwrap();
    // Percent of the visible total, by the layout's steps: round_step(100 / 7) = 20.
    assert_eq!(
        labels,
        ["0", "20", "40", "60", "80"],
        "the y axis in percent"
    );
    assert_ne!(before.rgb, p.chart_shot().rgb);
    view("3"); // lines
    let lines = p.js("return document.querySelectorAll('#chart svg.on g.bands polyline').length;");
    assert_eq!(lines, p.js("return run.bands.length;"));
    view("1"); // stacked again
    assert_same_pixels("views-and-back", before, &p.chart_shot());
}

fn the_search_box_filters(p: &Page<'_>, data: &Value) {
    let names: Vec<String> = serde_json::from_value(data["table"]["name"].clone()).unwrap();
    let shown = |q: &str| -> (Vec<String>, Vec<String>, usize) {
        p.browser.script(
            "const i = document.querySelector('#legend input'); i.value = arguments[0]; \
             i.dispatchEvent(new Event('input')); return 0;",
            json!([q]),
        );
        let legend = p.js("return [...document.querySelectorAll('#legend li[data-band]')].filter(l => !l.hidden).map(l => l.dataset.band);");
        let rows = p.js(
            "return [...document.querySelectorAll('#bands tbody tr')].map(r => r.dataset.name);",
        );
        let drawn = p.js("return [...document.querySelectorAll('#chart svg.on g.bands > g')].filter(g => g.childElementCount > 0).length;");
        (
            serde_json::from_value(legend).unwrap(),
            serde_json::from_value(rows).unwrap(),
            drawn.as_u64().unwrap() as usize,
        )
    };
    let (legend, rows, drawn) = shown("countwords");
    let want: Vec<&String> = names
        .iter()
        .filter(|n| n.to_lowercase().contains("countwords"))
        .collect();
    assert!(!want.is_empty() && want.len() < names.len());
    assert_eq!(
        rows.iter().collect::<Vec<_>>().len(),
        want.len(),
        "table rows: {rows:?}"
    );
    assert!(rows.iter().all(|r| r.to_lowercase().contains("countwords")));
    assert!(
        legend
            .iter()
            .all(|r| r.to_lowercase().contains("countwords"))
            && !legend.is_empty()
    );
    assert_eq!(
        drawn,
        legend.len(),
        "the chart draws the bands the legend keeps"
    );
    let (legend, rows, _) = shown("/^\\(30[0-3]\\)/");
    assert!(!legend.is_empty() && legend.iter().all(|n| n.starts_with("(30")));
    assert!(rows.iter().all(|n| ["(300)", "(301)", "(302)", "(303)"]
        .iter()
        .any(|p| n.starts_with(p))));
    let (legend, rows, _) = shown("");
    assert_eq!(rows.len(), names.len());
    assert_eq!(legend.len(), data["bands"].as_array().unwrap().len());
}

/// "Fit y axis": zoomed into a quiet stretch, the axis ends lower.
fn the_y_axis_follows_the_visible_data(p: &Page<'_>, data: &Value) {
    // The top tick's value: its label in the unit the y legend names.
    let top_label = || {
        let labels = p.js(
            "const svg = document.querySelector('#chart svg.on'); \
             const legend = [...svg.querySelectorAll('.yl, .yl-view')].filter(t => t.getAttribute('visibility') !== 'hidden').pop(); \
             return [[...svg.querySelectorAll('text.yt')].map(t => t.textContent), legend.textContent];",
        );
        let ticks: Vec<String> = serde_json::from_value(labels[0].clone()).unwrap();
        let unit = match labels[1].as_str().unwrap() {
            "KiB" => 1024.0,
            "MiB" => 1024.0 * 1024.0,
            "GiB" => 1024.0 * 1024.0 * 1024.0,
            _ => 1.0,
        };
        let top = ticks.last().cloned().expect("y ticks");
        format!(
            "{}",
            top.replace(',', "").parse::<f64>().expect("a y label") * unit
        )
    };
    let full = top_label();
    let s = &data["scale"];
    let t0 = s["t0"].as_f64().unwrap();
    let span = s["tSpan"].as_f64().unwrap();
    // 0.1 to 0.3 of the run: the heap is a few MB there, a fifth of its peak.
    p.js(&format!(
        "run.zoomTo({}, {}); return 0;",
        t0 + 0.1 * span,
        t0 + 0.3 * span
    ));
    // The axis fits the window by default (issue 37); "Fit y" off, the layout's axis.
    let fitted = top_label();
    let number = |l: &str| l.parse::<f64>().expect("a value");
    assert!(
        number(&fitted) < number(&full) / 2.0,
        "fitted {fitted}, whole {full}"
    );
    let (x, y) = p.centre_of(".toolbar input[type=checkbox]");
    p.browser.click_at(x, y, 1, None);
    assert_eq!(top_label(), full, "the layout's axis when asked");
    p.browser.click_at(x, y, 1, None);
    assert_eq!(top_label(), fitted);
    p.js("run.zoomTo(null); return 0;");
    assert_eq!(top_label(), full);
}

/// A header sorts by its column, again the other way; a row highlights its band.
fn the_table_sorts_and_a_row_highlights_its_band(p: &Page<'_>) {
    let column = || -> Vec<f64> {
        let v = p.js("return [...document.querySelectorAll('#bands tbody tr')].map(tr => +tr.querySelector('td[data-value]').dataset.value);");
        serde_json::from_value(v).unwrap()
    };
    let (x, y) = p.centre_of("#bands th:nth-child(3) button");
    p.browser.click_at(x, y, 1, None);
    let peaks = column();
    assert!(
        peaks.windows(2).all(|w| w[0] >= w[1]),
        "largest peak first: {peaks:?}"
    );
    assert_eq!(
        p.js("return document.querySelector('#bands th:nth-child(3)').getAttribute('aria-sort');"),
        json!("descending")
    );
    let (x, y) = p.centre_of("#bands th:nth-child(3) button");
    p.browser.click_at(x, y, 1, None);
    let peaks = column();
    assert!(
        peaks.windows(2).all(|w| w[0] <= w[1]),
        "smallest first: {peaks:?}"
    );
    // The row of the largest peak, a drawn band: highlighted in the chart.
    let (x, y) = p.centre_of("#bands tbody tr:last-child td.name");
    p.browser.click_at(x, y, 1, None);
    p.browser.move_to(2.0, 2.0);
    let picked = p.js(
        "return [document.querySelectorAll('#bands tr.picked').length, \
        document.querySelectorAll('#chart svg.overlay polygon').length];",
    );
    assert_eq!(picked[0], json!(1));
    assert!(picked[1].as_u64() > Some(0), "its band over the veil");
    p.browser.click_at(x, y, 1, None);
    p.browser.move_to(2.0, 2.0);
    let none = p.js("return document.querySelectorAll('#chart svg.overlay polygon').length;");
    assert_eq!(none, json!(0), "a second click: no highlight");
}

#[test]
fn a_real_eventlog_in_the_browser() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-eventlog");
    // -hd: the eventlog's band names are the .hp's (tests/data/eventlog/FINDINGS.md).
    let log = repo("tests/data/eventlog/leakmap-hd.eventlog");
    let hp = repo("tests/data/eventlog/leakmap-hd.hp");
    let page = page_of(&dir, "page.html", &log, &["-c", "--heap-size"]);
    let p = open_offline(&browser, &page);
    let data = p.data();
    // The eventlog's samples are its .hp's, within 5 ms (tests/eventlog_pairs.rs), so
    // the readout must show the .hp's values.
    let profile = profile_of(&hp);
    pointing_shows_the_hp_values(&p, &profile, &data, 0.005);
    the_table_has_the_summarys_numbers(&p, &dir, &log, &[]);

    // The heap size and live bytes: drawn in their panel under the chart, and a legend
    // entry each that hides them.
    let lines =
        || p.js("return document.querySelectorAll('.heap-panel polyline[data-line]').length;");
    assert_eq!(lines(), json!(2));
    let (x, y) = p.centre_of("#legend li[data-line=\"heap size\"] .toggle");
    p.browser.click_at(x, y, 1, None);
    assert_eq!(lines(), json!(1));
    p.browser.click_at(x, y, 1, None);
    assert_eq!(lines(), json!(2));
    p.assert_quiet("the eventlog's page");
}
