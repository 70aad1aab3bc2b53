//! The page's second pass (issue 37), in headless Chromium:
//!
//! * the y axis fits the bands shown, by default, and settles calmly into a new scale;
//!   the heap lines of GHC compiling with `--heap-size` have a panel and a scale of
//!   their own, under the bands;
//! * one peak and one total: the header's, the axis's mark, the readout's at that sample,
//!   the table's total row, the icicle's and `--summary`'s are the same number;
//! * every band of OTHER and every trace can be drawn from the table of a profile whose
//!   page cannot carry all their values, within the page's budget, which it says;
//! * the compare page at 1280×800: legends that do not scroll sideways, a readout for
//!   every run, tick labels at least 10.5 px, chips whole;
//! * the readout leaves the leak's spike in sight; the hover outline follows a band only
//!   where it has a thickness.
//!
//! Needs `chromium` and `chromedriver`.

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

/// The top y tick label of the chart shown, in bytes.
fn top_label(p: &Page<'_>) -> f64 {
    let v = p.js(
        "const t = [...document.querySelectorAll('#chart svg.on text.yt')].map(e => e.textContent); \
         const u = [...document.querySelectorAll('#chart svg.on .yl, #chart svg.on .yl-view')].filter(e => e.getAttribute('visibility') !== 'hidden').map(e => e.textContent); \
         return [t[t.length - 1], u[0]];",
    );
    let unit = match v[1].as_str().unwrap_or("") {
        "KiB" => 1024.0,
        "MiB" => 1_048_576.0,
        _ => 1.0,
    };
    v[0].as_str()
        .unwrap()
        .replace(',', "")
        .parse::<f64>()
        .unwrap()
        * unit
}

fn summary_peak(dir: &TempDir, input: &std::path::Path, flags: &[&str]) -> f64 {
    let mut args = vec!["--summary=json"];
    args.extend_from_slice(flags);
    let input = input.display().to_string();
    args.push(&input);
    let s: Value = serde_json::from_slice(&hp2ps(dir.path(), &args)).unwrap();
    s["peak"]["total"].as_f64().unwrap()
}

#[test]
fn the_axis_fits_the_bands_shown_and_the_heap_has_its_own_panel() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-fit");
    let input = ghc_compile();
    let page = page_of(&dir, "ghc.html", &input, &["--heap-size"]);
    let p = open_offline(&browser, &page);
    let peak = summary_peak(&dir, &input, &[]);
    // The bands' scale is theirs: the heap size (66 MB) is not on it (before: 460 MiB
    // against 162 on the 70 MB log; 60 MiB against 21 here).
    let top = top_label(&p);
    assert!(
        top <= peak && top > peak * 0.7,
        "top label {top}, peak {peak}"
    );
    // The heap lines: a panel of their own, each line, on a scale that holds them.
    let panel = p.js("return [document.querySelectorAll('.heap-panel polyline[data-line]').length, run.heapTop];");
    assert_eq!(panel[0], json!(3));
    assert!(panel[1].as_f64().unwrap() >= 66_060_288.0, "{panel}");
    // Hiding the three biggest bands: the axis fits the others, calmly. The animations
    // are counted in the same script as the toggles: they last a quarter of a second,
    // which a busy machine's next WebDriver call could take (the count was then 0).
    let animated = p.js("for (const k of [run.bands.length - 1, run.bands.length - 2, run.bands.length - 3]) run.toggle(k); return document.getAnimations().length;");
    assert!(
        animated.as_u64().unwrap() > 0,
        "the bands settle into the new scale"
    );
    let fitted = top_label(&p);
    assert!(fitted < top * 0.8, "fitted {fitted}, before {top}");
    // The Lines view: the biggest single band's scale.
    p.js("run.state.hidden.clear(); run.setView('lines'); return 0;");
    let lines = top_label(&p);
    let biggest = p
        .js("return Math.max(...run.d.table.peak);")
        .as_f64()
        .unwrap();
    assert!(
        lines < biggest * 1.3 && lines > biggest * 0.7,
        "lines {lines}, biggest band {biggest}"
    );
    p.assert_quiet("fit");
}

