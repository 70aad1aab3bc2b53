//! What the tests of the HTML page share (`html_browser.rs`, `html_pages.rs`): the page
//! of a profile, a page open in headless Chromium and what is read off it, pixel counts,
//! and the checks both run on a real profile and a real eventlog.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hp2ps::profile::Profile;
use hp2ps::{load, Source};
use serde_json::{json, Value};

use super::raster::{self, Image};
use super::tools::require_all;
use super::webdriver::{Browser, CHROMEDRIVER, CHROMIUM};
use super::{Cmd, TempDir};

/// The window: wide enough for the chart at its full 864 CSS pixels and the legend.
pub const WINDOW: (u32, u32) = (1400, 1000);

/// The chart's width in the pictures the tests take of it: the standalone SVG's.
pub const CHART_WIDTH: u32 = 864;

pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs hp2ps in `dir`; panics with its stderr when it fails.
pub fn hp2ps(dir: &Path, args: &[&str]) -> Vec<u8> {
    let ran = Cmd::hp2ps().args(args).current_dir(dir).run();
    assert!(ran.status.success(), "hp2ps {args:?}: {}", ran.describe());
    ran.stdout
}

/// The page of `input` with `flags`, written into `dir` as `name`.
pub fn page_of(dir: &TempDir, name: &str, input: &Path, flags: &[&str]) -> PathBuf {
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

/// The page's data (the JSON of its `hp2ps-data` element), parsed.
pub fn data_of(page: &[u8]) -> Value {
    let page = std::str::from_utf8(page).expect("UTF-8");
    let open = "<script type=\"application/json\" id=\"hp2ps-data\">";
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..end]).expect("JSON")
}

/// Whether `tests/data/large` is here (the published crate leaves it out): the gate of
/// every test that calls [`large`] ([`super::tools::require_data`]).
pub fn have_large() -> bool {
    super::tools::require_data(&["tests/data/large"])
}

/// A gzipped profile of `tests/data/large`, gunzipped (the test asks [`have_large`]
/// first).
pub fn large(name: &str) -> Vec<u8> {
    use std::io::Read;
    let gz = std::fs::read(repo("tests/data/large").join(name)).expect(name);
    let mut hp = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut hp)
        .expect("gzip");
    hp
}

pub fn profile_of(path: &Path) -> Profile {
    let mut file = std::fs::File::open(path).expect("input");
    (load(Source::Stream(&mut file), &Default::default()).expect("reads")).profile
}

/// A band's value at every sample of a profile (duplicates added, absent as 0).
pub fn columns(profile: &Profile) -> HashMap<String, Vec<f64>> {
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
pub fn browser() -> Option<Browser> {
    if !require_all(&[CHROMIUM, CHROMEDRIVER]) {
        return None;
    }
    Some(Browser::start(WINDOW.0, WINDOW.1).unwrap_or_else(|e| panic!("{e}")))
}

pub fn png(bytes: &[u8]) -> Image {
    raster::decode_png(bytes).expect("a PNG")
}

/// A page open in the browser, and what the test reads off it.
pub struct Page<'a> {
    pub browser: &'a Browser,
}

