//! `--format prometheus` (and OpenMetrics, through the library): `promtool check metrics`
//! reads every exposition of the repository's profiles (the golden inputs, the real GHC
//! runs of `tests/data`, hostile names); a name holding `"`, `\`, tabs, control
//! characters, Latin-1 or Japanese becomes a label that reads back as the name; the
//! numbers are `--summary=json`'s; a real Prometheus scrapes both formats, and a real
//! Pushgateway takes the batch file and serves it back.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hp2ps::{load, prepare, Format, LoadOptions, PaintOptions, RenderOptions, Source};
use serde_json::Value;
use support::prometheus::{http, prometheus, pushgateway, query, targets_when, Exposed};
use support::run::{self, Cmd, Input};
use support::{golden_inputs, tools, TempDir};

/// The exposition of `file` (in `dir`), from the command line.
fn metrics(dir: &Path, file: &str, extra: &[&str]) -> run::Ran {
    let mut args = vec!["--format", "prometheus", "-o", "-"];
    args.extend_from_slice(extra);
    args.push(file);
    run::hp2ps(dir, &args, Input::Null)
}

/// Whether promtool reads `text` without a word.
fn promtool(text: &[u8]) -> Result<(), String> {
    let ran = Cmd::new("promtool")
        .args(["check", "metrics"])
        .stdin_bytes(text.to_vec())
        .timeout(Duration::from_secs(30))
        .run();
    match ran.code {
        Some(0) if ran.stdout.is_empty() && ran.stderr.is_empty() => Ok(()),
        _ => Err(format!(
            "{}{}",
            String::from_utf8_lossy(&ran.stdout),
            ran.stderr_text()
        )),
    }
}

/// Every real profile of `tests/data` (`.hp` and eventlog).
fn data_profiles() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = Vec::new();
    for dir in [
        "eventlog",
        "ghc-9.10",
        "gate",
        "page",
        "timeaxis/ghc-9.0.2",
        "timeaxis/ghc-9.10.3",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "hp" || x == "eventlog") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// A label value read back: the format's three escapes undone.
fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some(c) => out.push(c),
                None => panic!("a lone backslash in {value:?}"),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// A sample line read back: its family, its labels (values unescaped) and its value.
fn sample(line: &str) -> (String, BTreeMap<String, String>, f64) {
    let (name, rest) = line
        .split_once('{')
        .unwrap_or_else(|| panic!("no labels: {line}"));
    let mut labels = BTreeMap::new();
    let mut rest = rest;
    while let Some((label, after)) = rest.split_once("=\"") {
        // The value ends at the first quote no backslash escapes.
        let mut end = 0;
        let bytes = after.as_bytes();
        while bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        labels.insert(
            label.trim_start_matches(',').to_string(),
            unescape(&after[..end]),
        );
        rest = &after[end + 1..];
        if let Some(value) = rest.strip_prefix("} ") {
            return (name.to_string(), labels, value.parse().expect("a number"));
        }
    }
    panic!("no end of the labels: {line}");
}

/// The `band` labels of a family, read back, with their values.
fn bands(text: &str, family: &str) -> Vec<(String, f64)> {
    (text.lines())
        .filter(|l| l.starts_with(&format!("{family}{{")))
        .map(|l| {
            let (_, labels, value) = sample(l);
            (labels["band"].clone(), value)
        })
        .collect()
}

/// The value of a family without a band label.
fn value(text: &str, family: &str) -> f64 {
    let prefix = format!("{family}{{");
    let line = (text.lines())
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {family}"));
    sample(line).2
}

#[test]
fn promtool_reads_every_exposition_of_the_repository() {
    if !tools::require("promtool") {
        return;
    }
    let dir = TempDir::new("prometheus-promtool");
    let mut read = 0;
    let mut refused = Vec::new();
    let mut inputs: Vec<(String, Vec<u8>)> = golden_inputs();
    for p in data_profiles() {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        inputs.push((name, std::fs::read(&p).unwrap()));
    }
    inputs.push((
        "hostile.eventlog".into(),
        support::hostile::names_eventlog(),
    ));
    inputs.push(("terminal.hp".into(), support::hostile::terminal_hp()));
    for (name, bytes) in &inputs {
        std::fs::write(dir.join(name), bytes).unwrap();
        for extra in [&[][..], &["-m3"]] {
            let ran = metrics(dir.path(), name, extra);
            if ran.code != Some(0) {
                // A profile hp2ps refuses (the golden inputs' cut files) says why.
                assert_eq!(ran.code, Some(1), "{name}: {}", ran.describe());
                assert!(ran.stderr_text().starts_with("hp2ps: "), "{name}");
                refused.push(name.clone());
                continue;
            }
            if let Err(e) = promtool(&ran.stdout) {
                panic!(
                    "{name} {extra:?}: promtool: {e}\n{}",
                    String::from_utf8_lossy(&ran.stdout)
                );
            }
            read += 1;
        }
    }
    eprintln!(
        "promtool read {read} expositions; hp2ps refused {} inputs: {refused:?}",
        refused.len() / 2
    );
    assert!(read >= 2 * 100, "{read}");
}

