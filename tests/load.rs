//! The one way to read, `hp2ps::load`: either format, from a stream or from bytes,
//! gives the same profile; the steps after reading (the names of `-hi` bands with a
//! binary given or found, an eventlog's heap-size lines, the band filter) do what their
//! options say; and the command draws the chart and prints the warnings that a library
//! user gets from `load` with the command line's options.

mod support;

use std::sync::{Arc, Mutex};

use hp2ps::internals::write_chart;
use hp2ps::{
    load, prepare, Binary, Format, LoadError, LoadOptions, Loaded, Program, RenderOptions, Source,
    Warning,
};
use support::ghc910::{data, program};
use support::{golden, golden_dir, Cmd, TempDir};

fn from_stream(mut bytes: &[u8], opts: &LoadOptions) -> Result<Loaded, LoadError> {
    load(Source::Stream(&mut bytes), opts)
}

fn names(loaded: &Loaded) -> Vec<String> {
    (loaded.profile.bands.iter())
        .map(|b| String::from_utf8_lossy(&b.name).into_owned())
        .collect()
}

/// A `.hp` and the eventlogs of GHC 9.10.3 runs, read from a stream and in place, with
/// every step on: the same profile, warnings, report, names and filter counts.
#[test]
fn a_stream_and_bytes_give_the_same_load() {
    let mut opts = LoadOptions::default();
    opts.heap_size = true;
    opts.filter.exclude("ARR_WORDS|main").unwrap();
    let inputs = [
        golden("spec7-01-manpage.hp"),
        std::fs::read(data("leakmap-hd.hp")).unwrap(),
        std::fs::read(data("leakmap-hd.eventlog")).unwrap(),
        std::fs::read(data("leakmap-hi.eventlog")).unwrap(),
        std::fs::read(data("threads-hT-N2.eventlog")).unwrap(),
    ];
    for bytes in &inputs {
        let streamed = format!("{:?}", from_stream(bytes, &opts));
        let in_place = format!("{:?}", load(Source::Bytes(bytes), &opts));
        assert!(
            streamed == in_place,
            "{}",
            &streamed[..streamed.len().min(300)]
        );
    }
}

#[test]
fn heap_size_lines_come_from_an_eventlog_and_a_hp_is_warned_about() {
    let mut opts = LoadOptions::default();
    opts.heap_size = true;
    let log = std::fs::read(data("leakmap-hd.eventlog")).unwrap();
    let loaded = load(Source::Bytes(&log), &opts).unwrap();
    let series: Vec<&[u8]> = loaded.profile.series.iter().map(|s| &s.name[..]).collect();
    // GHC 9.10.3 writes the blocks size too (event 91, GHC 9.2 on).
    assert_eq!(series, [&b"heap size"[..], b"live bytes", b"blocks size"]);
    let report = loaded.eventlog.as_ref().expect("an eventlog");
    assert_eq!(
        loaded.profile.series[0].points.len(),
        report.line("heap size").len()
    );
    assert_eq!(
        loaded.profile.series[2].points.len(),
        report.line("blocks size").len()
    );
    assert!(!loaded.warnings.contains(&Warning::HeapSizeNeedsEventlog));

    let hp = std::fs::read(data("leakmap-hd.hp")).unwrap();
    let loaded = load(Source::Bytes(&hp), &opts).unwrap();
    assert!(loaded.profile.series.is_empty() && loaded.eventlog.is_none());
    assert_eq!(loaded.warnings, [Warning::HeapSizeNeedsEventlog]);
}

/// The filter takes its bands out of the profile (once: aggregation has no filter of its
/// own), and says how many and how much.
#[test]
fn the_filter_takes_its_bands_out_of_an_eventlogs_profile() {
    let log = std::fs::read(data("leakmap-hd.eventlog")).unwrap();
    let all = load(Source::Bytes(&log), &LoadOptions::default()).unwrap();
    let mut opts = LoadOptions::default();
    opts.filter.include(r"<main:Main\.").unwrap();
    let some = load(Source::Bytes(&log), &opts).unwrap();
    let kept = names(&some);
    assert!(
        kept.len() > 2 && kept.iter().all(|n| n.contains("<main:Main.")),
        "{kept:?}"
    );
    let out = some.filtered.expect("a filter was given");
    assert_eq!(out.bands, all.profile.bands.len() - kept.len());
    assert!(out.share > 0.0 && out.share < 1.0, "{out:?}");
    assert!(all.filtered.is_none());
}

