//! `-hi` names on the command line (the real GHC 9.10.3 `leakmap-hi` log and its
//! program): the program found beside the log or in the current directory, another
//! program's binary refused with a reason, damaged binaries never a panic, and what is
//! known of a band beyond its name
//! where a person sees it: the text summary's detail lines and the SVG tooltips show
//! every field of its IPE entry and its symbol.

mod support;

use std::path::Path;

use support::ghc910::{data, json, program, run, run_ok, stderr_of};
use support::TempDir;

/// The text summary and the SVG tooltips show every IPE field and the symbol.
#[test]
fn summary_text_and_tooltips_show_the_fields() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("symbolize-show");
    let binary = program(&dir, "leakmap-ipe");
    let log = data("leakmap-hi.eventlog");
    let (b, l) = (binary.to_str().unwrap(), log.to_str().unwrap());
    let text = String::from_utf8(
        run_ok(
            dir.path(),
            &["--summary", "--top", "1000", "--binary", b, l],
        )
        .stdout,
    )
    .unwrap();
    // The counts, as the JSON has them (tests/symbolize.rs checks them with nm).
    let out = run_ok(dir.path(), &["--summary=json", "--binary", b, l]);
    let names = &json(&out)["names"];
    let count = |k: &str| names[k].as_u64().unwrap();
    let line = format!(
        "  names    {} by IPE entry, {} by symbol of {b}, {} inside a function (approximate), {} by address only\n",
        count("ipe"),
        count("symbol"),
        count("approximate"),
        count("unresolved")
    );
    assert!(text.contains(&line), "{line} in {text}");
    assert!(
        text.contains("\n  bands    59 info tables (-hi), by area:\n"),
        "{text}"
    );
    // sat_s1Kx_info|15|IO ()|main|Main|programs/LeakMap.hs:(29,1)-(37,31) in the log.
    let fields = [
        "table sat_s1Kx_info at 0x40ae70",
        "closure THUNK (15), type IO ()",
        "label main, module Main, programs/LeakMap.hs:(29,1)-(37,31)",
    ];
    let svg_path = dir.join("l.svg");
    run_ok(
        dir.path(),
        &[
            "-m0",
            "-t0",
            "--binary",
            b,
            "-o",
            svg_path.to_str().unwrap(),
            l,
        ],
    );
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let tooltip = |name: &str| {
        let at = svg
            .find(&format!("<title>{name}: peak"))
            .unwrap_or_else(|| panic!("{name}"));
        svg[at..at + svg[at..].find("</title>").unwrap()]
            .replace("&#10;", "\n")
            .replace("&gt;", ">")
    };
    let thunk = tooltip("main: thunk :: IO () (LeakMap.hs:29) [sat_s1Kx_info]");
    for f in fields {
        assert!(text.contains(&format!("  {f}\n")), "{f} in the summary");
        assert!(thunk.contains(&format!("\n{f}")), "{f} in {thunk}");
    }
    assert!(tooltip("stg_STACK").ends_with("\nsymbol stg_STACK_info"));
    // A constructor's table has both: its IPE entry and its symbol.
    let cons = tooltip("mkWord: (:) (LeakMap.hs:11)");
    assert!(
        cons.contains("\ntable :_Main_0_con_info at 0x40b290\n"),
        "{cons}"
    );
    assert!(
        cons.ends_with("\nsymbol ghczmprim_GHCziTypes_ZC_Main_0_con_info"),
        "{cons}"
    );
    let inside = tooltip("in ghc-internal:GHC.Internal.List.filter+0x120");
    assert!(
        inside.contains("inside ghczminternal_GHCziInternalziList_filter_info+0x120 (approximate"),
        "{inside}"
    );
}

