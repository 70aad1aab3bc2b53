//! `-hi` bands named by source and symbol, on the two real GHC 9.10.3 `-hi` logs
//! (`tests/data/ghc-9.10/*-hi.*`) and the binaries that wrote them (`bin/*.gz`), judged
//! by binutils' `nm` and by the log's IPE entries: every band gets the name its IPE
//! entry, the symbol at its code or the closure it lies in gives, and the counts are
//! printed (`-- --nocapture`). Also: `.hp` + `--binary`, `--ipe-names address`, and a
//! position-independent program (`tests/data/symbolize/`). (`symbolize_cli.rs`: finding
//! the program, refusing another, the summary and tooltips.)

mod support;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use hp2ps::profile::IpeEntry;
use hp2ps::EventlogOptions;
use serde_json::Value;
use support::ghc910::{data, json, program, run_ok, stderr_of};
use support::read_eventlog_profile;
use support::tools::require;
use support::{Cmd, TempDir};

/// Every band of a `--summary=json --top 1000`: name → its `info` (Null if none).
fn bands(summary: &Value) -> BTreeMap<String, Value> {
    let top = summary["top"].as_array().unwrap();
    assert_eq!(
        top.len() as u64,
        summary["bands"].as_u64().unwrap(),
        "all bands listed"
    );
    top.iter()
        .map(|b| (b["name"].as_str().unwrap().to_string(), b["info"].clone()))
        .collect()
}

/// `--summary=json` of every band of `profile`, named with `binary`'s symbols.
fn summary_with(dir: &Path, binary: &Path, profile: &Path) -> std::process::Output {
    let (b, p) = (binary.to_str().unwrap(), profile.to_str().unwrap());
    run_ok(dir, &["--summary=json", "--top", "1000", "--binary", b, p])
}

/// The band labels (addresses) of a `.hp` file.
fn labels(hp: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(hp).unwrap();
    let mut v: Vec<String> = (text.lines())
        .filter(|l| l.starts_with("0x"))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The code symbols `nm -S` lists: address → (size, names).
fn nm(binary: &Path) -> BTreeMap<u64, (u64, Vec<String>)> {
    let out = Cmd::new("nm")
        .args(["-S", "--defined-only"])
        .arg(binary)
        .output();
    assert!(out.status.success());
    let mut syms: BTreeMap<u64, (u64, Vec<String>)> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (addr, size, kind, name) = match f.as_slice() {
            [a, s, k, n] => (a, u64::from_str_radix(s, 16).unwrap(), k, n),
            [a, k, n] => (a, 0, k, n),
            _ => continue,
        };
        if matches!(*kind, "T" | "t" | "W" | "w") {
            let e = syms
                .entry(u64::from_str_radix(addr, 16).unwrap())
                .or_default();
            e.0 = e.0.max(size);
            e.1.push(name.to_string());
        }
    }
    syms
}

/// How a band must be named, from `nm` and the IPE entries alone.
#[derive(Debug, PartialEq)]
enum Want {
    Ipe(IpeEntry),
    Symbol(Vec<String>),
    Inside(String, u64),
    Address,
}

fn want(
    address: u64,
    ipe: &BTreeMap<u64, IpeEntry>,
    syms: &BTreeMap<u64, (u64, Vec<String>)>,
) -> Want {
    // The table's code starts 16 bytes on (a plain build's info table).
    let code = address + 16;
    if let Some(e) = ipe.get(&address) {
        return Want::Ipe(e.clone());
    }
    if let Some((_, names)) = syms.get(&code) {
        return Want::Symbol(names.clone());
    }
    let (&at, (size, names)) = syms.range(..code).next_back().unwrap();
    let offset = code - at;
    // Local closures follow their function; a C function ends at its size.
    match names.iter().find(|n| n.ends_with("_info")) {
        Some(n) => Want::Inside(n.clone(), offset),
        None if offset < *size => Want::Inside(names[0].clone(), offset),
        None => Want::Address,
    }
}

