//! ghc-events, GHC's reference eventlog parser, as a second opinion on our reader
//! (`hp2ps::read::eventlog`): on every eventlog of the repository (the corpus in
//! `tests/data/eventlog/`, the fuzz seeds in `fuzz/seeds/eventlog_reader/`), on generated
//! ones (the test writer's layouts: 8.2, 9.0, 9.2, `-hb`, `-hi`, `-hc`, two capabilities,
//! unknown types, oversized declarations, converted golden profiles) and on real logs
//! cut at several points, what ghc-events decodes must be what our reader returns:
//!
//! * the censuses: their number, each one's time, and its bands (values and order);
//!   the band names for string breakdowns (`-hi` included) are the labels, and for
//!   `-hc` the cost-centre stack's path built from the cost centres ghc-events decoded
//!   (so the cost centres are compared too);
//! * the IPE entries (169) the report lists: every field, in order of first
//!   appearance, a later entry for an address replacing the earlier one;
//! * the markers: time and text.
//!
//! Documented differences, allowed for here:
//!
//! * our reader adds an empty first sample (at 0) and an empty last one (the end);
//! * ghc-events gives timestamps in ns; our reader runs with `TimeAxis::Elapsed` and
//!   `full_names: true` (whole `-hc` stacks, no `-L` cut), so a census at `t` ns is at
//!   `t as f64 / 1e9` seconds (never before the previous census: the `.hp` reader's
//!   rule), and for `-hb` at the 166 event's census time; LDV-filtered logs, whose times
//!   our reader estimates, are compared without times;
//! * a census counts when it is complete: closed by its END (165), or, in a log without
//!   165 (GHC < 8.10), by the next census, the last one only when the file is whole;
//! * line breaks in labels become spaces in our names;
//! * ghc-events stops silently on some inputs (a label that is not UTF-8): there only
//!   the censuses it decoded are compared.
//!
//! Without ghc/ghc-events the tests print `SKIPPED:` and pass, unless `CI=true`. The
//! counts are printed (`cargo test --test eventlog_oracle -- --nocapture`).

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::read::eventlog::{EventlogOptions, TimeAxis};

use support::eventlog::oracle::{self, Band, Dump, Kind, Outcome};
use support::eventlog::recorder::{by_first_appearance, Recorder};
use support::eventlog::writer::{
    breakdown, convert_hp, ConvertOptions, EventlogWriter, HeapProfBegin, InfoTable, Layout,
    Stream, TypeDecl, KNOWN_PARSE_DIFFERENCES,
};

/// How one file was compared.
#[derive(Default)]
struct Counts {
    files: usize,
    /// Both sides refuse the file (no census, or a header ghc-events rejects).
    both_refuse: usize,
    censuses: usize,
    bands: usize,
    markers: usize,
    ipe: usize,
    /// Files whose census times were not compared (our reader estimates them).
    estimated_times: usize,
    /// Files where ghc-events stopped before the end (a non-UTF-8 label).
    oracle_stopped: usize,
}

impl Counts {
    fn print(&self, what: &str) {
        eprintln!(
            "eventlog oracle {what}: {} files compared ({} refused by both), {} censuses, \
             {} bands, {} markers, {} IPE entries identical; {} files without time \
             comparison (estimated times), {} where ghc-events stopped early",
            self.files,
            self.both_refuse,
            self.censuses,
            self.bands,
            self.markers,
            self.ipe,
            self.estimated_times,
            self.oracle_stopped
        );
    }
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_in(dir: &Path, ext: Option<&str>) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file())
        .filter(|p| ext.map_or(true, |x| p.extension().is_some_and(|e| e == x)))
        .collect();
    v.sort();
    v
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    files_in(&manifest().join("tests/data/eventlog"), Some("eventlog"))
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect()
}

/// `\n`/`\r` → space, as the reader does to every name.
fn one_line(mut v: Vec<u8>) -> Vec<u8> {
    for b in &mut v {
        if *b == b'\n' || *b == b'\r' {
            *b = b' ';
        }
    }
    v
}

