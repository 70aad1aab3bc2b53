//! The HTML page (`--format html`) in a real browser: headless Chromium driven over
//! WebDriver (`support::webdriver`), on a real GHC profile and a real GHC eventlog.
//!
//! * it loads with no console error and fetches nothing (the network emulated offline,
//!   the Resource Timing API empty; from a static server, the server sees one request);
//! * it opens on the SVG's picture, and the script's redraw of every band is that
//!   picture again, pixel for pixel;
//! * pointing at a sample shows its time and the `.hp`'s values there in `#readout`;
//! * a legend entry hides and shows its band's pixels; Alt-click isolates it;
//! * dragging zooms (the x ticks inside the dragged range), a double-click zooms out;
//!   the keyboard pans;
//! * the search box filters the chart, the legend and the table; the table lists every
//!   band with `--summary=json`'s numbers; the views redraw.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`); without
//! them the tests are skipped loudly, or fail when `CI=true`.

mod support;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hp2ps::profile::Profile;
use hp2ps::read::{read_input, InputOptions};
use serde_json::{json, Value};
use support::raster::{self, Image};
use support::tools::require_all;
use support::webdriver::{Browser, CHROMEDRIVER, CHROMIUM};
use support::{Cmd, TempDir};

/// The window: wide enough for the chart at its full 864 CSS pixels and the legend.
const WINDOW: (u32, u32) = (1400, 1000);

/// The chart SVG's size when forced to the standalone SVG's own (648 × 432 pt).
const CHART_PX: (u32, u32) = (864, 576);

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs hp2ps in `dir`; panics with its stderr when it fails.
fn hp2ps(dir: &Path, args: &[&str]) -> Vec<u8> {
    let ran = Cmd::hp2ps().args(args).current_dir(dir).run();
    assert!(ran.status.success(), "hp2ps {args:?}: {}", ran.describe());
    ran.stdout
}

/// The page of `input` with `flags`, written into `dir` as `name`.
fn page_of(dir: &TempDir, name: &str, input: &Path, flags: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let mut args = vec!["--format", "html", "-o"];
    let out_arg = out.display().to_string();
    args.push(&out_arg);
    args.extend_from_slice(flags);
    let input_arg = input.display().to_string();
    args.push(&input_arg);
    hp2ps(dir.path(), &args);
    out
}

fn profile_of(path: &Path) -> Profile {
    let file = std::fs::File::open(path).expect("input");
    read_input(file, &InputOptions::default()).expect("reads").0
}

/// A band's value at every sample of a profile (duplicates added, absent as 0).
fn columns(profile: &Profile) -> HashMap<String, Vec<f64>> {
    let n = profile.times.len();
    (profile.bands.iter())
        .map(|b| {
            let mut col = vec![0.0; n];
            for p in &b.points {
                col[p.sample as usize] += p.value;
            }
            (String::from_utf8_lossy(&b.name).into_owned(), col)
        })
        .collect()
}

/// Headless Chromium, or `None` after the loud skip of [`require_all`].
fn browser() -> Option<Browser> {
    if !require_all(&[CHROMIUM, CHROMEDRIVER]) {
        return None;
    }
    Some(Browser::start(WINDOW.0, WINDOW.1).unwrap_or_else(|e| panic!("{e}")))
}

fn png(bytes: &[u8]) -> Image {
    raster::decode_png(bytes).expect("a PNG")
}

/// A page open in the browser, and what the test reads off it.
struct Page<'a> {
    browser: &'a Browser,
}

