//! The time profile beside the heap profile of the same run, and time profiles
//! compared, in headless Chromium (GHC 9.0.2's runs of the shared programs, in
//! `tests/data/prof/`):
//!
//! * `-p -hc -l`: pointing at a band marks its stack in the flame graph (by the `.hp`'s
//!   number, the report's `no.`), choosing a cost centre marks the bands holding it;
//! * `-p -hm`: a band marks its module's cost centres, a cost centre its module's band
//!   (LeakMap's run);
//! * `-p -hr`: a band says its retainer set's members (the report's table);
//! * brushing: dragging across the heap chart of the eventlog shows that window's time
//!   profile, its samples `Sampled::count_in`'s;
//! * a page of two `.prof`: the differential flame graph (`#calldiff`) and the changes
//!   (`#ccchanges`), each the `--summary` comparison's;
//! * axe-core finds no violation on these pages, light and dark; a few tab stops.
//!
//! Needs `chromium` and `chromedriver`; the axe test also `tests/axe/node_modules`.

mod support;

use std::path::PathBuf;

use hp2ps::{load, LoadOptions, Source};
use serde_json::{json, Value};
use support::html_page::*;
use support::prof::data_dir;
use support::TempDir;

fn data(name: &str) -> String {
    data_dir().join(name).display().to_string()
}

