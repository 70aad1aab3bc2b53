//! `--format html` on the command line: how the page is named and written (file mode,
//! `-o`, batch, filter mode), that every option reaches it, and that its embedded data
//! holds the numbers `--summary=json` gives. (The page in a browser: `html_browser.rs`.)

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use support::html_page::data_of;
use support::{files_in, golden, run_in, TempDir};

fn run(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let out = run_in(env!("CARGO_BIN_EXE_hp2ps"), dir, args, stdin);
    assert!(out.status.success(), "hp2ps {args:?}: {out:?}");
    out
}

fn run0(data: &Value) -> &Value {
    &data["runs"][0]
}

fn names(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|n| n.as_str().expect("a string"))
        .collect()
}

/// The page's data, and `--summary=json` of every band (`--sort growth`: with their
/// slopes), for the same arguments.
fn page_and_summary(dir: &TempDir, args: &[&str]) -> (Value, Value) {
    let page = [&["--format", "html", "-o", "-"][..], args].concat();
    let data = data_of(&run(dir.path(), &page, None).stdout);
    let summary = [
        &["--summary=json", "--sort", "growth", "--top", "100000"][..],
        args,
    ]
    .concat();
    let out = run(dir.path(), &summary, None);
    (data, serde_json::from_slice(&out.stdout).expect("JSON"))
}

fn with_input(tag: &str, name: &str, input: &str) -> TempDir {
    let dir = TempDir::new(tag);
    std::fs::write(dir.join(name), golden(input)).unwrap();
    dir
}

#[test]
fn file_mode_writes_the_page_and_the_aux_of_a_ps_run() {
    let dir = with_input("html-file", "leak.hp", "leakmap-O0-hc-bio-dragvoid.hp");
    run(dir.path(), &["-c", "--format", "html", "leak.hp"], None);
    assert_eq!(files_in(dir.path()), ["leak.aux", "leak.hp", "leak.html"]);
    let aux = std::fs::read(dir.join("leak.aux")).unwrap();
    let page = std::fs::read(dir.join("leak.html")).unwrap();
    assert!(page.starts_with(b"<!DOCTYPE html>\n"));
    // The .aux is the one a PostScript run writes: the same ranges, order and shades.
    run(dir.path(), &["-c", "leak.hp"], None);
    assert_eq!(std::fs::read(dir.join("leak.aux")).unwrap(), aux);
    // The same bytes every time; the run names its file.
    run(dir.path(), &["-c", "--format", "html", "leak.hp"], None);
    assert_eq!(std::fs::read(dir.join("leak.html")).unwrap(), page);
    assert_eq!(run0(&data_of(&page))["file"], "leak.hp");
    assert!(String::from_utf8_lossy(&page).contains("data-run=\"leak.hp\""));
}

#[test]
fn the_output_names_extension_picks_html_and_stdin_works_too() {
    let dir = with_input("html-o", "leak.hp", "leakmap-O0-hc-bio-dragvoid.hp");
    run(dir.path(), &["-c", "-o", "chart.html", "leak.hp"], None);
    let page = std::fs::read(dir.join("chart.html")).unwrap();
    assert!(page.starts_with(b"<!DOCTYPE html>"));
    let out = run(
        dir.path(),
        &["-c", "--format", "html"],
        Some(&golden("leakmap-O0-hc-bio-dragvoid.hp")),
    );
    let data = data_of(&out.stdout);
    assert_eq!(run0(&data)["file"], Value::Null, "stdin has no name");
    assert_eq!(run0(&data)["times"], run0(&data_of(&page))["times"]);
}

#[test]
fn a_batch_writes_a_page_per_file_into_the_output_dir() {
    let dir = with_input("html-batch", "a.hp", "leakmap-O0-hc-bio-dragvoid.hp");
    std::fs::write(dir.join("b.hp"), golden("arrays-O1-hc.hp")).unwrap();
    run(
        dir.path(),
        &["--format", "html", "--output-dir", "out", "a.hp", "b.hp"],
        None,
    );
    assert_eq!(
        files_in(&dir.join("out")),
        ["a.aux", "a.html", "b.aux", "b.html"]
    );
    let b = data_of(&std::fs::read(dir.join("out/b.html")).unwrap());
    assert_eq!(run0(&b)["job"], "Arrays-O1 +RTS -hc -i0.01");
}

