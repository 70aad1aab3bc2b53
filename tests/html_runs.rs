//! The HTML page of several runs and what a page carries for a zoomed chart, from the
//! command line: `--format html -o page.html a b` writes one page of both (shared axes as
//! `--uniform-scale both`, colours by name, no `.aux`), batch mode still a page each; the
//! levels of detail hold the samples of the `.hp`, and a page carries the values of the
//! bands it does not draw when they fit. (In a browser: `html_compare.rs`.)

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;
use support::html_page::{columns, data_of, large, profile_of};
use support::{files_in, golden, run_in, TempDir};

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn hp2ps(dir: &Path, args: &[&str]) -> Output {
    run_in(env!("CARGO_BIN_EXE_hp2ps"), dir, args, None)
}

fn ok(dir: &Path, args: &[&str]) -> Output {
    let out = hp2ps(dir, args);
    assert!(out.status.success(), "hp2ps {args:?}: {out:?}");
    out
}

fn numbers(v: &Value) -> Vec<f64> {
    serde_json::from_value(v.clone()).expect("numbers")
}

/// Two real runs of one program: LeakMap's -hc eventlog under GHC 9.0.2 and 9.10.3.
const BEFORE: &str = "tests/data/eventlog/leakmap-hc.eventlog";
const AFTER: &str = "tests/data/ghc-9.10/leakmap-hc.eventlog";

fn two_runs(tag: &str) -> TempDir {
    let dir = TempDir::new(tag);
    std::fs::copy(repo(BEFORE), dir.join("before.eventlog")).unwrap();
    std::fs::copy(repo(AFTER), dir.join("after.eventlog")).unwrap();
    dir
}

/// An `.aux` file's X_RANGE and Y_RANGE.
fn aux_ranges(aux: &[u8]) -> (f64, f64) {
    let text = String::from_utf8_lossy(aux);
    let value = |key: &str| -> f64 {
        let line = text.lines().find(|l| l.starts_with(key)).expect(key);
        line[key.len()..].trim().parse().expect("a number")
    };
    (value("X_RANGE"), value("Y_RANGE"))
}