impl Page<'_> {
    /// Runs a script in the page; `arguments[0]` is the first run.
    fn js(&self, body: &str) -> Value {
        let body = format!("const run = window.hp2ps.runs[0]; {body}");
        self.browser.script(&body, json!([]))
    }

    /// The page's data for its first run.
    fn data(&self) -> Value {
        self.js("return window.hp2ps.data.runs[0];")
    }

    /// Where chart point (x, y) (y upwards) is in the viewport, from the SVG's box and
    /// its 648 × 432 viewBox.
    fn client_of(&self, x: f64, y: f64) -> (f64, f64) {
        let r = self.js(
            "const r = document.querySelector('#chart svg').getBoundingClientRect(); \
             return [r.left, r.top, r.width, r.height];",
        );
        let r: Vec<f64> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        (r[0] + x * r[2] / 648.0, r[1] + (432.0 - y) * r[3] / 432.0)
    }

    /// The centre of the first element matching `css`, in the viewport.
    fn centre_of(&self, css: &str) -> (f64, f64) {
        let r = self.browser.script(
            "const e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); \
             const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            json!([css]),
        );
        (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
    }

    /// The chart's picture, at the standalone SVG's pixel size, with the pointer away.
    fn chart_shot(&self) -> Image {
        self.browser.move_to(2.0, 2.0);
        self.js(
            "const f = document.getElementById('chart'); f.style.width = '864px'; \
             f.scrollIntoView(); return 0;",
        );
        let chart = self.browser.element("#chart svg");
        let shot = png(&self.browser.element_screenshot(&chart));
        assert_eq!((shot.width, shot.height), CHART_PX, "the chart's size");
        shot
    }

    /// Console messages (errors of scripts and CSP, failed requests) since the last call.
    fn assert_quiet(&self, what: &str) {
        let log = self.browser.log();
        assert!(log.is_empty(), "{what}: the console says {log:#?}");
    }

    fn x_tick_labels(&self) -> Vec<f64> {
        let labels = self
            .js("return [...document.querySelectorAll('#chart svg.on text.xt')].map(t => t.textContent);");
        (labels.as_array().unwrap().iter())
            .map(|l| l.as_str().unwrap().parse().expect("a number"))
            .collect()
    }

    /// Rows of the readout: name, exact value.
    fn readout(&self) -> (f64, Vec<(String, f64)>, f64) {
        let r = self.js(
            "const o = document.getElementById('readout'); \
             if (o.hidden) return null; \
             return [o.querySelector('[data-time]').dataset.time, \
               [...o.querySelectorAll('tbody tr')].map(tr => [tr.dataset.name, tr.querySelector('td.v').dataset.value, tr.classList.contains('hot')]), \
               o.querySelector('tr.total td.v').dataset.value];",
        );
        assert!(!r.is_null(), "the readout shows");
        let num = |v: &Value| v.as_str().unwrap().parse::<f64>().unwrap();
        let rows = (r[1].as_array().unwrap().iter())
            .map(|row| (row[0].as_str().unwrap().to_string(), num(&row[1])))
            .collect();
        (num(&r[0]), rows, num(&r[2]))
    }

    fn hot_row(&self) -> Option<String> {
        let r = self.js(
            "const tr = document.querySelector('#readout tr.hot'); return tr && tr.dataset.name;",
        );
        r.as_str().map(String::from)
    }
}

/// How many pixels are inside an area of exactly this colour: the pixel and its eight
/// neighbours have it. (A single pixel of it can be the blend of two other colours at an
/// edge: green's half-tone between bright green and black.)
fn pixels_of(image: &Image, rgb: [u8; 3]) -> usize {
    let (w, h) = (image.width, image.height);
    let is = |x: u32, y: u32| image.pixel(x, y) == rgb;
    (1..h.saturating_sub(1))
        .flat_map(|y| (1..w.saturating_sub(1)).map(move |x| (x, y)))
        .filter(|&(x, y)| (0..3).all(|dy| (0..3).all(|dx| is(x + dx - 1, y + dy - 1))))
        .count()
}

fn hex_rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("#rrggbb");
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn assert_same_pixels(what: &str, a: &Image, b: &Image) {
    if a.rgb != b.rgb {
        let c = raster::compare(a, b).expect("same size");
        let dir = raster::save_images(
            what,
            &[("before", a), ("after", b), ("diff", &c.diff_image(a))],
        );
        panic!(
            "{what}: the pictures differ ({}); images in {}",
            c.summary(),
            dir.display()
        );
    }
}