/// A census as ghc-events decodes it: (time ns, [(name, residency)]).
/// (time ns, [(name, residency, the band's key: its label or stack bytes)]).
type WantCensus = (u64, Vec<(Vec<u8>, u64, Vec<u8>)>);

/// What ghc-events says the reader must give: complete censuses as
/// (time ns, [(name, residency)]), markers as (time ns, text).
struct Expected {
    censuses: Vec<WantCensus>,
    markers: Vec<(u64, Vec<u8>)>,
    /// The IPE entries: address, the six strings (the closure type as ghc-events reads
    /// its number).
    ipe: Vec<(u64, [String; 6])>,
    /// Some band names collide (after `one_line`): the reader numbers those, so only the
    /// values are compared.
    ambiguous_names: bool,
}

fn expected(d: &Dump, whole: bool) -> Expected {
    let has_end = d.types.iter().any(|t| t.id == 165);
    let mut censuses = d.censuses();
    if has_end {
        censuses.retain(|c| c.ended);
    } else if !whole {
        // Without 165 the last census is complete only if the file is.
        censuses.pop();
    }
    // The cost centres and IPE entries ghc-events decoded.
    let mut ccs: HashMap<u32, (Vec<u8>, Vec<u8>, u8)> = HashMap::new();
    let mut ipe: Vec<(u64, [String; 6])> = Vec::new();
    for e in &d.events {
        match &e.kind {
            Kind::CostCentre {
                id,
                label,
                module,
                flags,
                ..
            } => {
                ccs.insert(*id, (label.clone(), module.clone(), *flags));
            }
            Kind::Ipe {
                info,
                table_name,
                closure_desc,
                ty_desc,
                label,
                module,
                srcloc,
            } => {
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let fields = [
                    text(table_name),
                    closure_desc.to_string(),
                    text(ty_desc),
                    text(label),
                    text(module),
                    text(srcloc),
                ];
                match ipe.iter_mut().find(|(a, _)| a == info) {
                    Some(known) => known.1 = fields,
                    None => ipe.push((*info, fields)),
                }
            }
            _ => {}
        }
    }
    let name = |b: &Band| -> Vec<u8> {
        match b {
            Band::Str { label, .. } => label.clone(),
            Band::Ccs { stack, .. } if stack.is_empty() => b"MAIN".to_vec(),
            Band::Ccs { stack, .. } => {
                let levels: Vec<Vec<u8>> = stack
                    .iter()
                    .map(|id| match ccs.get(id) {
                        Some((label, module, flags)) if flags & 1 != 0 || label == b"CAF" => {
                            [&module[..], b".CAF"].concat()
                        }
                        Some((label, _, _)) => label.clone(),
                        None => format!("?{id}").into_bytes(),
                    })
                    .collect();
                levels.join(&b'/')
            }
        }
    };
    let mut distinct: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
    let censuses: Vec<WantCensus> = censuses
        .iter()
        .map(|c| {
            let bands = c
                .bands
                .iter()
                .map(|b| {
                    let (key, residency) = match b {
                        Band::Str { label, residency } => (label.clone(), *residency),
                        Band::Ccs { stack, residency } => (
                            stack.iter().flat_map(|i| i.to_be_bytes()).collect(),
                            *residency,
                        ),
                    };
                    let n = one_line(name(b));
                    distinct.insert(key.clone(), n.clone());
                    (n, residency, key)
                })
                .collect();
            (c.bio_time.unwrap_or(c.time), bands)
        })
        .collect();
    let mut names: Vec<&Vec<u8>> = distinct.values().collect();
    names.sort();
    let ambiguous_names = names.windows(2).any(|w| w[0] == w[1]);
    let mut markers: Vec<(u64, Vec<u8>)> = d
        .markers()
        .into_iter()
        .map(|(t, _, text)| (t, text))
        .collect();
    markers.sort_by_key(|m| m.0);
    Expected {
        censuses,
        markers,
        ipe,
        ambiguous_names,
    }
}