#[test]
fn one_peak_and_one_total_everywhere() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-peak");
    let input = leakmap();
    let page = page_of(&dir, "hc.html", &input, &[]);
    let p = open_offline(&browser, &page);
    let peak = summary_peak(&dir, &input, &[]);
    let mark = p.js("const l = document.querySelector('#chart .peak-label'); return [+l.dataset.value, l.textContent];");
    assert_eq!(
        mark[0].as_f64().unwrap(),
        peak,
        "the axis's mark is --summary's peak"
    );
    let text = mark[1]
        .as_str()
        .unwrap()
        .trim_start_matches("peak ")
        .to_string();
    let header = p.js("return document.querySelector('.run-head .facts').textContent;");
    assert!(
        header.as_str().unwrap().contains(&format!("peak {text}")),
        "{header} / {text}"
    );
    let every =
        p.js("return +document.querySelector('#bands tr.every td[data-value]').dataset.value;");
    assert_eq!(every.as_f64().unwrap(), peak, "the table's total row");
    // The icicle before any pointing shows the sample of the highest total.
    p.settle();
    let icicle = p.js("return document.querySelector('.icicle h2').textContent;");
    let amount = text.split(" at ").next().unwrap().to_string();
    assert!(
        icicle.as_str().unwrap().contains(&format!(": {amount}")),
        "{icicle} / {amount}"
    );
    // The readout at the peak's sample.
    let i = p.js("return run.peak().i;").as_u64().unwrap() as usize;
    let data = p.data();
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    let t = data["times"][i].as_f64().unwrap();
    let (cx, cy) = p.client_of(
        (t - f("t0")) / f("tSpan") * f("width") + f("x0"),
        f("y0") + 2.0,
    );
    p.browser.move_to(cx, cy);
    assert_eq!(p.readout_parts().total, peak, "the readout's total there");
    p.assert_quiet("peak");
}

#[test]
fn every_band_of_other_and_every_trace_can_be_drawn() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-every-band");
    // 1,000 bands of 700 samples: 700,000 values, past the page's budget of 600,000.
    let mut hp =
        String::from("JOB \"many\"\nDATE \"x\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for s in 0..700 {
        hp.push_str(&format!("BEGIN_SAMPLE {}.0\n", s));
        for b in 0..1000u64 {
            let v = 1000 + (b * 7919 + s * 104_729) % 5000 + if b < 3 { 2_000_000 } else { 0 };
            hp.push_str(&format!("band{b}\t{v}\n"));
        }
        hp.push_str(&format!("END_SAMPLE {}.0\n", s));
    }
    let input = dir.write("many.hp", hp.as_bytes());
    let page = page_of(&dir, "many.html", &input, &[]);
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 6_000_000, "{size} bytes");
    let p = open_offline(&browser, &page);
    let counts = p.js(
        "document.querySelector('.more-rows').click(); const t = run.d.table; \
         const kept = t.fate.filter(f => f === 'other' || f === 'trace').length; \
         return [kept, document.querySelectorAll('#bands td.fate button').length, run.d.rest.samples.length, run.d.times.length, \
           document.querySelector('.warning.budget').textContent];",
    );
    assert!(counts[0].as_u64().unwrap() > 900, "{counts}");
    assert_eq!(
        counts[1], counts[0],
        "a draw button for every band of OTHER and trace"
    );
    assert!(counts[2].as_u64() < counts[3].as_u64(), "thinned: {counts}");
    assert!(
        counts[4]
            .as_str()
            .unwrap()
            .contains("budget of values is met"),
        "{counts}"
    );
    // Drawn: the band's values at the samples shown are the .hp's.
    let name = "band500";
    p.js(&format!("run.addBand('{name}', true); return 0;"));
    let drawn = p.js(&format!(
        "const b = run.bands.find(b => b.name === '{name}'); return [b.k, [...b.values].slice(0, 5), [...run.times].slice(0, 5), \
           document.querySelector('#chart svg.on g.bands').children[b.k].childElementCount];"
    ));
    assert!(drawn[3].as_u64().unwrap() > 0, "drawn: {drawn}");
    for (v, t) in drawn[1]
        .as_array()
        .unwrap()
        .iter()
        .zip(drawn[2].as_array().unwrap())
    {
        let s = t.as_f64().unwrap() as u64;
        assert_eq!(
            v.as_f64().unwrap() as u64,
            1000 + (500 * 7919 + s * 104_729) % 5000,
            "at {s} s"
        );
    }
    p.assert_quiet("every band");
}

