//! Drives an HTML page of hp2ps (`--format html`) in headless Chromium: measures how
//! fast it loads and answers, or takes the pictures of `docs/guide.md`.
//!
//! ```text
//! cargo run --release --example html_page -- measure page.html [--runs N]
//! cargo run --release --example html_page -- shots page.html OUT_DIR [PREFIX]
//! cargo run --release --example html_page -- views page.html OUT_DIR [PREFIX]
//! cargo run --release --example html_page -- look page.html OUT.png [WIDTHxHEIGHT] [dark] [full] [hover=FX,FY] [js=CODE]
//! ```
//!
//! `look` is for reviewing the page's design: one screenshot at a viewport of that size
//! (default 1280x800), in the dark colour scheme if asked, of the whole page (`full`) or
//! the viewport, after running CODE and pointing at the chart at FX, FY (fractions of
//! its box).
//!
//! It needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`), and
//! talks to them with the tests' WebDriver client (`tests/support/webdriver.rs`).
//! `scripts/measure-html.sh` runs `measure` on the 400 MB profile's page.
//!
//! What `measure` reports, each the median, 90th percentile and worst of its runs:
//! * **load**: from the navigation's start to the first paint of content (the chart is
//!   in the HTML, so this is when it shows), to the page's script being ready (its data
//!   read, the legend and the table built: `performance.mark('hp2ps-ready')`), and to
//!   the load event;
//! * **hover**: a pointer move over the chart, from the event to the end of its handler
//!   (crosshair, highlight and readout updated) and to the next frame;
//! * **zoom**: into a tenth of the run (a redraw of that window) and, half a second
//!   later, out again (the picture shown again), to the end of the handler and to the
//!   next frame; **toggle**:
//!   hiding and showing a band (a redraw of the whole stack, then the picture again).
//!
//! The first pointer move after loading is reported on its own: it lays out and
//! rasterises the overlay and the readout for the first time.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{json, Value};

#[path = "../tests/support/webdriver.rs"]
mod webdriver;

use webdriver::Browser;

const USAGE: &str = "\
html_page: measure an hp2ps HTML page in headless Chromium, or take its pictures

usage: html_page measure PAGE.html [--runs N]
       html_page shots PAGE.html OUT_DIR [PREFIX]
           writes PREFIX-page.png, -hover.png, -zoom-lines.png, -table.png and
           -dark.png, and -marks.png for a page with marks
           (PREFIX: html)
       html_page views PAGE.html OUT_DIR [PREFIX]
           writes PREFIX-window.png (the table of a zoomed window), and
           PREFIX-icicle.png (a -hc page), or PREFIX-compare.png (the charts
           side by side) and PREFIX-compare-diff.png (a page of several runs)
       html_page look PAGE.html OUT.png [WIDTHxHEIGHT] [dark] [full] [printed] [hover=FX,FY] [js=CODE] [print=EXPR]
           one screenshot for a review of the design";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("measure") if args.len() >= 2 => {
            let runs = match args.iter().position(|a| a == "--runs") {
                Some(i) => args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(5),
                None => 5,
            };
            measure(&PathBuf::from(&args[1]), runs)
        }
        Some("shots") if (3..=4).contains(&args.len()) => {
            let prefix = args.get(3).map_or("html", String::as_str);
            shots(&PathBuf::from(&args[1]), &PathBuf::from(&args[2]), prefix)
        }
        Some("views") if (3..=4).contains(&args.len()) => {
            let prefix = args.get(3).map_or("html", String::as_str);
            views(&PathBuf::from(&args[1]), &PathBuf::from(&args[2]), prefix)
        }
        Some("look") if args.len() >= 3 => look(
            &PathBuf::from(&args[1]),
            &PathBuf::from(&args[2]),
            &args[3..],
        ),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("html_page: {e}");
            ExitCode::FAILURE
        }
    }
}

fn absolute(page: &std::path::Path) -> Result<PathBuf, String> {
    std::fs::canonicalize(page).map_err(|e| format!("{}: {e}", page.display()))
}

/// A few numbers: their median, 90th percentile and largest.
fn summary(mut xs: Vec<f64>) -> String {
    xs.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let i = ((xs.len() as f64 - 1.0) * q).round() as usize;
        xs.get(i).copied().unwrap_or(f64::NAN)
    };
    let (median, p90, worst) = (at(0.5), at(0.9), at(1.0));
    format!(
        "median {median:.1} ms, 90% {p90:.1} ms, worst {worst:.1} ms ({} runs)",
        xs.len()
    )
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default()
}

