//! The page for keyboards, screen readers and other screens (issue 37), in headless
//! Chromium:
//!
//! * axe-core (`tests/axe`, installed by `.ci/run` with `npm ci`) finds no WCAG 2 A or AA
//!   violation, contrast included, in the light and the dark scheme, on a `-hc` page, GHC
//!   compiling with `--heap-size`, a GHC 9.10 `-hc` log whose icicle has text on a mid
//!   colour (the ink failed 4.5:1 there) and a page of two runs;
//! * a few tab stops (a skip link first, one per panel, the arrow keys inside: the
//!   legend, the table, the icicle as a tree of levels), the focus shown;
//! * the chart's picture hidden from screen readers, a summary in its place;
//! * 800 px wide: one scroll, no table wider than the page; printed: headers whole, the
//!   `-hi` table condensed, its headers atop every page of the PDF;
//! * zoom history through the URL (back and forward), the table as CSV in the units
//!   shown, `(:)` bold whole, "bytes per second".
//!
//! Needs `chromium` and `chromedriver`; the axe test needs `tests/axe/node_modules`.

mod support;

use serde_json::{json, Value};
use support::html_page::*;
use support::TempDir;

fn leakmap() -> std::path::PathBuf {
    repo("tests/data/page/leakmap-O1-hc.hp")
}

fn ghc_compile() -> std::path::PathBuf {
    repo("tests/data/ghc-9.10/ghc-compile-hT.eventlog")
}