#[test]
fn the_compare_page_fits_1280_by_800() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-compare-fit");
    let out = dir.join("compare.html");
    let (a, b) = (leakmap(), repo("tests/data/ghc-9.10/leakmap-hc.eventlog"));
    hp2ps(
        dir.path(),
        &[
            "--format",
            "html",
            "-o",
            out.to_str().unwrap(),
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
    );
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
    );
    let p = open_offline(&browser, &out);
    let fit = p.js(
        "const lists = [...document.querySelectorAll('.legend ul')]; \
         const chips = [...document.querySelectorAll('.chip')]; \
         return [lists.map(u => u.scrollWidth <= u.clientWidth + 1 && [...u.children].every(li => li.getBoundingClientRect().right <= u.getBoundingClientRect().right + 1)), \
           chips.every(c => c.scrollWidth <= c.clientWidth + 1 && c.getBoundingClientRect().right <= c.closest('.run-head, .compare').getBoundingClientRect().right + 1), \
           Math.min(...[...document.querySelectorAll('figure.chart svg.on text.yt, figure.chart svg.on text.xt')].map(t => t.getBoundingClientRect().height)), \
           [...document.querySelectorAll('#diff')].map(t => { let e = t.parentElement; while (e && e !== document.body) { if (/(auto|scroll)/.test(getComputedStyle(e).overflowY)) return false; e = e.parentElement; } return true; })];",
    );
    assert_eq!(fit[0], json!([true, true]), "legends whole: {fit}");
    assert_eq!(fit[1], json!(true), "chips whole");
    assert!(
        fit[2].as_f64().unwrap() >= 10.5,
        "tick labels {} px high",
        fit[2]
    );
    assert_eq!(fit[3], json!([true]), "no scroll box around the diff table");
    // Pointing at run 1 reads run 2 at that time too.
    let (cx, cy) = p.centre_of("section.run:nth-of-type(1) figure.chart svg");
    p.browser.move_to(cx - 100.0, cy);
    let readouts = p.js("return [...document.querySelectorAll('.readout')].map(r => r.hidden ? null : +r.querySelector('[data-time]').dataset.time);");
    let readouts = readouts.as_array().unwrap();
    assert!(
        readouts.iter().all(|r| !r.is_null()),
        "a readout for every run: {readouts:?}"
    );
    let t = readouts[0].as_f64().unwrap();
    let nearest = p
        .js_in(1, "return run.times[run.atSample()];")
        .as_f64()
        .unwrap();
    assert_eq!(
        readouts[1].as_f64().unwrap(),
        nearest,
        "run 2 at its sample nearest {t}"
    );
    p.assert_quiet("compare");
}

#[test]
fn the_readout_leaves_the_spike_in_sight_and_the_outline_follows_the_band() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-spike");
    let page = page_of(&dir, "hc.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    let data = p.data();
    let s = &data["scale"];
    let f = |k: &str| s[k].as_f64().unwrap();
    let peak = p.js("const k = run.peak(); return [k.time, k.value];");
    let (t, v) = (peak[0].as_f64().unwrap(), peak[1].as_f64().unwrap());
    let x = |t: f64| (t - f("t0")) / f("tSpan") * f("width") + f("x0");
    let spike = p.client_of(x(t), f("y0") + v * f("height") / f("vSpan"));
    // Just right of the spike, low in the chart.
    for dt in [0.01, 0.02, 0.04] {
        let (cx, cy) = p.client_of(x(t + dt), f("y0") + 0.2 * f("height"));
        p.browser.move_to(cx, cy);
        let r = p.js("const r = document.getElementById('readout').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];");
        let r: Vec<f64> = serde_json::from_value(r).unwrap();
        let inside = spike.0 >= r[0] - 2.0
            && spike.0 <= r[2] + 2.0
            && spike.1 >= r[1] - 2.0
            && spike.1 <= r[3] + 2.0;
        assert!(
            !inside,
            "at {t} + {dt} s the readout {r:?} covers the spike's top {spike:?}"
        );
    }
    // lazySum is 0 but around the spike: its outline only there.
    p.js("const k = run.bands.findIndex(b => /lazySum/.test(b.name)); run.state.picked = k; run.applyHighlight(); return 0;");
    let edges = p.js("return [...run.hot.querySelectorAll('polygon.edge')].map(e => e.getAttribute('points').split(' ').map(q => +q.split(',')[0]));");
    let edges: Vec<Vec<f64>> = serde_json::from_value(edges).unwrap();
    assert!(!edges.is_empty());
    let width: f64 = edges
        .iter()
        .map(|e| {
            e.iter().cloned().fold(f64::MIN, f64::max) - e.iter().cloned().fold(f64::MAX, f64::min)
        })
        .sum();
    assert!(
        width < f("width") * 0.3,
        "the outline spans {width} of {} points",
        f("width")
    );
}