/// A `-hi` log's bands are named by its IPE entries; the program the log names is asked
/// for once, by the name it was run as, and its symbols name the rest. Another
/// program's binary is refused, with a warning; a `-hd` log asks for no program.
#[test]
fn info_table_bands_are_named_with_the_binary_given_or_found() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("load-binary");
    let leakmap = std::fs::read(program(&dir, "leakmap-ipe")).unwrap();
    let log = std::fs::read(data("leakmap-hi.eventlog")).unwrap();

    let asked = Arc::new(Mutex::new(Vec::<String>::new()));
    let find = {
        let (asked, bytes) = (Arc::clone(&asked), leakmap.clone());
        move |argv0: &str| {
            asked.lock().unwrap().push(argv0.to_string());
            Some(Program::new("found/leakmap-ipe", bytes.clone()))
        }
    };
    let mut opts = LoadOptions::default();
    opts.binary = Binary::Find(Arc::new(find));
    let found = load(Source::Bytes(&log), &opts).unwrap();
    assert_eq!(*asked.lock().unwrap(), ["./leakmap-ipe"]);
    let naming = found.naming.clone().expect("a -hi profile");
    assert_eq!(naming.by_ipe, 12);
    assert!(naming.by_symbol > 20, "{naming:?}");
    assert_eq!(naming.binary_used(), Some(true));
    assert_eq!(naming.binary.as_deref(), Some("found/leakmap-ipe"));
    assert!(names(&found).contains(&"mkWord: (:) (LeakMap.hs:11)".to_string()));

    opts.binary = Binary::None;
    let ipe_only = load(Source::Bytes(&log), &opts).unwrap();
    let naming = ipe_only.naming.clone().expect("a -hi profile");
    assert_eq!((naming.by_ipe, naming.by_symbol), (12, 0));

    let textproc = std::fs::read(program(&dir, "textproc-ipe")).unwrap();
    opts.binary = Binary::Given(Program::new("textproc-ipe", textproc));
    let refused = load(Source::Bytes(&log), &opts).unwrap();
    assert_eq!(names(&refused), names(&ipe_only));
    // The one warning: GHC 9.10.3's IPE layout gets none (eventlog_ghc910.rs).
    match &refused.warnings[..] {
        [w @ Warning::BinaryRefused { binary, .. }] => {
            assert_eq!(binary, "textproc-ipe");
            assert!(
                w.to_string().contains("is not the program that wrote it"),
                "{w}"
            );
        }
        other => panic!("{other:?}"),
    }

    asked.lock().unwrap().clear();
    opts.binary = Binary::Find(Arc::new({
        let asked = Arc::clone(&asked);
        move |argv0: &str| {
            asked.lock().unwrap().push(argv0.to_string());
            None
        }
    }));
    let hd = std::fs::read(data("leakmap-hd.eventlog")).unwrap();
    assert!(load(Source::Bytes(&hd), &opts).unwrap().naming.is_none());
    assert!(asked.lock().unwrap().is_empty());
}

/// What the command writes for `args` on the file `name` in `dir`: the PostScript and
/// the warning lines.
fn command(dir: &TempDir, name: &str, args: &[&str]) -> (Vec<u8>, Vec<String>) {
    let ran = Cmd::hp2ps()
        .current_dir(dir.path())
        .args(args)
        .args(["-o", "out.ps", name])
        .run();
    assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.describe());
    let ps = std::fs::read(dir.join("out.ps")).unwrap();
    let warnings = ran.stderr_text().lines().map(str::to_string).collect();
    (ps, warnings)
}

