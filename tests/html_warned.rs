//! What reading the input warned of is on its page too, not only on stderr: a cut
//! eventlog, a `.hp` whose last sample is unfinished. The run's facts carry the lines the
//! command says (without the input's name), and the browser shows each under the header
//! (`[data-read-warning]`); a whole input's page says nothing. A page read later, or by
//! someone else, said nothing of a census lost to damage.
//!
//! The page in Chromium needs `chromium` and `chromedriver`; the rest runs without.

mod support;

use std::path::{Path, PathBuf};

use support::html_page::*;
use support::{Cmd, TempDir};

/// `input`'s page written as `out` in `dir`: the warnings said on stderr for it (their
/// text after "hp2ps: warning: INPUT", the position of a `.hp`'s included) and the
/// warnings its run's facts carry.
fn page_and_warnings(dir: &TempDir, input: &Path, out: &str) -> (Vec<String>, Vec<String>) {
    let ran = Cmd::hp2ps()
        .args(["--format", "html", "-o", out])
        .arg(input)
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    let prefix = format!("hp2ps: warning: {}", input.display());
    let said = String::from_utf8_lossy(&ran.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|rest| rest.strip_prefix(": ").unwrap_or(rest).to_string())
        // A `.hp`'s position is glued to its name: `NAME:12:1: …`.
        .map(|rest| rest.strip_prefix(':').map_or(rest.clone(), str::to_string))
        .collect();
    let data = data_of(&std::fs::read(dir.join(out)).expect("the page"));
    let warnings = &data["runs"][0]["facts"]["warnings"];
    let carried = (warnings.as_array())
        .unwrap_or_else(|| panic!("facts.warnings is a list: {data}"))
        .iter()
        .map(|w| w.as_str().expect("a string").to_string())
        .collect();
    (said, carried)
}

/// `bytes` written as `name` in `dir`.
fn written(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn what_reading_warned_of_is_on_the_page() {
    let dir = TempDir::new("html-warned");
    // (A log GHC flushed as it ran: GHC 9.0 writes the censuses at the end.)
    let log = std::fs::read(repo("tests/data/ghc-9.10/leakmap-hc-flush.eventlog")).expect("log");
    let hp = std::fs::read(repo("tests/data/eventlog/leakmap-hc.hp")).expect("hp");
    // A log cut short, and a .hp cut two lines into a sample.
    let cut_log = written(&dir, "cut.eventlog", &log[..log.len() * 7 / 10]);
    // (Its last sample is empty: the one before it.)
    let text = String::from_utf8_lossy(&hp);
    let last = text[..text.rfind("BEGIN_SAMPLE").expect("a sample")]
        .rfind("BEGIN_SAMPLE")
        .expect("another");
    let two_lines = (hp[last..].iter().enumerate())
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .map(|(i, _)| last + i + 1)
        .expect("two lines into it");
    let cut_hp = written(&dir, "cut.hp", &hp[..two_lines]);
    for (input, out, word) in [
        (&cut_log, "cut-log.html", "cut short"),
        (&cut_hp, "cut-hp.html", "sample"),
    ] {
        let (said, carried) = page_and_warnings(&dir, input, out);
        assert!(!said.is_empty(), "{out}: a warning on stderr");
        assert_eq!(carried, said, "{out}: the page carries what stderr said");
        assert!(
            carried.iter().any(|w| w.contains(word)),
            "{out}: {carried:?}"
        );
    }
    // Whole inputs: nothing said, nothing carried.
    for (input, out) in [
        (
            repo("tests/data/ghc-9.10/leakmap-hc-flush.eventlog"),
            "whole-log.html",
        ),
        (repo("tests/data/eventlog/leakmap-hc.hp"), "whole-hp.html"),
    ] {
        let (said, carried) = page_and_warnings(&dir, &input, out);
        assert!(
            said.is_empty() && carried.is_empty(),
            "{out}: {said:?} {carried:?}"
        );
    }

    // In the browser: each warning a note under the header; none on a whole input's.
    let Some(browser) = browser() else {
        return;
    };
    let shown = |page: &str| {
        let p = open_offline(&browser, &dir.join(page));
        let notes = p.js(
            "return [...document.querySelectorAll('.run-head [data-read-warning]')]\
             .map(n => [n.textContent, n.getAttribute('role'), n.getBoundingClientRect().height > 0]);",
        );
        notes.as_array().expect("a list").clone()
    };
    let (_, carried) = page_and_warnings(&dir, &cut_log, "cut-log.html");
    let notes = shown("cut-log.html");
    assert_eq!(notes.len(), carried.len(), "{notes:?}");
    for (note, warning) in notes.iter().zip(&carried) {
        let text = format!("Read with a warning: {warning}.");
        assert_eq!(note[0].as_str(), Some(text.as_str()), "{note}");
        assert_eq!(note[1], "note", "{note}");
        assert_eq!(note[2], true, "shown: {note}");
    }
    assert!(shown("whole-log.html").is_empty());
}
