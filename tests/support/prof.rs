//! The time profiles the tests read: GHC's own, generated for the shared programs and
//! copied into `tests/data/prof/`, and other people's, read in place from
//! `../shared/corpus/prof/public/` (never copied: their tests skip with a word without
//! it, and fail under CI); and what the tests ask of a read profile.

use std::path::{Path, PathBuf};

use hp2ps::internals::calltree::{CallTree, NodeId};
use hp2ps::internals::prof::tree;
use hp2ps::{Source, TimeProfile, TimeProfileOptions};

use super::tools::require_shared;

/// The generated files' folder.
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/prof")
}

/// The shared corpus of time profiles, relative to the crate's root.
pub const SHARED: &str = "../shared/corpus/prof";

/// The files of `dir` (not recursing) whose names end in `suffix`, sorted.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    v.sort();
    v
}

/// Every generated time profile (`.prof`: text and `-pj` JSON).
pub fn generated() -> Vec<PathBuf> {
    files(&data_dir(), ".prof")
}

/// Every public time profile, read in place; `None` (after the `SKIPPED` word, or a
/// panic under CI) without `../shared`.
pub fn public() -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(SHARED)
        .join("public");
    if !require_shared(&format!("{SHARED}/public")) {
        return None;
    }
    let mut all = files(&root, ".prof");
    for sub in ["ghc-testsuite", "ghc-testsuite-history", "repos", "tools"] {
        all.extend(files(&root.join(sub), ".prof"));
    }
    Some(all)
}

/// The file's name, for messages.
pub fn name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// A time profile read with the default options; a failure names the file.
pub fn read(path: &Path) -> TimeProfile {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    TimeProfile::read(Source::Bytes(&bytes), &TimeProfileOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether the file is `-pj` JSON.
pub fn is_json(path: &Path) -> bool {
    let bytes = std::fs::read(path).unwrap_or_default();
    bytes.trim_ascii_start().starts_with(b"{")
}

/// A path of cost centres by their (label, module, src), from the root.
pub type KeyPath = Vec<(String, String, String)>;

/// A node's path of (label, module, src), from the root.
pub fn key_path(t: &CallTree, n: NodeId) -> KeyPath {
    (t.path(n).into_iter())
        .map(|m| {
            let c = t.cost_centre(t.cc(m));
            (c.label.to_string(), c.module.to_string(), c.src.to_string())
        })
        .collect()
}

/// A profile's tree (re-exported for the suites).
pub fn tree_of(p: &TimeProfile) -> &CallTree {
    tree(p)
}
