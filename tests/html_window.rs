//! The page of one run when zoomed, and its cost-centre icicle, in headless Chromium:
//!
//! * zoomed, the band table's numbers are the window's: each band's peak is the highest of
//!   its `.hp` values inside the window, at the first sample with it, and its mean its
//!   trapezoid area over the window's samples by their span; the caption names the
//!   window; the "At" column holds the `.hp`'s values at the pointer's sample and sorts;
//! * the icicle of a -hc profile (manycc: 137 stacks, most merged into OTHER or left out
//!   as traces): at a sample, each cost centre is as wide as the `.hp`'s values of the
//!   stacks under it, innermost or outermost first; a click shows only its bands;
//! * zoomed to a tenth of a large real profile (`tests/data/large`), the chart differs
//!   from the same window drawn from every sample in at most 0.5 % of its pixels, where
//!   the drawn samples alone would not do.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`); without
//! them the tests are skipped loudly, or fail when `CI=true`.

mod support;

use std::collections::HashMap;

use support::html_page::*;
use support::raster::{self, Image};
use support::TempDir;

/// The table's rows: name and each numeric column's value.
fn table_rows(p: &Page<'_>) -> Vec<(String, Vec<f64>)> {
    let rows = p.js(
        "const more = document.querySelector('.more-rows'); if (!more.hidden) more.click(); \
         return [...document.querySelectorAll('#bands tbody tr')].map(tr => \
           [tr.dataset.name, ...[...tr.querySelectorAll('td[data-value]')].map(td => td.dataset.value)]);",
    );
    (rows.as_array().unwrap().iter())
        .map(|r| {
            let r = r.as_array().unwrap();
            let nums = (r[1..].iter())
                .map(|v| v.as_str().unwrap().parse::<f64>().unwrap_or(f64::NAN))
                .collect();
            (r[0].as_str().unwrap().to_string(), nums)
        })
        .collect()
}

// The columns of `td[data-value]`, in order.
const PEAK: usize = 0;
const WHEN: usize = 1;
const SHARE: usize = 2;
const MEAN: usize = 4;
const AT: usize = 5;

#[test]
fn numbers_for_the_window_and_at_the_pointer() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-window");
    let input = repo("golden/inputs/leakmap-O0-hc-bio-dragvoid.hp");
    let page = page_of(&dir, "page.html", &input, &["-c"]);
    let p = open_offline(&browser, &page);
    let profile = profile_of(&input);
    let cols = columns(&profile);
    let times = &profile.times;
    let data = p.data();
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    let whole = table_rows(&p);

    // Drag across 0.3 to 0.62 of the graph.
    let y = f("y0") + f("height") / 2.0;
    p.browser.drag(
        p.client_of(f("x0") + 0.3 * f("width"), y),
        p.client_of(f("x0") + 0.62 * f("width"), y),
    );
    // The table's numbers follow once the window rests.
    p.settle();
    let w: Vec<f64> = serde_json::from_value(p.js("return run.state.window;")).expect("zoomed");
    let inside: Vec<usize> = (0..times.len())
        .filter(|&i| times[i] >= w[0] && times[i] <= w[1])
        .collect();
    assert!(inside.len() >= 5, "{} samples in {w:?}", inside.len());
    let caption = p.js("return document.querySelector('#bands caption').textContent;");
    let window_text = p.js(&format!(
        "return [window.hp2ps.seconds({}), window.hp2ps.seconds({})];",
        w[0], w[1]
    ));
    for end in window_text.as_array().unwrap() {
        assert!(
            caption.as_str().unwrap().contains(end.as_str().unwrap()),
            "{caption}"
        );
    }
    let rows = table_rows(&p);
    assert_eq!(rows.len(), whole.len(), "every band");
    let (first, last) = (inside[0], inside[inside.len() - 1]);
    let span = times[last] - times[first];
    let weight = |i: usize| {
        let before = if i > first {
            times[i] - times[i - 1]
        } else {
            0.0
        };
        let after = if i < last {
            times[i + 1] - times[i]
        } else {
            0.0
        };
        (before + after) / 2.0
    };
    let mut changed = 0;
    for (name, nums) in &rows {
        let col = &cols[name];
        let peak = inside.iter().map(|&i| col[i]).fold(0.0, f64::max);
        let when = inside
            .iter()
            .find(|&&i| col[i] == peak && peak > 0.0)
            .map_or(times[first], |&i| times[i]);
        assert_eq!(nums[PEAK], peak, "{name}: the window's peak");
        assert_eq!(nums[WHEN], when, "{name}: when");
        let mean = inside.iter().map(|&i| col[i] * weight(i)).sum::<f64>() / span;
        assert!(
            (nums[MEAN] - mean).abs() <= 1e-9 * mean.abs().max(1.0),
            "{name}: mean {} {mean}",
            nums[MEAN]
        );
        let before = &whole.iter().find(|(n, _)| n == name).unwrap().1;
        changed += usize::from(before[PEAK] != peak);
    }
    assert!(changed >= 3, "the window's numbers are not the run's");
    let shares: f64 = rows.iter().map(|(_, n)| n[SHARE]).sum();
    assert!((shares - 1.0).abs() < 1e-9, "the shares add up: {shares}");

    // Pointing: the "At" column is the .hp's values at the sample, and sorts by them.
    let i = inside[inside.len() / 2];
    let x = ((times[i] - w[0]) / (w[1] - w[0])) * f("width") + f("x0");
    let (cx, cy) = p.client_of(x, f("y0") + 2.0);
    p.browser.move_to(cx, cy);
    p.settle();
    let (x, y) = p.centre_of("#bands th:nth-child(8) button");
    p.browser.click_at(x, y, 1, None);
    let rows = table_rows(&p);
    for (name, nums) in &rows {
        assert_eq!(nums[AT], cols[name][i], "{name} at sample {i}");
    }
    assert!(
        rows.windows(2).all(|r| r[0].1[AT] >= r[1].1[AT]),
        "sorted, largest first"
    );
    let head =
        p.js("return document.querySelector('#bands th:nth-child(8)').getAttribute('aria-sort');");
    assert_eq!(head, "descending");

    // Zoomed out: the run's own numbers again.
    p.js("run.zoomTo(null); return 0;");
    p.settle();
    let again = table_rows(&p);
    for (name, nums) in &again {
        let before = &whole.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(nums[..AT], before[..AT], "{name}");
    }
    p.assert_quiet("window numbers");
}