fn measure(page: &std::path::Path, runs: usize) -> Result<(), String> {
    let page = absolute(page)?;
    let size = std::fs::metadata(&page).map_err(|e| e.to_string())?.len();
    let browser = Browser::start(1400, 1000)?;
    browser.script_timeout(std::time::Duration::from_secs(600));
    println!("page: {} ({size} bytes)", page.display());
    let (mut paint, mut ready, mut loaded) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        browser.open(&page);
        // The first paint is recorded after the load event: wait for a frame or two.
        let t = browser.async_script(
            "const done = arguments[arguments.length - 1]; \
             const report = () => { \
               const fcp = performance.getEntriesByName('first-contentful-paint')[0]; \
               if (!fcp) return requestAnimationFrame(() => setTimeout(report, 0)); \
               const ready = performance.getEntriesByName('hp2ps-ready')[0]; \
               const nav = performance.getEntriesByType('navigation')[0]; \
               done([fcp.startTime, ready ? ready.startTime : null, nav.loadEventEnd]); \
             }; \
             report();",
            json!([]),
        );
        let t = numbers(&t);
        if t.len() != 3 {
            return Err(format!("the page did not report its timings: {t:?}"));
        }
        paint.push(t[0]);
        ready.push(t[1]);
        loaded.push(t[2]);
    }
    println!("load: first paint (the chart): {}", summary(paint));
    println!("load: script ready: {}", summary(ready));
    println!("load: load event: {}", summary(loaded));

    // After the last load has settled (a second without input), the first pointer move;
    // then each run: 40 pointer moves across the chart, a zoom into a tenth of the run
    // and out again, a band hidden and shown. Times from before the event to the end of
    // the handler, and to the next frame (a requestAnimationFrame callback, then a task
    // after it: the frame has been produced).
    let timings = browser.async_script(
        r#"const done = arguments[arguments.length - 1];
        const runs = arguments[0];
        const run = window.hp2ps.runs[0];
        const hit = run.hit;
        const box = hit.getBoundingClientRect();
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const out = { first: [], firstFrame: [], hover: [], hoverFrame: [], zoomIn: [], zoomInFrame: [],
          zoomOut: [], zoomOutFrame: [], toggle: [], toggleFrame: [] };
        const timed = async (act, sync, toFrame) => {
          const t0 = performance.now();
          act();
          sync.push(performance.now() - t0);
          await frame();
          toFrame.push(performance.now() - t0);
        };
        const move = (k) => () => {
          const x = box.left + ((k + 0.5) / 40) * box.width;
          const y = box.top + box.height * (0.3 + 0.4 * ((k * 7) % 10) / 10);
          hit.dispatchEvent(new PointerEvent('pointermove', { clientX: x, clientY: y, bubbles: true }));
        };
        (async () => {
          await new Promise((r) => setTimeout(r, 1000));
          await timed(move(20), out.first, out.firstFrame);
          for (let r = 0; r < runs; r++) {
            for (let k = 0; k < 40; k++) await timed(move(k), out.hover, out.hoverFrame);
            const [a, b] = [run.s.t0, run.s.t0 + run.s.tSpan];
            const from = a + (b - a) * (0.1 + 0.05 * r);
            await timed(() => run.zoomTo(from, from + (b - a) / 10), out.zoomIn, out.zoomInFrame);
            // Zoomed in, the chart may have as many vertices as the whole run's: its
            // raster (off the main thread) would hold the zoom out's frame.
            await new Promise((r) => setTimeout(r, 500));
            await timed(() => run.zoomTo(null), out.zoomOut, out.zoomOutFrame);
            const band = run.bands[run.bands.length - 1].k;
            await timed(() => run.toggle(band), out.toggle, out.toggleFrame);
            await timed(() => run.toggle(band), out.toggle, out.toggleFrame);
          }
          done(out);
        })();"#,
        json!([runs.max(1)]),
    );
    for (name, key) in [
        ("first hover after load: handler", "first"),
        ("first hover after load: to the next frame", "firstFrame"),
        ("hover: handler", "hover"),
        ("hover: to the next frame", "hoverFrame"),
        ("zoom into a tenth: redraw", "zoomIn"),
        ("zoom into a tenth: to the next frame", "zoomInFrame"),
        ("zoom out (double-click): handler", "zoomOut"),
        ("zoom out (double-click): to the next frame", "zoomOutFrame"),
        ("hide or show a band: redraw", "toggle"),
        ("hide or show a band: to the next frame", "toggleFrame"),
    ] {
        println!("{name}: {}", summary(numbers(&timings[key])));
    }
    quiet(&browser)
}

