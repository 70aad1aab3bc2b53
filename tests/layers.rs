//! The layers of the crate, kept. Every path a file of `src/` names is resolved, through
//! the modules' re-exports, to the file that defines what it names
//! (`tests/layers/imports.rs`, with `syn`); then:
//!
//! * each folder (or file) at the top of `src/` uses only the modules that
//!   `docs/architecture.md` allows it, in its "Layers" block (the allow-list, written
//!   down once: this test reads it there), and the list is a stack;
//! * no file uses a file that uses it, directly or through others: a folder's `mod.rs`
//!   that lists and re-exports its children does not use them, but one whose code uses a
//!   child while the child uses something it defines is a cycle;
//! * `unsafe` is allowed in five files only.
//!
//! Tests may use more: `tests.rs` files, `tests/` folders and `#[cfg(test)]` items are
//! left out. Every module must be in the list. `src/main.rs` (the binary) calls the
//! crate's hidden entry, never its `internals`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

#[path = "layers/imports.rs"]
mod imports;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The crate, read once for every test here.
fn the_crate() -> &'static imports::Crate {
    static CRATE: std::sync::OnceLock<imports::Crate> = std::sync::OnceLock::new();
    CRATE.get_or_init(|| imports::Crate::read(&root().join("src")))
}

/// The allow-list: each module, the modules it may use. The block is the fenced block
/// after the line `<!-- layers -->` in `docs/architecture.md`: one module a line,
/// `module: other other …`, with `#` comments; a line `leaves: …` names the modules every
/// module may use, which use none themselves.
fn allow_list(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let block = doc
        .split_once("<!-- layers -->")
        .and_then(|(_, after)| after.split_once("```"))
        .and_then(|(_, after)| after.split_once('\n'))
        .and_then(|(_, after)| after.split_once("```"))
        .map(|(block, _)| block)
        .expect("docs/architecture.md has a layers block after <!-- layers -->");
    let mut list = BTreeMap::new();
    let mut leaves = BTreeSet::new();
    for line in block.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (module, uses) = line.split_once(':').expect("`module: uses` lines");
        let uses: BTreeSet<String> = uses.split_whitespace().map(str::to_string).collect();
        if module.trim() == "leaves" {
            leaves = uses;
        } else {
            list.insert(module.trim().to_string(), uses);
        }
    }
    for uses in list.values_mut() {
        uses.extend(leaves.iter().cloned());
    }
    for leaf in &leaves {
        list.insert(leaf.clone(), BTreeSet::new());
    }
    list
}

/// A file's top-level module: `layout/chart.rs`: `layout`; `pipeline.rs`: `pipeline`;
/// `lib.rs`: `lib`.
fn top(file: &str) -> String {
    let first = file.split('/').next().unwrap_or(file);
    first.trim_end_matches(".rs").to_string()
}

