//! More of the HTML page in headless Chromium: from a static server, with hostile names,
//! it asks for nothing more than itself; long names fit the legend; the print stylesheet;
//! the band table's long names and its width; and every golden input and committed eventlog gives a page that answers without a
//! console error. Needs `chromium` and `chromedriver`, as `html_browser.rs`.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::json;
use support::html_page::*;
use support::{Cmd, TempDir};

/// A static server that answers every request with the page and records the paths.
fn serve(page: Vec<u8>) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).map_or(true, |n| n == 0) || header == "\r\n" {
                    break;
                }
            }
            log.lock().unwrap().push(path);
            let mut out = &stream;
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                page.len()
            );
            let _ = out
                .write_all(head.as_bytes())
                .and_then(|()| out.write_all(&page));
        }
    });
    (port, seen)
}

#[test]
fn from_a_static_server_the_page_asks_for_nothing_more() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-served");
    // Names that would end the script or open markup if they were not escaped.
    let hostile = "JOB \"</script><script>alert(1)</script>\"\nDATE \"<!--\"\n\
        SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
        BEGIN_SAMPLE 0.0\n</script><script>alert(2)</script>\t100\n<b>&amp;\u{2028}</b>\t200\nEND_SAMPLE 0.0\n\
        BEGIN_SAMPLE 1.0\n</script><script>alert(2)</script>\t300\n<b>&amp;\u{2028}</b>\t50\nEND_SAMPLE 1.0\n";
    let input = dir.write("hostile.hp", hostile.as_bytes());
    let page = page_of(&dir, "page.html", &input, &["-c"]);
    let (port, seen) = serve(std::fs::read(&page).unwrap());
    browser.goto(&format!("http://127.0.0.1:{port}/page.html"));
    let p = Page { browser: &browser };
    let names = p.js("return [...document.querySelectorAll('#legend li[data-band]')].map(l => l.querySelector('.name').textContent).sort();");
    assert_eq!(
        names,
        json!(["</script><script>alert(2)</script>", "<b>&amp;\u{2028}</b>"]),
        "the names are text"
    );
    assert_eq!(
        p.js("return document.scripts.length;"),
        json!(2),
        "no script of a name's"
    );
    // Point at the chart and use the legend: still nothing is fetched.
    let s = p.data()["scale"].clone();
    let (cx, cy) = p.client_of(
        s["x0"].as_f64().unwrap() + s["width"].as_f64().unwrap() / 2.0,
        s["y0"].as_f64().unwrap() + 10.0,
    );
    p.browser.move_to(cx, cy);
    let (x, y) = p.centre_of("#legend li[data-band] .toggle");
    p.browser.click_at(x, y, 1, None);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        *seen.lock().unwrap(),
        ["/page.html"],
        "the server saw only the page"
    );
    p.assert_quiet("served");
}

#[test]
fn the_legend_fits_long_names_and_the_page_prints_the_chart() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-fit");
    let input = repo("golden/inputs/longnames-O0-hc-L200.hp");
    let page = page_of(&dir, "page.html", &input, &["-c", "--key-labels", "fit"]);
    let p = open_offline(&browser, &page);
    // Each name as the legend shows it, and in full.
    let shown = p.js(
        "return [...document.querySelectorAll('#legend li[data-band]')].map(l => \
         [l.querySelector('.name').textContent, l.dataset.band, \
          l.querySelector('.name').scrollWidth <= l.querySelector('.name').clientWidth]);",
    );
    let mut shortened = 0;
    for entry in shown.as_array().unwrap() {
        let (text, name) = (entry[0].as_str().unwrap(), entry[1].as_str().unwrap());
        assert_eq!(entry[2], json!(true), "{text} fits its entry");
        if text != name {
            shortened += 1;
            let (head, tail) = text.split_once("...").expect("the middle left out");
            assert!(
                name.starts_with(head) && name.ends_with(tail),
                "{text} of {name}"
            );
            assert!(!head.is_empty() && !tail.is_empty(), "{text}");
        }
    }
    assert!(shortened > 0, "long names are shortened");

    // Printing: the chart and its legend, without the controls.
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": "print"}));
    let shown = p.js(
        "const d = (css) => getComputedStyle(document.querySelector(css)).display; \
         return [d('.toolbar'), d('#legend input'), d('#chart svg.picture'), d('#legend ul')];",
    );
    assert_eq!(shown, json!(["none", "none", "block", "block"]));
    p.browser
        .cdp("Emulation.setEmulatedMedia", json!({"media": ""}));
    p.assert_quiet("long names");
}

