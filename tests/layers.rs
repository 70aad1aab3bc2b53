//! The layers of the library, kept: each folder (or file) of `src/` uses only the modules
//! that `docs/architecture.md` allows it, in its "Layers" block (the allow-list, written
//! down once: this test reads it there). Its tests may use more: `tests.rs` files, `tests/`
//! folders and `#[cfg(test)]` items are left out. Every module of the library must be in
//! the list. The command (`src/main.rs`, `src/cli/`, `src/run/`) uses the library's
//! facade, never its hidden `internals`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules of the command, which use the library as `hp2ps::` rather than `crate::`.
const BINARY: [&str; 3] = ["main", "cli", "run"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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

/// The source with comments, strings and characters blanked (newlines kept), and every
/// item marked `#[cfg(test)]` removed.
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    // Copies up to `end`, blanking all but newlines.
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        out.extend(
            b[from..to]
                .iter()
                .map(|&c| if c == b'\n' { b'\n' } else { b' ' }),
        );
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            loop {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break j;
                    }
                } else if j + 1 >= b.len() {
                    break b.len();
                } else {
                    j += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = i + hashes + if rest[0] == b'b' { 3 } else { 2 };
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat(b'#').take(hashes))
                .collect();
            let at = b[open..].windows(close.len()).position(|w| w == close);
            at.map_or(b.len(), |at| open + at + close.len())
        } else if rest[0] == b'"' || rest.starts_with(b"b\"") {
            let mut j = i + if rest[0] == b'b' { 2 } else { 1 };
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        } else if let Some(len) = char_literal(rest) {
            i + len
        } else {
            out.push(b[i]);
            i += 1;
            continue;
        };
        // Keep an identifier before a string's `b` apart from what follows.
        blank(&mut out, i, end);
        i = end;
    }
    let code = String::from_utf8_lossy(&out).into_owned();
    without_test_items(&code)
}

/// The number of `#` of a raw string starting here (`r"`, `r#"`, `br"`, …).
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let after_r = match rest {
        [b'r', ..] => &rest[1..],
        [b'b', b'r', ..] => &rest[2..],
        _ => return None,
    };
    let hashes = after_r.iter().take_while(|&&c| c == b'#').count();
    (after_r.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of a character literal starting here (`'a'`, `'\n'`, `'\u{1F600}'`,
/// `b'x'`), or `None` (a lifetime, or no quote).
fn char_literal(rest: &[u8]) -> Option<usize> {
    let (skip, rest) = match rest {
        [b'b', b'\'', ..] => (1, &rest[1..]),
        [b'\'', ..] => (0, rest),
        _ => return None,
    };
    let body_end = if rest.get(1) == Some(&b'\\') {
        2 + rest[2..].iter().position(|&c| c == b'\'')?
    } else {
        // One character, however many bytes.
        let len = std::str::from_utf8(&rest[1..rest.len().min(5)])
            .or_else(|e| std::str::from_utf8(&rest[1..1 + e.valid_up_to()]))
            .ok()?
            .chars()
            .next()?
            .len_utf8();
        (rest.get(1 + len) == Some(&b'\'')).then_some(1 + len)?
    };
    Some(skip + body_end + 1)
}

/// `code` without the items marked `#[cfg(test)]` (a `mod tests;`, or an item with a
/// body in braces).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let semi = item.find(';');
        let brace = item.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = item.len();
                for (j, c) in item[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + j + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(s), None) => s + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The top-level modules `code` names through `crate::` (also `crate::{a, b::c}`), and
/// through `super::` chains that climb to the crate's root from a module `depth` deep.
fn uses(code: &str, depth: usize) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names_after = |path_start: &str| {
        let path_start = path_start.trim_start();
        if let Some(group) = path_start.strip_prefix('{') {
            // Items: split at top-level commas.
            let mut level = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => {
                        level += 1;
                        item.push(c);
                    }
                    '}' if level == 0 => break,
                    '}' => {
                        level -= 1;
                        item.push(c);
                    }
                    ',' if level == 0 => {
                        found.insert(ident(item.trim()));
                        item.clear();
                    }
                    c => item.push(c),
                }
            }
            found.insert(ident(item.trim()));
        } else {
            found.insert(ident(path_start));
        }
    };
    for (at, _) in code.match_indices("crate::") {
        // Not `hp2ps_crate::` or a longer identifier ending in `crate`.
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        names_after(&code[at + "crate::".len()..]);
    }
    for (at, _) in code.match_indices("super::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut rest = &code[at..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        if climbs >= depth {
            names_after(rest);
        }
    }
    found.remove("");
    found
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ readable") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// A file's top-level module (`src/layout/chart.rs`: `layout`; `src/lib.rs`: `lib`), how
/// deep its module is (`layout`: 1, `layout::chart`: 2), and whether it is test code.
fn module_of(src: &Path, file: &Path) -> (String, usize, bool) {
    let rel = file.strip_prefix(src).expect("under src/");
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let top = parts[0].trim_end_matches(".rs").to_string();
    let last = parts.last().map_or("", String::as_str);
    let depth = parts.len() - usize::from(last == "mod.rs");
    let folders = parts.iter().skip(1).take(parts.len().saturating_sub(2));
    let test = last == "tests.rs" || folders.into_iter().any(|p| p == "tests");
    (top, depth, test)
}