/// Opens `page` with the network off, and checks it loaded quietly and fetched nothing.
fn open_offline<'a>(browser: &'a Browser, page: &Path) -> Page<'a> {
    browser.cdp("Network.enable", json!({}));
    browser.cdp(
        "Network.emulateNetworkConditions",
        json!({"offline": true, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
    );
    browser.open(page);
    let p = Page { browser };
    let ready = p.js("return typeof window.hp2ps === 'object' && performance.getEntriesByName('hp2ps-ready').length;");
    assert_eq!(
        ready,
        json!(1),
        "the script ran (a CSP that blocked it would say so)"
    );
    let fetched = p.js("return performance.getEntriesByType('resource').map(e => e.name);");
    assert_eq!(fetched, json!([]), "the page fetched nothing");
    p.assert_quiet("loading");
    p
}

#[test]
fn a_real_profile_in_the_browser() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-profile");
    let input = repo("golden/inputs/leakmap-O0-hc-bio-dragvoid.hp");
    let page = page_of(&dir, "page.html", &input, &["-c"]);
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

/// The page's first picture, and the script's redraw of it, are the standalone SVG's
/// (`-m0`: no key in either, so the graph has the same width); also of a window that
/// starts inside the run, where the first sample's values are not 0.
fn the_picture_is_the_svgs(p: &Page<'_>, dir: &TempDir, input: &Path) {
    for (tag, window) in [("whole", &[][..]), ("window", &["--from", "0.1"][..])] {
        let mut flags = vec!["-c", "-m0"];
        flags.extend_from_slice(window);
        let page = page_of(dir, &format!("m0-{tag}.html"), input, &flags);
        let svg_name = format!("m0-{tag}.svg");
        let input_arg = input.display().to_string();
        let mut args = flags.clone();
        args.extend(["--format", "svg", "-o", &svg_name, &input_arg]);
        hp2ps(dir.path(), &args);
        p.browser.open(&dir.join(&svg_name));
        let svg = png(&p.browser.element_screenshot(&p.browser.element("svg")));
        assert_eq!((svg.width, svg.height), CHART_PX);
        p.browser.open(&page);
        let first = p.chart_shot();
        assert!(first.ink() > 0.05, "the chart is drawn");
        let c = raster::compare(&svg, &first).expect("same size");
        if !c.same_picture() {
            let dir = raster::save_images("html-vs-svg", &[("svg", &svg), ("page", &first)]);
            panic!(
                "{tag}: the page's chart is not the SVG's: {} ({})",
                c.summary(),
                dir.display()
            );
        }
        // Every band, the ticks, the lines and marks redrawn by the script, from the data:
        // the same numbers in every element the script draws, the same picture.
        let geometry = "const g = (svg) => [...svg.querySelectorAll(\
            'g.bands polygon, .xt, .yt, .series, .mark')].map(e => [e.tagName, \
            ...['points', 'x', 'y', 'fill'].map(a => e.getAttribute(a)), e.textContent, \
            [...e.querySelectorAll('tspan')].map(t => t.getAttribute('x')).join(' ')]);";
        let before = p.js(&format!("{geometry} return g(run.picture);"));
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
        let c = raster::compare(&first, &redrawn).expect("same size");
        if !c.same_picture() {
            let dir =
                raster::save_images("html-redrawn", &[("painter", &first), ("script", &redrawn)]);
            panic!(
                "{tag}: the redraw is not the picture: {} ({})",
                c.summary(),
                dir.display()
            );
        }
        p.assert_quiet("-m0 page");
    }
}

/// Points at samples of the run, each inside its biggest band there: the readout shows
/// the sample's time (within `late` of the `.hp`'s: an eventlog's census is stamped when
/// it is made) and the `.hp`'s values of every band.
fn pointing_shows_the_hp_values(p: &Page<'_>, profile: &Profile, data: &Value, late: f64) {
    let cols = columns(profile);
    let table = &data["table"];
    let names: Vec<&str> = data["bands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    let times: Vec<f64> = serde_json::from_value(data["times"].clone()).unwrap();
    assert_eq!(times.len(), profile.times.len(), "every sample drawn");
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    for i in [profile.times.len() / 2, profile.times.len() / 3, 1] {
        let t = times[i];
        assert!(
            (t - profile.times[i]).abs() <= late,
            "sample {i}: {t} s, the .hp's {} s",
            profile.times[i]
        );
        // The value of each drawn band at sample i, from the .hp: OTHER holds the bands
        // the table says were merged into it.
        let value_of = |name: &str| -> f64 {
            if name == "OTHER" {
                let rows = table["name"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .zip(table["fate"].as_array().unwrap());
                rows.filter(|(_, fate)| *fate == "other")
                    .map(|(n, _)| cols[n.as_str().unwrap()][i])
                    .sum()
            } else {
                cols[name][i]
            }
        };
        let values: Vec<f64> = names.iter().map(|n| value_of(n)).collect();
        let total: f64 = values.iter().sum();
        // Inside the biggest band at that sample.
        let big = (0..values.len())
            .max_by(|&a, &b| values[a].total_cmp(&values[b]))
            .unwrap();
        let below: f64 = values[..big].iter().sum();
        let v = below + values[big] / 2.0;
        let x = ((t - f("t0")) / f("tSpan")) * f("width") + f("x0");
        let y = v * (f("height") / f("vSpan")) + f("y0");
        let (cx, cy) = p.client_of(x, y);
        p.browser.move_to(cx, cy);
        let (time, rows, shown_total) = p.readout();
        assert_eq!(time, t, "the readout's time is sample {i}'s");
        assert_eq!(rows.len(), names.len(), "every band listed");
        for (name, value) in &rows {
            assert_eq!(*value, value_of(name), "{name} at sample {i} ({t} s)");
        }
        assert_eq!(shown_total, total);
        assert_eq!(
            p.hot_row().as_deref(),
            Some(names[big]),
            "the band under the pointer"
        );
        let hot = p.browser.script(
            "return [...document.querySelectorAll('#legend li.hot')].map(l => l.dataset.band);",
            json!([]),
        );
        assert_eq!(hot, json!([names[big]]), "highlighted in the legend");
        let copy = p.js("return document.querySelectorAll('#chart svg.overlay polygon').length;");
        assert!(copy.as_u64() > Some(0), "and in the chart, over a veil");
    }
    p.browser.move_to(2.0, 2.0);
    let hidden = p.js("return document.getElementById('readout').hidden;");
    assert_eq!(hidden, json!(true), "the readout goes with the pointer");
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
        let css = format!("button.view[title][aria-pressed]:nth-of-type({label})");
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
    let top_label = || {
        let labels = p.js("return [...document.querySelectorAll('#chart svg.on text.yt')].map(t => t.textContent);");
        let labels: Vec<String> = serde_json::from_value(labels).unwrap();
        labels.last().cloned().expect("y ticks")
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
    assert_eq!(top_label(), full, "the layout's axis until asked");
    let (x, y) = p.centre_of(".toolbar input[type=checkbox]");
    p.browser.click_at(x, y, 1, None);
    let fitted = top_label();
    let number = |l: &str| {
        let (digits, unit) = match l.chars().last() {
            Some('M') => (&l[..l.len() - 1], 1e6),
            Some('k') => (&l[..l.len() - 1], 1e3),
            _ => (l, 1.0),
        };
        digits.replace(',', "").parse::<f64>().expect("a y label") * unit
    };
    assert!(
        number(&fitted) < number(&full) / 2.0,
        "fitted {fitted}, whole {full}"
    );
    p.browser.click_at(x, y, 1, None);
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

/// Every row of `#bands` against `--summary=json` (with `--sort growth` for the slopes).
fn the_table_has_the_summarys_numbers(p: &Page<'_>, dir: &TempDir, input: &Path, flags: &[&str]) {
    let input_arg = input.display().to_string();
    let mut args = vec!["--summary=json", "--sort", "growth", "--top", "1000000"];
    args.extend_from_slice(flags);
    args.push(&input_arg);
    let summary: Value = serde_json::from_slice(&hp2ps(dir.path(), &args)).expect("JSON");
    let rows = p.js(
        "document.querySelector('.more-rows').click(); \
         return [...document.querySelectorAll('#bands tbody tr')].map(tr => \
           [tr.dataset.name, ...[...tr.querySelectorAll('td[data-value]')].map(td => td.dataset.value)]);",
    );
    let rows = rows.as_array().unwrap();
    let top = summary["top"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        summary["bands"].as_u64().unwrap() as usize,
        "every band"
    );
    assert_eq!(rows.len(), top.len());
    let by_name: HashMap<&str, &Value> = top
        .iter()
        .map(|b| (b["name"].as_str().unwrap(), b))
        .collect();
    for row in rows {
        let name = row[0].as_str().unwrap();
        let want = by_name
            .get(name)
            .unwrap_or_else(|| panic!("{name} is not in the summary"));
        let got = |i: usize| row[i].as_str().unwrap().parse::<f64>().unwrap();
        for (i, key) in [(1, "peak"), (2, "peak_time"), (3, "share"), (4, "slope")] {
            assert_eq!(got(i), want[key].as_f64().unwrap(), "{name}: {key}");
        }
    }
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

    // The heap size and live bytes: drawn, and a legend entry each that hides them.
    let lines =
        || p.js("return document.querySelectorAll('#chart svg.on polyline.series').length;");
    assert_eq!(lines(), json!(2));
    let (x, y) = p.centre_of("#legend li[data-line=\"heap size\"] .toggle");
    p.browser.click_at(x, y, 1, None);
    assert_eq!(lines(), json!(1));
    p.browser.click_at(x, y, 1, None);
    assert_eq!(lines(), json!(2));
    p.assert_quiet("the eventlog's page");
}

/// A static server that answers every request with the page and records the paths.
fn serve(page: Vec<u8>) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).map_or(true, |n| n == 0) || header == "\r\n" {
                    break;
                }
            }
            log.lock().unwrap().push(path);
            let mut out = &stream;
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                page.len()
            );
            let _ = out
                .write_all(head.as_bytes())
                .and_then(|()| out.write_all(&page));
        }
    });
    (port, seen)
}