/// Without `--binary`, the program the log names (`./leakmap-ipe`) is looked for
/// beside the log, then in the current directory; without it, IPE names only.
#[test]
fn the_program_named_in_the_log_is_found_beside_it_or_here() {
    if !support::ghc910::have_programs() {
        return;
    }
    let beside = TempDir::new("symbolize-beside");
    let elsewhere = TempDir::new("symbolize-elsewhere");
    let log = beside.write(
        "run.eventlog",
        &std::fs::read(data("leakmap-hi.eventlog")).unwrap(),
    );
    // The names, and the one line saying which program named them, if one did.
    let names_of = |cwd: &Path| {
        let out = run_ok(cwd, &["--summary=json", log.to_str().unwrap()]);
        let stderr = stderr_of(&out);
        let names = json(&out)["names"].clone();
        match names["binary"].as_str() {
            None => assert!(stderr.is_empty(), "{stderr}"),
            Some(binary) => assert_eq!(
                stderr,
                format!(
                    "hp2ps: {}: -hi names from the symbols of {binary}, the program the log \
                     names (--binary to give another, --ipe-names address for none)\n",
                    log.display()
                )
            ),
        }
        names
    };
    let without = names_of(elsewhere.path());
    assert_eq!(
        (without["symbol"].as_u64(), without["binary"].as_str()),
        (Some(0), None)
    );
    assert!(without["ipe"].as_u64().unwrap() > 0);
    // A file of that name that is no binary (a wrapper script) is passed over quietly.
    elsewhere.write("leakmap-ipe", b"#!/bin/sh\nexec ./real-leakmap \"$@\"\n");
    assert_eq!(names_of(elsewhere.path()), without);
    let here = program(&elsewhere, "leakmap-ipe");
    let found = names_of(elsewhere.path());
    assert!(found["symbol"].as_u64().unwrap() > 20);
    assert_eq!(found["binary"].as_str(), Some("leakmap-ipe"));
    std::fs::rename(&here, beside.join("leakmap-ipe")).unwrap();
    let found = names_of(elsewhere.path());
    assert_eq!(
        found["binary"].as_str(),
        beside.join("leakmap-ipe").to_str()
    );
}