#[test]
fn several_inputs_and_o_make_one_page_with_shared_axes_and_colours() {
    let dir = two_runs("html-runs");
    let args = ["-c", "--format", "html", "-o", "cmp.html"];
    ok(
        dir.path(),
        &[&args[..], &["before.eventlog", "after.eventlog"]].concat(),
    );
    // One page, and no .aux: an .aux belongs to one chart.
    assert_eq!(
        files_in(dir.path()),
        ["after.eventlog", "before.eventlog", "cmp.html"]
    );
    let page = std::fs::read(dir.join("cmp.html")).unwrap();
    let text = String::from_utf8_lossy(&page);
    let before = text.find("data-run=\"before.eventlog\"").expect("run 1");
    let after = text.find("data-run=\"after.eventlog\"").expect("run 2");
    assert!(before < after, "in the order given");
    let data = data_of(&page);
    let runs = data["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["file"], "before.eventlog");

    // The axes of --uniform-scale both: its .aux files hold the shared ranges (with two
    // decimals).
    ok(
        dir.path(),
        &[
            "-c",
            "--uniform-scale",
            "both",
            "before.eventlog",
            "after.eventlog",
        ],
    );
    for (run, name) in runs.iter().zip(["before", "after"]) {
        let (x, y) = aux_ranges(&std::fs::read(dir.join(&format!("{name}.aux"))).unwrap());
        let s = &run["scale"];
        let (t, v) = (s["tSpan"].as_f64().unwrap(), s["vSpan"].as_f64().unwrap());
        // The page's memory axis is every band's total at its highest (the profile's
        // peak, traces included: issue 37), at least hp2ps's drawn stack.
        assert!(
            (t - x).abs() <= 0.005 && v >= y - 0.005 && v <= y * 1.05,
            "{name}: {t} {v}, aux {x} {y}"
        );
    }
    assert_eq!(runs[0]["scale"]["tEnd"], runs[1]["scale"]["tEnd"]);

    // Colours: a band drawn in both runs has one colour, and no colour is two bands'
    // of a run (the page's palette, shared among the runs).
    let colours = |run: &Value| -> Vec<(String, String)> {
        (run["bands"].as_array().unwrap().iter())
            .map(|b| {
                (
                    b["name"].as_str().unwrap().into(),
                    b["colour"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    for run in runs {
        let mut seen: Vec<String> = colours(run).into_iter().map(|(_, c)| c).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), colours(run).len(), "a colour per band of a run");
    }
    let mut shared = 0;
    for (name, colour) in colours(&runs[0]) {
        if let Some((_, other)) = colours(&runs[1]).iter().find(|(n, _)| *n == name) {
            assert_eq!(&colour, other, "{name}");
            shared += 1;
        }
    }
    // With hp2ps's palette, colours follow names as --colour-by name's do.
    ok(
        dir.path(),
        &[
            &args[..],
            &[
                "--palette",
                "hp2ps",
                "-o",
                "classic.html",
                "before.eventlog",
                "after.eventlog",
            ],
        ]
        .concat(),
    );
    ok(
        dir.path(),
        &[
            "-c",
            "--palette",
            "hp2ps",
            "--colour-by",
            "name",
            "--format",
            "html",
            "-o",
            "one.html",
            "after.eventlog",
        ],
    );
    let classic = data_of(&std::fs::read(dir.join("classic.html")).unwrap());
    let alone = data_of(&std::fs::read(dir.join("one.html")).unwrap());
    assert_eq!(colours(&classic["runs"][1]), colours(&alone["runs"][0]));
    assert!(shared >= 5, "{shared} names drawn in both runs");
}

#[test]
fn batch_mode_and_other_formats_keep_their_rules() {
    let dir = two_runs("html-runs-batch");
    // Without -o: a page each, with its .aux.
    ok(
        dir.path(),
        &["--format", "html", "before.eventlog", "after.eventlog"],
    );
    let files = files_in(dir.path());
    for f in ["before.html", "after.html", "before.aux", "after.aux"] {
        assert!(files.iter().any(|g| g == f), "{f} in {files:?}");
    }
    let one = data_of(&std::fs::read(dir.join("after.html")).unwrap());
    assert_eq!(one["runs"].as_array().unwrap().len(), 1);
    ok(
        dir.path(),
        &[
            "--format",
            "html",
            "--output-dir",
            "out",
            "before.eventlog",
            "after.eventlog",
        ],
    );
    assert_eq!(
        files_in(&dir.join("out")).len(),
        4,
        "a page and an .aux each"
    );

    // -o with several inputs and another format; -p with a page of several runs.
    for args in [
        &["-o", "x.svg", "before.eventlog", "after.eventlog"][..],
        &["-p", "-o", "x.html", "before.eventlog", "after.eventlog"][..],
    ] {
        let out = hp2ps(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!dir.join("x.svg").exists() && !dir.join("x.html").exists());
    }
    // A file that cannot be read: no page, the failure said, exit 1.
    let out = hp2ps(
        dir.path(),
        &[
            "--format",
            "html",
            "-o",
            "x.html",
            "before.eventlog",
            "missing.hp",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.hp"));
    assert!(!dir.join("x.html").exists());
    // To stdout.
    let out = ok(
        dir.path(),
        &[
            "--format",
            "html",
            "-o",
            "-",
            "before.eventlog",
            "after.eventlog",
        ],
    );
    assert_eq!(data_of(&out.stdout)["runs"].as_array().unwrap().len(), 2);
}

/// The times of a `.hp`, and every band's value at each of them.
fn hp_columns(dir: &Path, hp: &str) -> (Vec<f64>, std::collections::HashMap<String, Vec<f64>>) {
    let profile = profile_of(&dir.join(hp));
    let cols = columns(&profile);
    (profile.times, cols)
}

#[test]
fn the_levels_of_detail_hold_the_profiles_own_samples() {
    if !support::html_page::have_large() {
        return;
    }
    let dir = TempDir::new("html-levels");
    std::fs::write(dir.join("long.hp"), large("longrun-O1-hc-i0.0001.hp.gz")).unwrap();
    let (times, cols) = hp_columns(dir.path(), "long.hp");
    for max in ["default", "1000"] {
        let mut args = vec!["-c", "--format", "html", "-o", "-"];
        if max != "default" {
            args.extend(["--max-points", max]);
        }
        args.push("long.hp");
        let data = data_of(&ok(dir.path(), &args).stdout);
        let run = &data["runs"][0];
        let drawn = numbers(&run["times"]).len();
        assert!(drawn < times.len(), "{max}: thinned, {drawn} samples");
        let levels = run["detail"].as_array().expect("levels");
        assert!(!levels.is_empty(), "{max}: levels of detail");
        let names: Vec<&str> = (run["bands"].as_array().unwrap().iter())
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        let table_names = run["table"]["name"].as_array().unwrap();
        let rest: Vec<&str> = match run["rest"].as_object() {
            Some(r) => (r["rows"].as_array().unwrap().iter())
                .map(|row| {
                    table_names[row.as_u64().unwrap() as usize]
                        .as_str()
                        .unwrap()
                })
                .collect(),
            None => Vec::new(),
        };
        let last = levels.last().unwrap();
        let mut seen = std::collections::HashSet::new();
        for (l, level) in levels.iter().enumerate() {
            let tiles = level["tiles"].as_array().unwrap();
            assert_eq!(tiles.len(), 10usize.pow(l as u32 + 1), "{max}: level {l}");
            for tile in tiles {
                let ts = numbers(&tile["times"]);
                let values = tile["values"].as_array().unwrap();
                assert_eq!(values.len(), names.len() + rest.len());
                for (i, t) in ts.iter().enumerate() {
                    let s = times
                        .iter()
                        .position(|x| x == t)
                        .expect("a sample of the .hp");
                    if std::ptr::eq(level, last) {
                        seen.insert(s);
                    }
                    for (c, name) in names.iter().chain(&rest).enumerate() {
                        if *name == "OTHER" {
                            continue;
                        }
                        let v = values[c][i].as_f64().unwrap();
                        assert_eq!(v, cols[*name][s], "{max}: {name} at {t}");
                    }
                }
                // At most the page's own number of samples per tile.
                assert!(
                    ts.len() <= drawn.max(3),
                    "{max}: {} samples in a tile",
                    ts.len()
                );
            }
        }
        if last["whole"] == true {
            assert_eq!(
                seen.len(),
                times.len(),
                "{max}: the last level has every sample"
            );
        }
    }
}

#[test]
fn a_page_carries_the_bands_it_does_not_draw_when_they_fit() {
    // manycc: more bands than -m20 draws; the rest merge into OTHER or are traces.
    let dir = TempDir::new("html-rest");
    std::fs::write(dir.join("many.hp"), golden("manycc-O0-hc.hp")).unwrap();
    let (_, cols) = hp_columns(dir.path(), "many.hp");
    let data = data_of(&ok(dir.path(), &["--format", "html", "-o", "-", "many.hp"]).stdout);
    let run = &data["runs"][0];
    let table = &run["table"];
    let rest = run["rest"].as_object().expect("the rest carried");
    let rows = rest["rows"].as_array().unwrap();
    let fates = table["fate"].as_array().unwrap();
    let drawn = fates.iter().filter(|f| *f == "drawn").count();
    assert_eq!(rows.len() + drawn, fates.len(), "every band not drawn");
    let times = numbers(&run["times"]);
    for (row, values) in rows.iter().zip(rest["values"].as_array().unwrap()) {
        let r = row.as_u64().unwrap() as usize;
        assert_ne!(fates[r], "drawn");
        let name = table["name"][r].as_str().unwrap();
        assert_eq!(numbers(values), cols[name], "{name}");
        assert_eq!(numbers(values).len(), times.len());
    }
}