/// Compares one file; `whole` is false for a cut file.
fn check(exe: &Path, what: &str, bytes: &[u8], whole: bool, counts: &mut Counts) {
    let d = oracle::dump_bytes(exe, bytes);
    let mut opts = EventlogOptions::default();
    opts.time = TimeAxis::Elapsed;
    opts.full_names = true;
    let mut rec = Recorder::default();
    let ours = read_eventlog(bytes, &opts, &mut rec);
    let want = expected(&d, whole);
    counts.files += 1;
    let report = match ours {
        Err(e) => {
            assert!(
                want.censuses.is_empty(),
                "{what}: our reader refuses it ({e}) but ghc-events decodes {} censuses ({:?})",
                want.censuses.len(),
                d.outcome
            );
            counts.both_refuse += 1;
            if std::env::var_os("ORACLE_VERBOSE").is_some() {
                eprintln!("refused by both: {what}: {e}");
            }
            return;
        }
        Ok(r) => r,
    };
    if let Outcome::Error(e) = &d.outcome {
        panic!("{what}: ghc-events rejects the file ({e}), our reader reads it");
    }
    // Our samples: the synthetic first and last ones around the censuses.
    let samples = &rec.samples;
    assert!(samples.len() >= 2, "{what}: {} samples", samples.len());
    assert!(
        samples[0].1.is_empty() && samples[0].0 == 0.0,
        "{what}: first sample"
    );
    assert!(samples.last().unwrap().1.is_empty(), "{what}: last sample");
    let ours_censuses = &samples[1..samples.len() - 1];
    assert_eq!(
        ours_censuses.len(),
        report.censuses,
        "{what}: report.censuses"
    );
    let mut n = want.censuses.len();
    let oracle_stopped = ours_censuses.len() != n;
    if oracle_stopped {
        // ghc-events stops silently at a label that is not UTF-8 (and the census it was
        // reading then looks complete in a log without 165): compare what it decoded.
        let has_end = d.types.iter().any(|t| t.id == 165);
        let decoded = if has_end { n } else { n.saturating_sub(1) };
        let stopped = ours_censuses.len() > decoded
            && d.censuses().len() <= n + 1
            && ours_censuses[decoded..]
                .iter()
                .flat_map(|c| &c.1)
                .any(|(name, _)| std::str::from_utf8(name).is_err());
        assert!(
            stopped,
            "{what}: {} censuses, ghc-events decodes {n} ({:?})",
            ours_censuses.len(),
            d.outcome
        );
        n = decoded;
        counts.oracle_stopped += 1;
    }
    // Within a census our reader gives the points in band order, not the file's: compare
    // bands by order of first appearance (by key on ghc-events' side, where names may
    // collide), and each census's (band, value) points.
    let want_points: Vec<Vec<(Vec<u8>, f64)>> = (want.censuses[..n].iter())
        .map(|(_, bands)| {
            bands
                .iter()
                .map(|(_, v, key)| (key.clone(), *v as f64))
                .collect()
        })
        .collect();
    let our_points: Vec<Vec<(Vec<u8>, f64)>> =
        ours_censuses[..n].iter().map(|c| c.1.clone()).collect();
    let (want_keys, want_samples) = by_first_appearance(&want_points);
    let (our_names, our_samples) = by_first_appearance(&our_points);
    assert_eq!(want_keys.len(), our_names.len(), "{what}: band count");
    if !want.ambiguous_names {
        let want_names: Vec<&Vec<u8>> = (want_keys.iter())
            .map(|k| {
                let (name, _, _) = (want.censuses.iter())
                    .flat_map(|c| &c.1)
                    .find(|b| &b.2 == k)
                    .expect("a key's band");
                name
            })
            .collect();
        for (w, o) in want_names.iter().zip(&our_names) {
            assert_eq!(
                String::from_utf8_lossy(w),
                String::from_utf8_lossy(o),
                "{what}: band name"
            );
        }
    }
    let mut last = 0.0f64;
    for (i, ((t_ns, bands), (t, _))) in want.censuses[..n].iter().zip(ours_censuses).enumerate() {
        if !report.estimated_times {
            let expect = (*t_ns as f64 / 1e9).max(last);
            last = expect;
            assert_eq!(*t, expect, "{what}: census {i}'s time");
        }
        assert_eq!(
            want_samples[i], our_samples[i],
            "{what}: census {i}'s (band, value) points"
        );
        counts.censuses += 1;
        counts.bands += bands.len();
    }
    if report.estimated_times {
        counts.estimated_times += 1;
    }
    // Markers: time and text, in time order.
    let a: Vec<(f64, String)> = want
        .markers
        .iter()
        .map(|(t, text)| (*t as f64 / 1e9, String::from_utf8_lossy(text).into_owned()))
        .collect();
    let b: Vec<(f64, String)> = report
        .markers
        .iter()
        .map(|m| (m.time, m.text.clone()))
        .collect();
    assert_eq!(a, b, "{what}: markers");
    assert_eq!(rec.marks.len(), a.len(), "{what}: marks handed to the sink");
    counts.markers += a.len();
    // IPE entries: every field (where ghc-events read the whole log).
    if !oracle_stopped {
        let ours: Vec<(u64, [String; 6])> = (report.ipe.iter())
            .map(|e| {
                let closure = e.closure_desc.parse::<i64>().map_or_else(
                    |_| format!("not a number: {:?}", e.closure_desc),
                    |n| n.to_string(),
                );
                let fields = [
                    &e.table_name,
                    &closure,
                    &e.type_desc,
                    &e.label,
                    &e.module,
                    &e.src_loc,
                ];
                (e.address, fields.map(String::clone))
            })
            .collect();
        assert_eq!(ours, want.ipe, "{what}: IPE entries");
        counts.ipe += ours.len();
    }
}