/// The page of `inputs` (paths) with `-o page.html`.
fn page(dir: &TempDir, inputs: &[String]) -> PathBuf {
    let out = dir.join("page.html");
    let mut args = vec![
        "--format".to_string(),
        "html".into(),
        "-o".into(),
        out.display().to_string(),
    ];
    args.extend(inputs.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    hp2ps(dir.path(), &args);
    out
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Points (the real pointer) at band `name` of the heap chart, at the sample where it is
/// largest, in the middle of its thickness.
fn point_at_band(p: &Page<'_>, name: &str) {
    let at = p.browser.script(
        "const run = window.hp2ps.runs[0]; const cur = run.current || run.measure(); \
         const band = cur.visible.find(b => b.name === arguments[0]); \
         let best = 0; for (let i = 0; i < run.times.length; i++) if (run.valueIn(band, i, cur.totals) > run.valueIn(band, best, cur.totals)) best = i; \
         let below = 0; for (const b of cur.visible) { const v = run.valueIn(b, best, cur.totals); \
           if (b === band) return [run.xOf(run.times[best]), run.s.y0 + (below + v / 2) * run.s.height / cur.vSpan]; below += v; } return null;",
        json!([name]),
    );
    assert!(!at.is_null(), "band {name} drawn");
    let (x, y) = p.client_of(f(&at[0]), f(&at[1]));
    p.browser.move_to(x, y);
}

/// The labels of the marked (`.linked`) stacks of the flame graph.
fn linked(p: &Page<'_>) -> Vec<String> {
    let v = p.js("return [...document.querySelectorAll('#calltree .fn.linked')].map(e => e.getAttribute('aria-label').split(' ')[0]);");
    serde_json::from_value(v).unwrap()
}

fn status(p: &Page<'_>) -> String {
    p.js("return document.querySelector('.flame-status').textContent;")
        .as_str()
        .unwrap()
        .to_string()
}

/// Chooses the cost centre of label `label` by its table row.
fn choose(p: &Page<'_>, label: &str) {
    p.browser.script(
        "[...document.querySelectorAll('#costcentres tbody tr')].find(tr => tr.querySelector('.nm-key').textContent === arguments[0]).click(); return 0;",
        json!([label]),
    );
}

/// The heap chart's bands the time profile marks.
fn marked_bands(p: &Page<'_>) -> Vec<String> {
    let v = p.js("return (run.linkedBands || []).map(k => run.bands[k].name);");
    serde_json::from_value(v).unwrap()
}

#[test]
fn a_band_marks_its_stack_and_a_cost_centre_its_bands() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-hc");
    let page = page(
        &dir,
        &[
            data("keywords-ghc9.0.2-p-hc-l.hp"),
            data("keywords-ghc9.0.2-p-hc-l.prof"),
        ],
    );
    let p = open_offline(&browser, &page);
    assert_eq!(p.js("return [!!document.getElementById('chart'), !!document.getElementById('calltree'), !!document.getElementById('calltree-readout')];"), json!([true, true, true]));
    // (263)jobs/main.js/main/Mai... is the report's stack no. 263: MAIN > CAF > main >
    // main.js > jobs.
    point_at_band(&p, "(263)jobs/main.js/main/Mai...");
    assert_eq!(linked(&p), ["MAIN", "CAF", "main", "main.js", "jobs"]);
    let s = status(&p);
    assert!(s.starts_with("Band (263)jobs/main.js/main/Mai...: its stack MAIN › CAF › main › main.js › jobs (3.5 %"), "{s}");
    p.browser.move_to(2.0, 2.0);
    assert!(linked(&p).is_empty(), "the pointer gone, nothing marked");
    // A cost centre chosen marks the bands whose stacks hold it.
    choose(&p, "jobs");
    assert_eq!(marked_bands(&p), ["(263)jobs/main.js/main/Mai..."]);
    let hot =
        p.js("return [...document.querySelectorAll('#legend li.hot')].map(li => li.dataset.band);");
    assert_eq!(hot, json!(["(263)jobs/main.js/main/Mai..."]));
    choose(&p, "main");
    let mut all = marked_bands(&p);
    all.sort();
    assert!(
        all.len() >= 5 && all.iter().all(|b| b.contains("main")),
        "{all:?}"
    );
    p.assert_quiet("the link");
}

#[test]
fn modules_and_retainer_sets_link_too() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-hm-hr");
    let hm = page(
        &dir,
        &[
            data("leakmap-ghc9.0.2-p-hm.hp"),
            data("leakmap-ghc9.0.2-p-hm.prof"),
        ],
    );
    let p = open_offline(&browser, &hm);
    let hot = |p: &Page<'_>, name: &str| {
        p.browser.script(
            "const run = window.hp2ps.runs[0]; run.state.hot = run.bands.findIndex(b => b.name === arguments[0]); run.applyHighlight(); return 0;",
            json!([name]),
        );
    };
    hot(&p, "Main");
    let marked = linked(&p);
    assert!(
        marked.contains(&"countWords.step".to_string()) && !marked.contains(&"MAIN".to_string()),
        "{marked:?}"
    );
    assert!(
        status(&p).starts_with("Band Main: the module's "),
        "{}",
        status(&p)
    );
    p.js("run.state.hot = null; run.applyHighlight(); return 0;");
    choose(&p, "lazySum");
    assert_eq!(marked_bands(&p), ["Main"]);
    p.assert_quiet("-hm");
    let hr = page(
        &dir,
        &[
            data("retainer-ghc9.0.2-p-hr.hp"),
            data("retainer-ghc9.0.2-p-hr.prof"),
        ],
    );
    let p = open_offline(&browser, &hr);
    hot(&p, "(91)globalCache");
    let s = status(&p);
    assert!(s.starts_with("Band (91)globalCache: retainer set 91 = {<Main.globalCache,Main.CAF>}, its cost centres marked."), "{s}");
    // globalCache took no time (not drawn), but is marked: the set's cost centres.
    let marked = p.js("const t = window.hp2ps.times[0]; return [...t.linkedNodes].map(i => t.view.name(i)).sort();");
    assert_eq!(marked, json!(["CAF", "globalCache"]));
    p.assert_quiet("-hr");
}