/// Each offence: `file: module uses other (path, …)`.
fn offences(krate: &imports::Crate, list: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut offences = Vec::new();
    for (file, uses) in krate.edges() {
        let module = top(&file);
        if module == "lib" || module == "test_rng" {
            continue;
        }
        let Some(allowed) = list.get(&module) else {
            offences.push(format!(
                "src/{file}: module {module} is not in docs/architecture.md's layers"
            ));
            continue;
        };
        for used in uses {
            let other = top(&used);
            if other != module && other != "lib" && !allowed.contains(&other) {
                let why = krate.why(&file, &used).join(", ");
                offences.push(format!("src/{file}: {module} uses {other} ({why})"));
            }
        }
    }
    offences
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let offences = offences(the_crate(), &allow_list(&doc));
    assert!(
        offences.is_empty(),
        "imports against docs/architecture.md's layers:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_allow_list_is_a_stack() {
    // No cycles: each module can be placed below those that use it.
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let list = allow_list(&doc);
    let mut placed: Vec<&str> = Vec::new();
    while placed.len() < list.len() {
        let next = (list.iter()).find(|(m, uses)| {
            !placed.contains(&m.as_str())
                && uses.iter().all(|u| u == *m || placed.contains(&u.as_str()))
        });
        let (module, _) = next.unwrap_or_else(|| {
            let left: Vec<&String> = (list.keys())
                .filter(|m| !placed.contains(&m.as_str()))
                .collect();
            panic!("the layers have a cycle among {left:?}")
        });
        placed.push(module);
    }
}

#[test]
fn no_file_uses_a_file_that_uses_it() {
    let krate = the_crate();
    let edges = krate.edges();
    let cycles = imports::cycles(&edges);
    let shown: Vec<String> = (cycles.iter())
        .map(|group| {
            let mut lines = vec![group.join(" ")];
            for from in group {
                for to in edges[from].iter().filter(|t| group.contains(t)) {
                    let why = krate.why(from, to).join(", ");
                    lines.push(format!("  {from} -> {to}: {why}"));
                }
            }
            lines.join("\n")
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "{} groups of files use each other:\n{}",
        cycles.len(),
        shown.join("\n")
    );
}

/// The checker on a crate of its own: a path through a re-export leads to the file that
/// defines the item, a `mod.rs` that re-exports is no use, and a cycle through a
/// `mod.rs` whose code uses its child is found, as is one of two files.
#[test]
fn the_checker_sees_what_it_must() {
    let dir = std::env::temp_dir().join(format!("hp2ps-layers-{}", std::process::id()));
    let files = [
        ("lib.rs", "mod a;\nmod b;\npub use a::Thing;\n"),
        (
            "a/mod.rs",
            "mod x;\nmod y;\npub use x::Thing;\npub(crate) struct Shared;\n\
             pub(crate) fn go() { y::run(); }\nfn h(x: u8) -> u8 { x }\n",
        ),
        ("a/x.rs", "pub struct Thing;\n"),
        (
            "a/y.rs",
            "use super::Shared;\npub(super) fn run() { let _ = Shared; }\n",
        ),
        (
            "b.rs",
            "use crate::Thing;\n#[cfg(test)]\nmod tests { use crate::a::go; }\n\
             fn g() -> crate::a::Thing { crate::a::Thing }\n",
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("temp dir");
        std::fs::write(path, text).expect("written");
    }
    let krate = imports::Crate::read(&dir);
    let edges = krate.edges();
    std::fs::remove_dir_all(&dir).ok();
    let to = |from: &str| -> Vec<&str> { edges[from].iter().map(String::as_str).collect() };
    assert_eq!(
        to("b.rs"),
        ["a/x.rs"],
        "through two re-exports, not the test's"
    );
    assert_eq!(to("a/y.rs"), ["a/mod.rs"]);
    // Its re-export is no use, nor its variable named like its module `x`.
    assert_eq!(to("a/mod.rs"), ["a/y.rs"]);
    assert_eq!(imports::cycles(&edges), [vec!["a/mod.rs", "a/y.rs"]]);
    let list = allow_list(
        "<!-- layers -->\n```text\nleaves: num\nlayout: aggregate # below\naggregate:\n```\n",
    );
    assert_eq!(
        list["layout"],
        ["aggregate", "num"].map(String::from).into()
    );
    assert_eq!(list["num"], BTreeSet::new());
}

/// The files that may hold `unsafe`: the `.hp` reader's SSE2 masks of a line's bytes,
/// the command's memory map of an input, its SIGBUS handler, glibc's allocator setting,
/// and the SIGABRT handler that removes a run's temporary files. The crate denies it
/// everywhere else.
const UNSAFE_ALLOWED: [&str; 5] = [
    "read/hp/byte_masks.rs",
    "run/abort.rs",
    "run/heap.rs",
    "run/mapped/fault.rs",
    "run/mapped/map.rs",
];

#[test]
fn unsafe_code_is_only_where_it_is_allowed() {
    let src = root().join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "the crate denies unsafe"
    );
    assert_eq!(the_crate().allowing(&src, "unsafe_code"), UNSAFE_ALLOWED);
    let main = std::fs::read_to_string(src.join("main.rs")).expect("main.rs");
    assert!(
        !main.contains("unsafe") && !main.contains("internals"),
        "{main}"
    );
}
