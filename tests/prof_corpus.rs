//! The time profile's numbers on every real file: GHC 9.0.2's and 9.10.3's reports and
//! `-pj` files of the shared programs (`tests/data/prof/`), and other people's files of
//! 2011 to 2026 read in place from `../shared/corpus/prof/public/` (skipped with a word
//! without it, failing under CI). Each file reads, and only the files that need one
//! warn; a stack's inherited numbers are its own plus its children's (to the file's
//! rounding); the shares add up to 100 %, and `-P`'s ticks and bytes to the header's
//! totals exactly; the flat table is the tree's rows merged (the report's own table
//! agrees); each `-p`/`-P` report and its `-pj` twin agree stack by stack on entries and
//! allocation, as the shared README says they must.

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use hp2ps::internals::calltree::{CallTree, NodeId};
use hp2ps::TimeProfileWarning;
use support::prof::{generated, is_json, key_path, name, public, read, tree_of, KeyPath};

/// Every file, generated then public (when `../shared` is there).
fn every_file() -> Vec<PathBuf> {
    every_file_and_whether_public().0
}

/// [`every_file`], and whether the public files are among them: the counts a test
/// expects are the generated files' alone without them (a clone away from `../shared`,
/// where `public` says it skipped them).
fn every_file_and_whether_public() -> (Vec<PathBuf>, bool) {
    let mut all = generated();
    let public = public();
    let with_public = public.is_some();
    all.extend(public.unwrap_or_default());
    (all, with_public)
}

/// The one warning a file is known to need, by its name.
fn expected_warning(file: &str) -> Option<fn(&TimeProfileWarning) -> bool> {
    match file {
        // ghc-prof's purs.prof: modules glued to their numbers.
        "ghc-prof_purs.prof" => Some(|w| matches!(w, TimeProfileWarning::Glued { count: 660, .. })),
        // GHC 9.0.2's -pj writes `"` and TAB in labels unescaped.
        "oddnames-ghc9.0.2-pj.prof" | "oddnamestabs-ghc9.0.2-pj.prof" => {
            Some(|w| matches!(w, TimeProfileWarning::InvalidJson { .. }))
        }
        _ => None,
    }
}

#[test]
fn every_file_reads_and_only_the_odd_ones_warn() {
    let files = every_file();
    assert!(files.len() >= 174, "{} files", files.len());
    for f in &files {
        let p = read(f);
        let n = name(f);
        match (expected_warning(&n), p.warnings()) {
            (None, []) => {}
            (Some(is), [w]) => assert!(is(w), "{n}: {w}"),
            (_, w) => panic!("{n}: {w:?}"),
        }
        let t = tree_of(&p);
        assert!(!t.is_empty(), "{n}: no stack");
        let root = t.cost_centre(t.cc(t.roots().next().unwrap()));
        assert_eq!((root.label, root.module), ("MAIN", "MAIN"), "{n}");
        assert_eq!(t.roots().count(), 1, "{n}");
        assert!(
            t.header().total_alloc.is_some() && t.header().total_ticks.is_some(),
            "{n}"
        );
    }
}

/// How far a share may be from the sum it is made of: each printed share is rounded to
/// 0.05, the sum's parts too.
fn rounding(parts: usize) -> f64 {
    0.05 * (parts + 1) as f64 + 1e-9
}