fn scheme(p: &Page<'_>, dark: bool) {
    let scheme = if dark { "dark" } else { "light" };
    p.browser.cdp(
        "Emulation.setEmulatedMedia",
        json!({"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]}),
    );
}

#[test]
fn axe_finds_no_violation_in_either_scheme() {
    if !support::tools::require_npm("tests/axe", "axe-core") {
        return;
    }
    let Some(browser) = browser() else {
        return;
    };
    let axe = std::fs::read_to_string(repo("tests/axe/node_modules/axe-core/axe.min.js")).unwrap();
    let dir = TempDir::new("html-axe");
    let pages = [
        page_of(&dir, "hc.html", &leakmap(), &[]),
        page_of(&dir, "ghc.html", &ghc_compile(), &["--heap-size"]),
        // Its icicle has text on a mid colour (#a463f2), where the ink failed 4.5:1.
        page_of(
            &dir,
            "flush.html",
            &repo("tests/data/ghc-9.10/leakmap-hc-flush.eventlog"),
            &[],
        ),
        {
            let out = dir.join("compare.html");
            let (a, b) = (leakmap(), repo("tests/data/ghc-9.10/leakmap-hc.eventlog"));
            let args = [
                "--format",
                "html",
                "-o",
                out.to_str().unwrap(),
                a.to_str().unwrap(),
                b.to_str().unwrap(),
            ];
            hp2ps(dir.path(), &args);
            out
        },
    ];
    let mut report = String::new();
    let mut found = 0;
    for page in &pages {
        for dark in [false, true] {
            let p = open_offline(&browser, page);
            scheme(&p, dark);
            // Pointed at, so that the readout is checked too.
            let (cx, cy) = p.centre_of("#chart svg");
            p.browser.move_to(cx, cy);
            p.settle();
            p.browser.script(&format!("{axe}\n;return 0;"), json!([]));
            let result = p.browser.async_script(
                "const done = arguments[arguments.length - 1]; \
                 axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}) \
                   .then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 160))])), \
                         e => done([['axe failed', String(e), 0, []]]));",
                json!([]),
            );
            let violations = result.as_array().cloned().unwrap_or_default();
            let name = page.file_name().unwrap().to_string_lossy();
            report.push_str(&format!(
                "{name}, {}: {} violations\n",
                if dark { "dark" } else { "light" },
                violations.len()
            ));
            for v in &violations {
                report.push_str(&format!("  {v}\n"));
            }
            found += violations.len();
        }
    }
    if let Some(path) = std::env::var_os("HP2PS_AXE_REPORT") {
        std::fs::write(path, &report).expect("the report");
    }
    assert_eq!(found, 0, "axe-core's violations:\n{report}");
}

/// The elements Tab stops at.
const TAB_STOPS: &str = "return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')] \
     .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0).length;";

#[test]
fn a_few_tab_stops_a_skip_link_and_arrow_keys_inside() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-keys");
    let page = page_of(&dir, "ghc.html", &ghc_compile(), &["--heap-size"]);
    let p = open_offline(&browser, &page);
    let stops = p.js(TAB_STOPS).as_u64().unwrap();
    // 731 bands, 20 legend entries, 500 rows: before, 1,044 stops.
    assert!(stops <= 30, "{stops} tab stops");
    // The first Tab: the skip link; Enter: the chart has the focus.
    p.js("document.activeElement.blur(); window.scrollTo(0, 0); return 0;");
    p.browser.keys(&["\u{E004}"]);
    let first =
        p.js("return [document.activeElement.tagName, document.activeElement.textContent];");
    assert_eq!(first, json!(["A", "Skip to the chart"]));
    p.browser.keys(&["\u{E007}"]);
    assert_eq!(p.js("return document.activeElement.id;"), json!("chart"));
    assert_eq!(
        p.js("return location.hash;"),
        json!(""),
        "the state's fragment untouched"
    );
    // The focus is shown.
    let ring = p.js("return getComputedStyle(document.activeElement).outlineStyle;");
    assert_ne!(ring, json!("none"));
    // The legend: one stop, ↓ to the next entry, Enter hides its band.
    p.js("document.querySelector('#legend .toggle[tabindex=\"0\"]').focus(); return 0;");
    p.browser.keys(&["\u{E015}"]);
    let second = p.js("const e = document.activeElement; return [e.closest('li').dataset.band, e.tabIndex, [...document.querySelectorAll('#legend .toggle')].indexOf(e)];");
    assert_eq!(second[1], json!(0));
    assert_eq!(second[2], json!(1), "the second entry");
    p.browser.keys(&["\u{E007}"]);
    let hidden = p.js("return [...run.state.hidden];");
    assert_eq!(hidden, json!([second[0]]));
    // The table's rows: one stop, ↓ to the next row.
    p.js("document.querySelector('#bands tbody tr[tabindex=\"0\"]').focus(); return 0;");
    p.browser.keys(&["\u{E015}"]);
    let row = p.js("const e = document.activeElement; return [e.tagName, [...e.parentNode.children].indexOf(e), document.querySelectorAll('#bands tbody tr[tabindex=\"0\"]').length];");
    assert_eq!(row, json!(["TR", 1, 1]));
    p.assert_quiet("keys");
}

#[test]
fn the_icicle_is_a_tree_of_levels() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-tree");
    let page = page_of(&dir, "hc.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    p.settle();
    let tree = p.js(
        "const t = document.querySelector('.icicle [role=tree]'); const items = [...t.querySelectorAll('[role=treeitem]')]; \
         return [items.length, [...new Set(items.map(e => e.getAttribute('aria-level')))].sort(), \
           items.filter(e => e.tabIndex === 0).length, items.every(e => e.getAttribute('aria-setsize') && e.getAttribute('aria-posinset'))];",
    );
    assert!(tree[0].as_u64().unwrap() > 3, "{tree}");
    assert!(tree[1].as_array().unwrap().len() >= 2, "levels: {tree}");
    assert_eq!(tree[2], json!(1), "one tab stop");
    assert_eq!(tree[3], json!(true));
    p.js("document.querySelector('.icicle [role=treeitem][tabindex=\"0\"]').focus(); return 0;");
    let path = || {
        p.js("return [document.activeElement.dataset.path, document.activeElement.getAttribute('aria-level')];")
    };
    let top = path();
    p.browser.keys(&["\u{E015}"]);
    let down = path();
    assert_eq!(down[1], json!("2"), "↓: a caller, a level down");
    assert!(down[0]
        .as_str()
        .unwrap()
        .starts_with(&format!("{}/", top[0].as_str().unwrap())));
    p.browser.keys(&["\u{E013}"]);
    assert_eq!(path(), top, "↑: back");
    p.assert_quiet("tree");
}

#[test]
fn screen_readers_read_a_summary_not_the_glyphs() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-sr");
    let page = page_of(&dir, "hc.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    p.js("run.toggle(0); return 0;");
    let seen = p.js(
        "return [[...document.querySelectorAll('#chart svg')].every(s => s.closest('[aria-hidden=\"true\"]')), \
           document.getElementById(document.getElementById('chart').getAttribute('aria-describedby')).textContent];",
    );
    assert_eq!(seen[0], json!(true), "every picture of the chart hidden");
    let summary = seen[1].as_str().unwrap();
    for word in ["Stacked chart", "Peak 42.6 MiB", "band table"] {
        assert!(summary.contains(word), "{word}: {summary}");
    }
}

/// The elements that scroll inside the page (a box of their own), by class.
const SCROLL_BOXES: &str = "return [...document.querySelectorAll('body *')].filter(e => { \
     const s = getComputedStyle(e); return e.getClientRects().length && \
       ((/(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1) || \
        (/(auto|scroll)/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1)); }).map(e => e.className || e.tagName);";

#[test]
fn narrow_one_scroll_and_printed_whole_headers() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-narrow");
    let hi = page_of(
        &dir,
        "hi.html",
        &repo("tests/data/ghc-9.10/leakmap-hi.eventlog"),
        &[],
    );
    let hc = page_of(&dir, "hc.html", &leakmap(), &[]);
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 800, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
    );
    for page in [&hi, &hc] {
        let p = open_offline(&browser, page);
        let wide = p.js("return [document.documentElement.scrollWidth, innerWidth];");
        assert!(
            wide[0].as_f64() <= wide[1].as_f64(),
            "{page:?}: wider than the window: {wide}"
        );
        assert_eq!(
            p.js(SCROLL_BOXES),
            json!([]),
            "{page:?}: a box that scrolls"
        );
    }
    // Printed on A4 (about 720 CSS pixels wide): headers break between words only, and
    // the -hi table's rows take a few pages (10 for 75 rows before).
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 720, "height": 1000, "deviceScaleFactor": 1, "mobile": false}),
    );
    let p = open_offline(&browser, &hi);
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let heads = p.js(
        "return [...document.querySelectorAll('#bands th')].filter(th => th.getClientRects().length).map(th => { \
           const s = getComputedStyle(th); return [th.textContent, s.overflowWrap, s.wordBreak, th.scrollWidth <= th.clientWidth + 1]; });",
    );
    for h in heads.as_array().unwrap() {
        assert_eq!(h[1], json!("normal"), "{h}");
        assert_eq!(h[2], json!("normal"), "{h}");
        assert_eq!(h[3], json!(true), "{h}: wider than its column");
    }
    let rows = p.js("document.querySelector('.more-rows').click(); const t = document.getElementById('bands'); return [t.rows.length, t.getBoundingClientRect().height];");
    let (count, height) = (rows[0].as_f64().unwrap(), rows[1].as_f64().unwrap());
    // An A4 page holds about 1,000 CSS pixels of table.
    assert!(
        height / count <= 40.0,
        "{count} rows, {height} px: not condensed"
    );
}

