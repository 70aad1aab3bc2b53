//! `-he` (eras, GHC 9.10): `--sort name` stacks the eras in numeric order while `-i`
//! keeps hp2ps's byte order (and GHC's hp2ps's bytes), and the summary says the bands
//! are eras (the real GHC 9.10.3 `leakmap-he` pair).

mod support;

use std::path::Path;

use support::ghc910::{data, json, run_ok};
use support::tools::require;
use support::TempDir;

/// `-he`: `--sort name` stacks the eras in numeric order (`-i` keeps hp2ps's byte
/// order), and the summary says the bands are eras.
#[test]
fn eras_sort_by_number_and_are_called_eras() {
    let dir = TempDir::new("symbolize-eras");
    for ext in ["eventlog", "hp"] {
        std::fs::copy(
            data(&format!("leakmap-he.{ext}")),
            dir.join(&format!("he.{ext}")),
        )
        .unwrap();
    }
    let order = |args: &[&str]| -> Vec<String> {
        run_ok(dir.path(), args);
        let aux = std::fs::read_to_string(dir.join("he.aux")).unwrap();
        let bands: Vec<String> = (aux.lines())
            .filter_map(|l| l.strip_prefix("ORDER "))
            .map(|l| l.split(' ').next().unwrap().to_string())
            .filter(|n| n != "OTHER")
            .collect();
        bands
    };
    for input in ["he.eventlog", "he.hp"] {
        let sorted = order(&["-m0", "--sort", "name", input]);
        let numbers: Vec<u64> = sorted.iter().map(|n| n.parse().unwrap()).collect();
        assert!(
            numbers.windows(2).all(|w| w[0] < w[1]),
            "{input}: {sorted:?}"
        );
        assert!(numbers.len() > 10 && numbers.contains(&2) && numbers.contains(&10));
        let bytes = order(&["-m0", "-i", input]);
        assert!(bytes.windows(2).all(|w| w[0] < w[1]), "{input}: {bytes:?}");
        assert_ne!(bytes, sorted);
    }
    // -i on the .hp: GHC's hp2ps's bytes.
    if require(support::tools::REFERENCE) {
        let theirs = TempDir::new("symbolize-eras-ghc");
        std::fs::copy(data("leakmap-he.hp"), theirs.join("he.hp")).unwrap();
        let out = support::run_in(
            support::tools::REFERENCE,
            theirs.path(),
            &["-i", "he.hp"],
            None,
        );
        assert!(out.status.success());
        run_ok(dir.path(), &["-i", "he.hp"]);
        // The header comments name the program: the rest is compared.
        let body = |ps: Vec<u8>| {
            ps[ps.windows(13).position(|w| w == b"%%EndComments").unwrap()..].to_vec()
        };
        let read = |dir: &Path, file: &str| std::fs::read(dir.join(file)).unwrap();
        assert!(body(read(dir.path(), "he.ps")) == body(read(theirs.path(), "he.ps")));
        assert!(read(dir.path(), "he.aux") == read(theirs.path(), "he.aux"));
    }
    let summary = json(&run_ok(dir.path(), &["--summary=json", "he.eventlog"]));
    assert_eq!(summary["breakdown"]["flag"], "-he");
    assert_eq!(summary["breakdown"]["bands"], "eras");
    let text = String::from_utf8(run_ok(dir.path(), &["--summary", "he.eventlog"]).stdout).unwrap();
    assert!(text.contains(" eras (-he)"), "{text}");
}
