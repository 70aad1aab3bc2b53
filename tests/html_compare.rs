//! Two real runs in one page (`--format html -o page.html a b`), in headless Chromium:
//! LeakMap's -hc eventlogs of GHC 9.0.2 and GHC 9.10.3.
//!
//! * the charts' axes have the same labels, and a name drawn in both runs has one colour;
//! * the difference view lists every band of both runs with `--summary=json`'s peak and
//!   area of each file and their changes, the biggest growth in peak first; matched by
//!   their innermost cost centre, a key's numbers are those of its stacks together;
//! * pointing at one chart puts the crosshair at the nearest sample in the other, and the
//!   view's "At" columns show the runs' values there; zooming one zooms the other.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`); without
//! them the tests are skipped loudly, or fail when `CI=true`.

mod support;

use std::collections::HashMap;
use std::path::Path;

use serde_json::{json, Value};
use support::html_page::*;
use support::TempDir;

/// A band's name as the runs match it: without the `.hp`'s stack number and without the
/// ` #k` an eventlog adds to the stacks `-L` cut to one name.
fn key(name: &str) -> String {
    let k = match name.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.to_string(),
        _ => name.to_string(),
    };
    match k.rsplit_once(" #") {
        Some((stack, n)) if n.bytes().all(|b| b.is_ascii_digit()) => stack.to_string(),
        _ => k,
    }
}

/// Its innermost cost centre.
fn innermost(name: &str) -> String {
    key(name).split('/').next().unwrap_or("").to_string()
}

/// `--summary=json` of each file: every band's name, peak and area.
fn summaries(dir: &TempDir, files: &[&str]) -> Vec<HashMap<String, (f64, f64)>> {
    let mut args = vec!["--summary=json", "--top", "1000000"];
    args.extend_from_slice(files);
    let out = hp2ps(dir.path(), &args);
    (String::from_utf8_lossy(&out).lines())
        .map(|line| {
            let s: Value = serde_json::from_str(line).expect("JSON");
            (s["top"].as_array().unwrap().iter())
                .map(|b| {
                    let name = b["name"].as_str().unwrap().to_string();
                    (
                        name,
                        (b["peak"].as_f64().unwrap(), b["area"].as_f64().unwrap()),
                    )
                })
                .collect()
        })
        .collect()
}

/// The difference view's rows: each key with its cells by column.
fn diff_rows(p: &Page<'_>) -> Vec<(String, HashMap<String, f64>)> {
    let rows = p.js(
        "const more = document.querySelector('.compare-diff .more-rows, #compare .more-rows'); if (!more.hidden) more.click(); \
         return [...document.querySelectorAll('#diff tbody tr')].map(tr => [tr.dataset.key, \
           [...tr.querySelectorAll('td[data-col]')].map(td => [td.dataset.col, td.dataset.value])]);",
    );
    (rows.as_array().unwrap().iter())
        .map(|r| {
            let cells = (r[1].as_array().unwrap().iter())
                .map(|c| {
                    let v = c[1].as_str().unwrap();
                    let v = if v == "NaN" {
                        f64::NAN
                    } else {
                        v.parse().unwrap()
                    };
                    (c[0].as_str().unwrap().to_string(), v)
                })
                .collect();
            (r[0].as_str().unwrap().to_string(), cells)
        })
        .collect()
}

#[test]
fn two_real_runs_in_one_page() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-compare");
    for (from, to) in [
        ("tests/data/eventlog/leakmap-hc.eventlog", "before.eventlog"),
        ("tests/data/ghc-9.10/leakmap-hc.eventlog", "after.eventlog"),
    ] {
        std::fs::copy(repo(from), dir.join(to)).unwrap();
    }
    let files = ["before.eventlog", "after.eventlog"];
    let mut args = vec!["-c", "--format", "html", "-o", "cmp.html"];
    args.extend_from_slice(&files);
    hp2ps(dir.path(), &args);
    let p = open_offline(&browser, &dir.join("cmp.html"));
    let run_files =
        p.js("return [...document.querySelectorAll('section.run')].map(s => s.dataset.run);");
    assert_eq!(run_files, json!(files));
    the_axes_are_shared_and_a_name_has_one_colour(&p);
    let sums = summaries(&dir, &files);
    the_differences_are_the_summarys(&p, &sums);
    the_csv_is_the_difference_view(&p);
    pointing_at_one_chart_points_at_the_other(&p, &dir, &files);
    zooming_one_chart_zooms_the_other(&p);
    innermost_cost_centres_match_their_stacks_together(&p, &sums);
    the_filter_says_what_it_takes_whole(&p);
    p.assert_quiet("after the interactions");
}