/// Chromium with `page` open, and `out` made for its pictures.
fn session(page: &std::path::Path, out: &std::path::Path) -> Result<(PathBuf, Browser), String> {
    let page = absolute(page)?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let browser = Browser::start(1280, 800)?;
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
    );
    browser.open(&page);
    Ok((page, browser))
}

fn save_png(out: &std::path::Path, name: &str, png: Vec<u8>) -> Result<(), String> {
    let path = out.join(name);
    std::fs::write(&path, png).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("{}", path.display());
    Ok(())
}

/// The guide's pictures: the page as it opens, pointing at the chart, zoomed into the
/// lines view with a filter, and the band table.
fn shots(page: &std::path::Path, out: &std::path::Path, prefix: &str) -> Result<(), String> {
    let (page, browser) = session(page, out)?;
    let save = |name: &str, png: Vec<u8>| save_png(out, &format!("{prefix}-{name}.png"), png);
    let element = |css: &str| browser.element(css);
    save("page", browser.screenshot())?;

    point_at_peak(&browser, 0, true);
    save("hover", browser.element_screenshot(&element(".plot")))?;

    // The second half of the run, one line per band, the y axis fitted to it.
    browser.script(
        "const run = window.hp2ps.runs[0]; const s = run.s; \
         run.zoomTo(s.t0 + s.tSpan * 0.5, s.t0 + s.tSpan); \
         document.querySelectorAll('button.view')[2].click(); \
         document.querySelector('.toolbar input[type=checkbox]').click(); \
         return 0;",
        json!([]),
    );
    browser.move_to(2.0, 2.0);
    save("zoom-lines", browser.element_screenshot(&element(".plot")))?;

    // The dark scheme, pointing at the chart.
    browser.open(&page);
    browser.script(
        "document.documentElement.dataset.theme = 'dark'; window.hp2ps.runs.forEach(r => r.themeChanged()); return 0;",
        json!([]),
    );
    point_at_peak(&browser, 0, false);
    save("dark", browser.screenshot())?;

    // The marks: their labels, the list open, the readout naming the one pointed at.
    if browser.script("return window.hp2ps.runs[0].d.marks.t.length;", json!([])) != json!(0) {
        browser.open(&page);
        browser.script(
            "const run = window.hp2ps.runs[0]; const p = document.querySelector('.marks-panel'); p.open = true; run.fillMarkList(); \
             const i = run.d.marks.t.length >> 1; run.jumpToMark(i); run.zoomTo(null); \
             run.nearMark = i; const k = run.nearest(run.d.marks.t[i]); run.point(k, null); run.placeReadout(run.xOf(run.times[k])); \
             const c = document.querySelector('.chart-col'); window.scrollTo(0, c.getBoundingClientRect().top + scrollY - 8); \
             return 0;",
            json!([]),
        );
        save("marks", browser.screenshot())?;
    }

    browser.open(&page);
    browser.script(
        "document.querySelector('#bands').scrollIntoView(); \
         [...document.querySelectorAll('#bands th button')].find(b => b.textContent.startsWith('Growth')).click(); \
         document.querySelector('#bands tbody tr').click(); return 0;",
        json!([]),
    );
    save(
        "table",
        browser.element_screenshot(&element("section.table")),
    )?;
    quiet(&browser)
}

fn quiet(browser: &Browser) -> Result<(), String> {
    let log = browser.log();
    if !log.is_empty() {
        return Err(format!("the console says {log:?}"));
    }
    Ok(())
}

/// Points at run `run`'s chart at the sample of its highest stack (among the samples
/// shown, not at either end), halfway up; first scrolls the chart to the middle of the window if `scroll`.
fn point_at_peak(browser: &Browser, run: usize, scroll: bool) {
    // From outside the chart, so that the move is one even where the last one ended.
    browser.move_to(2.0, 2.0);
    let at = browser.script(
        "const run = window.hp2ps.runs[arguments[0]]; const s = run.s; \
         if (arguments[1]) run.figure.scrollIntoView({block: 'center'}); \
         const total = (i) => run.bands.reduce((t, b) => t + b.values[i], 0); \
         let [i0, i1] = run.range(); if (i1 - i0 > 2) { i0++; i1--; } \
         let i = i0; for (let j = i0; j <= i1; j++) if (total(j) > total(i)) i = j; \
         const x = run.xOf(run.times[i]); const y = s.y0 + total(i) * 0.5 * (s.height / s.vSpan); \
         const p = new DOMPoint(x, 432 - y).matrixTransform(run.overlay.getScreenCTM()); \
         return [p.x, p.y];",
        json!([run, scroll]),
    );
    let at = numbers(&at);
    browser.move_to(at[0], at[1]);
    // The views that follow the pointer once it rests (the icicle, "At").
    std::thread::sleep(std::time::Duration::from_millis(400));
}

