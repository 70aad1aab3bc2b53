//! The HTML page (`--format html`) in a real browser: headless Chromium driven over
//! WebDriver (`support::webdriver`), on a real GHC profile and a real GHC eventlog.
//!
//! * it loads with no console error and fetches nothing (the network emulated offline,
//!   the Resource Timing API empty; from a static server: `html_pages.rs`);
//! * it opens on the SVG's picture, and the script's redraw has the painter's numbers in
//!   every element and is the same picture (`support::svg_picture`);
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

use serde_json::{json, Value};
use support::html_page::*;
use support::raster::{self, Image};
use support::svg_picture::the_picture_is_the_svgs;
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