/// The compare toolbar's filter shows its whole placeholder ("Filter bands: text, or
/// /regex/" lost its last characters in a box 14rem wide): the text's width, the box's
/// padding and the room Chromium keeps for a search box's clear button, within the box.
fn the_filter_says_what_it_takes_whole(p: &Page<'_>) {
    let fits = p.js(
        "const i = document.querySelector('.compare .toolbar input[type=search]'); const s = getComputedStyle(i); \
         const c = document.createElement('canvas').getContext('2d'); c.font = s.font; \
         return [c.measureText(i.placeholder).width + parseFloat(s.paddingLeft) + parseFloat(s.paddingRight) + 20, i.clientWidth];",
    );
    let (needs, has) = (fits[0].as_f64().unwrap(), fits[1].as_f64().unwrap());
    assert!(
        needs <= has,
        "the filter's placeholder needs {needs} px, has {has}"
    );
}

fn the_axes_are_shared_and_a_name_has_one_colour(p: &Page<'_>) {
    let labels = p.js(
        "return runs.map(r => ['xt', 'yt'].map(c => [...r.picture.querySelectorAll('text.' + c)].map(t => t.textContent)));",
    );
    let labels: Vec<Vec<Vec<String>>> = serde_json::from_value(labels).unwrap();
    assert!(
        labels[0][0].len() >= 3 && labels[0][1].len() >= 3,
        "{labels:?}"
    );
    assert_eq!(labels[0], labels[1], "the axes' labels");
    // Each drawn band's fill in the picture and in its legend entry.
    let fills = p.js(
        "return runs.map(r => r.d.bands.map((b, k) => [b.name, \
           r.picture.querySelectorAll('g.bands > g')[k].querySelector('polygon').getAttribute('fill'), \
           r.section.querySelector('li[data-band=\"' + CSS.escape(b.name) + '\"] .sw rect').getAttribute('fill')]));",
    );
    let fills: Vec<Vec<(String, String, String)>> = serde_json::from_value(fills).unwrap();
    let mut shared = 0;
    for (name, fill, key) in &fills[0] {
        assert_eq!(fill, key, "{name}: the legend's colour");
        if let Some((_, other, _)) = fills[1].iter().find(|(n, _, _)| n == name) {
            assert_eq!(fill, other, "{name} has one colour");
            shared += 1;
        }
    }
    assert!(shared >= 5, "{shared} names drawn in both runs");
}

fn the_differences_are_the_summarys(p: &Page<'_>, sums: &[HashMap<String, (f64, f64)>]) {
    let rows = diff_rows(p);
    let names: std::collections::HashSet<String> =
        sums.iter().flat_map(|s| s.keys().map(|n| key(n))).collect();
    assert_eq!(
        rows.len(),
        names.len(),
        "a row for every name of either run"
    );
    let mut previous = f64::INFINITY;
    for (k, cells) in &rows {
        for (i, sum) in sums.iter().enumerate() {
            // A key's bands together: their areas added; the peak of one is its own, of
            // several the highest of their sum (at least each one's, at most all added).
            let members: Vec<(f64, f64)> = (sum.iter())
                .filter(|(n, _)| key(n) == *k)
                .map(|(_, v)| *v)
                .collect();
            let area: f64 = members.iter().map(|m| m.1).sum();
            let got = cells[&format!("area{i}")];
            assert!(
                (got - area).abs() <= 1e-9 * area.abs().max(1.0),
                "{k}: area {got} of run {}, {area}",
                i + 1
            );
            let peak = cells[&format!("peak{i}")];
            match members.as_slice() {
                [] => assert_eq!(peak, 0.0, "{k}: not in run {}", i + 1),
                [one] => assert_eq!(peak, one.0, "{k}: peak of run {}", i + 1),
                many => {
                    let highest = many.iter().map(|m| m.0).fold(0.0, f64::max);
                    let all: f64 = many.iter().map(|m| m.0).sum();
                    assert!(
                        peak >= highest && peak <= all,
                        "{k}: peak {peak} of run {}",
                        i + 1
                    );
                }
            }
        }
        assert_eq!(cells["peakd1"], cells["peak1"] - cells["peak0"], "{k}");
        assert_eq!(cells["aread1"], cells["area1"] - cells["area0"], "{k}");
        // The biggest change first, grown or shrunk (issue 37: the leak's own band, which
        // shrank, was last of 24 when growth came first).
        assert!(
            cells["peakd1"].abs() <= previous,
            "{k}: the biggest change first"
        );
        previous = cells["peakd1"].abs();
    }
}