/// Every band of the table has the numbers of `--summary=json` (`--sort growth` for
/// the slopes); the drawn ones have the chart's values.
#[test]
fn the_band_table_is_the_summarys() {
    let dir = with_input("html-table", "many.hp", "manycc-O0-hc.hp");
    let (data, summary) = page_and_summary(&dir, &["many.hp"]);
    let table = &run0(&data)["table"];
    let top = summary["top"].as_array().unwrap();
    assert_eq!(
        names(&table["name"]).len(),
        summary["bands"].as_u64().unwrap() as usize
    );
    assert_eq!(top.len(), names(&table["name"]).len());
    for (i, want) in top.iter().enumerate() {
        // The same order, too: biggest area first.
        assert_eq!(table["name"][i], want["name"]);
        for (key, col) in [
            ("peak", "peak"),
            ("peak_time", "peakTime"),
            ("area", "area"),
            ("share", "share"),
            ("slope", "slope"),
        ] {
            assert_eq!(
                table[col][i].as_f64(),
                want[key].as_f64(),
                "{}: {key}",
                want["name"]
            );
        }
    }
    numbers_from_the_hp(&golden("manycc-O0-hc.hp"), table);
    // manycc has more than 20 bands: some in OTHER, some traces, the rest drawn.
    let fates = names(&table["fate"]);
    for fate in ["drawn", "other", "trace"] {
        assert!(fates.contains(&fate), "{fate} in {fates:?}");
    }
    let bands = run0(&data)["bands"].as_array().unwrap();
    assert_eq!(bands.len(), 20, "-m20: 19 bands and OTHER");
    assert_eq!(bands[0]["name"], "OTHER");
    assert_eq!(bands[0]["row"], Value::Null);
    let drawn = fates.iter().filter(|f| **f == "drawn").count();
    assert_eq!(drawn, 19);
}

#[test]
fn the_options_reach_the_page() {
    let dir = with_input("html-options", "many.hp", "manycc-O0-hc.hp");
    let page = |args: &[&str]| {
        let mut all = vec!["--format", "html", "-o", "-"];
        all.extend_from_slice(args);
        all.push("many.hp");
        data_of(&run(dir.path(), &all, None).stdout)
    };
    // -m5: four bands and OTHER; the table still lists every band.
    let d = page(&["-m5"]);
    assert_eq!(run0(&d)["bands"].as_array().unwrap().len(), 5);
    let every = names(&run0(&d)["table"]["name"]).len();
    // --include: only the matching bands, in the chart and the table.
    let d = page(&["--include", "helperA"]);
    let table = names(&run0(&d)["table"]["name"]);
    assert!(!table.is_empty() && table.len() < every, "{table:?}");
    assert!(table.iter().all(|n| n.contains("helperA")), "{table:?}");
    // A palette: the data's colours are the palette's (OTHER's grey included).
    let d = page(&["--palette", "okabe-ito"]);
    let colours: Vec<&str> = run0(&d)["bands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["colour"].as_str().unwrap())
        .collect();
    assert!(colours.contains(&"#e69f00"), "{colours:?}");
    // --pattern: a pattern per band.
    let d = page(&["--pattern"]);
    assert!(run0(&d)["bands"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["pattern"].is_object()));
    // --max-points: the samples drawn (manycc has 44).
    let d = page(&["--max-points", "20"]);
    assert!(run0(&d)["times"].as_array().unwrap().len() <= 20);
    assert_eq!(run0(&d)["samples"], 44);
    // --from/--to: the window's samples only.
    let d = page(&["--from", "0.2", "--to", "0.5"]);
    let times: Vec<f64> = serde_json::from_value(run0(&d)["times"].clone()).unwrap();
    assert!(
        !times.is_empty() && times.iter().all(|t| (0.2..=0.5).contains(t)),
        "{times:?}"
    );
}

#[test]
fn an_eventlogs_page_has_its_heap_size_lines_and_markers() {
    let dir = TempDir::new("html-eventlog");
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ghc-9.10/marker-hc.eventlog"
    );
    let d = data_of(
        &run(
            dir.path(),
            &["-c", "--heap-size", "--format", "html", "-o", "-", log],
            None,
        )
        .stdout,
    );
    let lines = run0(&d)["lines"].as_array().unwrap();
    assert_eq!(
        names(&Value::Array(
            lines.iter().map(|l| l["name"].clone()).collect()
        )),
        ["heap size", "live bytes", "blocks size"]
    );
    for l in lines {
        assert_eq!(
            l["t"].as_array().unwrap().len(),
            l["v"].as_array().unwrap().len()
        );
        assert!(!l["t"].as_array().unwrap().is_empty());
    }
    let marks = &run0(&d)["marks"];
    let texts = names(&marks["text"]);
    assert_eq!(texts.len(), marks["t"].as_array().unwrap().len());
    assert!(
        texts.iter().any(|t| !t.is_empty()),
        "the program's markers: {texts:?}"
    );
}