impl Page<'_> {
    /// Runs a script in the page; `run` is its first run, `runs` all of them.
    pub fn js(&self, body: &str) -> Value {
        self.js_in(0, body)
    }

    /// Runs a script in the page with `args` (`arguments[0]`, …); `run` is its first run.
    pub fn js_with(&self, body: &str, args: Value) -> Value {
        let body = format!("const runs = window.hp2ps.runs; const run = runs[0]; {body}");
        self.browser.script(&body, args)
    }

    /// Runs a script in the page; `run` is run `i` of the page, `runs` all of them.
    pub fn js_in(&self, i: usize, body: &str) -> Value {
        let body = format!("const runs = window.hp2ps.runs; const run = runs[{i}]; {body}");
        self.browser.script(&body, json!([]))
    }

    /// Waits until what follows the pointer slowly (the table's "At" column, the icicle,
    /// the other runs' numbers) has caught up: a few times the page's `SETTLE`, and a frame.
    pub fn settle(&self) {
        self.browser.async_script(
            "const done = arguments[arguments.length - 1];              setTimeout(() => requestAnimationFrame(() => setTimeout(done, 0)), 3 * window.hp2ps.SETTLE);",
            json!([]),
        );
    }

    /// The page's data for its first run.
    pub fn data(&self) -> Value {
        self.js("return window.hp2ps.data.runs[0];")
    }

    /// Where chart point (x, y) (y upwards) is in the viewport, from the SVG's box and
    /// its viewBox (the 648 × 432 page below the title box).
    pub fn client_of(&self, x: f64, y: f64) -> (f64, f64) {
        let r = self.js(
            "const svg = document.querySelector('#chart svg'); const r = svg.getBoundingClientRect(); \
             const v = svg.viewBox.baseVal; return [r.left, r.top, r.width, r.height, v.x, v.y, v.width, v.height];",
        );
        let r: Vec<f64> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let (vx, vy, vw, vh) = (r[4], r[5], r[6], r[7]);
        (
            r[0] + (x - vx) * r[2] / vw,
            r[1] + (432.0 - y - vy) * r[3] / vh,
        )
    }

    /// The chart's picture's size at [`CHART_WIDTH`]: its viewBox's shape.
    pub fn chart_px(&self) -> (u32, u32) {
        let v = self.js("const v = document.querySelector('#chart svg').viewBox.baseVal; return [v.width, v.height];");
        let (w, h) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
        (CHART_WIDTH, (f64::from(CHART_WIDTH) * h / w).round() as u32)
    }

    /// The centre of the first element matching `css`, in the viewport.
    pub fn centre_of(&self, css: &str) -> (f64, f64) {
        let r = self.browser.script(
            "const e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); \
             const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            json!([css]),
        );
        (r[0].as_f64().unwrap(), r[1].as_f64().unwrap())
    }

    /// The chart's picture, at the standalone SVG's pixel size, with the pointer away.
    pub fn chart_shot(&self) -> Image {
        self.browser.move_to(2.0, 2.0);
        self.js(
            "const f = document.getElementById('chart'); f.style.width = '864px'; \
             f.scrollIntoView(); return 0;",
        );
        let chart = self.browser.element("#chart svg");
        let shot = png(&self.browser.element_screenshot(&chart));
        let (w, h) = self.chart_px();
        assert_eq!(shot.width, w, "the chart's width");
        assert!(shot.height.abs_diff(h) <= 1, "the chart's height");
        shot
    }

    /// Console messages (errors of scripts and CSP, failed requests) since the last call.
    pub fn assert_quiet(&self, what: &str) {
        let log = self.browser.log();
        assert!(log.is_empty(), "{what}: the console says {log:#?}");
    }

    pub fn x_tick_labels(&self) -> Vec<f64> {
        let labels = self
            .js("return [...document.querySelectorAll('#chart svg.on text.xt')].map(t => t.textContent);");
        (labels.as_array().unwrap().iter())
            .map(|l| l.as_str().unwrap().parse().expect("a number"))
            .collect()
    }

    /// Rows of the readout: name, exact value.
    pub fn readout(&self) -> (f64, Vec<(String, f64)>, f64) {
        let r = self.readout_parts();
        (r.time, r.rows, r.total)
    }

    /// What the readout shows: the time, the bands listed (name, exact value), how many
    /// more are in its "more" line and how many at 0, and the total.
    pub fn readout_parts(&self) -> Readout {
        let r = self.js(
            "const o = document.getElementById('readout'); \
             if (o.hidden) return null; \
             const n = (sel) => { const e = o.querySelector(sel); return e ? parseInt(e.textContent.replace(/,/g, '')) : 0; }; \
             return [o.querySelector('[data-time]').dataset.time, \
               [...o.querySelectorAll('tbody tr')].map(tr => [tr.dataset.name, tr.querySelector('td.v').dataset.value, tr.classList.contains('hot')]), \
               o.querySelector('tr.total td.v').dataset.value, n('tr.more td:nth-child(2)'), n('tr.zeros td:nth-child(2)')];",
        );
        assert!(!r.is_null(), "the readout shows");
        let num = |v: &Value| v.as_str().unwrap().parse::<f64>().unwrap();
        let rows = (r[1].as_array().unwrap().iter())
            .map(|row| (row[0].as_str().unwrap().to_string(), num(&row[1])))
            .collect();
        Readout {
            time: num(&r[0]),
            rows,
            total: num(&r[2]),
            more: r[3].as_u64().unwrap_or(0) as usize,
            zeros: r[4].as_u64().unwrap_or(0) as usize,
        }
    }

    pub fn hot_row(&self) -> Option<String> {
        let r = self.js(
            "const tr = document.querySelector('#readout tr.hot'); return tr && tr.dataset.name;",
        );
        r.as_str().map(String::from)
    }
}

