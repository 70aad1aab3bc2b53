//! The page as a person hunting a space leak reads it (issue 25), in headless Chromium,
//! on real GHC 9.0.2 and 9.10.3 profiles:
//!
//! * the biggest band is seen in every view: no band white, black or grey, the Lines
//!   view's lines at least 3:1 against the background (light and dark), `--palette
//!   hp2ps` still hp2ps's colours;
//! * names are read whole: at 1280×800 no legend entry of GHC compiling 8 modules is cut,
//!   and no two read the same; neither do the readout's;
//! * the filter hides legend entries, and a bad regex says what is wrong and leaves the
//!   view;
//! * the readout stands beside the time it reads, its bands by value, zeros in one line;
//! * the header says what the profile is, the page holds no directory, it has a dark
//!   scheme, prints within the page and works 800 px wide.
//!
//! (One unit system, the y axis's, the readout's, the table's and the icicle's:
//! `html_units.rs`; marks, bands drawn from the table and the URL's view:
//! `html_views.rs`; the comparison of two runs: `html_compare.rs`.) Needs `chromium` and
//! `chromedriver`.

mod support;

use serde_json::{json, Value};
use support::html_page::*;
use support::TempDir;

/// WCAG 2's contrast of two sRGB colours.
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let lum = |c: [u8; 3]| {
        let l = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * l(c[0]) + 0.7152 * l(c[1]) + 0.0722 * l(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// A CSS colour (`rgb(r, g, b)` or `#rrggbb`) as bytes.
fn css_rgb(css: &str) -> [u8; 3] {
    if css.starts_with('#') {
        return hex_rgb(css);
    }
    let n: Vec<u8> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .take(3)
        .map(|v| v.trim().parse().expect("a channel"))
        .collect();
    [n[0], n[1], n[2]]
}

fn leakmap() -> std::path::PathBuf {
    repo("tests/data/page/leakmap-O1-hc.hp")
}

fn strings(v: Value) -> Vec<String> {
    serde_json::from_value(v).expect("strings")
}

#[test]
fn the_biggest_band_is_seen_in_every_view() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-seen");
    // By default, and asked for colours as hp2ps gives them (-c), the page's palette.
    for flags in [&[][..], &["-c"]] {
        let page = page_of(&dir, "page.html", &leakmap(), flags);
        let p = open_offline(&browser, &page);
        let data = p.data();
        let bands = data["bands"].as_array().unwrap();
        for b in bands {
            let c = hex_rgb(b["colour"].as_str().unwrap());
            let chroma = c.iter().max().unwrap() - c.iter().min().unwrap();
            assert!(chroma >= 24, "{flags:?}: {} is {c:?}", b["name"]);
        }
        // The leak: the biggest band, its own colour in the chart.
        let big = (bands.iter())
            .max_by(|a, b| {
                a["share"]
                    .as_f64()
                    .unwrap()
                    .total_cmp(&b["share"].as_f64().unwrap())
            })
            .unwrap();
        let name = big["name"].as_str().unwrap();
        assert!(name.contains("lazySum"), "{name}");
        let colour = hex_rgb(big["colour"].as_str().unwrap());
        assert!(pixels_of(&p.chart_shot(), colour) > 2000, "{name} seen");
        // In the Lines view, every line stands out from the background, light and dark.
        p.js("run.setView('lines'); return 0;");
        for theme in ["light", "dark"] {
            p.js(&format!(
                "document.documentElement.dataset.theme = '{theme}'; run.themeChanged(); return 0;"
            ));
            let seen = p.js(
                "return [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.documentElement).backgroundColor, \
                 [...document.querySelectorAll('#chart svg.on g.bands polyline')].map(l => l.getAttribute('stroke'))];",
            );
            let body = css_rgb(seen[0].as_str().unwrap());
            let root = css_rgb(seen[1].as_str().unwrap());
            let background = if seen[0] == "rgba(0, 0, 0, 0)" {
                root
            } else {
                body
            };
            let lines = strings(seen[2].clone());
            assert_eq!(lines.len(), bands.len(), "a line per band");
            for line in &lines {
                let ratio = contrast(hex_rgb(line), background);
                assert!(
                    ratio >= 3.0,
                    "{theme}: {line} on {background:?}: {ratio:.2}"
                );
            }
        }
        p.js("delete document.documentElement.dataset.theme; run.themeChanged(); run.setView('stacked'); return 0;");
        // The icicle's node of the leak has its colour.
        let node = p.js(
            "const n = [...document.querySelectorAll('.icicle .node')].find(n => n.dataset.path === 'lazySum'); \
             return n ? getComputedStyle(n).backgroundColor : null;",
        );
        assert_eq!(css_rgb(node.as_str().expect("a lazySum node")), colour);
        p.assert_quiet("colours");
    }
    // --palette hp2ps: hp2ps's colour shades, as its PostScript has them.
    let page = page_of(
        &dir,
        "hp2ps.html",
        &leakmap(),
        &["-c", "--palette", "hp2ps"],
    );
    let data = data_of(&std::fs::read(page).unwrap());
    let colours: Vec<String> = (data["runs"][0]["bands"].as_array().unwrap().iter())
        .map(|b| b["colour"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        colours[..3],
        ["#000000", "#0000ff", "#00ff00"],
        "hp2ps's first shades"
    );
}

#[test]
fn names_are_read_whole_and_no_two_read_the_same() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-names");
    let input = repo("tests/data/ghc-9.10/ghc-compile-hT.eventlog");
    let page = page_of(&dir, "page.html", &input, &["--heap-size"]);
    browser.resize(1280, 800);
    let p = open_offline(&browser, &page);
    // What each legend entry shows: its text as laid out, and whether any of it is cut.
    let entries = p.js(
        "return [...document.querySelectorAll('#legend li[data-band]')].map(li => { const n = li.querySelector('.name'); \
           return [li.dataset.band, n.innerText.replace(/\\s+/g, ' '), n.scrollWidth <= n.clientWidth + 1]; });",
    );
    let entries: Vec<(String, String, bool)> = serde_json::from_value(entries).unwrap();
    assert_eq!(entries.len(), 20);
    let mut shown: Vec<&str> = Vec::new();
    for (name, text, whole) in &entries {
        assert!(whole, "{name}: cut as {text:?}");
        assert_eq!(
            text.replace(' ', ""),
            name.replace(' ', ""),
            "the whole name"
        );
        shown.push(text);
    }
    shown.sort();
    shown.dedup();
    assert_eq!(shown.len(), entries.len(), "no two entries read the same");
    // The readout at the highest stack: its names differ, none cut.
    p.js("const s = run.s; const i = run.times.length >> 1; run.point(i, null); run.placeReadout(run.xOf(run.times[i])); return 0;");
    let rows = p.js(
        "return [...document.querySelectorAll('#readout td.n')].map(td => [td.textContent, td.scrollWidth <= td.clientWidth + 1]);",
    );
    let rows: Vec<(String, bool)> = serde_json::from_value(rows).unwrap();
    assert!(rows.len() >= 10, "{rows:?}");
    let mut names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert!(rows.iter().all(|(_, whole)| *whole), "{rows:?}");
    names.sort();
    names.dedup();
    assert_eq!(
        names.len(),
        rows.len(),
        "the readout's names differ: {rows:?}"
    );
    browser.resize(WINDOW.0, WINDOW.1);
}

#[test]
fn the_filter_hides_legend_entries_and_a_bad_regex_says_so() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-filter");
    let page = page_of(&dir, "page.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    let state = |q: &str| -> Value {
        p.browser.script(
            "const i = document.querySelector('#legend input[type=search]'); i.value = arguments[0]; \
             i.dispatchEvent(new Event('input')); \
             return [[...document.querySelectorAll('#legend li[data-band]')].filter(l => l.offsetParent !== null).map(l => l.dataset.band), \
               [...document.querySelectorAll('#chart svg.on g.bands > g')].filter(g => g.childElementCount > 0).length, \
               (document.querySelector('#legend .error') || {}).textContent || ''];",
            json!([q]),
        )
    };
    let shown = state("wordstream");
    let legend = strings(shown[0].clone());
    assert!(!legend.is_empty(), "some entries match");
    for name in &legend {
        assert!(
            name.to_lowercase().contains("wordstream"),
            "{name} is shown"
        );
    }
    assert_eq!(
        shown[1].as_u64().unwrap() as usize,
        legend.len(),
        "the chart draws what the legend shows"
    );
    // A regex the browser cannot read: a message, and the view as it was.
    let bad = state("/[/");
    assert_eq!(bad[0], shown[0], "the legend as it was");
    assert_eq!(bad[1], shown[1], "the chart as it was");
    let message = bad[2].as_str().unwrap();
    assert!(message.contains("regex"), "says what is wrong: {message:?}");
    let back = state("");
    assert_eq!(
        strings(back[0].clone()).len(),
        p.data()["bands"].as_array().unwrap().len()
    );
    assert_eq!(back[2], "", "no message");
    p.assert_quiet("the filter");
}