/// Printed to PDF, a table of several pages has its column headers atop each: Chromium
/// repeats the header row, but not a button's text in it (the sortable headers are
/// buttons), so page 2 on had only "Info" before the labels were printed as text.
#[test]
fn a_printed_table_has_its_headers_on_every_page() {
    let Some(browser) = browser() else {
        return;
    };
    if !support::tools::require("/usr/bin/pdftotext") {
        return;
    }
    let dir = TempDir::new("html-printed");
    let hi = page_of(
        &dir,
        "hi.html",
        &repo("tests/data/ghc-9.10/textproc-hi.eventlog"),
        &[],
    );
    let p = open_offline(&browser, &hi);
    p.js("document.querySelector('.more-rows').click();");
    let pdf = p.browser.cdp("Page.printToPDF", json!({}));
    let pdf = support::webdriver::base64_decode(pdf["data"].as_str().expect("a PDF"));
    let file = dir.write("hi.pdf", &pdf);
    let text = std::process::Command::new("/usr/bin/pdftotext")
        .args(["-layout".as_ref(), file.as_os_str(), "-".as_ref()])
        .output()
        .expect("pdftotext runs");
    let text = String::from_utf8_lossy(&text.stdout);
    // The table's rows, by their growth in bytes a second (the chart's page has none).
    let with_rows: Vec<&str> = (text.split('\x0c'))
        .filter(|page| page.contains("B/s"))
        .collect();
    assert!(with_rows.len() >= 2, "the table on one page: {text}");
    for (i, page) in with_rows.iter().enumerate() {
        for head in ["Band", "Peak", "Share", "Growth"] {
            assert!(
                page.contains(head),
                "table page {i} without {head:?}:\n{page}"
            );
        }
    }
}