/// The band table of a GHC 9.10.3 `-hi` run named from its binary, in a 1280 px window:
/// long names wrap only after '.', '/', ':' or a space, and the table with its Info
/// column fits the window.
#[test]
fn the_band_table_wraps_names_between_words_and_fits_1280_px() {
    if !support::ghc910::have_programs() {
        return;
    }
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-table");
    let binary = support::ghc910::program(&dir, "leakmap-ipe");
    let input = support::ghc910::data("leakmap-hi.eventlog");
    let flags = ["-c", "--binary", binary.to_str().unwrap()];
    let page = page_of(&dir, "page.html", &input, &flags);
    browser.resize(1280, 1000);
    let p = open_offline(&browser, &page);
    // Per name cell: its text, its name, its pieces' texts, how many lines each piece
    // takes, and how many lines the cell takes.
    let cells = p.js(
        "const lines = (e) => new Set([...e.getClientRects()].map(r => Math.round(r.top))).size;          return [...document.querySelectorAll('#bands tbody tr')].map(tr => {            const td = tr.querySelector('td.name'); const w = [...td.querySelectorAll('.w')];            return [td.textContent, tr.dataset.name, w.map(e => e.textContent), w.map(lines),              Math.round(td.getBoundingClientRect().height / w[0].getBoundingClientRect().height)]; });",
    );
    let mut wrapped = 0;
    for cell in cells.as_array().unwrap() {
        let name = cell[1].as_str().unwrap();
        assert_eq!(cell[0], json!(name), "the cell shows the name");
        let pieces: Vec<&str> = (cell[2].as_array().unwrap().iter())
            .map(|w| w.as_str().unwrap())
            .collect();
        assert_eq!(pieces.concat(), name);
        let (last, rest) = pieces.split_last().unwrap();
        assert!(!last.is_empty(), "{pieces:?}");
        let after = |c: char| ['.', '/', ':', ' '].contains(&c);
        for (piece, next) in rest.iter().zip(&pieces[1..]) {
            assert!(piece.ends_with(after), "{name}: {piece:?}");
            assert!(!next.starts_with(after), "{name}: a run split at {next:?}");
        }
        for (piece, lines) in pieces.iter().zip(cell[3].as_array().unwrap()) {
            assert_eq!(lines, &json!(1), "{name}: {piece:?} is broken");
        }
        if cell[4].as_f64().unwrap() > 1.0 {
            wrapped += 1;
        }
    }
    assert!(wrapped >= 5, "long names wrap: {wrapped}");
    let fits = p.js(
        "const t = document.querySelector('.table');          const info = document.querySelector('#bands th:last-child').getBoundingClientRect();          return [t.scrollWidth <= t.clientWidth, info.right <= window.innerWidth,            document.querySelector('#bands th:last-child').textContent];",
    );
    assert_eq!(fits, json!([true, true, "Info"]));
    p.assert_quiet("the -hi page");
}

/// Every golden input hp2ps draws, and every committed eventlog, as a page: it loads
/// without a console error, and pointing, hiding a band, zooming, the views and the
/// filter run without one either (one-sample, all-zero, huge-value, odd-name profiles).
#[test]
fn every_golden_input_and_eventlog_gives_a_working_page() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("html-every");
    let mut inputs: Vec<PathBuf> = support::golden_inputs()
        .into_iter()
        .map(|(name, _)| support::golden_dir().join(name))
        .collect();
    for sub in ["tests/data/eventlog", "tests/data/ghc-9.10"] {
        let mut logs: Vec<PathBuf> = std::fs::read_dir(repo(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eventlog"))
            .collect();
        logs.sort();
        inputs.extend(logs);
    }
    let mut pages = 0;
    for input in &inputs {
        let out = dir.join("page.html");
        let _ = std::fs::remove_file(&out);
        let ran = Cmd::hp2ps()
            .args(["-c", "--heap-size", "--format", "html", "-o"])
            .arg(&out)
            .arg(input)
            .current_dir(dir.path())
            .run();
        if !ran.status.success() {
            // Profiles hp2ps refuses (the truncated and broken ones) make no page.
            continue;
        }
        browser.open(&out);
        let answer = browser.script(
            "const run = window.hp2ps.runs[0]; const box = run.hit.getBoundingClientRect(); \
             const at = (fx, fy) => run.hit.dispatchEvent(new PointerEvent('pointermove', \
               {clientX: box.left + fx * box.width, clientY: box.top + fy * box.height, bubbles: true})); \
             at(0.5, 0.5); at(0.1, 0.9); at(0.9, 0.2); \
             const first = document.querySelector('#legend li[data-band] .toggle'); \
             if (first) { first.click(); first.click(); } \
             const [a, b] = [run.s.t0, run.s.t0 + run.s.tSpan]; \
             run.zoomTo(a + (b - a) / 3, a + (b - a) / 2); at(0.5, 0.5); \
             for (const v of document.querySelectorAll('button.view')) v.click(); \
             const i = document.querySelector('#legend input'); i.value = '/(/'; \
             i.dispatchEvent(new Event('input')); i.value = 'a'; i.dispatchEvent(new Event('input')); \
             run.zoomTo(null); \
             return document.querySelectorAll('#bands tbody tr').length;",
            json!([]),
        );
        assert!(answer.is_number(), "{}: {answer}", input.display());
        let log = browser.log();
        assert!(
            log.is_empty(),
            "{}: the console says {log:#?}",
            input.display()
        );
        pages += 1;
    }
    eprintln!("{pages} pages of {} inputs answered", inputs.len());
    assert!(pages > 60, "{pages} pages");
}