/// The table's numbers worked out here from the `.hp` itself, by their definitions:
/// the highest value and its first time, the trapezoid area over the total's, and the
/// least-squares slope (absent samples 0).
fn numbers_from_the_hp(hp: &[u8], table: &Value) {
    let loaded = hp2ps::load(hp2ps::Source::Bytes(hp), &Default::default());
    let profile = loaded.expect("reads").profile;
    let t = &profile.times;
    let n = t.len();
    let column = |b: &hp2ps::profile::Band| {
        let mut c = vec![0.0; n];
        for p in &b.points {
            c[p.sample as usize] += p.value;
        }
        c
    };
    let trapezoid = |c: &[f64]| {
        (1..n)
            .map(|i| (t[i] - t[i - 1]) * (c[i] + c[i - 1]) / 2.0)
            .sum::<f64>()
    };
    let total = trapezoid(
        &(0..n)
            .map(|i| profile.bands.iter().map(|b| column(b)[i]).sum())
            .collect::<Vec<f64>>(),
    );
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300);
    let rows = names(&table["name"]);
    for b in &profile.bands {
        let name = String::from_utf8_lossy(&b.name);
        let r = rows
            .iter()
            .position(|x| *x == name)
            .expect("a row per band");
        let c = column(b);
        let peak = c.iter().fold(0.0, |m: f64, &v| m.max(v));
        let when = t[c.iter().position(|&v| v == peak).unwrap()];
        let (mt, mv) = (
            t.iter().sum::<f64>() / n as f64,
            c.iter().sum::<f64>() / n as f64,
        );
        let slope = t
            .iter()
            .zip(&c)
            .map(|(x, y)| (x - mt) * (y - mv))
            .sum::<f64>()
            / t.iter().map(|x| (x - mt) * (x - mt)).sum::<f64>();
        let got = |col: &str| table[col][r].as_f64().unwrap();
        assert_eq!(got("peak"), peak, "{name}");
        assert_eq!(got("peakTime"), when, "{name}");
        assert!(
            close(got("area"), trapezoid(&c)),
            "{name}: area {} {}",
            got("area"),
            trapezoid(&c)
        );
        assert!(close(got("share"), trapezoid(&c) / total), "{name}: share");
        assert!(
            close(got("slope"), slope),
            "{name}: slope {} {slope}",
            got("slope")
        );
    }
}