#[test]
fn zoom_history_csv_and_small_glitches() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-history");
    let hp = "JOB \"ops +RTS -hd\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
              BEGIN_SAMPLE 0.0\n(:)\t2000000\nghc-prim:GHC.Types.:\t1000000\nEND_SAMPLE 0.0\n\
              BEGIN_SAMPLE 1.0\n(:)\t3000000\nghc-prim:GHC.Types.:\t500000\nEND_SAMPLE 1.0\n\
              BEGIN_SAMPLE 2.0\n(:)\t1000000\nghc-prim:GHC.Types.:\t700000\nEND_SAMPLE 2.0\n";
    let input = dir.write("ops.hp", hp.as_bytes());
    let page = page_of(&dir, "ops.html", &input, &[]);
    let p = open_offline(&browser, &page);
    // `(:)` is an operator: bold whole; a qualified one bolds its last part.
    let keys = p.js("return [...document.querySelectorAll('#legend li')].map(li => [li.dataset.band, [...li.querySelectorAll('.nm-key')].map(k => k.textContent).join('')]);");
    assert!(
        keys.as_array().unwrap().contains(&json!(["(:)", "(:)"])),
        "{keys}"
    );
    assert!(
        keys.as_array()
            .unwrap()
            .contains(&json!(["ghc-prim:GHC.Types.:", ":"])),
        "{keys}"
    );
    let growth = p.js("return document.querySelector('#bands th.c-slope').title;");
    assert!(
        growth.as_str().unwrap().contains("bytes per second;"),
        "{growth}"
    );
    // Each zoom is a step of the history: back and forward go through them.
    let wait = || std::thread::sleep(std::time::Duration::from_millis(400));
    let window = || p.js("return run.state.window;");
    p.js("run.zoomTo(0.5, 1.5); return 0;");
    wait();
    p.js("run.zoomTo(0.75, 1.25); return 0;");
    wait();
    p.js("history.back(); return 0;");
    wait();
    assert_eq!(window(), json!([0.5, 1.5]), "back: the first zoom");
    p.js("history.back(); return 0;");
    wait();
    assert_eq!(window(), Value::Null, "back again: the whole run");
    p.js("history.forward(); return 0;");
    wait();
    assert_eq!(window(), json!([0.5, 1.5]), "forward");
    // The table as CSV, of the window shown, in the units shown.
    p.settle();
    let csv = p.js("return run.csv();");
    let csv = csv.as_str().unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert!(
        lines[0].starts_with("Band,Peak (MiB),When (s),Share (%),Growth ("),
        "{csv}"
    );
    assert_eq!(lines.len(), 3, "{csv}");
    // (:)'s peak in the window 0.5 to 1.5 is its value at 1.0: 3,000,000 bytes, in MiB.
    let ops: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("(:),"))
        .expect("(:)")
        .split(',')
        .collect();
    let peak: f64 = ops[1].parse().unwrap();
    assert!((peak - 3_000_000.0 / 1_048_576.0).abs() < 1e-5, "{ops:?}");
    assert_eq!(ops[2], "1", "when");
    p.assert_quiet("history");
}