#[test]
fn the_readout_stands_beside_the_time_it_reads() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-readout");
    let page = page_of(&dir, "page.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    let s = p.data()["scale"].clone();
    let f = |k: &str| s[k].as_f64().unwrap();
    for fx in [0.05, 0.3, 0.5, 0.62, 0.8, 0.97] {
        for fy in [0.1, 0.5, 0.9] {
            let (cx, cy) = p.client_of(f("x0") + fx * f("width"), f("y0") + fy * f("height"));
            p.browser.move_to(cx, cy);
            let boxes = p.js(
                "const b = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }; \
                 return [b(document.getElementById('readout')), b(run.crossLine), b(document.getElementById('chart'))];",
            );
            let boxes: Vec<Vec<f64>> = serde_json::from_value(boxes).unwrap();
            let (readout, cross, chart) = (&boxes[0], &boxes[1], &boxes[2]);
            assert!(
                readout[2] < cross[0] - 4.0 || readout[0] > cross[2] + 4.0,
                "at {fx}, {fy}: the readout {readout:?} covers the time read {cross:?}"
            );
            assert!(
                readout[0] >= chart[0] - 1.0 && readout[2] <= chart[2] + 1.0,
                "inside the chart"
            );
            let r = p.readout_parts();
            assert!(r.rows.len() <= 12, "a few rows");
            assert!(
                r.rows.iter().all(|(_, v)| *v != 0.0),
                "no row at 0: {:?}",
                r.rows
            );
            assert!(
                r.rows.windows(2).all(|w| w[0].1 >= w[1].1),
                "largest first: {:?}",
                r.rows
            );
        }
    }
    p.assert_quiet("the readout");
}

