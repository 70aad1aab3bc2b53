//! One unit system on the HTML page (issue 25), in headless Chromium on a real GHC 9.0.2
//! profile: the y axis in MiB at round binary steps agrees with the readout, the table
//! and the icicle, MB at the toggle; on a run of minutes the time ticks are whole
//! seconds, with the decimals their step needs. A test crate apart from
//! `html_reading.rs` (the rest of the page as a reader meets it) because the units are
//! one idea, with their own reading of the y axis. Needs `chromium` and `chromedriver`.

mod support;

use serde_json::Value;
use support::html_page::*;
use support::TempDir;

fn leakmap() -> std::path::PathBuf {
    repo("tests/data/page/leakmap-O1-hc.hp")
}

fn strings(v: Value) -> Vec<String> {
    serde_json::from_value(v).expect("strings")
}

/// The y axis's ticks and legend as shown.
fn y_axis(p: &Page<'_>) -> (Vec<(f64, f64)>, String) {
    let v = p.js(
        "const svg = document.querySelector('#chart svg.on'); \
         const legend = [...svg.querySelectorAll('.yl, .yl-view')].filter(t => t.getAttribute('visibility') !== 'hidden').pop(); \
         return [[...svg.querySelectorAll('polyline.yt')].map(l => +l.getAttribute('points').split(/[ ,]/)[1]), \
           [...svg.querySelectorAll('text.yt')].map(t => t.textContent), legend.textContent];",
    );
    let ys: Vec<f64> = serde_json::from_value(v[0].clone()).unwrap();
    let labels = strings(v[1].clone());
    let ticks = ys
        .iter()
        .zip(&labels)
        .map(|(y, l)| {
            (
                *y,
                l.replace(',', "").parse::<f64>().expect("a number alone"),
            )
        })
        .collect();
    (ticks, v[2].as_str().unwrap().to_string())
}

#[test]
fn one_unit_system_everywhere() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-units");
    let page = page_of(&dir, "page.html", &leakmap(), &[]);
    let p = open_offline(&browser, &page);
    let s = p.data()["scale"].clone();
    let f = |k: &str| s[k].as_f64().unwrap();
    for (units, size, name) in [("binary", 1048576.0, "MiB"), ("decimal", 1e6, "MB")] {
        // Binary by default; decimal at the toggle.
        if units == "decimal" {
            p.js("document.querySelector('.toolbar button.units[data-value=decimal]').click(); return 0;");
        }
        let (ticks, legend) = y_axis(&p);
        assert_eq!(legend, name, "the y axis says its unit");
        let step = ticks[1].1 - ticks[0].1;
        assert!(
            [1.0, 2.0, 5.0, 10.0, 20.0, 50.0].contains(&step),
            "a round step: {ticks:?}"
        );
        for (y, label) in &ticks {
            // Where the layout puts that many bytes.
            let want = 432.0 - (label * size * f("height") / f("vSpan") + f("y0"));
            assert!((y - want).abs() < 0.01, "{label} {name} at {y}, not {want}");
        }
        // The readout's total in the same unit, to its three figures.
        let (cx, cy) = p.client_of(f("x0") + 0.6 * f("width"), f("y0") + 5.0);
        p.browser.move_to(cx, cy);
        let total = p.js("const td = document.querySelector('#readout tr.total td.v'); return [td.dataset.value, td.textContent];");
        let bytes: f64 = total[0].as_str().unwrap().parse().unwrap();
        let text = total[1].as_str().unwrap();
        let (number, unit) = text.split_once(' ').expect("a number and a unit");
        let expected = if bytes >= 1024.0 * 1024.0 || bytes >= 1e6 {
            name
        } else {
            unit
        };
        assert_eq!(unit, expected, "{text}");
        if unit == name {
            let shown: f64 = number.parse().unwrap();
            assert!(
                (shown - bytes / size).abs() <= 0.01 * bytes / size,
                "{text} is {bytes} bytes"
            );
        }
        // The table and the icicle say the same unit.
        let peak =
            p.js("return document.querySelector('#bands tbody tr td[data-value]').textContent;");
        assert!(peak.as_str().unwrap().ends_with(name), "the table: {peak}");
        p.settle();
        let icicle = p.js("return document.querySelector('.icicle h2').textContent;");
        assert!(
            icicle.as_str().unwrap().contains(name),
            "the icicle: {icicle}"
        );
        p.browser.move_to(2.0, 2.0);
    }
    // A run of minutes: whole seconds on the ticks, as their step needs.
    let mut hp =
        String::from("JOB \"long\"\nDATE \"\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
    for i in 0..=141 {
        hp.push_str(&format!(
            "BEGIN_SAMPLE {i}.0\na\t{}\nEND_SAMPLE {i}.0\n",
            1000 + i * 10
        ));
    }
    std::fs::write(dir.join("long.hp"), hp).unwrap();
    let page = page_of(&dir, "long.html", &dir.join("long.hp"), &[]);
    let p = open_offline(&browser, &page);
    let labels = strings(p.js(
        "return [...document.querySelectorAll('#chart svg.on text.xt')].map(t => t.textContent);",
    ));
    assert_eq!(labels[..3], ["0", "20", "40"], "{labels:?}");
    p.assert_quiet("units");
}