#[test]
fn hostile_names_become_labels_that_read_back_as_the_names() {
    let dir = TempDir::new("prometheus-hostile");
    std::fs::write(dir.join("h.eventlog"), support::hostile::names_eventlog()).unwrap();
    let ran = metrics(dir.path(), "h.eventlog", &[]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let text = String::from_utf8(ran.stdout).expect("UTF-8");
    if tools::require("promtool") {
        promtool(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
    let got: Vec<String> = bands(&text, "hp2ps_band_bytes")
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    // Biggest first; the eventlog's reader makes a name one line (its line ends
    // spaces), so that a line end only reaches the writer's escaping from its own tests.
    let want = [
        "{band=\"x\"} 1",
        "日本語",
        "caf\u{fffd}",
        "\u{1b}]0;pwned\u{7}",
        "tab\tand return",
        "two lines",
        "back\\slash",
        "say \"hi\"",
        "OTHER",
    ];
    assert_eq!(
        got, want,
        "biggest first, the profile's OTHER in OTHER\n{text}"
    );
    assert!(
        text.contains("program=\"hos\\\"t\\\\ile\",kind=\"-hd\""),
        "{text}"
    );
    // The profile's OTHER (the eighth, 8,000 bytes at the end) is OTHER's.
    assert_eq!(bands(&text, "hp2ps_band_bytes").last().unwrap().1, 24_000.0);
}

#[test]
fn the_numbers_are_the_summarys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (file, heap) in [
        ("gate/leakmap-leak.hp", false),
        ("ghc-9.10/leakmap-hc.eventlog", true),
    ] {
        let path = root.join(file).display().to_string();
        let dir = TempDir::new("prometheus-summary");
        let ran = metrics(dir.path(), &path, &[]);
        assert_eq!(ran.code, Some(0), "{}", ran.describe());
        assert!(
            ran.stderr.is_empty(),
            "{file}: no word on a .hp's heap lines: {}",
            ran.stderr_text()
        );
        let text = String::from_utf8(ran.stdout).unwrap();
        let mut args = vec!["--summary=json", "--top", "100", &path];
        if heap {
            args.push("--heap-size");
        }
        let summary = run::hp2ps(dir.path(), &args, Input::Null);
        let s: Value = serde_json::from_slice(&summary.stdout).expect("JSON");
        assert_eq!(
            value(&text, "hp2ps_peak_bytes"),
            s["peak"]["total"].as_f64().unwrap(),
            "{file}"
        );
        assert_eq!(
            value(&text, "hp2ps_area_byte_seconds"),
            s["area"].as_f64().unwrap(),
            "{file}"
        );
        assert_eq!(
            value(&text, "hp2ps_censuses"),
            s["samples"].as_f64().unwrap()
        );
        assert_eq!(
            value(&text, "hp2ps_elapsed_seconds"),
            s["end"].as_f64().unwrap()
        );
        // A band whose key is its own (no other stack cut to its name) has the
        // summary's peak.
        let top = s["top"].as_array().unwrap();
        let key = |n: &str| {
            n.trim_start_matches(|c: char| c == '(' || c.is_ascii_digit() || c == ')')
                .to_string()
        };
        let mut checked = 0;
        for (band, peak) in bands(&text, "hp2ps_band_peak_bytes") {
            let same: Vec<&Value> = top
                .iter()
                .filter(|b| key(b["name"].as_str().unwrap()) == band)
                .collect();
            if let [one] = same[..] {
                assert_eq!(peak, one["peak"].as_f64().unwrap(), "{file}: {band}");
                checked += 1;
            }
        }
        assert!(checked >= 10, "{file}: {checked}");
        let series = s["series"].as_array().map_or(0, Vec::len);
        assert_eq!(
            text.contains("hp2ps_heap_size_bytes{"),
            heap && series > 0,
            "{file}"
        );
        if heap {
            assert!(
                text.contains("hp2ps_blocks_size_bytes{"),
                "GHC 9.10's log has the blocks size"
            );
        }
    }
}

/// The exposition of `file` through the library, in either format.
fn exposition(file: &Path, openmetrics: bool) -> Vec<u8> {
    let bytes = std::fs::read(file).unwrap();
    let mut opts = LoadOptions::default();
    opts.heap_size = true;
    let loaded = load(Source::Bytes(&bytes), &opts).unwrap();
    let render = RenderOptions::for_format(Format::Prometheus);
    let (chart, _) = prepare(loaded.profile, None, &render);
    let mut paint = PaintOptions::default();
    paint.openmetrics = openmetrics;
    let mut out = Vec::new();
    chart.write(Format::Prometheus, &paint, &mut out).unwrap();
    out
}

#[test]
fn a_real_prometheus_scrapes_both_formats() {
    if !tools::require("prometheus") {
        return;
    }
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10/leakmap-hc.eventlog");
    let om = Exposed::serve(
        exposition(&file, true),
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
    );
    let text = Exposed::serve(
        exposition(&file, false),
        "text/plain; version=0.0.4; charset=utf-8",
    );
    let dir = TempDir::new("prometheus-scrape");
    let prom = prometheus(dir.path(), &[&om.addr, &text.addr], "/metrics");
    let targets = targets_when(&prom, Duration::from_secs(30), |t| {
        t.len() == 2 && t.iter().all(|t| t["health"] == "up")
    });
    for t in &targets {
        assert_eq!(t["health"], "up", "{t}");
        assert_eq!(t["lastError"], "", "{t}");
    }
    let text = String::from_utf8(exposition(&file, false)).unwrap();
    for family in [
        "hp2ps_peak_bytes",
        "hp2ps_residency_bytes",
        "hp2ps_live_bytes",
    ] {
        let result = query(&prom, family);
        let result = result.as_array().unwrap();
        assert_eq!(result.len(), 2, "{family}: one series per target");
        for r in result {
            let got: f64 = r["value"][1].as_str().unwrap().parse().unwrap();
            assert_eq!(got, value(&text, family), "{family}: {r}");
            assert_eq!(r["metric"]["program"], "leakmap-prof");
            assert_eq!(r["metric"]["kind"], "-hc");
        }
    }
    let series = query(&prom, "hp2ps_band_bytes");
    let named = bands(&text, "hp2ps_band_bytes").len();
    assert_eq!(named, 19, "the log's 18 keys and OTHER");
    assert_eq!(
        series.as_array().unwrap().len(),
        2 * named,
        "every band, twice"
    );
}

#[test]
fn a_pushgateway_takes_the_batch_file() {
    if !tools::require("prometheus-pushgateway") {
        return;
    }
    let dir = TempDir::new("prometheus-push");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    std::fs::copy(data.join("gate/leakmap-leak.hp"), dir.join("leak.hp")).unwrap();
    std::fs::write(dir.join("h.eventlog"), support::hostile::names_eventlog()).unwrap();
    let gateway = pushgateway(dir.path());
    for (input, file, instance) in [
        ("leak.hp", "leak.prom", "ci"),
        ("h.eventlog", "h.prom", "hostile"),
    ] {
        let ran = run::hp2ps(dir.path(), &["--format", "prometheus", input], Input::Null);
        assert_eq!(ran.code, Some(0), "{}", ran.describe());
        let body = std::fs::read(dir.join(file)).unwrap();
        let path = format!("/metrics/job/hp2ps/instance/{instance}");
        let (status, answer) = http(
            &gateway.addr,
            "PUT",
            &path,
            Some(("text/plain; version=0.0.4", &body)),
        );
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer));
    }
    assert!(
        !dir.join("leak.aux").exists() && !dir.join("h.aux").exists(),
        "an export writes no .aux"
    );
    let (status, served) = http(&gateway.addr, "GET", "/metrics", None);
    assert_eq!(status, 200);
    let served = String::from_utf8(served).unwrap();
    let served: Vec<_> = (served.lines())
        .filter(|l| l.starts_with("hp2ps_"))
        .map(sample)
        .collect();
    // Each series of the files, with the grouping key's labels, and its value.
    for (file, instance) in [("leak.prom", "ci"), ("h.prom", "hostile")] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut found = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (name, mut labels, value) = sample(line);
            labels.insert("job".into(), "hp2ps".into());
            labels.insert("instance".into(), instance.into());
            let back = served.iter().find(|(n, l, _)| *n == name && *l == labels);
            let back = back.unwrap_or_else(|| panic!("{file}: {line} is not served back"));
            assert_eq!(back.2, value, "{line}");
            found += 1;
        }
        assert!(found >= 16, "{file}: {found}");
    }
}