/// The guide's pictures of a zoomed window's numbers, the icicle and several runs.
fn views(page: &std::path::Path, out: &std::path::Path, prefix: &str) -> Result<(), String> {
    let (page, browser) = session(page, out)?;
    let save = |name: &str, png: Vec<u8>| save_png(out, &format!("{prefix}-{name}.png"), png);
    let runs = browser.script("return window.hp2ps.runs.length;", json!([]));
    if runs.as_u64().unwrap_or(1) > 1 {
        // The charts side by side, pointing at the first; then the difference view.
        point_at_peak(&browser, 0, false);
        save("compare", browser.screenshot())?;
        browser.script(
            "document.querySelector('.compare-diff').scrollIntoView(); return 0;",
            json!([]),
        );
        save(
            "compare-diff",
            browser.element_screenshot(&browser.element(".compare-diff")),
        )?;
        return quiet(&browser);
    }
    if browser.script(
        "return !document.querySelector('.icicle').hidden;",
        json!([]),
    ) == json!(true)
    {
        point_at_peak(&browser, 0, true);
        let icicle = browser.element(".icicle");
        browser.script(
            "document.querySelector('.icicle').scrollIntoView(); return 0;",
            json!([]),
        );
        save("icicle", browser.element_screenshot(&icicle))?;
    }
    // A third of the run, the pointer at its highest stack, the table by value there.
    browser.open(&page);
    browser.script(
        "const run = window.hp2ps.runs[0]; const s = run.s; \
         run.zoomTo(s.t0 + s.tSpan * 0.3, s.t0 + s.tSpan * 0.62); return 0;",
        json!([]),
    );
    point_at_peak(&browser, 0, true);
    browser.script(
        "[...document.querySelectorAll('#bands th button')].find(b => b.textContent.startsWith('At')).click(); \
         document.querySelector('#bands').scrollIntoView(); return 0;",
        json!([]),
    );
    save(
        "window",
        browser.element_screenshot(&browser.element("section.table")),
    )?;
    quiet(&browser)
}

/// One screenshot of the page for a design review (see the module's docs).
fn look(page: &std::path::Path, out: &std::path::Path, opts: &[String]) -> Result<(), String> {
    let page = absolute(page)?;
    let (mut width, mut height, mut dark, mut full, mut print_media) =
        (1280u32, 800u32, false, false, false);
    let (mut hover, mut code, mut print) = (None, None, None);
    for o in opts {
        if let Some((w, h)) = o
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        {
            (width, height) = (w, h);
        } else if o == "dark" {
            dark = true;
        } else if o == "full" {
            full = true;
        } else if o == "printed" {
            print_media = true;
        } else if let Some(at) = o.strip_prefix("hover=") {
            let xy = numbers(&serde_json::from_str(&format!("[{at}]")).map_err(|e| e.to_string())?);
            hover = Some((xy[0], xy[1]));
        } else if let Some(js) = o.strip_prefix("js=") {
            code = Some(js.to_string());
        } else if let Some(js) = o.strip_prefix("print=") {
            print = Some(js.to_string());
        } else {
            return Err(format!("look: what is {o:?}?"));
        }
    }
    let browser = Browser::start(width, height)?;
    browser.cdp(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
    );
    let scheme = if dark { "dark" } else { "light" };
    browser.cdp(
        "Emulation.setEmulatedMedia",
        json!({"media": if print_media { "print" } else { "" },
               "features": [{"name": "prefers-color-scheme", "value": scheme}]}),
    );
    browser.open(&page);
    if let Some(js) = code {
        browser.script(&format!("{js}; return 0;"), json!([]));
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    if let Some((fx, fy)) = hover {
        browser.move_to(2.0, 2.0);
        let at = browser.script(
            "const r = document.querySelector('#chart svg').getBoundingClientRect(); \
             return [r.left + r.width * arguments[0], r.top + r.height * arguments[1]];",
            json!([fx, fy]),
        );
        let at = numbers(&at);
        browser.move_to(at[0], at[1]);
        std::thread::sleep(std::time::Duration::from_millis(400));
    }
    if let Some(expr) = print {
        println!("{}", browser.script(&format!("return {expr};"), json!([])));
    }
    let png = if full {
        let shot = browser.cdp(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        );
        webdriver::base64_decode(shot["data"].as_str().unwrap_or(""))
    } else {
        browser.screenshot()
    };
    std::fs::write(out, png).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}", out.display());
    quiet(&browser)
}