/// Each offence: `file: module uses other`.
fn offences(src: &Path, list: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut offences = Vec::new();
    for file in files {
        let (top, depth, test) = module_of(src, &file);
        if test || top == "lib" || top == "test_rng" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("source readable");
        let code = code_of(&text);
        let rel = file
            .strip_prefix(src)
            .unwrap_or(&file)
            .display()
            .to_string();
        if BINARY.contains(&top.as_str()) {
            if code.contains("hp2ps::internals") {
                offences.push(format!("src/{rel}: the command uses hp2ps::internals"));
            }
            continue;
        }
        let Some(allowed) = list.get(&top) else {
            offences.push(format!(
                "src/{rel}: module {top} is not in docs/architecture.md's layers"
            ));
            continue;
        };
        for used in uses(&code, depth) {
            if used != top && used != "test_rng" && !allowed.contains(&used) {
                offences.push(format!("src/{rel}: {top} uses {used}"));
            }
        }
    }
    offences
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the doc");
    let list = allow_list(&doc);
    let offences = offences(&root().join("src"), &list);
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
fn the_checker_sees_what_it_must() {
    let list = allow_list(
        "<!-- layers -->\n```text\nleaves: num\nlayout: aggregate # below\naggregate:\n```\n",
    );
    assert_eq!(
        list["layout"],
        ["aggregate", "num"].map(String::from).into()
    );
    assert_eq!(list["num"], BTreeSet::new());
    let code = code_of(
        "use crate::summary::number; // crate::load\n\
         /* crate::read */ let s = \"crate::paint\"; let c = '{';\n\
         use crate::{aggregate::Aggregated, num::{self, c_atoi}};\n\
         fn f<'a>(x: &'a str) { super::super::profile::Band; }\n\
         #[cfg(test)]\nmod tests {\n    use crate::pipeline;\n    fn g() { \"}\"; }\n}\n\
         #[cfg(test)]\nmod more;\nuse crate::fonts;\n",
    );
    let found = uses(&code, 2);
    let want = ["aggregate", "fonts", "num", "profile", "summary"].map(String::from);
    assert_eq!(found, want.into());
    // One level down, `super::super::` does not reach the root.
    assert!(!uses(&code, 3).contains("profile"));
}

/// The files that may hold `unsafe`: the binary's memory map of an input, its SIGBUS
/// handler, glibc's allocator setting, and the SIGABRT handler that removes a run's
/// temporary files. The library forbids it; the binary denies it everywhere else.
const UNSAFE_ALLOWED: [&str; 4] = [
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
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut allowing: Vec<String> = files
        .iter()
        .filter(|f| {
            let code = code_of(&std::fs::read_to_string(f).expect("source"));
            code.contains("allow(unsafe_code)")
        })
        .map(|f| f.strip_prefix(&src).unwrap_or(f).display().to_string())
        .collect();
    allowing.sort();
    assert_eq!(allowing, UNSAFE_ALLOWED);
}