fn ends_whole(bytes: &[u8]) -> bool {
    bytes.ends_with(&[0xFF, 0xFF])
}

#[test]
fn repository_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in corpus() {
        assert!(ends_whole(&bytes), "{what}");
        check(exe, &what, &bytes, true, &mut counts);
    }
    let corpus_files = counts.files;
    for p in files_in(&manifest().join("fuzz/seeds/eventlog_reader"), None) {
        // A fuzz input is one byte of reader options, then the eventlog.
        let bytes = std::fs::read(&p).unwrap();
        let log = &bytes[1..];
        check(
            exe,
            &p.display().to_string(),
            log,
            ends_whole(log),
            &mut counts,
        );
    }
    counts.print("repository");
    assert!(corpus_files >= 14, "{corpus_files} corpus logs");
    assert!(counts.censuses > 200, "{} censuses", counts.censuses);
}

/// The two real `-hi` logs of GHC 9.10.3: their IPE entries, every field, as
/// ghc-events reads them (and their censuses, as for every log).
#[test]
fn real_info_table_logs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for name in ["leakmap-hi", "textproc-hi"] {
        let path = manifest().join(format!("tests/data/ghc-9.10/{name}.eventlog"));
        let bytes = std::fs::read(&path).unwrap();
        check(exe, &path.display().to_string(), &bytes, true, &mut counts);
    }
    counts.print("real -hi logs");
    // leakmap-hi has 69 entries, textproc-hi 228 (one event each, no address twice).
    assert_eq!(counts.ipe, 69 + 228);
}

#[test]
fn cut_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in corpus() {
        let data = bytes
            .windows(4)
            .position(|w| w == b"datb")
            .expect("a data section")
            + 4;
        // The censuses are in the global blocks, written late: cut inside each of them
        // (up to 4 points a block), and around the start and the end.
        let mut cuts: Vec<usize> = Vec::new();
        for (start, size, cap) in blocks(&bytes, data) {
            if cap == 0xFFFF {
                cuts.extend((1..=4).map(|k| start + size * k / 5));
            } else if cuts.is_empty() {
                cuts.push(start + size / 2); // inside the first capability block
            }
        }
        cuts.push(bytes.len() - 1); // half the terminator
        cuts.push(bytes.len() - 2); // no terminator
        cuts.push(data - 2); // inside the header
        cuts.sort();
        cuts.dedup();
        for cut in cuts {
            check(
                exe,
                &format!("{what} cut at {cut}"),
                &bytes[..cut],
                false,
                &mut counts,
            );
        }
    }
    counts.print("cut");
    assert!(counts.censuses > 300, "{} censuses", counts.censuses);
}