#[test]
fn brushing_the_heap_chart_shows_that_windows_time_profile() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-brush");
    // A bare name: the eventlog (with its samples) and the .prof beside it.
    for ext in ["eventlog", "prof", "hp"] {
        let name = format!("keywords-ghc9.0.2-p-hc-l.{ext}");
        std::fs::copy(data_dir().join(&name), dir.join(&name)).unwrap();
    }
    let page = page(&dir, &["keywords-ghc9.0.2-p-hc-l".to_string()]);
    let p = open_offline(&browser, &page);
    assert_eq!(
        p.js("return window.hp2ps.data.runs[0].file;"),
        json!("keywords-ghc9.0.2-p-hc-l.eventlog")
    );
    // Drag across the middle half of the chart.
    let s = p.js("const s = run.s; return [s.x0, s.width, s.y0, s.height];");
    let (x0, w, y) = (f(&s[0]), f(&s[1]), f(&s[2]) + f(&s[3]) / 2.0);
    let from = p.client_of(x0 + w * 0.25, y);
    let to = p.client_of(x0 + w * 0.75, y);
    p.browser.drag(from, to);
    p.settle();
    let win = p.js("return window.hp2ps.runs[0].state.window;");
    let (a, b) = (f(&win[0]), f(&win[1]));
    let bytes = std::fs::read(dir.join("keywords-ghc9.0.2-p-hc-l.eventlog")).unwrap();
    let loaded = load(Source::Bytes(&bytes), &LoadOptions::default()).unwrap();
    let sampled = hp2ps::internals::prof::sampled_of_heap(loaded.eventlog.as_ref().unwrap())
        .expect("samples");
    let want = sampled.count_in(a, b);
    assert!(
        want > 10 && want < sampled.len(),
        "{want} of {}",
        sampled.len()
    );
    let s = status(&p);
    let thousands = |n: usize| hp2ps::internals::thousands(n as i64);
    assert!(
        s.contains(&format!(
            ": {} of the run's {} samples.",
            thousands(want),
            thousands(sampled.len())
        )),
        "{s}"
    );
    // The flame graph is that window's: its stacks' ticks add up to its samples.
    let ticks = p.js("const t = window.hp2ps.times[0]; return t.view.total('ticks');");
    assert_eq!(f(&ticks) as usize, want);
    let window_tree = sampled.tree_of_window(a, b);
    let drawn_ticks = p.js(
        "const t = window.hp2ps.times[0]; return t.view.roots().map(r => t.view.inh.ticks[r]);",
    );
    let roots: Vec<f64> = window_tree
        .roots()
        .map(|r| {
            window_tree.subtree_sums(
                &window_tree
                    .nodes()
                    .map(|n| window_tree.ticks(n).unwrap())
                    .collect::<Vec<_>>(),
            )[r.index()] as f64
        })
        .collect();
    let drawn_ticks: Vec<f64> = serde_json::from_value(drawn_ticks).unwrap();
    assert_eq!(drawn_ticks, roots);
    // Zoomed out: the whole run's profile (the report's) again.
    p.js("window.hp2ps.runs[0].zoomTo(null); return 0;");
    assert!(!status(&p).contains("samples."), "{}", status(&p));
    assert_eq!(
        p.js("const t = window.hp2ps.times[0]; return t.view === t.tree;"),
        json!(true)
    );
    p.assert_quiet("brushing");
}

#[test]
fn two_runs_compared() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-compare");
    let (a, b) = (
        data("leakmap-ghc9.0.2-p.prof"),
        data("leakmap-ghc9.10.3-p.prof"),
    );
    let page = page(&dir, &[a.clone(), b.clone()]);
    let p = open_offline(&browser, &page);
    let summary = hp2ps(dir.path(), &["--summary=json", &a, &b]);
    let summary: Value = serde_json::from_slice(&summary).unwrap();
    let rows = p.js("const d = window.hp2ps.timeDiff; return [...document.querySelectorAll('#ccchanges tbody tr')].map(tr => { \
        const c = +tr.dataset.cc; return [d.diff.ccs.label[c], d.diff.ccs.module[c], d.diff.ccs.src[c], tr.children[3].textContent]; });");
    let rows = rows.as_array().unwrap();
    // --summary lists the ten biggest changes: each is the page's.
    let changes = summary["changes"].as_array().unwrap();
    assert!(
        rows.len() >= changes.len() && changes.len() >= 5,
        "{} rows",
        rows.len()
    );
    for c in changes {
        let row = rows
            .iter()
            .find(|r| r[0] == c["name"] && r[1] == c["module"] && r[2] == c["src"])
            .unwrap_or_else(|| panic!("{c}"));
        let change = f(&c["time_pct_change"]);
        let shown = row[3].as_str().unwrap();
        let want = if change.abs() < 0.05 {
            format!("{:.1}", 0.0)
        } else {
            format!("{:+.1}", change)
        };
        assert_eq!(
            shown.trim_start_matches('+'),
            want.trim_start_matches('+'),
            "{c}"
        );
    }
    // Biggest change first, as --summary lists them.
    assert_eq!(rows[0][0], changes[0]["name"]);
    // The differential flame graph: red where a stack's own share grew.
    let grew = p.js("const d = window.hp2ps.timeDiff; return [...document.querySelectorAll('#calldiff .fn')].map(e => [e.getAttribute('aria-label'), d.change(+e.dataset.node, 'time'), getComputedStyle(e).backgroundColor]);");
    let grew = grew.as_array().unwrap();
    assert!(grew.len() > 5);
    for g in grew {
        let change = f(&g[1]);
        let rgb: Vec<f64> = g[2]
            .as_str()
            .unwrap()
            .trim_start_matches("rgb(")
            .trim_end_matches(')')
            .split(", ")
            .map(|v| v.parse().unwrap())
            .collect();
        if change > 0.5 {
            assert!(rgb[0] > rgb[2], "red for more: {g}");
        } else if change < -0.5 {
            assert!(rgb[2] > rgb[0], "blue for less: {g}");
        }
    }
    p.assert_quiet("the comparison");
}

