//! `hp2ps --serve`'s `metrics` route under a real Prometheus (Debian's `prometheus`,
//! started by the test): a real GHC 9.10.3 log replayed at its pace into a FIFO, scraped
//! every second at `/TOKEN/metrics` as the run goes; then Prometheus's HTTP query API
//! gives, for the newest census, exactly what `--summary=json` says of the same
//! censuses (and the heap lines `--format prometheus` says), at most N + 1 band series
//! over the whole run (its series API and its own `prometheus_tsdb_head_series`), and
//! `promtool check metrics` reads both formats of the route; a log of hostile names
//! (quotes, backslashes, Latin-1, Japanese) gives labels promtool reads, and the route
//! refuses another `Host` and a path without the token.

mod support;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::prometheus::{http, prometheus, query, targets_when, Daemon};
use support::replay::{self, Pace};
use support::run::{self, Cmd, Input};
use support::serve::{mkfifo, state, Served};
use support::{tools, TempDir};

/// The bands named (`-m`).
const N: usize = 5;

/// `GET path` of the server with this `Accept`: the status, the content type, the body.
fn get(served: &Served, path: &str, accept: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(&served.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n",
        served.addr
    );
    s.write_all(req.as_bytes()).expect("send");
    let mut all = String::new();
    s.read_to_string(&mut all).expect("an answer in UTF-8");
    let (head, body) = all.split_once("\r\n\r\n").expect("a head");
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let kind = (head.lines())
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(String::from)
        })
        .unwrap_or_default();
    (code, kind, body.to_string())
}

/// Whether promtool reads `text` without a word.
fn promtool(text: &str) {
    let ran = Cmd::new("promtool")
        .args(["check", "metrics"])
        .stdin_bytes(text.as_bytes().to_vec())
        .timeout(Duration::from_secs(30))
        .run();
    assert!(
        ran.code == Some(0) && ran.stdout.is_empty() && ran.stderr.is_empty(),
        "promtool: {}{}\n{text}",
        String::from_utf8_lossy(&ran.stdout),
        ran.stderr_text()
    );
}

/// The value of a query's one series.
fn one(prom: &Daemon, expr: &str) -> f64 {
    let result = query(prom, expr);
    let result = result.as_array().expect("a vector");
    assert_eq!(result.len(), 1, "{expr}: {result:?}");
    number(&result[0])
}

fn number(series: &Value) -> f64 {
    series["value"][1]
        .as_str()
        .expect("a value")
        .parse()
        .expect("a number")
}

/// `--summary=json` of `file` with `window` (`--from`/`--to`).
fn summary(dir: &Path, file: &str, window: &[&str]) -> Value {
    let mut args = vec!["--summary=json", "--time", "elapsed", "--top", "1000"];
    args.extend_from_slice(window);
    args.push(file);
    let ran = run::hp2ps(dir, &args, Input::Null);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    serde_json::from_slice(&ran.stdout).expect("JSON")
}

/// A band's series label: its name without an eventlog's ` #k` (bands of one key count
/// together, as the page of several runs matches them).
fn key(name: &str) -> &str {
    match name.rsplit_once(" #") {
        Some((key, k)) if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) => key,
        _ => name,
    }
}