/// The package part the name of a GHC symbol starts with.
fn package_of(symbol: &str) -> &'static str {
    for (z, package) in [
        ("ghczminternal_", "ghc-internal:"),
        ("ghczmprim_", "ghc-prim:"),
        ("ghczmbignum_", "ghc-bignum:"),
        ("containerszm0zi7zminplace_", "containers:"),
        ("basezm", "base:"),
    ] {
        if symbol.starts_with(z) {
            return package;
        }
    }
    ""
}

/// Checks the command's names and infos of one `-hi` log against `nm` and its IPE
/// entries; returns (IPE, symbol, approximate, address) counts.
fn check_log(stem: &str, binary: &Path, dir: &Path) -> [usize; 4] {
    let log = data(&format!("{stem}.eventlog"));
    let (_, report) = read_eventlog_profile(
        std::fs::File::open(&log).unwrap(),
        &EventlogOptions::default(),
    )
    .unwrap();
    let ipe: BTreeMap<u64, IpeEntry> = report.ipe.iter().map(|e| (e.address, e.clone())).collect();
    let syms = nm(binary);
    let out = summary_with(dir, binary, &log);
    let stderr = stderr_of(&out);
    assert!(stderr.is_empty(), "{stderr}");
    let summary = json(&out);
    let named = bands(&summary);
    let mut counts = [0; 4];
    let mut seen = HashSet::new();
    for (name, info) in &named {
        let address = match info.get("address") {
            Some(a) => a.as_str().unwrap().to_string(),
            None => name.clone(),
        };
        assert!(seen.insert(address.clone()), "{stem}: {address} twice");
        let a = u64::from_str_radix(address.trim_start_matches("0x"), 16).unwrap();
        let symbol = &info["symbol"];
        match want(a, &ipe, &syms) {
            Want::Ipe(e) => {
                counts[0] += 1;
                let ipe = &info["ipe"];
                for (field, value) in [
                    ("table_name", &e.table_name),
                    ("closure_desc", &e.closure_desc),
                    ("type_desc", &e.type_desc),
                    ("label", &e.label),
                    ("module", &e.module),
                    ("src_loc", &e.src_loc),
                ] {
                    assert_eq!(
                        ipe[field].as_str(),
                        Some(value.as_str()),
                        "{stem} {address}: {field}"
                    );
                }
                let who = if e.label.is_empty() {
                    &e.module
                } else {
                    &e.label
                };
                assert!(name.starts_with(&format!("{who}: ")), "{name}");
                let file = e
                    .src_loc
                    .split(':')
                    .next()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap();
                assert!(
                    e.src_loc == ":" || name.contains(&format!("({file}:")),
                    "{name}"
                );
            }
            Want::Symbol(names) => {
                counts[1] += 1;
                let s = symbol["symbol"].as_str().unwrap();
                assert!(
                    names.iter().any(|n| n == s),
                    "{stem} {address}: {s} not in {names:?}"
                );
                assert_eq!(symbol["approximate"], false);
                match s.strip_prefix("stg_") {
                    Some(rts) => {
                        assert_eq!(name, &format!("stg_{}", rts.trim_end_matches("_info")))
                    }
                    None => assert!(name.starts_with(package_of(s)), "{name} for {s}"),
                }
            }
            Want::Inside(s, offset) => {
                counts[2] += 1;
                assert_eq!(
                    symbol["symbol"].as_str(),
                    Some(s.as_str()),
                    "{stem} {address}"
                );
                assert_eq!(symbol["offset"].as_u64(), Some(offset), "{stem} {address}");
                assert_eq!(symbol["approximate"], true);
                assert!(
                    name.starts_with(&format!("in {}", package_of(&s))),
                    "{name}"
                );
                assert!(name.ends_with(&format!("+{offset:#x}")), "{name}");
            }
            Want::Address => {
                counts[3] += 1;
                assert_eq!(
                    name, &address,
                    "{stem}: unresolved addresses keep their label"
                );
                assert!(info.is_null());
            }
        }
    }
    // Every band of the run is there, once.
    assert_eq!(
        seen.len(),
        labels(&data(&format!("{stem}.hp"))).len(),
        "{stem}"
    );
    let n = &summary["names"];
    let reported =
        ["ipe", "symbol", "approximate", "unresolved"].map(|k| n[k].as_u64().unwrap() as usize);
    assert_eq!(reported, counts, "{stem}: the summary's counts");
    assert_eq!(n["binary"].as_str(), binary.to_str());
    eprintln!(
        "{stem}: {} bands: {} named by IPE, {} by symbol, {} approximate (inside a function), {} unresolved",
        seen.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    counts
}

#[test]
fn real_logs_are_named_by_ipe_and_symbols_as_nm_says() {
    if !support::ghc910::have_programs() || !require("nm") {
        return;
    }
    let dir = TempDir::new("symbolize-real");
    for stem in ["leakmap", "textproc"] {
        let binary = program(&dir, &format!("{stem}-ipe"));
        let [by_ipe, by_symbol, approximate, _] =
            check_log(&format!("{stem}-hi"), &binary, dir.path());
        // Each kind of name is met on each log.
        assert!(by_ipe > 5 && by_symbol > 20 && approximate > 10, "{stem}");
    }
}

/// The two examples of the issue, by name.
#[test]
fn the_runtime_and_library_tables_of_the_issue() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("symbolize-examples");
    let binary = program(&dir, "leakmap-ipe");
    let log = data("leakmap-hi.eventlog");
    let out = summary_with(dir.path(), &binary, &log);
    let named = bands(&json(&out));
    let address_of = |name: &str| named[name]["address"].as_str().map(str::to_string);
    assert_eq!(address_of("stg_STACK").as_deref(), Some("0x4bc458"));
    assert_eq!(
        address_of("ghc-internal:GHC.Internal.Conc.Sync.ThreadId").as_deref(),
        Some("0x418c90")
    );
    // Two IPE entries of one place (sat_s1Kx_info and sat_s1Kv_info, both THUNK, IO (),
    // main, Main, programs/LeakMap.hs:(29,1)-(37,31)): their table names part them.
    let main = "main: thunk :: IO () (LeakMap.hs:29)";
    assert_eq!(
        address_of(&format!("{main} [sat_s1Kx_info]")).as_deref(),
        Some("0x40ae70")
    );
    assert_eq!(
        address_of(&format!("{main} [sat_s1Kv_info]")).as_deref(),
        Some("0x40a768")
    );
}

