//! The live page's honesty and manners (issue 35), in headless Chromium, a `.hp` written
//! into a FIFO sample by sample (each writer a run):
//!
//! * eight tabs of one browser all follow the run (a seventh never loaded: each tab held
//!   one of the browser's six connections with its event stream); one tab leads;
//! * the bar says how old the newest census is, and after a few of the usual gaps
//!   without one that the program may be idle or gone (a tab opened then too, at once);
//!   a closed input at once;
//! * a new run starts with its whole run in view (it kept the old run's zoom); the marks
//!   list follows the run (it said "1 mark" for ever); a band keeps its colour when two
//!   bands swap ranks; a tab hidden through a run's end and the next run's start draws
//!   the end's page as the old run's (it was drawn as the new run's, and the new run
//!   took the old one's zoom and colours);
//! * drawing is paced to what the page can draw, and waits while the tab is hidden.
//!
//! `HP2PS_LIVE_SHOTS=DIR` keeps screenshots (light and dark) of the states seen.
//! Needs `chromium` and `chromedriver`, as the other page tests.

mod support;

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::html_page::browser;
use support::serve::{mkfifo, Served};
use support::webdriver::Browser;
use support::TempDir;

/// A `.hp` header.
const HEADER: &str = "JOB \"svc\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";

/// One sample at `t` of these bands.
fn sample(t: f64, bands: &[(&str, u64)]) -> String {
    let mut s = format!("BEGIN_SAMPLE {t:.2}\n");
    for (name, v) in bands {
        s.push_str(&format!("{name} {v}\n"));
    }
    s.push_str(&format!("END_SAMPLE {t:.2}\n"));
    s
}

/// The FIFO `path` opened for writing (hp2ps opens it for reading as it waits).
fn writer(path: &Path) -> File {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open the FIFO")
}