#[test]
fn inherited_is_individual_plus_the_childrens_inherited() {
    let mut checked = 0;
    let (files, with_public) = every_file_and_whether_public();
    for f in files.iter().filter(|f| !is_json(f)) {
        let p = read(f);
        let t = tree_of(&p);
        for n in t.nodes() {
            let kids: Vec<NodeId> = t.children(n).collect();
            for (what, own, inherited) in [
                (
                    "time",
                    CallTree::time as fn(&CallTree, NodeId) -> f64,
                    CallTree::inherited_time as fn(&CallTree, NodeId) -> f64,
                ),
                ("alloc", CallTree::alloc, CallTree::inherited_alloc),
            ] {
                let sum = own(t, n) + kids.iter().map(|&k| inherited(t, k)).sum::<f64>();
                let diff = (inherited(t, n) - sum).abs();
                assert!(
                    diff <= rounding(kids.len() + 1),
                    "{}: {what} of node {} ({:?}): {} vs {sum}",
                    name(f),
                    n.index(),
                    key_path(t, n).last(),
                    inherited(t, n)
                );
                checked += 1;
            }
        }
    }
    // The generated files' stacks alone are about 20,000.
    let least = if with_public { 50_000 } else { 15_000 };
    assert!(checked > least, "{checked}");
}

#[test]
fn shares_add_up_to_a_hundred_and_counts_to_the_totals() {
    let (mut exact_ticks, mut exact_bytes) = (0, 0);
    let (files, with_public) = every_file_and_whether_public();
    for f in files {
        let p = read(&f);
        let t = tree_of(&p);
        let n = name(&f);
        let h = t.header();
        let (time, alloc): (f64, f64) = (
            t.nodes().map(|n| t.time(n)).sum(),
            t.nodes().map(|n| t.alloc(n)).sum(),
        );
        if h.total_ticks > Some(0) {
            assert!(
                (time - 100.0).abs() <= rounding(t.len()),
                "{n}: %time adds up to {time}"
            );
        }
        if h.total_alloc > Some(0) {
            assert!(
                (alloc - 100.0).abs() <= rounding(t.len()),
                "{n}: %alloc adds up to {alloc}"
            );
        }
        // Counted columns (-P, -pa, -pj): exactly the header's totals.
        if t.columns().ticks {
            let ticks: u64 = t.nodes().map(|n| t.ticks(n).unwrap()).sum();
            assert_eq!(Some(ticks), h.total_ticks, "{n}: ticks");
            exact_ticks += 1;
        }
        if t.columns().bytes {
            let bytes: u64 = t.nodes().map(|n| t.bytes(n).unwrap()).sum();
            assert_eq!(Some(bytes), h.total_alloc, "{n}: bytes");
            exact_bytes += 1;
        }
    }
    // -P (28), -pa (28), -pj (30) and inferno's two counted files; the generated files
    // alone have 84.
    let least = if with_public { 86 } else { 84 };
    assert!(
        exact_ticks >= least && exact_bytes >= least,
        "{exact_ticks} {exact_bytes}"
    );
}

/// The flat table's inherited numbers, the slow way: each stack of a cost centre that
/// has no stack of it above.
fn outermost_sums(t: &CallTree) -> HashMap<usize, f64> {
    let mut sums = HashMap::new();
    for n in t.nodes() {
        let cc = t.cc(n);
        let path = t.path(n);
        if path[..path.len() - 1].iter().all(|&a| t.cc(a) != cc) {
            *sums.entry(cc.index()).or_insert(0.0) += t.inherited_time(n);
        }
    }
    sums
}