/// The blocks of a log, (start, size, capability), walking them by their size from
/// `data` (just after `datb`).
fn blocks(bytes: &[u8], data: usize) -> Vec<(usize, usize, u16)> {
    let mut p = data;
    let mut out = Vec::new();
    while p + 24 <= bytes.len() && bytes[p..p + 2] == 18u16.to_be_bytes() {
        let size = u32::from_be_bytes(bytes[p + 10..p + 14].try_into().unwrap()) as usize;
        let cap = u16::from_be_bytes(bytes[p + 22..p + 24].try_into().unwrap());
        if size < 24 || p + size > bytes.len() {
            break;
        }
        out.push((p, size, cap));
        p += size;
    }
    out
}

/// A small run: GC events, markers, three string censuses.
fn small_run(layout: Layout, code: u32) -> EventlogWriter {
    let mut w = EventlogWriter::new(layout);
    w.startup(0, 1)
        .wall_clock(10, 1_795_242_269, 17_465_000)
        .rts_identifier(11, "GHC-9.0.2 rts_p")
        .program_args(12, &["./prog", "+RTS", "-hT", "-RTS"])
        .heap_prof_begin(20, &HeapProfBegin::new(code, 20_000_000));
    w.gc_start(0, 400).gc_end(0, 450).marker(0, 500, b"phase A");
    w.string_census(1_000, &[("ARR_WORDS", 100u64), ("THUNK", 200)]);
    w.gc_start(0, 1_400)
        .gc_end(0, 1_450)
        .marker(0, 1_500, "größe\nzwei".as_bytes());
    w.string_census(2_000, &[("ARR_WORDS", 300u64)]);
    w.string_census(2_000, &[("THUNK", 7u64), ("MUT_ARR_PTRS_CLEAN", 0)]);
    w.shutdown(3_000, 1);
    w
}