/// One line of CSV (RFC 4180: a field in quotes may hold commas and doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// What a unit named in a CSV header is worth in the profile's unit.
fn unit_worth(header: &str) -> f64 {
    let unit = header
        .rsplit_once(" (")
        .map_or("", |(_, u)| u.trim_end_matches(')'));
    match unit {
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        _ => 1.0,
    }
}

/// The difference view's CSV (its button's file) is the view: a row per key in the
/// view's order, every number the view's in the unit its header names.
fn the_csv_is_the_difference_view(p: &Page<'_>) {
    let rows = diff_rows(p);
    let csv = p.js("return window.hp2ps.compare.csv();");
    let csv = csv.as_str().expect("text");
    let lines: Vec<Vec<String>> = (csv.split("\r\n"))
        .filter(|l| !l.is_empty())
        .map(csv_fields)
        .collect();
    let header = &lines[0];
    assert_eq!(header[0], "Band", "{csv}");
    assert_eq!(lines.len() - 1, rows.len(), "a line per row: {csv}");
    let cols = p.js("return window.hp2ps.compare.columns().map(c => c.key);");
    let cols: Vec<String> = serde_json::from_value(cols).unwrap();
    assert_eq!(header.len(), cols.len() + 1, "{header:?}");
    for (line, (key, cells)) in lines[1..].iter().zip(&rows) {
        assert_eq!(&line[0], key, "the view's order");
        for (i, col) in cols.iter().enumerate() {
            let (text, shown) = (&line[i + 1], cells[col]);
            if shown.is_nan() || col.starts_with("at") {
                continue;
            }
            let value: f64 = text
                .parse()
                .unwrap_or_else(|_| panic!("{key} {col}: {text}"));
            let worth = unit_worth(&header[i + 1]);
            // Rounded at its last digit written (six significant digits at least, the
            // whole part always).
            let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
            let last = 10f64.powi(-(decimals as i32)) * worth;
            assert!(
                decimals > 0
                    || text.trim_start_matches('-').len() >= 6
                    || shown.abs() < 1e6 * worth,
                "{key} {col}: {text} has fewer than six digits"
            );
            assert!(
                (value * worth - shown).abs() <= last / 2.0 + 1e-9 * shown.abs(),
                "{key} {col}: {text} in {} is not {shown}",
                header[i + 1]
            );
        }
    }
}

/// The value of every key of a profile at sample `i` (its bands' together).
fn values_at(path: &Path, i: usize) -> HashMap<String, f64> {
    let mut values = HashMap::new();
    for (n, c) in columns(&profile_of(path)) {
        *values.entry(key(&n)).or_insert(0.0) += c[i];
    }
    values
}

