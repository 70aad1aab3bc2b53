//! A time profile's page (`hp2ps --format html prog.prof`) in headless Chromium: the
//! flame graph (`#calltree`) as wide as the report's inherited numbers; pointing names
//! the cost centre, module and source location with its numbers (`#readout`); a click
//! zooms in (breadcrumbs back, Escape out); the measures; the search's matches and
//! their share; the sandwich; the cost-centre table (`#costcentres`, a row per cost
//! centre with `data-cc`), its numbers the flat table's and its sorting; the view in the
//! URL and back on reload; dark, 800 px and no console message.
//!
//! Needs `chromium` and `chromedriver` (skipped loudly without them).

mod support;

use hp2ps::internals::calltree::{CallTree, NodeId};
use serde_json::{json, Value};
use support::html_page::*;
use support::prof::{data_dir, read, tree_of};
use support::TempDir;

/// The page of time profile `file` of `tests/data/prof`.
fn page(dir: &TempDir, file: &str) -> std::path::PathBuf {
    page_of(dir, "t.html", &data_dir().join(file), &[])
}

fn tree(file: &str) -> CallTree {
    tree_of(&read(&data_dir().join(file))).clone()
}

/// The node of `tree` whose path of labels is `path`.
fn node(tree: &CallTree, path: &[&str]) -> NodeId {
    (tree.nodes())
        .find(|&n| {
            let labels: Vec<&str> = tree
                .path(n)
                .into_iter()
                .map(|m| tree.cost_centre(tree.cc(m)).label)
                .collect();
            labels == path
        })
        .unwrap_or_else(|| panic!("no stack {path:?}"))
}