fn generated() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let t = breakdown::CLOSURE_TYPE;
    for (name, layout) in [
        ("9.0", Layout::ghc_9_0()),
        ("8.2", Layout::ghc_8_2()),
        ("9.2", Layout::ghc_9_2()),
        (
            "9.0, 2 events per block",
            Layout::ghc_9_0().with_max_events_per_block(2),
        ),
        (
            "9.0, oversized 162/165/43/58",
            Layout::ghc_9_0()
                .with_oversized(162, 8)
                .with_oversized(165, 8)
                .with_oversized(43, 8),
        ),
    ] {
        out.push((format!("small run, {name}"), small_run(layout, t).finish()));
    }
    for code in [2, 3, 4, 5] {
        let w = small_run(Layout::ghc_9_0(), code);
        out.push((format!("small run, breakdown {code}"), w.finish()));
    }

    // Unknown types, fixed and variable, in the global block (inside a census) and cap 0.
    let layout = Layout::ghc_9_0()
        .with_type(TypeDecl::new(300, Some(5), "Some future fixed event"))
        .with_type(TypeDecl::new(301, None, "Some future variable event"));
    let mut w = small_run(layout, t);
    w.sample_begin(2_100, 0)
        .raw_event(Stream::Global, 300, 2_100, b"abcde")
        .string_sample(2_150, 8, b"PAP")
        .raw_event(Stream::Global, 301, 2_200, b"variable payload")
        .raw_event(Stream::Cap(0), 300, 600, b"12345")
        .string_sample(2_250, 9, b"FUN")
        .sample_end(2_300, 0);
    out.push(("unknown types".into(), w.finish()));

    // -hb: every census written at exit, with its census time.
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.heap_prof_begin(5, &HeapProfBegin::new(breakdown::BIOGRAPHY, 100_000_000));
    for (k, census_time) in [100_000_000u64, 200_000_000, 250_000_000]
        .into_iter()
        .enumerate()
    {
        let bands = [
            ("VOID", 10u64 * k as u64),
            ("LAG", 20),
            ("USE", 30 + k as u64),
            ("INHERENT_USE", 40),
            ("DRAG", 0),
        ];
        w.bio_census(1_188_000_000, 5, census_time, &bands);
    }
    w.shutdown(1_200_000_000, 1);
    out.push(("-hb (166)".into(), w.finish()));

    // -hi: IPE entries name some addresses; a later entry for an address replaces the
    // earlier one.
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    let it = |info: u64, name: &[u8]| InfoTable {
        info,
        table_name: name.to_vec(),
        closure_desc: 21,
        ty_desc: b"Integer -> IO ()".to_vec(),
        label: b"main".to_vec(),
        module: b"Main".to_vec(),
        srcloc: b"Test.hs:5:1-30".to_vec(),
    };
    w.info_table(1, &it(0x409f78, b"sat_s154_info"))
        .info_table(1, &it(0x4c8b11, b"Main.go_info"))
        .info_table(1, &it(0x409f78, b"sat_s154_again_info"))
        .heap_prof_begin(2, &HeapProfBegin::new(breakdown::INFO_TABLE, 100_000_000))
        .string_census(10, &[("0x409f78", 64u64), ("0x4c8b10", 32)])
        .string_census(20, &[("0x4c8b11", 16u64), ("0x409f78", 8)])
        .shutdown(30, 1);
    out.push(("-hi (169)".into(), w.finish()));

    // -hc: a CAF, nested stacks, the empty stack, an undefined cost centre.
    let mut w = EventlogWriter::new(Layout::ghc_9_0());
    w.program_args(0, &["./prog", "+RTS", "-hc", "-L7", "-RTS"])
        .heap_prof_begin(1, &HeapProfBegin::new(breakdown::COST_CENTRE, 20_000_000))
        .cost_centre(2, 3, b"CAF", b"Main", b"<entire-module>", true)
        .cost_centre(2, 2, b"main", b"Main", b"LeakMap.hs:14:1-34", false)
        .cost_centre(2, 1, "größe".as_bytes(), b"Main", b"x.hs:1:1", false)
        .cost_centre(2, 4, b"CAF", b"GHC.IO", b"<entire-module>", false);
    w.cost_centre_census(
        100,
        &[(&[1, 2, 3][..], 4096), (&[][..], 160), (&[4][..], 8)],
    );
    w.cost_centre_census(
        200,
        &[(&[2, 3][..], 1), (&[9, 3][..], 2), (&[1, 2, 3][..], 3)],
    );
    w.shutdown(300, 1);
    out.push(("-hc (161/163)".into(), w.finish()));

    // Two capabilities, interleaved blocks, markers on both.
    let mut w = EventlogWriter::new(Layout::ghc_9_0().with_max_events_per_block(3));
    w.startup(0, 2);
    for k in 0..5u64 {
        let t = 1_000 * (k + 1);
        w.gc_start(0, t)
            .gc_end(0, t + 100)
            .heap_size(0, t + 101, 1 << 20);
        w.gc_start(1, t + 10).gc_end(1, t + 90);
        w.marker(k as u16 % 2, t + 200, format!("m{k}").as_bytes());
        w.string_census(t + 300, &[("X", k), ("Y", 2 * k)]);
    }
    w.shutdown(7_000, 2);
    out.push(("two capabilities".into(), w.finish()));

    // Converted golden profiles in three layouts.
    for (name, hp) in support::golden_inputs() {
        if KNOWN_PARSE_DIFFERENCES.contains(&name.as_str()) {
            continue;
        }
        for (lname, layout) in [
            ("9.0", Layout::ghc_9_0()),
            ("8.2", Layout::ghc_8_2()),
            ("9.2", Layout::ghc_9_2().with_max_events_per_block(50)),
        ] {
            let opts = ConvertOptions {
                layout,
                marker_text: b"mark".to_vec(),
                ..ConvertOptions::default()
            };
            let Ok(c) = convert_hp(&hp, &opts) else {
                continue;
            };
            out.push((format!("{name} as {lname}"), c.eventlog));
        }
    }
    out
}

#[test]
fn generated_eventlogs_agree_with_ghc_events() {
    let Some(exe) = oracle::oracle() else { return };
    let mut counts = Counts::default();
    for (what, bytes) in generated() {
        check(exe, &what, &bytes, true, &mut counts);
    }
    counts.print("generated");
    assert!(counts.files > 100, "{} files", counts.files);
}