#[test]
fn axe_finds_no_violation_and_a_few_tab_stops() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-axe");
    let pages = [
        page_of(
            &dir,
            "alone.html",
            &data_dir().join("textproc-ghc9.0.2-P.prof"),
            &[],
        ),
        page(
            &dir,
            &[
                data("keywords-ghc9.0.2-p-hc-l.hp"),
                data("keywords-ghc9.0.2-p-hc-l.prof"),
            ],
        ),
        {
            let out = dir.join("compare.html");
            hp2ps(
                dir.path(),
                &[
                    "--format",
                    "html",
                    "-o",
                    out.to_str().unwrap(),
                    &data("arrays-ghc9.0.2-p.prof"),
                    &data("arrays-ghc9.10.3-p.prof"),
                ],
            );
            out
        },
    ];
    // A few tab stops: the skip links, a stop per panel.
    let p = open_offline(&browser, &pages[0]);
    let stops = p.js("return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')] \
        .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0).length;");
    assert!(f(&stops) <= 20.0, "{stops} tab stops");
    p.js("document.activeElement.blur(); window.scrollTo(0, 0); return 0;");
    p.browser.keys(&["\u{E004}", "\u{E004}"]);
    assert_eq!(
        p.js("return document.activeElement.textContent;"),
        json!("Skip to the cost centres")
    );
    p.js("document.querySelector('nav.skip a').click(); return 0;");
    assert_eq!(p.js("return document.activeElement.id;"), json!("calltree"));
    if !support::tools::require_npm("tests/axe", "axe-core") {
        return;
    }
    let axe = std::fs::read_to_string(repo("tests/axe/node_modules/axe-core/axe.min.js")).unwrap();
    let mut report = String::new();
    for page in &pages {
        for dark in ["light", "dark"] {
            let p = open_offline(&browser, page);
            p.browser.cdp(
                "Emulation.setEmulatedMedia",
                json!({"media": "", "features": [{"name": "prefers-color-scheme", "value": dark}]}),
            );
            // Pointed at and chosen: the readout and the sandwich show, the search marks.
            let (x, y) = p.centre_of(".flame .fn");
            p.browser.move_to(x, y);
            p.js("const tr = document.querySelector('.costcentres tbody tr'); if (tr) tr.click(); \
                  const s = document.querySelector('.flame-search'); if (s) { s.value = 'a'; s.dispatchEvent(new Event('input')); } return 0;");
            p.browser.move_to(x, y);
            p.settle();
            p.browser.script(&format!("{axe}\n;return 0;"), json!([]));
            let result = p.browser.async_script(
                "const done = arguments[arguments.length - 1]; \
                 axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}) \
                   .then(r => done(r.violations.map(v => [v.id, v.impact, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary.replace(/\\s+/g, ' ').slice(0, 160))])), \
                         e => done([['axe failed', String(e), 0, []]]));",
                json!([]),
            );
            for v in result.as_array().cloned().unwrap_or_default() {
                report.push_str(&format!(
                    "{}, {dark}: {v}\n",
                    page.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(report.is_empty(), "axe-core's violations:\n{report}");
}