/// Runs `js` in the page until it returns something other than null or false.
fn wait_for(b: &Browser, js: &str, within: Duration) -> Value {
    let until = Instant::now() + within;
    loop {
        let v = b.script(js, json!([]));
        if !(v.is_null() || v == json!(false)) {
            return v;
        }
        assert!(Instant::now() < until, "never: {js}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Keeps a screenshot (light, and dark when asked) under `HP2PS_LIVE_SHOTS`.
fn shot(b: &Browser, name: &str, dark_too: bool) {
    let Some(dir) = std::env::var_os("HP2PS_LIVE_SHOTS").map(std::path::PathBuf::from) else {
        return;
    };
    let _ = std::fs::write(dir.join(format!("{name}.png")), b.screenshot());
    if dark_too {
        let scheme = |value: &str| {
            b.cdp(
                "Emulation.setEmulatedMedia",
                json!({"features": [{"name": "prefers-color-scheme", "value": value}]}),
            )
        };
        scheme("dark");
        std::thread::sleep(Duration::from_millis(300));
        let _ = std::fs::write(dir.join(format!("{name}-dark.png")), b.screenshot());
        scheme("light");
    }
}

/// The bar's state and its text about the newest census.
/// Makes the page say it is hidden (or shown), as a tab in the background does.
fn hidden(b: &Browser, hidden: bool) {
    b.script(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => arguments[0] });
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([hidden]),
    );
}

fn bar(b: &Browser) -> Value {
    b.script(
        "const bar = document.querySelector('.live-bar');
         return { state: bar.dataset.state, text: bar.textContent,
                  age: document.querySelector('.live-age').textContent };",
        json!([]),
    )
}

#[test]
fn eight_tabs_of_one_browser_all_follow_the_run() {
    let Some(b) = browser() else {
        return;
    };
    let dir = TempDir::new("live-tabs");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    b.page_load_timeout(Duration::from_secs(15));
    let mut tabs = Vec::new();
    for i in 0..8 {
        let handle = if i == 0 { b.current() } else { b.new_tab() };
        b.try_goto(&served.url)
            .unwrap_or_else(|e| panic!("tab {} did not load: {e}", i + 1));
        wait_for(
            &b,
            "return !!(window.hp2ps && window.hp2ps.live);",
            Duration::from_secs(10),
        );
        tabs.push(handle);
    }
    let fifo = dir.join("run.hp");
    let w = std::thread::spawn(move || {
        let mut out = writer(&fifo);
        out.write_all(HEADER.as_bytes()).expect("write");
        for s in 0..30 {
            let t = f64::from(s) * 0.1;
            out.write_all(sample(t, &[("main", 1000 + 10 * s as u64)]).as_bytes())
                .expect("write");
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_millis(500));
    });
    w.join().expect("the writer");
    let mut leaders = 0;
    for (i, handle) in tabs.iter().enumerate() {
        b.switch_to(handle);
        let got = wait_for(
            &b,
            "const L = window.hp2ps.live; const s = L.heardStatus; return L.data && L.data.runs[0].samples === 30 && s && s.state === 'closed' ? { lead: L.lead } : null;",
            Duration::from_secs(15),
        );
        if got["lead"] == json!(true) {
            leaders += 1;
        }
        if i == 7 {
            shot(&b, "live-tab-8", false);
        }
    }
    assert_eq!(leaders, 1, "one tab holds the stream for all");
}

#[test]
fn the_bar_tells_an_idle_program_from_an_ended_input() {
    let Some(b) = browser() else {
        return;
    };
    let dir = TempDir::new("live-idle");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    b.goto(&served.url);
    let mut out = writer(&dir.join("run.hp"));
    out.write_all(HEADER.as_bytes()).expect("write");
    for s in 0..10 {
        let t = f64::from(s) * 0.1;
        out.write_all(sample(t, &[("a", 500 + s as u64), ("b", 300)]).as_bytes())
            .expect("write");
        std::thread::sleep(Duration::from_millis(150));
    }
    wait_for(
        &b,
        "return window.hp2ps.live.status && window.hp2ps.live.status.censuses === 10;",
        Duration::from_secs(10),
    );
    let fresh = bar(&b);
    assert!(
        fresh["age"]
            .as_str()
            .is_some_and(|a| a.starts_with("newest census ") && a.ends_with(" s ago")),
        "{fresh}"
    );
    shot(&b, "live-fresh", true);
    // Nothing for a while: a few of the usual gaps (0.15 s here), at least five seconds.
    let quiet = wait_for(
        &b,
        "const bar = document.querySelector('.live-bar'); return bar.dataset.state === 'quiet' ? document.querySelector('.live-age').textContent : null;",
        Duration::from_secs(12),
    );
    let quiet = quiet.as_str().unwrap_or_default().to_string();
    assert!(
        quiet.starts_with("no data for ")
            && quiet.ends_with(
                " s: the program may be idle (GHC takes no census while it is idle) or gone"
            ),
        "{quiet}"
    );
    shot(&b, "live-quiet", true);
    // A tab opened now is told as much at once (the leading tab's state, its age as of
    // now), not "newest census 0 s ago" counted from when it heard it.
    let first = b.current();
    b.new_tab();
    b.goto(&served.url);
    wait_for(
        &b,
        "return !!(window.hp2ps && window.hp2ps.live && window.hp2ps.live.status);",
        Duration::from_secs(10),
    );
    let late = bar(&b);
    let said = late["age"].as_str().unwrap_or_default();
    let secs = (said.strip_prefix("no data for "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(
        late["state"] == "quiet" && secs.is_some_and(|n| n >= 5),
        "{late}"
    );
    b.switch_to(&first);
    // A census again: live.
    out.write_all(sample(1.5, &[("a", 600), ("b", 300)]).as_bytes())
        .expect("write");
    wait_for(
        &b,
        "return document.querySelector('.live-bar').dataset.state === 'live';",
        Duration::from_secs(5),
    );
    // The writer gone: said at once.
    drop(out);
    let closed_at = Instant::now();
    wait_for(
        &b,
        "return document.querySelector('.live-bar').dataset.state === 'closed';",
        Duration::from_secs(5),
    );
    assert!(
        closed_at.elapsed() < Duration::from_secs(3),
        "{:?}",
        closed_at.elapsed()
    );
    let end = bar(&b);
    assert!(
        end["text"]
            .as_str()
            .is_some_and(|t| t.contains("The input closed")),
        "{end}"
    );
    shot(&b, "live-closed", true);
}

#[test]
fn marks_colours_and_a_new_run_follow_the_run() {
    let Some(b) = browser() else {
        return;
    };
    let dir = TempDir::new("live-marks");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    b.goto(&served.url);
    let mut out = writer(&dir.join("run.hp"));
    out.write_all(HEADER.as_bytes()).expect("write");
    // Run 1: "big" above "small", one mark; then "small" grows past "big" and five
    // marks more.
    let mut t = 0.0;
    for s in 0..12u64 {
        if s == 5 {
            out.write_all(format!("MARK {t:.2}\n").as_bytes())
                .expect("write");
        }
        out.write_all(sample(t, &[("big", 9000), ("small", 100 + s)]).as_bytes())
            .expect("write");
        t += 0.1;
    }
    wait_for(
        &b,
        "return window.hp2ps.runs && window.hp2ps.runs[0].d.samples === 12;",
        Duration::from_secs(10),
    );
    let colours = "const run = window.hp2ps.runs[0]; const c = {}; for (const band of run.bands) c[band.name] = band.colour; return c;";
    let before = b.script(colours, json!([]));
    let marks = "const box = document.querySelector('.marks-panel'); return box && !box.hidden ? box.querySelector('summary').textContent : null;";
    assert_eq!(wait_for(&b, marks, Duration::from_secs(5)), json!("1 mark"));
    // A window in the past.
    b.script("window.hp2ps.runs[0].zoomTo(0.1, 0.4);", json!([]));
    for s in 0..30u64 {
        if s % 6 == 0 {
            out.write_all(format!("MARK {t:.2}\n").as_bytes())
                .expect("write");
        }
        out.write_all(sample(t, &[("big", 9000), ("small", 20_000 + s)]).as_bytes())
            .expect("write");
        t += 0.1;
        std::thread::sleep(Duration::from_millis(40));
    }
    wait_for(
        &b,
        "return window.hp2ps.runs[0].d.samples === 42;",
        Duration::from_secs(10),
    );
    wait_for(&b, &format!("{marks}; "), Duration::from_secs(1));
    let said = wait_for(&b, marks, Duration::from_secs(5));
    assert_eq!(said, json!("6 marks"), "the list follows the run's marks");
    let after = b.script(colours, json!([]));
    assert_eq!(
        before, after,
        "each band keeps its colour as they swap ranks"
    );
    let order = b.script(
        "return window.hp2ps.live.data.runs[0].bands.map((b) => b.name);",
        json!([]),
    );
    assert_eq!(
        order,
        json!(["big", "small"]),
        "the server's order did change: {order}"
    );
    let window = b.script("return window.hp2ps.runs[0].state.window;", json!([]));
    assert_eq!(
        window,
        json!([0.1, 0.4]),
        "the window in the past stays within the run"
    );
    shot(&b, "live-marks", false);
    // Hidden through the run's end and the next run's start: the end's page waits to be
    // drawn, then the next run's wait comes. Shown again, the page is drawn as run 1's
    // (its window in the past kept), and the bar says run 2's wait. (Before, the page
    // was drawn as run 2's: the window went, and run 2 took run 1's colours and zoom.)
    hidden(&b, true);
    drop(out);
    wait_for(
        &b,
        "const p = window.hp2ps.live.pending;
         return !!(p && p.page && p.status.run === 1 && p.status.state === 'closed');",
        Duration::from_secs(20),
    );
    let mut out = writer(&dir.join("run.hp"));
    wait_for(
        &b,
        "const p = window.hp2ps.live.pending;
         return !!(p && p.page && (p.then || p.status).run === 2);",
        Duration::from_secs(20),
    );
    hidden(&b, false);
    wait_for(
        &b,
        "return window.hp2ps.live.pending === null;",
        Duration::from_secs(5),
    );
    let shown = b.script(
        "const L = window.hp2ps.live;
         return [L.run, L.status.run, L.status.state, window.hp2ps.runs[0].state.window];",
        json!([]),
    );
    assert_eq!(shown, json!([1, 2, "waiting", [0.1, 0.4]]), "{shown}");
    shot(&b, "live-ended-then-waiting", false);
    // Run 2 writes: its page starts with the whole run in view.
    out.write_all(HEADER.as_bytes()).expect("write");
    for s in 0..8u64 {
        out.write_all(sample(s as f64 * 0.1, &[("other", 500 + s)]).as_bytes())
            .expect("write");
    }
    wait_for(
        &b,
        "const L = window.hp2ps.live; return L.status.run === 2 && window.hp2ps.runs[0].d.samples === 8;",
        Duration::from_secs(10),
    );
    let window = b.script("return window.hp2ps.runs[0].state.window;", json!([]));
    assert_eq!(window, Value::Null, "a new run shows its whole run");
    drop(out);
}

#[test]
fn drawing_is_paced_and_waits_while_the_tab_is_hidden() {
    let Some(b) = browser() else {
        return;
    };
    let dir = TempDir::new("live-paced");
    mkfifo(&dir.join("run.hp"));
    let served = Served::start(dir.path(), &["run.hp"]);
    b.goto(&served.url);
    let mut out = writer(&dir.join("run.hp"));
    out.write_all(HEADER.as_bytes()).expect("write");
    out.write_all(sample(0.0, &[("a", 1)]).as_bytes())
        .expect("write");
    wait_for(&b, "return !!window.hp2ps.runs;", Duration::from_secs(10));
    // A page that takes 150 ms to draw each update.
    b.script(
        "const R = window.hp2ps.Run.prototype; const update = R.update;
         R.update = function (d) { const until = performance.now() + 150; while (performance.now() < until) {} return update.call(this, d); };
         window.hp2ps.live.drawn.length = 0;",
        json!([]),
    );
    let mut t = 0.1;
    let mut more = |n: usize, out: &mut File| {
        for _ in 0..n {
            out.write_all(sample(t, &[("a", (t * 100.0) as u64)]).as_bytes())
                .expect("write");
            t += 0.1;
            std::thread::sleep(Duration::from_millis(60));
        }
    };
    more(40, &mut out);
    std::thread::sleep(Duration::from_millis(800));
    let drawn = b.script(
        "return window.hp2ps.live.drawn.map((d) => d[0]);",
        json!([]),
    );
    let times: Vec<f64> = serde_json::from_value(drawn).unwrap_or_default();
    assert!(times.len() >= 3, "{times:?}");
    let least = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    assert!(
        least >= 250.0,
        "a page that takes 150 ms to draw is drawn every {least} ms at least"
    );
    // Hidden: the data follows, the drawing waits.
    b.script(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    std::thread::sleep(Duration::from_millis(400));
    let (drawn, seq) = (
        b.script("return window.hp2ps.live.drawn.length;", json!([])),
        b.script("return window.hp2ps.live.seq;", json!([])),
    );
    more(15, &mut out);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(
        b.script("return window.hp2ps.live.drawn.length;", json!([])),
        drawn,
        "nothing drawn while hidden"
    );
    let later = b.script("return window.hp2ps.live.seq;", json!([]));
    assert!(
        later.as_u64() > seq.as_u64(),
        "updates still heard: {seq} then {later}"
    );
    b.script(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
         document.dispatchEvent(new Event('visibilitychange'));",
        json!([]),
    );
    wait_for(
        &b,
        &format!("return window.hp2ps.live.drawn.length > {drawn};"),
        Duration::from_secs(3),
    );
    drop(out);
}

/// A real GHC 9.10.3 log (`-hc`, flushed every 0.05 s) written into a growing file: half
/// of it, then nothing (the program idle, or killed: a file cannot tell), then the rest:
/// the bar goes from live to "no data" and back, then to the program's end.
#[test]
fn a_real_log_that_pauses_is_said_idle_then_live_then_ended() {
    use support::replay::{self, Pace};
    let Some(b) = browser() else {
        return;
    };
    let bytes = std::fs::read(support::html_page::repo(
        "tests/data/ghc-9.10/leakmap-hc-flush.eventlog",
    ))
    .expect("a test log");
    let dir = TempDir::new("live-real-idle");
    let served = Served::start(dir.path(), &["run.eventlog"]);
    b.goto(&served.url);
    let p = replay::pieces(&bytes, Pace::Blocks);
    let half = p.blocks[p.blocks.len() / 2].0;
    let mut file = File::create(dir.join("run.eventlog")).expect("create");
    replay::replay(&bytes[..half], Pace::Blocks, 0.5, &mut |piece| {
        file.write_all(piece)?;
        file.flush()
    })
    .unwrap_or(());
    wait_for(&b, "return document.querySelector('.live-bar').dataset.state === 'live' && !!window.hp2ps.runs;", Duration::from_secs(20));
    shot(&b, "live-real", true);
    let quiet = wait_for(
        &b,
        "return document.querySelector('.live-bar').dataset.state === 'quiet' ? document.querySelector('.live-age').textContent : null;",
        Duration::from_secs(15),
    );
    assert!(
        quiet
            .as_str()
            .is_some_and(|q| q.starts_with("no data for ")),
        "{quiet}"
    );
    shot(&b, "live-real-quiet", true);
    file.write_all(&bytes[half..]).expect("the rest");
    file.flush().expect("flush");
    wait_for(
        &b,
        "return document.querySelector('.live-bar').dataset.state === 'ended';",
        Duration::from_secs(20),
    );
    let text = bar(&b);
    assert!(
        text["text"]
            .as_str()
            .is_some_and(|t| t.contains("The program ended")),
        "{text}"
    );
    std::thread::sleep(Duration::from_millis(800));
    shot(&b, "live-real-ended", true);
    // Bands come and go from the drawn ones and gain " #1" as the -L cut makes their
    // names equal: still no two bands shown share a colour.
    let colours = b.script(
        "return window.hp2ps.runs[0].bands.map((b) => b.colour);",
        json!([]),
    );
    let colours: Vec<String> = serde_json::from_value(colours).unwrap_or_default();
    let distinct: std::collections::BTreeSet<&String> = colours.iter().collect();
    assert_eq!(distinct.len(), colours.len(), "{colours:?}");
}