#[test]
fn the_header_says_what_the_profile_is_and_the_page_works_dark_printed_and_narrow() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-header");
    let binary = support::ghc910::program(&dir, "leakmap-ipe");
    // An input in a directory whose name must not travel with the page.
    let private = dir.join("home-someone-projects-shop");
    std::fs::create_dir_all(&private).unwrap();
    let cases: [(&str, &str, &[&str], &[&str]); 4] = [
        (
            "tests/data/ghc-9.10/ghc-compile-hT.eventlog",
            "a.eventlog",
            &["--heap-size"],
            &["closure types, -hT", "every 20 ms", "GHC 9.10.3"],
        ),
        (
            "tests/data/ghc-9.10/leakmap-hi.eventlog",
            "b.eventlog",
            &["--binary"],
            &["info tables, -hi", "GHC 9.10.3"],
        ),
        (
            "tests/data/ghc-9.10/leakmap-he.eventlog",
            "c.eventlog",
            &[],
            &["eras, -he", "every 20 ms"],
        ),
        (
            "tests/data/page/leakmap-O1-hc.hp",
            "d.hp",
            &[],
            &["cost-centre stacks, -hc", "every 5 ms"],
        ),
    ];
    for (from, to, flags, says) in cases {
        std::fs::copy(repo(from), private.join(to)).unwrap();
        let mut flags = flags.to_vec();
        let binary_arg = binary.display().to_string();
        if flags == ["--binary"] {
            flags.push(&binary_arg);
        }
        let page = page_of(&dir, "page.html", &private.join(to), &flags);
        let bytes = String::from_utf8(std::fs::read(&page).unwrap()).unwrap();
        assert!(
            !bytes.contains("home-someone-projects-shop"),
            "{to}: the page holds the directory"
        );
        let p = open_offline(&browser, &page);
        let head = p.js("return document.querySelector('.run-head').textContent;");
        for fact in says {
            assert!(
                head.as_str().unwrap().contains(fact),
                "{to}: {fact:?} in {head}"
            );
        }
        assert_eq!(
            p.js("return document.querySelector('.run-head h1').textContent;"),
            json!(to)
        );
    }
    // Dark: the reader's scheme, and the toggle.
    let background = |p: &Page<'_>| {
        css_rgb(
            p.js("return getComputedStyle(document.documentElement).backgroundColor;")
                .as_str()
                .unwrap(),
        )
    };
    let p = Page { browser: &browser };
    browser.cdp(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    );
    browser.open(&dir.join("page.html"));
    let dark = background(&p);
    assert!(contrast(dark, [0, 0, 0]) < 1.5, "a dark page: {dark:?}");
    p.js("document.querySelector('.head-tools .theme').click(); return 0;");
    assert!(
        contrast(background(&p), [255; 3]) < 1.1,
        "the toggle: light"
    );
    p.js("document.querySelector('.head-tools .theme').click(); localStorage.clear(); return 0;");
    browser.cdp("Emulation.setEmulatedMedia", json!({"features": []}));
    // Printed on a page 700 px wide: nothing overlaps, the table within the page.
    browser.resize(700, 1000);
    browser.open(&dir.join("page.html"));
    browser.cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let printed = p.js(
        "const r = (e) => e.getBoundingClientRect(); const boxes = [...document.querySelectorAll('#legend li, #legend .count, #chart, .run-head > *')] \
           .filter(e => e.offsetParent !== null).map(r).filter(b => b.width > 0 && b.height > 0); \
         let overlaps = 0; for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) { const [a, b] = [boxes[i], boxes[j]]; \
           if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps++; } \
         return [overlaps, r(document.getElementById('bands')).right, document.documentElement.clientWidth];",
    );
    assert_eq!(printed[0], json!(0), "printed, nothing overlaps");
    assert!(
        printed[1].as_f64().unwrap() <= printed[2].as_f64().unwrap() + 1.0,
        "the table within the page: {printed}"
    );
    browser.cdp("Emulation.setEmulatedMedia", json!({"media": ""}));
    // 800 px wide: no sideways scrolling, the chart the page's width, the legend below.
    browser.resize(800, 900);
    browser.open(&dir.join("page.html"));
    let narrow = p.js(
        "const c = document.getElementById('chart').getBoundingClientRect(); const l = document.getElementById('legend').getBoundingClientRect(); \
         return [document.documentElement.scrollWidth, c.width, l.top >= c.bottom];",
    );
    assert!(
        narrow[0].as_f64().unwrap() <= 800.0,
        "no sideways scroll: {narrow}"
    );
    assert!(
        narrow[1].as_f64().unwrap() >= 700.0,
        "the chart the page's width: {narrow}"
    );
    assert_eq!(narrow[2], json!(true), "the legend below the chart");
    // There, each word of a legend name stays on one line where the entry is wide enough
    // for it (the share goes below the name): "(301)wordStrea|m/" broke inside the word.
    let broken = |when: &str| {
        let (entries, broken): (usize, Vec<String>) =
            serde_json::from_value(p.js(BROKEN_WORDS)).unwrap();
        assert_eq!(entries, 9, "{when}: the legend's entries");
        assert!(
            broken.is_empty(),
            "{when}: names cut or words broken: {broken:?}"
        );
    };
    broken("opened 800 px wide");
    // The same once a page opened wide is made narrow.
    browser.resize(WINDOW.0, WINDOW.1);
    browser.open(&dir.join("page.html"));
    p.settle();
    broken("1400 px wide");
    browser.resize(800, 900);
    p.settle();
    broken("made 800 px wide");
    browser.resize(WINDOW.0, WINDOW.1);
    p.assert_quiet("dark, printed and narrow");
}

/// The legend's entries, and its names cut or with a word laid out on more than one line
/// although the entry is wide enough for it beside its swatch (a word is what the page
/// puts between `<wbr>`s).
const BROKEN_WORDS: &str = r#"
const broken = [];
const entries = document.querySelectorAll('#legend li[data-band]');
for (const li of entries) {
  const name = li.querySelector('.name');
  const room = li.querySelector('.toggle').clientWidth - 20;
  if (name.scrollWidth > name.clientWidth + 1) broken.push(li.dataset.band + ': cut');
  for (const w of name.querySelectorAll('.w')) {
    if (w.getClientRects().length < 2) continue;
    const probe = w.cloneNode(true);
    probe.style.cssText = 'position:absolute;white-space:nowrap;visibility:hidden';
    name.appendChild(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    if (width <= room) broken.push(li.dataset.band + ': ' + w.textContent);
  }
}
return [entries.length, broken];
"#;