/// `--binary` names the bands of the run's `.hp` as it names the eventlog's that have
/// no IPE entry; `--ipe-names address` keeps the `.hp`'s names, band for band.
#[test]
fn the_hp_file_is_named_by_the_binary_and_address_names_are_the_hp_names() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("symbolize-hp");
    let binary = program(&dir, "leakmap-ipe");
    let b = binary.to_str().unwrap();
    let summary = |file: &str, extra: &[&str]| {
        let path = data(file);
        let mut args = vec!["--summary=json", "--top", "1000"];
        args.extend_from_slice(extra);
        args.push(path.to_str().unwrap());
        bands(&json(&run_ok(dir.path(), &args)))
    };
    let by_address = |named: &BTreeMap<String, Value>| -> BTreeMap<String, String> {
        (named.iter())
            .map(|(n, i)| {
                (
                    i["address"].as_str().map_or(n.clone(), str::to_string),
                    n.clone(),
                )
            })
            .collect()
    };
    let log = summary("leakmap-hi.eventlog", &["--binary", b]);
    let hp = by_address(&summary("leakmap-hi.hp", &["--binary", b]));
    let mut compared = 0;
    for (name, info) in &log {
        if info["ipe"].is_null() {
            let address = info["address"]
                .as_str()
                .map_or(name.clone(), str::to_string);
            assert_eq!(hp[&address], *name);
            compared += 1;
        }
    }
    assert!(compared > 40, "{compared}");
    // Without renaming, the eventlog's bands are the .hp's.
    let log: Vec<String> = summary("leakmap-hi.eventlog", &["--ipe-names", "address"])
        .into_keys()
        .collect();
    assert_eq!(log, labels(&data("leakmap-hi.hp")));
    let hp: Vec<String> = summary("leakmap-hi.hp", &[]).into_keys().collect();
    assert_eq!(hp, log, "a .hp without --binary keeps its names");
}