fn pointing_at_one_chart_points_at_the_other(p: &Page<'_>, dir: &TempDir, files: &[&str]) {
    // Run 1's middle sample, halfway up its stack.
    let at = p.js_in(
        0,
        "run.figure.scrollIntoView({block: 'center'}); const i = run.times.length >> 1; \
         const v = run.bands.reduce((t, b) => t + b.values[i], 0) / 2; \
         const q = new DOMPoint(run.xOf(run.times[i]), 432 - (run.s.y0 + v * run.s.height / run.s.vSpan)) \
           .matrixTransform(run.overlay.getScreenCTM()); return [q.x, q.y, i, run.times[i]];",
    );
    let (i, t) = (at[2].as_u64().unwrap() as usize, at[3].as_f64().unwrap());
    p.browser
        .move_to(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    p.settle();
    // Run 2's crosshair at its sample nearest t.
    let other = p.js_in(
        1,
        &format!(
            "let j = 0; run.times.forEach((s, k) => {{ if (Math.abs(s - {t}) < Math.abs(run.times[j] - {t})) j = k; }}); \
             return [j, run.crossLine.getAttribute('visibility'), run.crossLine.getAttribute('x1'), \
               window.hp2ps.coord(run.xOf(run.times[j]))];"
        ),
    );
    let j = other[0].as_u64().unwrap() as usize;
    assert_eq!(other[1], "visible", "the other chart's crosshair");
    assert_eq!(other[2], other[3], "at its sample nearest {t}");
    // The view's "At" columns: each run's values there, as its profile has them.
    let want = [
        values_at(&dir.join(files[0]), i),
        values_at(&dir.join(files[1]), j),
    ];
    let rows = diff_rows(p);
    for (k, cells) in &rows {
        for (n, values) in want.iter().enumerate() {
            let v = values.get(k.as_str()).copied().unwrap_or(0.0);
            assert_eq!(cells[&format!("at{n}")], v, "{k} in run {}", n + 1);
        }
    }
    let head = p.js(&format!(
        "return [document.querySelector('#diff th[title^=\"The value at\"]').textContent, window.hp2ps.seconds({t})];"
    ));
    assert!(
        head[0]
            .as_str()
            .unwrap()
            .contains(head[1].as_str().unwrap()),
        "{head}"
    );
    p.browser.move_to(2.0, 2.0);
    let hidden = p.js_in(1, "return run.crossLine.getAttribute('visibility');");
    assert_eq!(hidden, "hidden", "the pointer left: no crosshair");
}

fn zooming_one_chart_zooms_the_other(p: &Page<'_>) {
    let ends = p.js_in(
        0,
        "run.figure.scrollIntoView({block: 'center'}); const s = run.s; const y = 432 - (s.y0 + s.height / 2); \
         const m = run.overlay.getScreenCTM(); \
         return [0.2, 0.5].map(f => new DOMPoint(s.x0 + f * s.width, y).matrixTransform(m)).map(q => [q.x, q.y]);",
    );
    let pt = |k: usize| (ends[k][0].as_f64().unwrap(), ends[k][1].as_f64().unwrap());
    p.browser.drag(pt(0), pt(1));
    let windows = p.js("return runs.map(r => r.state.window);");
    assert!(windows[0].is_array(), "zoomed: {windows}");
    assert_eq!(
        windows[0], windows[1],
        "the other chart shows the same time"
    );
    p.browser.click_at(pt(0).0, pt(0).1, 2, None);
    assert_eq!(
        p.js("return runs.map(r => r.state.window);"),
        json!([null, null])
    );
}

fn innermost_cost_centres_match_their_stacks_together(
    p: &Page<'_>,
    sums: &[HashMap<String, (f64, f64)>],
) {
    p.js("const s = document.querySelector('#compare select'); s.value = '1'; s.dispatchEvent(new Event('change')); return 0;");
    let rows = diff_rows(p);
    let keys: std::collections::HashSet<String> = sums
        .iter()
        .flat_map(|s| s.keys().map(|n| innermost(n)))
        .collect();
    assert_eq!(rows.len(), keys.len());
    assert!(
        rows.len() < sums[0].len().max(sums[1].len()),
        "stacks grouped"
    );
    for (k, cells) in &rows {
        for (i, sum) in sums.iter().enumerate() {
            let members: Vec<&(f64, f64)> = sum
                .iter()
                .filter(|(n, _)| innermost(n) == *k)
                .map(|(_, v)| v)
                .collect();
            let area: f64 = members.iter().map(|m| m.1).sum();
            let got = cells[&format!("area{i}")];
            assert!(
                (got - area).abs() <= 1e-9 * area.abs().max(1.0),
                "{k}: area {got}, {area}"
            );
            if members.len() == 1 {
                assert_eq!(cells[&format!("peak{i}")], members[0].0, "{k}");
            }
        }
    }
    p.js("const s = document.querySelector('#compare select'); s.value = '0'; s.dispatchEvent(new Event('change')); return 0;");
}

/// The same program's GHC 9.0.2 `.hp` against its GHC 9.10.3 eventlog: the `.hp` names
/// two stacks that `-L` cut to one name once, the eventlog tells them apart as `#1` and
/// `#2`; by default they are one band, which grew. A matched band has one colour in
/// both runs, no two bands of a run share one, and at 1280×800 both charts are in sight.
#[test]
fn a_stack_cut_by_l_is_one_band_and_the_runs_stand_side_by_side() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-cut");
    std::fs::copy(repo("tests/data/page/leakmap-O1-hc.hp"), dir.join("a.hp")).unwrap();
    std::fs::copy(
        repo("tests/data/ghc-9.10/leakmap-hc.eventlog"),
        dir.join("b.eventlog"),
    )
    .unwrap();
    hp2ps(
        dir.path(),
        &["--format", "html", "-o", "cmp.html", "a.hp", "b.eventlog"],
    );
    browser.resize(1280, 800);
    let p = open_offline(&browser, &dir.join("cmp.html"));
    let rows = diff_rows(&p);
    assert!(
        rows.iter()
            .all(|(k, _)| !k.ends_with(" #1") && !k.ends_with(" #2")),
        "no row of one of the cut stacks alone"
    );
    let (_, step) = (rows.iter())
        .find(|(k, _)| k.starts_with("countWords.step/"))
        .expect("countWords.step's row");
    let (before, after) = (step["peak0"], step["peak1"]);
    assert!(
        before > 4e6 && after > before,
        "countWords.step grew: {before} -> {after}"
    );
    assert!(step["peakd1"] > 0.0);
    // Colours: a matched band's in both runs; none twice in a run.
    let fills = p.js(
        "return runs.map(r => r.d.bands.map((b, k) => [b.name.replace(/^\\(\\d+\\)/, ''), \
           r.picture.querySelectorAll('g.bands > g')[k].querySelector('polygon').getAttribute('fill')]));",
    );
    let fills: Vec<Vec<(String, String)>> = serde_json::from_value(fills).unwrap();
    for run in &fills {
        let mut colours: Vec<&String> = run.iter().map(|(_, c)| c).collect();
        colours.sort();
        colours.dedup();
        assert_eq!(colours.len(), run.len(), "a colour per band: {run:?}");
    }
    let colour = |run: usize, name: &str| {
        fills[run]
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.clone())
    };
    for name in ["lazySum/main/Main.CAF", "main/Main.CAF"] {
        assert_eq!(colour(0, name), colour(1, name), "{name}");
        assert!(colour(0, name).is_some(), "{name} drawn");
    }
    // The cut stacks: the .hp's by number, the eventlog's by suffix, pair for pair.
    let cut: Vec<String> = (fills[0].iter())
        .filter(|(n, _)| n.starts_with("countWords.step/"))
        .map(|(_, c)| c.clone())
        .collect();
    let suffixed: Vec<String> = ["countWords.step/count... #1", "countWords.step/count... #2"]
        .iter()
        .filter_map(|n| colour(1, n))
        .collect();
    assert_eq!(cut.len(), 2);
    let mut a = cut.clone();
    let mut b = suffixed.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b, "the cut stacks' colours in both runs");
    // Side by side: both charts whole in the window at once.
    let seen = p.js(
        "runs[0].figure.scrollIntoView({block: 'start'}); \
         return runs.map(r => { const b = r.figure.getBoundingClientRect(); \
           return b.top >= -1 && b.left >= 0 && b.bottom <= innerHeight + 1 && b.right <= innerWidth + 1; });",
    );
    assert_eq!(
        seen,
        json!([true, true]),
        "both charts in sight at 1280×800"
    );
    browser.resize(WINDOW.0, WINDOW.1);
    p.assert_quiet("the cut stacks");
}