#[test]
fn from_a_static_server_the_page_asks_for_nothing_more() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-served");
    // Names that would end the script or open markup if they were not escaped.
    let hostile = "JOB \"</script><script>alert(1)</script>\"\nDATE \"<!--\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.0\n</script><script>alert(2)</script>\t100\n<b>&amp;\u{2028}</b>\t200\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\n</script><script>alert(2)</script>\t300\n<b>&amp;\u{2028}</b>\t50\nEND_SAMPLE 1.0\n";
    let input = dir.write("hostile.hp", hostile.as_bytes());
    let page = page_of(&dir, "page.html", &input, &["-c"]);
    let (port, seen) = serve(std::fs::read(&page).unwrap());
    browser.goto(&format!("http://127.0.0.1:{port}/page.html"));
    let p = Page { browser: &browser };
    let names = p.js("return [...document.querySelectorAll('#legend li[data-band]')].map(l => l.querySelector('.name').textContent).sort();");
    assert_eq!(
        names,
        json!(["</script><script>alert(2)</script>", "<b>&amp;\u{2028}</b>"]),
        "the names are text"
    );
    assert_eq!(
        p.js("return document.scripts.length;"),
        json!(2),
        "no script of a name's"
    );
    // Point at the chart and use the legend: still nothing is fetched.
    let s = p.data()["scale"].clone();
    let (cx, cy) = p.client_of(
        s["x0"].as_f64().unwrap() + s["width"].as_f64().unwrap() / 2.0,
        s["y0"].as_f64().unwrap() + 10.0,
    );
    p.browser.move_to(cx, cy);
    let (x, y) = p.centre_of("#legend li[data-band] .toggle");
    p.browser.click_at(x, y, 1, None);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        *seen.lock().unwrap(),
        ["/page.html"],
        "the server saw only the page"
    );
    p.assert_quiet("served");
}