#[test]
fn the_flat_table_is_the_trees_rows_merged_and_the_reports_own() {
    let mut listed_rows = 0;
    for f in every_file() {
        let p = read(&f);
        let t = tree_of(&p);
        let n = name(&f);
        let flat = t.flat_table();
        assert_eq!(flat.len(), t.cc_count(), "{n}");
        let stacks: usize = flat.iter().map(|r| r.stacks).sum();
        assert_eq!(stacks, t.len(), "{n}");
        let entries: u64 = flat.iter().map(|r| r.entries).sum();
        assert_eq!(entries, t.nodes().map(|n| t.entries(n)).sum::<u64>(), "{n}");
        for (cc, sum) in outermost_sums(t) {
            assert!((flat[cc].inherited_time - sum).abs() < 1e-9, "{n}: {cc}");
        }
        // The report's own table: the same cost centres, the same numbers (its shares
        // are rounded once, ours are sums of rounded ones).
        for listed in t.listed() {
            let ours = &flat[listed.cc.index()];
            let c = t.cost_centre(listed.cc);
            let what = format!("{n}: {} {} {}", c.label, c.module, c.src);
            assert!(ours.stacks > 0, "{what}: listed but in no stack");
            if let (Some(a), Some(b)) = (listed.ticks, ours.ticks) {
                assert_eq!((a, listed.bytes), (b, ours.bytes), "{what}");
            }
            // Before GHC 8.0 (no SRC column) two cost centres of one label and module
            // are one name: the listed one is then a part of ours.
            let r = rounding(ours.stacks);
            let same = |listed: f64, ours: f64| match c.src.is_empty() {
                true => listed <= ours + r,
                false => (listed - ours).abs() <= r,
            };
            assert!(
                same(listed.time, ours.time),
                "{what}: {} {}",
                listed.time,
                ours.time
            );
            assert!(
                same(listed.alloc, ours.alloc),
                "{what}: {} {}",
                listed.alloc,
                ours.alloc
            );
            listed_rows += 1;
        }
    }
    assert!(listed_rows > 3000, "{listed_rows}");
}

/// Each node's numbers by its path of names (paths that occur twice, which
/// `-fprof-auto-calls` can make, are summed).
fn by_path(t: &CallTree) -> HashMap<KeyPath, (u64, u64, f64)> {
    let mut m: HashMap<_, (u64, u64, f64)> = HashMap::new();
    for n in t.nodes() {
        let e = m.entry(key_path(t, n)).or_default();
        e.0 += t.entries(n);
        e.1 += t.bytes(n).unwrap_or(0);
        e.2 += t.alloc(n);
    }
    m
}

/// The `-p`/`-P` reports of the shared programs and their `-pj` twins: for each text
/// report, its twin (`None` when there is none).
fn twins() -> Vec<(PathBuf, PathBuf)> {
    let dir = support::prof::data_dir();
    let mut pairs = Vec::new();
    for f in generated() {
        let n = name(&f);
        let Some(stem) = n
            .strip_suffix("-p.prof")
            .or_else(|| n.strip_suffix("-P.prof"))
        else {
            continue;
        };
        let json = dir.join(format!("{stem}-pj.prof"));
        if json.exists() {
            pairs.push((f, json));
        }
    }
    pairs
}

/// Whether a text report and its `-pj` twin agree on every stack, as the shared README
/// says twins do: entries equal; `-P`'s bytes the JSON's `alloc` exactly, `-p`'s `%alloc`
/// the JSON's share of the report's total to 0.05; and the JSON's total larger by its
/// `OVERHEAD_of` and `SYSTEM` allocation (but for `threads`, whose runs allocate
/// differently). The rows that do not, described.
fn disagreements(text: &Path, json: &Path) -> Vec<String> {
    let (pt, pj) = (read(text), read(json));
    let (t, j) = (tree_of(&pt), tree_of(&pj));
    let jp = by_path(j);
    let text_total = t.header().total_alloc.unwrap() as f64;
    let mut bad = Vec::new();
    for (path, (entries, bytes, alloc)) in by_path(t) {
        let Some(&(j_entries, j_bytes, _)) = jp.get(&path) else {
            bad.push(format!("{path:?}: not in the JSON"));
            continue;
        };
        let alloc_agrees = match t.columns().bytes {
            true => bytes == j_bytes,
            false => (alloc - 100.0 * j_bytes as f64 / text_total).abs() <= 0.05 + 1e-9,
        };
        if entries != j_entries || !alloc_agrees {
            bad.push(format!(
                "{path:?}: entries {entries} vs {j_entries}, alloc {bytes}/{alloc} vs {j_bytes}"
            ));
        }
    }
    if name(text).starts_with("threads") {
        // Not deterministic: the totals of its two runs differ.
        return bad;
    }
    let extra: u64 = (j.nodes())
        .filter(|&n| matches!(j.cost_centre(j.cc(n)).label, "OVERHEAD_of" | "SYSTEM"))
        .map(|n| j.bytes(n).unwrap())
        .sum();
    let (jt, tt) = (
        j.header().total_alloc.unwrap(),
        t.header().total_alloc.unwrap(),
    );
    if jt != tt + extra {
        bad.push(format!("total alloc {jt} is not {tt} + {extra}"));
    }
    bad
}