/// Waits until `done` holds of `expr`'s result.
fn query_until(prom: &Daemon, expr: &str, within: Duration, done: impl Fn(&Value) -> bool) {
    let start = Instant::now();
    loop {
        let result = query(prom, expr);
        if done(&result) {
            return;
        }
        assert!(start.elapsed() < within, "{expr}: {result}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_real_prometheus_follows_a_replayed_run() {
    if !tools::require("prometheus") || !tools::require("promtool") {
        return;
    }
    let dir = TempDir::new("serve-prometheus");
    let log =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10/leakmap-hc-flush.eventlog");
    let bytes = std::fs::read(&log).expect("the log");
    std::fs::write(dir.join("whole.eventlog"), &bytes).expect("a copy");
    mkfifo(&dir.join("run.eventlog"));
    let served = Served::start(dir.path(), &[&format!("-m{N}"), "run.eventlog"]);
    let path = format!("/{}/metrics", served.token);
    // Before the first census: an exposition of nothing.
    let (code, kind, body) = get(&served, &path, "text/plain");
    assert_eq!(
        (code, kind.as_str(), body.as_str()),
        (200, "text/plain; version=0.0.4; charset=utf-8", "")
    );
    let prom = prometheus(dir.path(), &[&served.addr], &path);
    let up = targets_when(&prom, Duration::from_secs(30), |t| {
        t.len() == 1 && t[0]["health"] == "up"
    });
    assert_eq!(up[0]["health"], "up", "{up:?}");
    // The run replayed at a quarter of its pace (1.7 s become 7): scraped as it goes.
    let fifo = dir.join("run.eventlog");
    let writer = std::thread::spawn(move || {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .open(fifo)
            .expect("the FIFO");
        replay::replay(&bytes, Pace::Blocks, 0.25, &mut |p| out.write_all(p)).expect("replay");
    });
    let events = served.events();
    events.until(Duration::from_secs(90), |u| state(u) == "ended");
    writer.join().expect("the writer");

    // The route's last exposition, in both formats; Prometheus has scraped it.
    let (code, kind, text) = get(&served, &path, "text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
    assert_eq!(
        (code, kind.as_str()),
        (200, "text/plain; version=0.0.4; charset=utf-8")
    );
    promtool(&text);
    let accept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5";
    let (code, kind, om) = get(&served, &path, accept);
    assert_eq!(
        (code, kind.as_str()),
        (
            200,
            "application/openmetrics-text; version=1.0.0; charset=utf-8"
        )
    );
    assert!(om.ends_with("# EOF\n"), "{om}");
    promtool(&om);
    let censuses_line = (text.lines())
        .find(|l| l.starts_with("hp2ps_censuses{"))
        .expect("hp2ps_censuses");
    let censuses: f64 = censuses_line.rsplit(' ').next().unwrap().parse().unwrap();
    query_until(&prom, "hp2ps_censuses", Duration::from_secs(30), |r| {
        r.as_array()
            .is_some_and(|a| a.len() == 1 && number(&a[0]) == censuses)
    });
    // Prometheus followed the run: it saw the census count grow.
    let seen = one(&prom, "changes(hp2ps_censuses[10m])");
    assert!(seen >= 2.0, "hp2ps_censuses changed {seen} times");

    // The newest census's time, then the summary of the same censuses (up to it) and of
    // that census alone.
    let t = one(&prom, "hp2ps_elapsed_seconds");
    let t_arg = format!("{t}");
    let upto = summary(dir.path(), "whole.eventlog", &["--to", &t_arg]);
    let at = summary(
        dir.path(),
        "whole.eventlog",
        &["--from", &t_arg, "--to", &t_arg],
    );
    assert_eq!(at["samples"], 1, "one census at {t}: {at}");
    assert_eq!(censuses, upto["samples"].as_f64().unwrap());
    assert_eq!(t, upto["end"].as_f64().unwrap());
    assert_eq!(
        one(&prom, "hp2ps_peak_bytes"),
        upto["peak"]["total"].as_f64().unwrap()
    );
    assert_eq!(
        one(&prom, "hp2ps_area_byte_seconds"),
        upto["area"].as_f64().unwrap()
    );
    let residency = at["peak"]["total"].as_f64().unwrap();
    assert!(residency > 0.0, "{at}");
    assert_eq!(one(&prom, "hp2ps_residency_bytes"), residency);
    // Each band at that census: a named key its bands' sum, OTHER the rest.
    let mut by_key: BTreeMap<String, f64> = BTreeMap::new();
    for band in at["top"].as_array().unwrap() {
        let name = band["name"].as_str().unwrap();
        *by_key.entry(key(name).to_string()).or_default() += band["peak"].as_f64().unwrap();
    }
    let series = query(&prom, "hp2ps_band_bytes");
    let series = series.as_array().unwrap();
    assert_eq!(series.len(), N + 1, "{series:?}");
    let mut named = 0.0;
    let mut other = None;
    for s in series {
        assert_eq!(s["metric"]["program"], "leakmap-prof");
        assert_eq!(s["metric"]["kind"], "-hc");
        assert_eq!(s["metric"]["job"], "hp2ps", "the scrape's own job label");
        let band = s["metric"]["band"].as_str().unwrap();
        let got = number(s);
        if band == "OTHER" {
            other = Some(got);
            continue;
        }
        let want = by_key.get(band).copied().unwrap_or(0.0);
        assert_eq!(got, want, "{band}");
        named += got;
    }
    assert_eq!(other, Some(residency - named), "OTHER holds the rest");
    // The heap lines at that census are --format prometheus's of the same censuses.
    let file = run::hp2ps(
        dir.path(),
        &[
            "--format",
            "prometheus",
            "-o",
            "-",
            "--time",
            "elapsed",
            "--to",
            &t_arg,
            "whole.eventlog",
        ],
        Input::Null,
    );
    assert_eq!(file.code, Some(0), "{}", file.describe());
    let file = String::from_utf8(file.stdout).unwrap();
    for family in [
        "hp2ps_heap_size_bytes",
        "hp2ps_live_bytes",
        "hp2ps_blocks_size_bytes",
    ] {
        let line = (file.lines())
            .find(|l| l.starts_with(&format!("{family}{{")))
            .unwrap_or_else(|| panic!("{family} in\n{file}"));
        let want: f64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(one(&prom, family), want, "{family}");
    }

    // At most N + 1 band series over the whole run, as bands came and went: the
    // series API's, and the head's count of Prometheus's own (the families of one band
    // each, the run's single ones and the scrape's five).
    let (status, body) = http(
        &prom.addr,
        "GET",
        "/api/v1/series?match[]=hp2ps_band_bytes&start=0",
        None,
    );
    assert_eq!(status, 200);
    let all: Value = serde_json::from_slice(&body).unwrap();
    let all = all["data"].as_array().unwrap().len();
    assert_eq!(all, N + 1, "the run's band series");
    let (_, own) = http(&prom.addr, "GET", "/metrics", None);
    let own = String::from_utf8(own).unwrap();
    let head: f64 = (own.lines())
        .find_map(|l| l.strip_prefix("prometheus_tsdb_head_series "))
        .expect("prometheus_tsdb_head_series")
        .parse()
        .unwrap();
    let singles = text.lines().filter(|l| l.starts_with("# TYPE")).count() - 2;
    let most = 2 * (N + 1) + singles + 5;
    assert!(
        head <= most as f64,
        "{head} series in the head, more than {most}"
    );
    let (status, _) = served.interrupt();
    assert!(status.success());
}

#[test]
fn hostile_names_become_labels_promtool_reads() {
    if !tools::require("promtool") {
        return;
    }
    let dir = TempDir::new("serve-prometheus-hostile");
    std::fs::write(dir.join("h.eventlog"), support::hostile::names_eventlog()).unwrap();
    let served = Served::start(dir.path(), &["h.eventlog"]);
    served
        .events()
        .until(Duration::from_secs(60), |u| state(u) == "ended");
    let path = format!("/{}/metrics", served.token);
    // The metrics come with the page's updates: the one that said the end may come
    // first.
    let start = Instant::now();
    let text = loop {
        let (code, _, text) = get(&served, &path, "text/plain");
        assert_eq!(code, 200);
        if text.contains("hp2ps_band_bytes{") || start.elapsed() > Duration::from_secs(20) {
            break text;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    promtool(&text);
    let accept = "application/openmetrics-text;version=1.0.0";
    promtool(&get(&served, &path, accept).2);
    for label in [
        "band=\"say \\\"hi\\\"\"",
        "band=\"back\\\\slash\"",
        "band=\"日本語\"",
        "band=\"caf\u{fffd}\"",
        "program=\"hos\\\"t\\\\ile\"",
    ] {
        assert!(text.contains(label), "{label} in\n{text}");
    }
    // Another Host, or no token: refused, as every route.
    let (code, _) = served.request("GET", &path, Some("evil.example"));
    assert_eq!(code, 403);
    let (code, _) = served.get("/metrics");
    assert_eq!(code, 403);
}