/// The `.aux` of an eventlog under `--ipe-names address` lists the `.hp`'s bands, in
/// its order and shades (the time axis is another matter: X_RANGE is left out).
#[test]
fn address_names_draw_the_hp_bands() {
    let dir = TempDir::new("symbolize-aux");
    for stem in ["leakmap-hi", "textproc-hi"] {
        for ext in ["eventlog", "hp"] {
            std::fs::copy(
                data(&format!("{stem}.{ext}")),
                dir.join(&format!("{stem}.{ext}")),
            )
            .unwrap();
        }
        run_ok(
            dir.path(),
            &["--ipe-names", "address", &format!("{stem}.eventlog")],
        );
        let log = std::fs::read_to_string(dir.join(&format!("{stem}.aux"))).unwrap();
        run_ok(dir.path(), &[&format!("{stem}.hp")]);
        let hp = std::fs::read_to_string(dir.join(&format!("{stem}.aux"))).unwrap();
        let without_x = |aux: &str| {
            aux.lines()
                .filter(|l| !l.starts_with("X_RANGE"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(without_x(&log), without_x(&hp), "{stem}");
        assert!(log.contains("ORDER 0x"), "{stem}");
    }
}

/// A position-independent program (`tests/data/symbolize/`, loaded at a random offset):
/// the offset is found from the symbols, the tables of the program's own module are
/// named by their symbols (checked with `nm` at the offset the log's `main_info` IPE
/// entry gives), and those in shared libraries keep their addresses, with a warning.
#[test]
fn a_position_independent_program_is_placed_by_its_symbols() {
    if !require("nm") {
        return;
    }
    let dir = TempDir::new("symbolize-pie");
    let pie = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/symbolize");
    let gz = std::fs::read(pie.join("leakmap-pie.gz")).unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gz.as_slice()), &mut bytes)
        .unwrap();
    let binary = dir.write("leakmap-pie", &bytes);
    let syms = nm(&binary);
    let log = pie.join("leakmap-pie-hi.eventlog");
    let (_, report) = read_eventlog_profile(
        std::fs::File::open(&log).unwrap(),
        &EventlogOptions::default(),
    )
    .unwrap();
    let main = report
        .ipe
        .iter()
        .find(|e| e.table_name == "main_info" && e.src_loc.ends_with("29:1-4"))
        .unwrap();
    let at = syms
        .iter()
        .find(|(_, (_, n))| n.iter().any(|n| n == "ZCMain_main_info"))
        .map(|(a, _)| *a);
    let load = main.address + 16 - at.unwrap();
    assert!(load > 0 && load % 0x1000 == 0, "{load:#x}");
    let hp = pie.join("leakmap-pie-hi.hp");
    let out = summary_with(dir.path(), &binary, &hp);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("band addresses lie outside") && err.contains("(in shared libraries"),
        "{err}"
    );
    let named = bands(&json(&out));
    let mut exact = 0;
    for label in labels(&hp) {
        let a = u64::from_str_radix(&label[2..], 16).unwrap();
        match syms.get(&(a + 16).wrapping_sub(load)) {
            Some((_, names)) => {
                let (name, info) = (named.iter())
                    .find(|(_, i)| i["address"].as_str() == Some(&label))
                    .unwrap_or_else(|| panic!("{label} is named"));
                let s = info["symbol"]["symbol"].as_str().unwrap();
                assert!(names.iter().any(|n| n == s), "{label}: {s}");
                assert_eq!(info["symbol"]["approximate"], false, "{name}");
                exact += 1;
            }
            // In a shared library, far from the program's code: not renamed.
            None if a + 16 < load => assert!(named.contains_key(&label), "{label}"),
            None => {}
        }
    }
    assert!(exact >= 5, "{exact} tables named by their symbols");
}
