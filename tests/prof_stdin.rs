//! A time profile on stdin, as a pipe and as a file (filter mode): `--summary` is the
//! named file's (named `stdin`), the flame graph and the page are the named file's bytes;
//! a heap profile and an eventlog on a pipe are read as before (the first bytes looked
//! at are handed back to their reader); what cannot draw a time profile is refused.

mod support;

use support::prof::data_dir;
use support::{Cmd, Ran, TempDir};

/// `args` run on `input`'s bytes through a pipe, and with the file itself on stdin.
fn both_ways(dir: &TempDir, input: &std::path::Path, args: &[&str]) -> [Ran; 2] {
    let bytes = std::fs::read(input).expect("the input");
    let piped = Cmd::hp2ps()
        .args(args)
        .current_dir(dir.path())
        .stdin_bytes(bytes)
        .run();
    let filed = Cmd::hp2ps()
        .args(args)
        .current_dir(dir.path())
        .stdin_file(input)
        .run();
    [piped, filed]
}

/// The same command on the named file.
fn named(dir: &TempDir, input: &std::path::Path, args: &[&str]) -> Ran {
    let ran = Cmd::hp2ps()
        .args(args)
        .arg(input)
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    ran
}

#[test]
fn a_time_profile_on_stdin_is_summarised_and_drawn_as_its_file() {
    let dir = TempDir::new("prof-stdin");
    for name in [
        "leakmap-ghc9.0.2-P.prof",
        "leakmap-ghc9.10.3-pj.prof",
        "keywords-ghc9.0.2-p.prof",
    ] {
        let input = data_dir().join(name);
        let file = named(&dir, &input, &["--summary=json"]);
        let mut expected: serde_json::Value =
            serde_json::from_slice(&file.stdout).expect("JSON of the file");
        expected["file"] = "stdin".into();
        for ran in both_ways(&dir, &input, &["--summary=json"]) {
            assert!(ran.status.success(), "{name}: {}", ran.describe());
            let got: serde_json::Value = serde_json::from_slice(&ran.stdout).expect("JSON");
            assert_eq!(got, expected, "{name}");
        }
        let svg = named(&dir, &input, &["--format", "svg", "-o", "-"]).stdout;
        for ran in both_ways(&dir, &input, &["--format", "svg"]) {
            assert!(ran.status.success(), "{name}: {}", ran.describe());
            assert!(ran.stdout == svg, "{name}: the flame graph is the file's");
        }
    }
    // A page of it, written to -o.
    let input = data_dir().join("leakmap-ghc9.0.2-P.prof");
    let [piped, _] = both_ways(&dir, &input, &["--format", "html", "-o", "page.html"]);
    assert!(piped.status.success(), "{}", piped.describe());
    let page = std::fs::read_to_string(dir.join("page.html")).expect("the page");
    assert!(
        page.contains("<section class=\"run\" data-run=\"stdin\"")
            && page.contains("<section class=\"time-profile\""),
        "the time profile's panel, named stdin"
    );
}

#[test]
fn heap_profiles_on_a_pipe_are_read_as_before() {
    let dir = TempDir::new("prof-stdin-heap");
    for name in [
        "keywords-ghc9.0.2-p-hc-l.hp",
        "keywords-ghc9.0.2-p-hc-l.eventlog",
    ] {
        let input = data_dir().join(name);
        let [piped, filed] = both_ways(&dir, &input, &[]);
        assert!(piped.status.success(), "{name}: {}", piped.describe());
        assert!(filed.status.success(), "{name}: {}", filed.describe());
        assert!(piped.stdout.starts_with(b"%!PS-Adobe"), "{name}");
        assert!(piped.stdout == filed.stdout, "{name}: the same chart");
    }
}

#[test]
fn what_cannot_draw_a_time_profile_on_stdin_is_refused() {
    let dir = TempDir::new("prof-stdin-refused");
    let input = data_dir().join("leakmap-ghc9.0.2-P.prof");
    for args in [&["-p"][..], &["--format", "prometheus"]] {
        for ran in both_ways(&dir, &input, args) {
            assert_eq!(ran.status.code(), Some(2), "{args:?}: {}", ran.describe());
            let err = ran.stderr_text();
            assert!(err.starts_with("hp2ps: stdin: "), "{args:?}: {err}");
            assert!(ran.stdout.is_empty(), "{args:?}: nothing written");
        }
    }
}