#[test]
fn twins_agree_stack_by_stack_on_entries_and_allocation() {
    let pairs = twins();
    assert_eq!(pairs.len(), 54, "the README's 54 pairs");
    let mut agree = 0;
    for (text, json) in &pairs {
        let bad = disagreements(text, json);
        let n = name(text);
        // `threads` (forkIO workers, STM, -N2) is not deterministic: the README finds
        // its pairs differ in 2-4 rows, but for GHC 9.0.2's -p.
        let deterministic = !n.starts_with("threads") || n == "threads-ghc9.0.2-p.prof";
        if deterministic {
            assert!(bad.is_empty(), "{n} and its -pj twin: {bad:?}");
            agree += 1;
        } else {
            assert!(!bad.is_empty(), "{n}: the README has it differ");
        }
    }
    // The README's 47 twins, and GHC 9.0.2's four `oddnames` pairs it could not compare
    // (their -pj is not JSON): read as meant, they are twins too.
    assert_eq!(agree, 51);
}

/// A tree, its warnings and the reading's error, as text: what two readings must share.
fn described(r: &Result<hp2ps::TimeProfile, hp2ps::TimeProfileError>) -> String {
    match r {
        Ok(p) => {
            let t = tree_of(p);
            let rows: Vec<String> = (t.nodes())
                .map(|n| {
                    let c = t.cost_centre(t.cc(n));
                    format!(
                        "{} {:?} {:?} {} {} {} {} {} {} {:?} {:?} {:?}",
                        t.depth(n),
                        (c.label, c.module, c.src),
                        t.parent(n),
                        t.entries(n),
                        t.time(n),
                        t.alloc(n),
                        t.inherited_time(n),
                        t.inherited_alloc(n),
                        t.subtree_end(n).index(),
                        t.no(n),
                        t.ticks(n),
                        t.bytes(n)
                    )
                })
                .collect();
            format!(
                "{rows:?} {:?} {:?} {:?}",
                t.header(),
                t.retainer_sets(),
                p.warnings()
            )
        }
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_tree_read_in_chunks_on_every_core_is_the_one_thread_readings() {
    let mut files = every_file();
    files.retain(|f| !is_json(f));
    let mut chunked = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let one = hp2ps::TimeProfile::read(hp2ps::Source::Bytes(&bytes), &Default::default());
        let expected = described(&one);
        // Chunks of a few hundred bytes (a few rows each), and of one row's size: a cut
        // in every place a row can be cut.
        for chunk in [257, 4096] {
            let got = hp2ps::internals::prof::read_chunked(&bytes, chunk);
            assert_eq!(
                described(&got),
                expected,
                "{} in chunks of {chunk} bytes",
                name(f)
            );
        }
        chunked += 1;
    }
    assert!(chunked >= 144, "{chunked}");
    // Damage and a cut end, in chunks.
    let full = std::fs::read_to_string(
        generated()
            .iter()
            .find(|f| name(f) == "textproc-ghc9.10.3-p.prof")
            .unwrap(),
    )
    .unwrap();
    let damaged = full.replacen("   0.0    0.0", "   0.x    0.0", 3);
    for text in [&full[..full.len() * 2 / 3], &damaged[..]] {
        let one =
            hp2ps::TimeProfile::read(hp2ps::Source::Bytes(text.as_bytes()), &Default::default());
        assert!(!one.as_ref().unwrap().warnings().is_empty());
        for chunk in [100, 333] {
            let got = hp2ps::internals::prof::read_chunked(text.as_bytes(), chunk);
            assert_eq!(described(&got), described(&one), "chunks of {chunk}");
        }
    }
}
