//! `hp2ps --serve` in a real browser: real GHC 9.10.3 logs replayed at their own pace
//! (`support::replay`) into a growing file, a FIFO and a Unix socket that behaves as
//! eventlog-socket does, the live page open in headless Chromium meanwhile:
//!
//! * the page waits for the run and says so, then shows its censuses as they come: the
//!   "N samples" of its heading rises with the censuses read, and the newest census is
//!   drawn (the data's last time is the status's newest, where the live marker stands);
//! * a window zoomed into the past stays across updates, a band hidden stays hidden, a
//!   window zoomed at the end follows it and "Follow" brings a past window to the end;
//! * at the end the page says so and holds the whole run's page: its data is the data
//!   of `--format html --time elapsed` of the whole log, and the page saved (`save`,
//!   and `-o`) is that page, byte for byte.
//!
//! Needs `chromium` and `chromedriver`, as the other page tests.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::html_page::*;
use support::replay::{self, Pace};
use support::serve::{log, mkfifo, Served};
use support::TempDir;

/// How much faster than it ran a log is replayed.
const SPEED: f64 = 0.4;

/// The page `--format html --time elapsed` writes of `input` (named as given, in `dir`).
fn static_page(dir: &Path, input: &str) -> Vec<u8> {
    let out = dir.join("static.html");
    let args = ["--format", "html", "--time", "elapsed", "-o"];
    let ran = support::Cmd::hp2ps()
        .args(args)
        .arg(&out)
        .arg(input)
        .current_dir(dir)
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    std::fs::read(out).expect("the static page")
}

/// What the open page shows: its samples (the data's and the heading's text), the newest
/// time drawn, the live state and the window.
fn look(b: &support::webdriver::Browser) -> Value {
    b.script(
        "const H = window.hp2ps; const run = H.runs && H.runs[0];
         const bar = document.querySelector('.live-bar');
         const head = run ? run.section.querySelector('.run-head').textContent : '';
         const m = /([0-9]+) samples/.exec(head);
         return {
           state: bar ? bar.dataset.state : null,
           samples: run ? run.d.samples : null,
           text: m ? Number(m[1]) : null,
           last: run ? run.base.times[run.base.times.length - 1] : null,
           newest: H.live && H.live.status ? H.live.status.newest : null,
           censuses: H.live && H.live.status ? H.live.status.censuses : 0,
           window: run ? run.state.window : null,
           hidden: run ? [...run.state.hidden] : [],
           bands: run ? run.bands.map((b) => b.name) : [],
           end: run ? run.s.t0 + run.s.tSpan : null,
           marker: document.querySelectorAll('.live-marker line').length,
           rows: run ? run.rowsOrder.length : 0,
           tableNames: run ? run.d.table.name.length : 0,
           caption: run ? run.caption.textContent : '',
         };",
        json!([]),
    )
}

/// The first look once the page's script has run.
fn settled(b: &support::webdriver::Browser) -> Value {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let l = look(b);
        if !l["state"].is_null() || Instant::now() > until {
            return l;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Follows the page until its state is final, acting on it on the way; returns every look.
fn watch(
    b: &support::webdriver::Browser,
    within: Duration,
    mut act: impl FnMut(&Value),
) -> Vec<Value> {
    let until = Instant::now() + within;
    let mut looks = Vec::new();
    while Instant::now() < until {
        let l = look(b);
        act(&l);
        let done = matches!(l["state"].as_str(), Some("ended" | "closed"));
        looks.push(l);
        if done {
            // The whole run's page comes with the end.
            std::thread::sleep(Duration::from_millis(400));
            looks.push(look(b));
            return looks;
        }
        std::thread::sleep(Duration::from_millis(60));
    }
    panic!("the page never said the run ended: {:?}", looks.last());
}

/// The censuses came one after the other: the heading's count rose with them, each look
/// drew the newest census it had heard of.
fn the_censuses_came_as_they_were_read(looks: &[Value], total: u64) {
    let live: Vec<&Value> = looks.iter().filter(|l| l["state"] == "live").collect();
    assert!(live.len() >= 3, "the page was live {} times", live.len());
    let counts: Vec<u64> = live.iter().filter_map(|l| l["text"].as_u64()).collect();
    assert!(
        counts.windows(2).all(|w| w[0] <= w[1]),
        "the count never falls: {counts:?}"
    );
    let distinct = counts
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert!(distinct >= 3, "the count rose step by step: {counts:?}");
    for l in &live {
        assert_eq!(
            l["text"], l["samples"],
            "the heading says the data's samples"
        );
        // An eventlog's page has the empty sample at 0 besides the censuses.
        assert_eq!(
            l["samples"].as_u64(),
            l["censuses"].as_u64().map(|c| c + 1),
            "{l}"
        );
        let (last, newest) = (l["last"].as_f64(), l["newest"].as_f64());
        assert!(
            last.zip(newest).is_some_and(|(a, b)| (a - b).abs() < 1e-9),
            "the newest census is drawn: {l}"
        );
    }
    let last = looks.last().expect("looks");
    assert_eq!(last["censuses"].as_u64(), Some(total), "every census read");
}

/// The final page's data is the static page's, and `save` gives the static page.
///
/// The server says the run ended at once and sends the whole run's page when a child
/// has read the whole run again (`src/run/serve/hub.rs`): on a loaded machine that
/// takes seconds, so the data is looked at until it is the static page's, or a minute
/// has passed.
fn the_end_is_the_whole_runs_page(
    b: &support::webdriver::Browser,
    served: &Served,
    reference: &[u8],
) {
    let expected = data_of(reference);
    let until = Instant::now() + Duration::from_secs(60);
    let mut data = b.script("return window.hp2ps.live.data;", json!([]));
    while data != expected && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(200));
        data = b.script("return window.hp2ps.live.data;", json!([]));
    }
    assert_eq!(data, expected, "the final data is --format html's");
    let (code, saved) = served.get(&format!("/{}/save", served.token));
    assert_eq!(code, 200);
    assert!(
        saved == reference,
        "the saved page is --format html's, byte for byte"
    );
}