/// A `-hi` eventlog with its program: the table's Info column holds what the summary
/// knows of each band (its IPE entry, its symbol), as the SVG tooltips word it.
#[test]
fn the_table_carries_what_is_known_of_hi_bands() {
    if !support::ghc910::have_programs() {
        return;
    }
    use support::ghc910::{data, program};
    let dir = TempDir::new("html-hi");
    let binary = program(&dir, "leakmap-ipe");
    let log = data("leakmap-hi.eventlog");
    let (b, l) = (binary.to_str().unwrap(), log.to_str().unwrap());
    let (data, summary) = page_and_summary(&dir, &["--binary", b, l]);
    let table = &run0(&data)["table"];
    let mut known = 0;
    for (i, band) in summary["top"].as_array().unwrap().iter().enumerate() {
        assert_eq!(table["name"][i], band["name"]);
        let lines: Vec<&str> = names(&table["info"][i]);
        let info = &band["info"];
        if info.is_null() {
            assert!(lines.is_empty(), "{}: {lines:?}", band["name"]);
            continue;
        }
        known += 1;
        let text = lines.join("\n");
        if let Some(table_name) = info["ipe"]["table_name"].as_str() {
            assert!(text.contains(table_name), "{text}");
            assert!(
                text.contains(info["ipe"]["module"].as_str().unwrap()),
                "{text}"
            );
        }
        if let Some(symbol) = info["symbol"]["symbol"].as_str() {
            assert!(text.contains(symbol), "{text}");
        }
    }
    assert!(known > 10, "{known} bands with something known");
}

/// A long GHC run (4 MB, over the 1 MiB from which a file is mapped) paged as the command
/// reads a mapped `.hp` for its page, in parts (the drawn bands' points, sums of the
/// rest, then the bands not drawn at the samples the page carries them at: issue 39),
/// and as it reads a stream, every point kept (`HP2PS_NO_MMAP=1`): the same page and
/// warnings, byte for byte, with several options, to a file and to stdout, and on stdin.
#[test]
fn a_long_run_is_paged_alike_mapped_and_streamed() {
    if !support::html_page::have_large() {
        return;
    }
    let dir = TempDir::new("page-mapped");
    let hp = support::html_page::large("longrun-O1-hc-i0.0001.hp.gz");
    assert!(hp.len() > 2 << 20, "{} bytes", hp.len());
    let path = dir.path().join("long.hp");
    std::fs::write(&path, &hp).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases: [&[&str]; 6] = [
        &["--format", "html", "-o", "-", "long.hp"],
        &["--format", "html", "-o", "page.html", "long.hp"],
        &["--format", "html", "-m5", "-t0", "-o", "-", "long.hp"],
        &[
            "--format",
            "html",
            "--max-points",
            "60",
            "-o",
            "-",
            "long.hp",
        ],
        &["--format", "html", "-m0", "--reverse", "-o", "-", "long.hp"],
        &["--format", "html"],
    ];
    for args in cases {
        let ran = |no_mmap: &str| {
            let mut cmd = support::run::Cmd::new(env!("CARGO_BIN_EXE_hp2ps"))
                .args(args)
                .current_dir(dir.path())
                .env("HP2PS_NO_MMAP", no_mmap);
            if !args.contains(&"long.hp") {
                cmd = cmd.stdin_file(&path);
            }
            let out = cmd.output();
            let page = dir.path().join("page.html");
            let written = std::fs::read(&page).ok();
            let _ = std::fs::remove_file(&page);
            (out, written)
        };
        let ((mapped, page1), (streamed, page2)) = (ran("0"), ran("1"));
        assert!(mapped.status.success(), "{args:?}: {mapped:?}");
        let page = page1.clone().unwrap_or_else(|| mapped.stdout.clone());
        assert!(page.len() > 100_000, "{args:?}: {} bytes", page.len());
        assert_eq!(mapped.status, streamed.status, "{args:?}");
        assert!(
            mapped.stdout == streamed.stdout,
            "{args:?}: the page differs"
        );
        assert!(page1 == page2, "{args:?}: the page file differs");
        assert_eq!(mapped.stderr, streamed.stderr, "{args:?}: stderr");
    }
}