/// What a library user gets for the file `name` in `dir` with `opts`: the PostScript of
/// the chart and the warnings, as the command prints them.
fn library(
    dir: &TempDir,
    name: &str,
    opts: &LoadOptions,
    render: &RenderOptions,
) -> (Vec<u8>, Vec<String>) {
    let mut file = std::fs::File::open(dir.join(name)).unwrap();
    let loaded = load(Source::Stream(&mut file), opts).unwrap();
    let mut warnings: Vec<String> = (loaded.warnings.iter())
        .map(|w| format!("hp2ps: warning: {}", w.line(name)))
        .collect();
    // The command finds the program beside the log (the cases give no --binary), and
    // says which named the bands.
    if let Some(program) = (loaded.naming.as_ref()).and_then(|n| n.binary.as_ref()) {
        warnings.push(format!(
            "hp2ps: {name}: -hi names from the symbols of {program}, the program the log \
             names (--binary to give another, --ipe-names address for none)"
        ));
    }
    let (chart, _) = prepare(loaded.profile, None, render);
    let mut ps = Vec::new();
    write_chart(&chart, Format::Ps, &mut ps).unwrap();
    (ps, warnings)
}

/// The command loads its input as `load` does: the same chart and the same warnings for
/// the window, the filter, the heap-size lines (and their warning on a `.hp`), a cut
/// profile, and `-hi` names with the program found beside the log.
#[test]
fn the_command_draws_and_warns_what_load_gives() {
    if !support::ghc910::have_programs() {
        return;
    }
    let dir = TempDir::new("load-command");
    let manpage = std::fs::read(golden_dir().join("spec7-01-manpage.hp")).unwrap();
    dir.write("manpage.hp", &manpage);
    let cut = [&manpage[..], b"BEGIN_SAMPLE 3.0\nelim 100\n"].concat();
    dir.write("cut.hp", &cut);
    for name in [
        "leakmap-hd.eventlog",
        "leakmap-hi.eventlog",
        "leakmap-hd.hp",
    ] {
        dir.write(name, &std::fs::read(data(name)).unwrap());
    }
    let leakmap = std::fs::read(program(&dir, "leakmap-ipe")).unwrap();

    let colour = {
        let mut r = RenderOptions::default();
        r.layout.colour = true;
        r
    };
    let mut no_traces = colour.clone();
    no_traces.aggregate.trace_percent = 0.0;

    let mut window_and_filter = LoadOptions::default();
    window_and_filter.from = Some(1.0);
    window_and_filter.filter.exclude("^elim$").unwrap();
    let mut heap_size = LoadOptions::default();
    heap_size.heap_size = true;
    let mut named = LoadOptions::default();
    named.binary = Binary::Given(Program::new("leakmap-ipe", leakmap));

    let cases: [(&str, &[&str], &LoadOptions, &RenderOptions); 6] = [
        (
            "manpage.hp",
            &["-c", "--from", "1", "--exclude", "^elim$"],
            &window_and_filter,
            &colour,
        ),
        ("cut.hp", &["-c"], &LoadOptions::default(), &colour),
        (
            "leakmap-hd.eventlog",
            &["-c", "-t0", "--heap-size"],
            &heap_size,
            &no_traces,
        ),
        ("leakmap-hd.hp", &["-c", "--heap-size"], &heap_size, &colour),
        ("leakmap-hi.eventlog", &["-c", "-t0"], &named, &no_traces),
        (
            "leakmap-hi.eventlog",
            &["-c", "--include", "LeakMap"],
            &{
                let mut o = named.clone();
                o.filter.include("LeakMap").unwrap();
                o
            },
            &colour,
        ),
    ];
    for (name, args, opts, render) in cases {
        let (ps, warnings) = command(&dir, name, args);
        let (want_ps, want_warnings) = library(&dir, name, opts, render);
        assert_eq!(warnings, want_warnings, "{name} {args:?}");
        assert!(
            ps == want_ps,
            "{name} {args:?}: the command's chart differs from load's"
        );
    }
}