/// What the readout shows (see [`Page::readout_parts`]).
pub struct Readout {
    pub time: f64,
    pub rows: Vec<(String, f64)>,
    pub total: f64,
    /// Bands in its "N more" line.
    pub more: usize,
    /// Bands in its "N bands at 0" line.
    pub zeros: usize,
}

/// How many pixels are inside an area of exactly this colour: the pixel and its eight
/// neighbours have it. (A single pixel of it can be the blend of two other colours at an
/// edge: green's half-tone between bright green and black.)
pub fn pixels_of(image: &Image, rgb: [u8; 3]) -> usize {
    let (w, h) = (image.width, image.height);
    let is = |x: u32, y: u32| image.pixel(x, y) == rgb;
    (1..h.saturating_sub(1))
        .flat_map(|y| (1..w.saturating_sub(1)).map(move |x| (x, y)))
        .filter(|&(x, y)| (0..3).all(|dy| (0..3).all(|dx| is(x + dx - 1, y + dy - 1))))
        .count()
}

pub fn hex_rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).expect("#rrggbb");
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

pub fn assert_same_pixels(what: &str, a: &Image, b: &Image) {
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
pub fn open_offline<'a>(browser: &'a Browser, page: &Path) -> Page<'a> {
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

/// Points at samples of the run, each inside its biggest band there: the readout shows
/// the sample's time (within `late` of the `.hp`'s: an eventlog's census is stamped when
/// it is made) and the `.hp`'s values of every band.
pub fn pointing_shows_the_hp_values(p: &Page<'_>, profile: &Profile, data: &Value, late: f64) {
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
        // The total is every band's (traces too, as --summary's), not the drawn bands'.
        let total: f64 = cols.values().map(|c| c[i]).sum();
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
        let r = p.readout_parts();
        assert_eq!(r.time, t, "the readout's time is sample {i}'s");
        // The bands by their value there, the largest first, those at 0 in one line.
        let zeros = names.iter().filter(|n| value_of(n) == 0.0).count();
        assert_eq!(r.zeros, zeros, "the bands at 0 counted in one line");
        assert_eq!(
            r.rows.len() + r.more + r.zeros,
            names.len(),
            "every band listed, in the more line, or at 0"
        );
        for (name, value) in &r.rows {
            assert_eq!(*value, value_of(name), "{name} at sample {i} ({t} s)");
            assert!(*value != 0.0, "{name}: no row at 0");
        }
        assert!(
            r.rows.windows(2).all(|w| w[0].1 >= w[1].1),
            "largest first: {:?}",
            r.rows
        );
        let shown_total = r.total;
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

/// Every row of `#bands` against `--summary=json` (with `--sort growth` for the slopes).
pub fn the_table_has_the_summarys_numbers(
    p: &Page<'_>,
    dir: &TempDir,
    input: &Path,
    flags: &[&str],
) {
    let input_arg = input.display().to_string();
    let mut args = vec!["--summary=json", "--sort", "growth", "--top", "1000000"];
    args.extend_from_slice(flags);
    args.push(&input_arg);
    let summary: Value = serde_json::from_slice(&hp2ps(dir.path(), &args)).expect("JSON");
    // The table follows a change of window once it rests.
    p.settle();
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