#[test]
fn a_growing_file_followed_in_the_browser() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("serve-file");
    let bytes = log("leakmap-hc-flush.eventlog");
    let reference = {
        std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
        let page = static_page(dir.path(), "run.eventlog");
        std::fs::remove_file(dir.join("run.eventlog")).expect("remove");
        page
    };
    let served = Served::start(dir.path(), &["run.eventlog", "-o", "whole.html"]);
    browser.goto(&served.url);
    let first = settled(&browser);
    assert_eq!(first["state"], "waiting", "{first}");
    let text = browser.script(
        "return document.querySelector('.live-bar').textContent",
        json!([]),
    );
    assert!(
        text.as_str()
            .is_some_and(|t| t.contains("does not exist yet")),
        "{text}"
    );
    let path = dir.join("run.eventlog");
    let writer = std::thread::spawn(move || {
        let mut file = std::fs::File::create(path).expect("create");
        replay::replay(&bytes, Pace::Blocks, SPEED, &mut |piece| {
            use std::io::Write;
            file.write_all(piece)?;
            file.flush()
        })
    });
    // Halfway through, a window in the past and a band hidden: both stay.
    let mut zoomed: Option<Vec<f64>> = None;
    let mut hidden: Option<String> = None;
    let shots = std::env::var_os("HP2PS_LIVE_SHOTS").map(std::path::PathBuf::from);
    let mut shot = 0;
    let looks = watch(&browser, Duration::from_secs(60), |l| {
        let samples = l["samples"].as_u64().unwrap_or(0);
        if let Some(dir) = shots.as_ref().filter(|_| samples >= 6 * (shot + 1)) {
            shot += 1;
            let _ = std::fs::write(dir.join(format!("live-{shot}.png")), browser.screenshot());
        }
        if zoomed.is_none() && l["state"] == "live" && samples >= 12 {
            let end = l["end"].as_f64().unwrap_or(1.0);
            let w = vec![end * 0.2, end * 0.5];
            browser.script(
                "window.hp2ps.runs[0].zoomTo(arguments[0], arguments[1]);",
                json!(w.clone()),
            );
            let name = l["bands"][0].as_str().unwrap_or("").to_string();
            browser.script(
                "const run = window.hp2ps.runs[0]; run.toggle(run.bands.find((b) => b.name === arguments[0]).k);",
                json!([name.clone()]),
            );
            zoomed = Some(w);
            hidden = Some(name);
        } else if let (Some(w), Some(h), "live") =
            (&zoomed, &hidden, l["state"].as_str().unwrap_or(""))
        {
            let window: Vec<f64> = serde_json::from_value(l["window"].clone()).unwrap_or_default();
            assert_eq!(&window, w, "the window in the past stays");
            // (A name the -L cut made equal to a later band's gains " #1".)
            let again = format!("{h} #1");
            let hidden = l["hidden"].as_array().cloned().unwrap_or_default();
            assert!(
                hidden
                    .iter()
                    .any(|n| n == h.as_str() || n == again.as_str()),
                "{h} stays hidden: {l}"
            );
            assert_eq!(
                l["marker"], 0,
                "the newest census is outside the window: no marker"
            );
        }
    });
    writer.join().expect("writer").expect("replayed");
    the_censuses_came_as_they_were_read(&looks, 30);
    assert!(zoomed.is_some(), "the test zoomed");
    the_end_is_the_whole_runs_page(&browser, &served, &reference);
    // After the end the view is still the reader's.
    let last = look(&browser);
    assert!(
        last["hidden"].as_array().is_some_and(|a| !a.is_empty()),
        "{last}"
    );
    // A page opened while waiting listens to its fragment as a static page does (a link
    // to a view pasted into the address bar).
    browser.script("location.hash = '#from=0.1&to=0.2'; return 0;", json!([]));
    std::thread::sleep(Duration::from_millis(300));
    let window = browser.script("return window.hp2ps.runs[0].state.window;", json!([]));
    assert_eq!(window, json!([0.1, 0.2]), "the fragment's window is shown");
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("wrote whole.html"), "{stderr}");
    let whole = std::fs::read(dir.join("whole.html")).expect("-o");
    assert!(whole == reference, "-o is --format html's page");
}