/// A stack's cost centres as the icicle splits them.
fn frames(name: &str) -> Vec<String> {
    let name = match name.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => name,
    };
    name.split('/').map(String::from).collect()
}

#[test]
fn the_icicle_of_a_cost_centre_profile() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-icicle");
    let input = repo("golden/inputs/manycc-O0-hc.hp");
    let page = page_of(&dir, "page.html", &input, &["-c"]);
    let p = open_offline(&browser, &page);
    let profile = profile_of(&input);
    let cols = columns(&profile);
    let data = p.data();
    assert!(data["rest"].is_object(), "every band's values in the page");
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    for outer in [false, true] {
        if outer {
            p.js("run.section.querySelector('.icicle button').click(); return 0;");
        }
        for i in [profile.times.len() / 3, profile.times.len() * 2 / 3] {
            let x = ((profile.times[i] - f("t0")) / f("tSpan")) * f("width") + f("x0");
            let (cx, cy) = p.client_of(x, f("y0") + 2.0);
            p.browser.move_to(cx, cy);
            p.settle();
            let nodes = p.js(
                "return [...document.querySelectorAll('.icicle .node')].map(n => [n.dataset.path, +n.dataset.value]);",
            );
            let nodes: Vec<(String, f64)> = serde_json::from_value(nodes).unwrap();
            assert!(nodes.len() >= 10, "{} nodes", nodes.len());
            for (path, size) in &nodes {
                let path: Vec<&str> = path.split('/').collect();
                let under: f64 = (cols.iter())
                    .filter(|(name, _)| {
                        let mut fr = frames(name);
                        if outer {
                            fr.reverse();
                        }
                        fr.len() >= path.len() && fr[..path.len()] == path[..]
                    })
                    .map(|(_, col)| col[i])
                    .sum();
                assert_eq!(
                    *size, under,
                    "{path:?} at sample {i} (outermost first: {outer})"
                );
            }
            let head = p.js("return run.section.querySelector('.icicle h2').textContent;");
            let at = p.js(&format!(
                "return window.hp2ps.seconds({});",
                profile.times[i]
            ));
            assert!(
                head.as_str().unwrap().contains(at.as_str().unwrap()),
                "{head}"
            );
        }
    }
    // A click on a cost centre: only the bands under it are drawn.
    let chosen = p.js(
        "const n = [...document.querySelectorAll('.icicle .node')].find(n => n.dataset.path.split('/').length === 2); \
         n.scrollIntoView({block: 'center'}); const r = n.getBoundingClientRect(); \
         return [n.dataset.path, r.left + 4, r.top + r.height / 2];",
    );
    let path: Vec<String> = chosen[0]
        .as_str()
        .unwrap()
        .split('/')
        .map(String::from)
        .collect();
    p.browser.click_at(
        chosen[1].as_f64().unwrap(),
        chosen[2].as_f64().unwrap(),
        1,
        None,
    );
    let drawn = p.js("return run.bands.filter(b => !run.isHidden(b)).map(b => b.name);");
    let drawn: Vec<String> = serde_json::from_value(drawn).unwrap();
    let table = &data["table"];
    let fates: HashMap<&str, &str> = (table["name"].as_array().unwrap().iter())
        .zip(table["fate"].as_array().unwrap())
        .map(|(n, f)| (n.as_str().unwrap(), f.as_str().unwrap()))
        .collect();
    let mut want: Vec<String> = Vec::new();
    for name in cols.keys() {
        let mut fr = frames(name);
        fr.reverse();
        if fr.len() >= path.len() && fr[..path.len()] == path[..] {
            match fates[name.as_str()] {
                "drawn" => want.push(name.clone()),
                "other" if !want.iter().any(|w| w == "OTHER") => want.push("OTHER".into()),
                _ => {}
            }
        }
    }
    want.sort();
    let mut drawn = drawn;
    drawn.sort();
    assert!(!want.is_empty());
    assert_eq!(drawn, want, "the bands under {path:?}");
    p.assert_quiet("the icicle");
}