#[test]
fn the_legend_fits_long_names_and_the_page_prints_the_chart() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-fit");
    let input = repo("golden/inputs/longnames-O0-hc-L200.hp");
    let page = page_of(&dir, "page.html", &input, &["-c", "--key-labels", "fit"]);
    let p = open_offline(&browser, &page);
    // Each name as the legend shows it, and in full.
    let shown = p.js(
        "return [...document.querySelectorAll('#legend li[data-band]')].map(l => \
         [l.querySelector('.name').textContent, l.dataset.band, \
          l.querySelector('.name').scrollWidth <= l.querySelector('.name').clientWidth]);",
    );
    let mut shortened = 0;
    for entry in shown.as_array().unwrap() {
        let (text, name) = (entry[0].as_str().unwrap(), entry[1].as_str().unwrap());
        assert_eq!(entry[2], json!(true), "{text} fits its entry");
        if text != name {
            shortened += 1;
            let (head, tail) = text.split_once("...").expect("the middle left out");
            assert!(
                name.starts_with(head) && name.ends_with(tail),
                "{text} of {name}"
            );
            assert!(!head.is_empty() && !tail.is_empty(), "{text}");
        }
    }
    assert!(shortened > 0, "long names are shortened");

    // Printing: the chart and its legend, without the controls.
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let shown = p.js(
        "const d = (css) => getComputedStyle(document.querySelector(css)).display; \
         return [d('.toolbar'), d('#legend input'), d('#chart svg.picture'), d('#legend ul')];",
    );
    assert_eq!(shown, json!(["none", "none", "block", "block"]));
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": ""}));
    p.assert_quiet("long names");
}