#[test]
fn a_window_at_the_end_follows_it_through_a_fifo() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("serve-fifo");
    let bytes = log("leakmap-hc-flush.eventlog");
    std::fs::write(dir.join("run.eventlog"), &bytes).expect("write");
    let reference = static_page(dir.path(), "run.eventlog");
    let other = TempDir::new("serve-fifo-run");
    mkfifo(&other.join("run.eventlog"));
    let served = Served::start(other.path(), &["run.eventlog"]);
    browser.goto(&served.url);
    let fifo = other.join("run.eventlog");
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open the FIFO");
        replay::replay(&bytes, Pace::Blocks, 0.35, &mut |piece| {
            use std::io::Write;
            out.write_all(piece)
        })
    });
    let mut state = 0;
    let mut width = 0.0;
    let looks = watch(&browser, Duration::from_secs(60), |l| {
        let end = l["end"].as_f64().unwrap_or(0.0);
        let window: Option<Vec<f64>> = serde_json::from_value(l["window"].clone()).ok();
        match state {
            0 if l["state"] == "live" && l["samples"].as_u64().unwrap_or(0) >= 8 => {
                width = end * 0.25;
                browser.script(
                    "window.hp2ps.runs[0].zoomTo(arguments[0], arguments[1]);",
                    json!([end - width, end]),
                );
                state = 1;
            }
            1 if l["state"] == "live" => {
                if let Some(w) = window.filter(|w| w[1] > end - width - 1.0) {
                    assert!(
                        (w[1] - w[0] - width).abs() < 1e-6 * end.max(1.0),
                        "the width kept: {w:?}"
                    );
                    if (w[1] - end).abs() < 1e-9 && end > 0.0 && l["marker"] == 1 {
                        state = 2;
                    }
                }
            }
            2 if l["state"] == "live" => {
                // Into the past, then "Follow".
                browser.script(
                    "window.hp2ps.runs[0].zoomTo(0, arguments[0]);",
                    json!([width]),
                );
                std::thread::sleep(Duration::from_millis(300));
                let shown = browser.script(
                    "return !document.querySelector('.live-follow').hidden",
                    json!([]),
                );
                assert_eq!(shown, true, "Follow is offered for a window in the past");
                browser.script("document.querySelector('.live-follow').click()", json!([]));
                state = 3;
            }
            3 => {
                if let Some(w) = window {
                    assert!(
                        w[1] > width * 1.5,
                        "Follow brought the window to the end: {w:?}"
                    );
                }
            }
            _ => {}
        }
    });
    writer.join().expect("writer").expect("replayed");
    let live = looks.iter().filter(|l| l["state"] == "live").count();
    assert!(
        state >= 2,
        "the window followed the end (state {state}, {live} live looks: {:?})",
        looks
            .iter()
            .map(|l| l["samples"].clone())
            .collect::<Vec<_>>()
    );
    let total = looks
        .last()
        .and_then(|l| l["censuses"].as_u64())
        .unwrap_or(0);
    assert!(total > 10, "{total} censuses");
    let data = browser.script("return window.hp2ps.live.data;", json!([]));
    assert_eq!(
        data,
        data_of(&reference),
        "the final data is --format html's"
    );
}