/// The chart of `page` zoomed to `from..to` of the run (shares of its span).
fn zoomed(p: &Page<'_>, page: &std::path::Path, from: f64, to: f64, levels: bool) -> Image {
    p.browser.open(page);
    if !levels {
        p.js("run.d.detail = []; return 0;");
    }
    p.js(&format!(
        "const s = run.s; run.zoomTo(s.t0 + {from} * s.tSpan, s.t0 + {to} * s.tSpan); return 0;"
    ));
    p.chart_shot()
}

#[test]
fn zoomed_to_a_tenth_a_large_profile_is_drawn_from_its_own_samples() {
    if !support::html_page::have_large() {
        return;
    }
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-detail");
    let input = dir.write("long.hp", &large("longrun-O1-hc-i0.0001.hp.gz"));
    let every = page_of(&dir, "every.html", &input, &["-c", "--max-points", "0"]);
    let p = Page { browser: &browser };
    for (tag, flags) in [
        ("default", &["-c"][..]),
        ("1000", &["-c", "--max-points", "1000"][..]),
        ("300", &["-c", "--max-points", "300"][..]),
    ] {
        let page = page_of(&dir, &format!("{tag}.html"), &input, flags);
        for (from, to) in [(0.45, 0.55), (0.07, 0.17)] {
            let want = zoomed(&p, &every, from, to, true);
            let got = zoomed(&p, &page, from, to, true);
            let drawn =
                p.js("const [i0, i1] = run.inside(); return [i1 - i0 + 1, run.base.times.length];");
            let c = raster::compare(&want, &got).expect("same size");
            if c.share() > 0.005 {
                let d = raster::save_images(
                    "html-detail",
                    &[
                        ("every", &want),
                        ("page", &got),
                        ("diff", &c.diff_image(&want)),
                    ],
                );
                panic!("{tag} {from}..{to}: {} ({})", c.summary(), d.display());
            }
            eprintln!(
                "{tag} {from}..{to}: {drawn} samples in the window and drawn; {}",
                c.summary()
            );
            // The drawn samples alone are not enough (so the levels did the work).
            if tag != "default" {
                let thin = zoomed(&p, &page, from, to, false);
                let c = raster::compare(&want, &thin).expect("same size");
                assert!(
                    c.share() > 0.005,
                    "{tag}: without the levels {}",
                    c.summary()
                );
            }
        }
    }
    p.assert_quiet("zoomed");
}