/// Every golden input hp2ps draws, and every committed eventlog, as a page: it loads
/// without a console error, and pointing, hiding a band, zooming, the views and the
/// filter run without one either (one-sample, all-zero, huge-value, odd-name profiles).
#[test]
fn every_golden_input_and_eventlog_gives_a_working_page() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-every");
    let mut inputs: Vec<PathBuf> = support::golden_inputs()
        .into_iter()
        .map(|(name, _)| support::golden_dir().join(name))
        .collect();
    for sub in ["tests/data/eventlog", "tests/data/ghc-9.10"] {
        let mut logs: Vec<PathBuf> = std::fs::read_dir(repo(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eventlog"))
            .collect();
        logs.sort();
        inputs.extend(logs);
    }
    let mut pages = 0;
    for input in &inputs {
        let out = dir.join("page.html");
        let _ = std::fs::remove_file(&out);
        let ran = Cmd::hp2ps()
            .args(["-c", "--heap-size", "--format", "html", "-o"])
            .arg(&out)
            .arg(input)
            .current_dir(dir.path())
            .run();
        if !ran.status.success() {
            // Profiles hp2ps refuses (the truncated and broken ones) make no page.
            continue;
        }
        browser.open(&out);
        let answer = browser.script(
            "const run = window.hp2ps.runs[0]; const box = run.hit.getBoundingClientRect(); \
             const at = (fx, fy) => run.hit.dispatchEvent(new PointerEvent('pointermove', \
               {clientX: box.left + fx * box.width, clientY: box.top + fy * box.height, bubbles: true})); \
             at(0.5, 0.5); at(0.1, 0.9); at(0.9, 0.2); \
             const first = document.querySelector('#legend li[data-band] .toggle'); \
             if (first) { first.click(); first.click(); } \
             const [a, b] = [run.s.t0, run.s.t0 + run.s.tSpan]; \
             run.zoomTo(a + (b - a) / 3, a + (b - a) / 2); at(0.5, 0.5); \
             for (const v of document.querySelectorAll('button.view')) v.click(); \
             const i = document.querySelector('#legend input'); i.value = '/(/'; \
             i.dispatchEvent(new Event('input')); i.value = 'a'; i.dispatchEvent(new Event('input')); \
             run.zoomTo(null); \
             return document.querySelectorAll('#bands tbody tr').length;",
            json!([]),
        );
        assert!(answer.is_number(), "{}: {answer}", input.display());
        let log = browser.log();
        assert!(
            log.is_empty(),
            "{}: the console says {log:#?}",
            input.display()
        );
        pages += 1;
    }
    eprintln!("{pages} pages of {} inputs answered", inputs.len());
    assert!(pages > 60, "{pages} pages");
}