/// `hp2ps --serve` of a FIFO in `dir`, open in `browser`, and the thread that replays a
/// real log into the FIFO at half its pace.
fn served_from_a_fifo(
    browser: &support::webdriver::Browser,
    dir: &TempDir,
) -> (Served, std::thread::JoinHandle<std::io::Result<()>>) {
    mkfifo(&dir.join("run.eventlog"));
    let served = Served::start(dir.path(), &["run.eventlog"]);
    browser.goto(&served.url);
    let bytes = log("leakmap-hc-flush.eventlog");
    let fifo = dir.join("run.eventlog");
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("open the FIFO");
        replay::replay(&bytes, Pace::Blocks, 0.5, &mut |piece| {
            use std::io::Write;
            out.write_all(piece)
        })
    });
    (served, writer)
}

#[test]
fn a_band_shown_alone_stays_alone_as_bands_come() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("serve-alone");
    let (_served, writer) = served_from_a_fifo(&browser, &dir);
    let mut alone: Option<(String, usize)> = None;
    watch(&browser, Duration::from_secs(60), |l| {
        let bands = l["bands"].as_array().map_or(0, Vec::len);
        if alone.is_none() && l["state"] == "live" && bands >= 2 {
            let name = l["bands"][0].as_str().unwrap_or("").to_string();
            browser.script(
                "const run = window.hp2ps.runs[0]; run.isolate(run.bands.find((b) => b.name === arguments[0]).k);",
                json!([name.clone()]),
            );
            alone = Some((name, bands));
        }
    });
    writer.join().expect("writer").expect("replayed");
    let (name, before) = alone.expect("a band was shown alone");
    let last = look(&browser);
    let bands: Vec<&str> = (last["bands"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    let hidden: Vec<&str> = (last["hidden"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert!(
        bands.len() > before,
        "bands came: {before} then {}",
        bands.len()
    );
    // The table lists the bands that came too, and its caption counts them.
    let names = last["tableNames"].as_u64().unwrap_or(0);
    assert_eq!(
        last["rows"], names,
        "every row of the data's table in the table"
    );
    let caption = last["caption"].as_str().unwrap_or("");
    assert!(
        caption.contains(&format!(": {names} (")),
        "the caption counts {names} bands: {caption}"
    );
    let shown: Vec<&&str> = bands.iter().filter(|b| !hidden.contains(b)).collect();
    assert!(
        shown.len() == 1 && (*shown[0] == name || shown[0].starts_with(&name)),
        "{name} alone: {shown:?}"
    );
}

/// A tab reloaded mid-run picks the run up where it stands: the censuses read so far at
/// once, and the reader's window (kept in the address's fragment) restored.
#[test]
fn a_tab_reloaded_mid_run_picks_the_run_up_where_it_stands() {
    let Some(browser) = browser() else {
        return;
    };
    let dir = TempDir::new("serve-reload");
    let (served, writer) = served_from_a_fifo(&browser, &dir);
    let mut reloaded: Option<(u64, Vec<f64>)> = None;
    let mut after: Option<Value> = None;
    watch(&browser, Duration::from_secs(60), |l| {
        let samples = l["samples"].as_u64().unwrap_or(0);
        if reloaded.is_none() && l["state"] == "live" && samples >= 10 {
            let end = l["end"].as_f64().unwrap_or(1.0);
            let w = vec![end * 0.1, end * 0.4];
            let before = browser.script("return location.href", json!([]));
            browser.script(
                "window.hp2ps.runs[0].zoomTo(arguments[0], arguments[1]);",
                json!(w.clone()),
            );
            // The fragment follows the view once it rests (150 ms; later on a loaded
            // machine: waited for, up to 10 s); reloading the address keeps it.
            let until = Instant::now() + Duration::from_secs(10);
            let mut here = before.clone();
            while here == before && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(100));
                here = browser.script("return location.href", json!([]));
            }
            browser.goto(here.as_str().unwrap_or(&served.url));
            after = Some(settled(&browser));
            reloaded = Some((samples, w));
        }
    });
    writer.join().expect("writer").expect("replayed");
    let (before, window) = reloaded.expect("the tab was reloaded mid-run");
    let after = after.expect("a look after the reload");
    assert!(
        after["samples"].as_u64().unwrap_or(0) >= before,
        "the reloaded tab has the censuses read so far ({before}): {after}"
    );
    let restored: Vec<f64> = serde_json::from_value(after["window"].clone()).unwrap_or_default();
    assert_eq!(restored.len(), 2, "the window restored: {after}");
    for (got, want) in restored.iter().zip(&window) {
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0) + 1e-3,
            "the window restored: {restored:?} against {window:?}"
        );
    }
}