/// Another program's binary does not name anything, and says why.
#[test]
fn a_binary_that_does_not_match_is_refused() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("symbolize-wrong");
    let wrong = program(&dir, "textproc-ipe");
    let log = data("leakmap-hi.eventlog");
    let out = run_ok(
        dir.path(),
        &[
            "--summary=json",
            "--binary",
            wrong.to_str().unwrap(),
            log.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not the program that wrote it")
            && err.contains("band addresses fall on its symbols"),
        "{err}"
    );
    let names = &json(&out)["names"];
    assert_eq!(
        (names["symbol"].as_u64(), names["approximate"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(names["binary"].is_null());
    // Not a binary at all, and a profile that is not -hi: a warning each, a chart still.
    let hp = data("leakmap-hi.hp");
    let out = run_ok(
        dir.path(),
        &["--binary", hp.to_str().unwrap(), hp.to_str().unwrap()],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a readable program binary"));
    let he = data("leakmap-he.hp");
    let out = run_ok(
        dir.path(),
        &["--binary", wrong.to_str().unwrap(), he.to_str().unwrap()],
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("not info-table addresses"));
    // --binary with --ipe-names address asks for two things at once.
    let out = run(
        dir.path(),
        &["--binary", "x", "--ipe-names", "address", "x.hp"],
    );
    assert_eq!(out.status.code(), Some(2));
}

/// Cut and damaged binaries are read or refused, never a panic: through the library
/// (cuts and byte changes of the real program, with the log's addresses) and once
/// through the command.
#[test]
fn damaged_binaries_are_read_or_refused() {
    if !support::ghc910::have_programs() {
        return;
    }
    use hp2ps::internals::SymbolizeOptions;
    use hp2ps::internals::{name_bands, SymbolTable};
    use hp2ps::EventlogOptions;
    use support::read_eventlog_profile;
    let dir = TempDir::new("symbolize-damaged");
    let binary = std::fs::read(program(&dir, "leakmap-ipe")).unwrap();
    let log = std::fs::File::open(data("leakmap-hi.eventlog")).unwrap();
    let (profile, report) = read_eventlog_profile(log, &EventlogOptions::default()).unwrap();
    let mut rng = support::rng::Rng::new(18);
    let len = binary.len() as u64;
    let (mut read, mut refused) = (0, 0);
    for i in 0..120 {
        let mut bytes = binary.clone();
        if i % 2 == 0 {
            bytes.truncate(rng.below(len) as usize);
        } else {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(len) as usize;
                bytes[at] = rng.next_u64() as u8;
            }
        }
        match SymbolTable::parse(&bytes) {
            Ok(table) => {
                let mut p = profile.clone();
                name_bands(
                    &mut p,
                    &report.ipe,
                    Some(&table),
                    &SymbolizeOptions::default(),
                );
                read += 1;
            }
            Err(_) => refused += 1,
        }
    }
    eprintln!("damaged binaries: {read} read, {refused} refused");
    assert!(read > 0 && refused > 0);
    let cut = dir.write("cut", &binary[..binary.len() / 3]);
    let out = run(
        dir.path(),
        &[
            "--summary",
            "--binary",
            cut.to_str().unwrap(),
            data("leakmap-hi.eventlog").to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A run of the binary under test with a timeout and an address-space cap of 1 GiB, so
/// that a binary read whole (or forever) fails instead of eating the machine.
fn capped(dir: &Path, args: &[&str]) -> support::run::Ran {
    support::Cmd::hp2ps()
        .args(args)
        .current_dir(dir)
        .timeout(std::time::Duration::from_secs(60))
        .address_space(Some(1 << 30))
        .run()
}

/// `--binary` that is not a regular file (a device that reads forever, a FIFO whose
/// open waits for a writer) or is over the size limit is refused with a warning,
/// without reading it; the chart renders.
#[test]
fn a_binary_that_is_not_a_regular_file_or_too_big_is_refused_unread() {
    let dir = TempDir::new("symbolize-not-regular");
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let huge = std::fs::File::create(dir.join("huge")).unwrap();
    huge.set_len((2 << 30) + 1).unwrap(); // sparse: no disk used
    let log = data("leakmap-hi.eventlog");
    for (binary, why) in [
        ("/dev/zero", "it is a device, not a regular file"),
        ("fifo", "it is a FIFO (named pipe), not a regular file"),
        ("huge", "it is 2147483649 bytes, more than the 2147483648"),
    ] {
        let ran = capped(dir.path(), &["--binary", binary, log.to_str().unwrap()]);
        assert_eq!(ran.code, Some(0), "{binary}: {}", ran.describe());
        let err = ran.stderr_text();
        assert!(
            err.contains(&format!("{binary} is not used: {why}")),
            "{err}"
        );
        assert!(ran.max_rss_kib < 100 << 10, "{binary}: {}", ran.describe());
    }
}

/// A large file is never read whole: a 300 MiB file given as `--binary` to a batch of
/// profiles that are not `-hi` is not read at all, and one that a patched log's argv[0]
/// names beside it (a disk image) is mapped and only its first bytes are looked at.
#[test]
fn a_large_binary_is_mapped_not_read_and_only_for_hi_profiles() {
    let dir = TempDir::in_tmp("symbolize-large");
    let image = std::fs::File::create(dir.join("disk.img")).unwrap();
    image.set_len(300 << 20).unwrap();
    drop(image);
    // Not sparse where it is looked at: the first megabyte is data.
    std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join("disk.img"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, &vec![0x55; 1 << 20]))
        .unwrap();
    let he = data("leakmap-he.hp");
    let inputs: Vec<String> = (0..3)
        .map(|i| {
            let name = format!("he{i}.hp");
            std::fs::copy(&he, dir.join(&name)).unwrap();
            name
        })
        .collect();
    let mut args = vec!["-j3", "--binary", "disk.img"];
    args.extend(inputs.iter().map(String::as_str));
    let ran = capped(dir.path(), &args);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(ran.stderr_text().contains("not info-table addresses"));
    assert!(ran.max_rss_kib < 100 << 10, "{}", ran.describe());
    // The log names ./leakmap-ipe; a disk image of that name lies beside it.
    std::fs::rename(dir.join("disk.img"), dir.join("leakmap-ipe")).unwrap();
    std::fs::copy(data("leakmap-hi.eventlog"), dir.join("run.eventlog")).unwrap();
    let ran = capped(dir.path(), &["--summary=json", "run.eventlog"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(ran.max_rss_kib < 100 << 10, "{}", ran.describe());
    let summary: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert!(
        summary["names"]["binary"].is_null(),
        "not a program: not used"
    );
}