/// What the flame graph shows of node `n` (its index in the page's data, which carries
/// every stack of a small tree in the file's order): its left and width over the box's
/// width, or null when not drawn.
fn drawn(p: &Page<'_>, n: usize) -> Value {
    p.browser.script(
        "const box = document.getElementById('calltree'); const e = box.querySelector('.fn[data-node=\"' + arguments[0] + '\"]'); \
         if (!e) return null; const b = box.getBoundingClientRect(), r = e.getBoundingClientRect(); \
         return [(r.left - b.left) / b.width, (r.width + 1) / b.width, e.getAttribute('aria-level')];",
        json!([n]),
    )
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn the_flame_graph_hovers_zooms_switches_and_searches() {
    let Some(browser) = browser() else {
        return;
    };
    let file = "textproc-ghc9.0.2-P.prof";
    let t = tree(file);
    let dir = TempDir::new("html-time-flame");
    let p = open_offline(&browser, &page(&dir, file));
    // Every stack as wide as its inherited time: main.freq (44.4 %) and main.doc
    // (18.6 %) under main (100 %).
    let freq = node(&t, &["MAIN", "CAF", "main", "main.freq"]);
    let doc = node(&t, &["MAIN", "CAF", "main", "main.doc"]);
    let main = node(&t, &["MAIN", "CAF", "main"]);
    for n in [freq, doc, main] {
        let d = drawn(&p, n.index());
        assert!(
            (f(&d[1]) - t.inherited_time(n) / 100.0).abs() < 0.004,
            "{n:?}: {d}"
        );
    }
    // Widest first: main.freq left of main.doc.
    assert!(f(&drawn(&p, freq.index())[0]) < f(&drawn(&p, doc.index())[0]));
    // Pointing names the stack and says its numbers, the report's.
    let (x, y) = p.centre_of(&format!("#calltree .fn[data-node=\"{}\"]", doc.index()));
    p.browser.move_to(x, y);
    let r = p.js(
        "const r = document.getElementById('readout'); return r.hidden ? null : \
         [r.querySelector('.cc-name').textContent, r.querySelector('.cc-where').textContent, \
          [...r.querySelectorAll('tr')].map(tr => [...tr.children].map(c => c.textContent))];",
    );
    assert_eq!(r[0], json!("main.doc"));
    assert_eq!(r[1], json!("Main · programs/TextProc.hs:63:7-25"));
    let rows: Vec<Vec<String>> = serde_json::from_value(r[2].clone()).unwrap();
    let time = rows.iter().find(|r| r[0] == "Time").expect("a time row");
    assert!(time[1].starts_with("18.6 % ("), "{time:?}");
    assert!(time[2].starts_with("0.0 %"), "{time:?}");
    let ticks = rows.iter().find(|r| r[0] == "Ticks").expect("a ticks row");
    let inherited_ticks =
        t.subtree_sums(&t.nodes().map(|n| t.ticks(n).unwrap()).collect::<Vec<_>>())[doc.index()];
    assert_eq!(ticks[1], inherited_ticks.to_string());
    // A click zooms into it: as wide as the box, its path in the breadcrumbs.
    p.browser.click_at(x, y, 1, None);
    let d = drawn(&p, doc.index());
    assert!(
        f(&d[0]).abs() < 0.002 && (f(&d[1]) - 1.0).abs() < 0.004,
        "{d}"
    );
    assert_eq!(d[2], json!("1"), "the root of the view is its first level");
    let crumbs =
        p.js("return [...document.querySelectorAll('.crumbs button')].map(b => b.textContent);");
    assert_eq!(
        crumbs,
        json!(["All stacks", "MAIN", "CAF", "main", "main.doc"])
    );
    assert!(drawn(&p, freq.index()).is_null(), "outside the zoom");
    // Its callees, as wide as their share of it.
    let mk_line = node(
        &t,
        &["MAIN", "CAF", "main", "main.doc", "document", "mkLine"],
    );
    let want = t.inherited_time(mk_line) / t.inherited_time(doc);
    assert!((f(&drawn(&p, mk_line.index())[1]) - want).abs() < 0.01);
    // Escape: one level up; a breadcrumb: the whole tree.
    p.js(&format!(
        "document.querySelector('#calltree .fn[data-node=\"{}\"]').focus(); return 0;",
        doc.index()
    ));
    p.browser.keys(&["\u{E00C}"]);
    let crumbs =
        p.js("return [...document.querySelectorAll('.crumbs button')].map(b => b.textContent);");
    assert_eq!(crumbs, json!(["All stacks", "MAIN", "CAF", "main"]));
    p.js("document.querySelector('.crumbs button').click(); return 0;");
    assert!(!drawn(&p, freq.index()).is_null());
    // Allocation: the widths follow inherited %alloc.
    p.js("document.querySelector('.time-tools button[data-value=\"alloc\"]').click(); return 0;");
    for n in [freq, doc] {
        let d = drawn(&p, n.index());
        assert!(
            (f(&d[1]) - t.inherited_alloc(n) / 100.0).abs() < 0.004,
            "{n:?}: {d}"
        );
    }
    // The search marks its matches and says their share (of the time: the outermost).
    p.js("document.querySelector('.time-tools button[data-value=\"time\"]').click(); \
          const s = document.querySelector('.flame-search'); s.value = 'mk'; s.dispatchEvent(new Event('input')); return 0;");
    // Every matching stack counted, the outermost's time summed.
    let (mut share, mut stacks, mut outer) = (0.0, 0, 0);
    let mut ccs = std::collections::BTreeSet::new();
    for n in t.nodes() {
        let c = t.cost_centre(t.cc(n));
        if format!("{} {} {}", c.label, c.module, c.src)
            .to_lowercase()
            .contains("mk")
        {
            stacks += 1;
            ccs.insert(t.cc(n));
            if n.index() >= outer {
                share += t.inherited_time(n);
                outer = t.subtree_end(n).index();
            }
        }
    }
    let status = p.js("return document.querySelector('.flame-status').textContent;");
    let status = status.as_str().unwrap();
    let want = format!(
        "{stacks} stacks of {} cost centres match: {share:.1} % of the time shown.",
        ccs.len()
    );
    assert!(status.starts_with(&want), "{status} is not {want}");
    assert_eq!(ccs.len(), 2);
    let marks = p.js("return [document.querySelectorAll('#calltree .fn.match').length, document.querySelectorAll('#calltree .fn.dim').length];");
    assert!(f(&marks[0]) >= 2.0 && f(&marks[1]) > 5.0, "{marks}");
    p.assert_quiet("pointing, zooming and searching");
}

#[test]
fn the_table_sandwich_and_url_state() {
    let Some(browser) = browser() else {
        return;
    };
    let file = "leakmap-ghc9.0.2-P.prof";
    let t = tree(file);
    let flat = t.flat_table();
    let dir = TempDir::new("html-time-table");
    let page = page(&dir, file);
    let p = open_offline(&browser, &page);
    // A row per cost centre, with data-cc, its numbers the flat table's.
    let rows = p.js("return [...document.querySelectorAll('#costcentres tbody tr')].map(tr => \
        [tr.dataset.cc, tr.querySelector('.nm-key').textContent, tr.querySelector('.c-stacks').textContent, \
         tr.querySelector('.c-ticks').textContent, tr.querySelector('.c-time').textContent]);");
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), flat.iter().filter(|r| r.stacks > 0).count());
    for row in rows {
        let label = row[1].as_str().unwrap();
        let r = flat.iter().find(|r| {
            t.cost_centre(r.cc).label == label && r.stacks.to_string() == row[2].as_str().unwrap()
        });
        let r = r.unwrap_or_else(|| panic!("{row}"));
        assert_eq!(
            row[3].as_str().unwrap().replace(',', ""),
            r.ticks.unwrap().to_string()
        );
        assert_eq!(
            row[4].as_str().unwrap(),
            format!("{:.1}", r.time_share(t.header()))
        );
    }
    // Sorted by time, biggest first; a header sorts by its column.
    assert_eq!(rows[0][1], json!("countWords.step"));
    p.js("document.querySelector('#costcentres th.c-entries button').click(); return 0;");
    let first =
        p.js("return document.querySelector('#costcentres tbody tr .c-entries').textContent;");
    let most = flat.iter().map(|r| r.entries).max().unwrap();
    assert_eq!(first.as_str().unwrap().replace(',', ""), most.to_string());
    // A row chooses its cost centre: its stacks marked, its sandwich merged over both.
    let step = flat
        .iter()
        .find(|r| t.cost_centre(r.cc).label == "countWords.step")
        .unwrap();
    assert_eq!(step.stacks, 2);
    p.js("[...document.querySelectorAll('#costcentres tbody tr')].find(tr => tr.querySelector('.nm-key').textContent === 'countWords.step').click(); return 0;");
    let chosen = p.js("return document.querySelectorAll('#calltree .fn.chosen').length;");
    assert_eq!(chosen, json!(2));
    let sandwich = t.sandwich(step.cc);
    let label = |tr: &CallTree, n: NodeId| tr.cost_centre(tr.cc(n)).label.to_string();
    let callers: Vec<String> = sandwich
        .callers
        .roots()
        .flat_map(|r| sandwich.callers.children(r).collect::<Vec<_>>())
        .map(|n| label(&sandwich.callers, n))
        .collect();
    let shown = p.js("const s = document.getElementById('sandwich'); if (s.hidden) return null; \
        return [...s.querySelectorAll('.flame')].map(b => [...b.querySelectorAll('.fn')].map(e => [e.getAttribute('aria-level'), e.getAttribute('aria-label')]));");
    assert!(!shown.is_null(), "the sandwich shows");
    let second: Vec<String> = (shown[0].as_array().unwrap().iter())
        .filter(|e| e[0] == "2")
        .map(|e| {
            e[1].as_str()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    let mut want = callers.clone();
    want.sort();
    let mut got = second.clone();
    got.sort();
    assert_eq!(got, want, "its callers, merged");
    let top = shown[0][0][1].as_str().unwrap();
    assert!(
        top.starts_with(&format!(
            "countWords.step (Main): {:.1} %",
            step.inherited_time
        )),
        "{top}"
    );
    // The view in the address: measure, zoom, search, cost centre, order; a reload
    // shows it again.
    let main_m = node(&t, &["MAIN", "CAF", "main", "main.m"]);
    p.js(&format!("document.querySelector('.time-tools button[data-value=\"bytes\"]').click(); \
        document.querySelector('#calltree .fn[data-node=\"{}\"]').click(); \
        const s = document.querySelector('.flame-search'); s.value = 'count'; s.dispatchEvent(new Event('input')); return 0;", main_m.index()));
    p.settle();
    let hash = p.js("return location.hash;");
    let hash = hash.as_str().unwrap().to_string();
    for want in [
        "t.m=bytes",
        &format!("t.z={}", main_m.index()),
        "t.q=count",
        "t.sort=entries",
        "t.cc=",
    ] {
        assert!(hash.contains(want), "{want} in {hash}");
    }
    p.js("location.reload(); return 0;");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let state = p.js("const t = window.hp2ps.times[0]; return [t.state.measure, t.state.zoom, t.state.query, t.state.cc, t.state.sort.key, \
        document.querySelector('.flame-search').value, document.querySelector('.crumbs [aria-current=\"true\"]').textContent];");
    assert_eq!(state[0], json!("bytes"));
    assert_eq!(state[1], json!(main_m.index()));
    assert_eq!(state[2], json!("count"));
    assert_eq!(state[4], json!("entries"));
    assert_eq!(state[5], json!("count"));
    assert_eq!(state[6], json!("main.m"));
    p.assert_quiet("the table, the sandwich and the address");
}

#[test]
fn dark_800px_and_printed() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-time-screens");
    let p = open_offline(&browser, &page(&dir, "textproc-ghc9.10.3-P.prof"));
    // Dark: the page's colours change, the frames' labels still read (4.5:1 at least).
    p.browser.cdp(
        "Emulation.setEmulatedMedia",
        json!({"media": "", "features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    );
    let colours = p.js("const px = (c) => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number); \
        const lum = ([r, g, b]) => { const l = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * l(r) + 0.7152 * l(g) + 0.0722 * l(b); }; \
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)]; return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }; \
        const nodes = [...document.querySelectorAll('#calltree .fn')].filter(e => e.textContent); \
        return [getComputedStyle(document.documentElement).backgroundColor, Math.min(...nodes.map(e => { const s = getComputedStyle(e); return ratio(px(s.color), px(s.backgroundColor)); }))];");
    assert_eq!(colours[0], json!("rgb(22, 24, 29)"));
    assert!(f(&colours[1]) >= 4.5, "{colours}");
    // 800 px: one scroll, nothing wider than the page.
    p.browser.resize(800, 900);
    p.settle();
    let wide = p.js("return [document.documentElement.scrollWidth, window.innerWidth, \
        [...document.querySelectorAll('#costcentres, #calltree, .time-tools')].map(e => Math.round(e.getBoundingClientRect().right))];");
    assert!(f(&wide[0]) <= f(&wide[1]), "{wide}");
    for right in wide[2].as_array().unwrap() {
        assert!(f(right) <= f(&wide[1]), "{wide}");
    }
    // The flame graph redrawn to the width: its root as wide as its box.
    let root = p.js("const b = document.getElementById('calltree').getBoundingClientRect(); const e = document.querySelector('#calltree .fn[data-node=\"0\"]').getBoundingClientRect(); return [b.width, e.width];");
    assert!((f(&root[0]) - f(&root[1]) - 1.0).abs() <= 1.5, "{root}");
    // Printed: no toolbar, no readout.
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let shown = p.js("return [getComputedStyle(document.querySelector('.time-tools')).display, document.querySelectorAll('#calltree .fn').length > 3];");
    assert_eq!(shown, json!(["none", true]));
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": ""}));
    p.browser.resize(WINDOW.0, WINDOW.1);
    p.assert_quiet("dark, 800 px, printed");
}
