//! Hostile files at the new edges (issue 27): eventlog band names that a few cost centres
//! with long labels make enormous (`--full-names`, a log's own `-L`), and text no chart
//! can show whole (a DATE of a megabyte, units and key names of 60 KB) in SVG and the
//! page. Each case runs under an address-space cap, so that a regression fails instead
//! of eating the machine, and checks the outcome, the output's size and the peak RSS.

mod support;

use std::time::Duration;

use support::hostile;
use support::run::{self, Overflow};
use support::tools::require;
use support::{files_in, Cmd, TempDir};

/// Every run below stays far under this; exceeding it aborts the child.
const ADDRESS_SPACE: u64 = 1 << 30;

fn capped(dir: &TempDir, args: &[&str]) -> run::Ran {
    Cmd::hp2ps()
        .args(args)
        .current_dir(dir.path())
        .timeout(Duration::from_secs(120))
        .address_space(Some(ADDRESS_SPACE))
        .capture_limits(1 << 20, 1 << 20, Overflow::Truncate)
        .run()
}

fn size(dir: &TempDir, name: &str) -> u64 {
    std::fs::metadata(dir.join(name)).map_or(0, |m| m.len())
}

/// Four cost centres of 60,000-byte labels make, with `--full-names`, four names of 255
/// labels (15 MB each): each is cut to the limit on identifiers (65,536 bytes, as in a
/// `.hp`) with one warning, and every format renders in little memory, leaving only
/// its chart and `.aux`.
#[test]
fn full_names_of_long_labels_are_cut_to_the_identifier_limit() {
    let dir = TempDir::in_tmp("full-names");
    dir.write("long.eventlog", &hostile::long_names_eventlog(4, 8, 60_000));
    for (format, most) in [("ps", 1 << 20), ("svg", 2 << 20), ("html", 4 << 20)] {
        let out = format!("x.{format}");
        let ran = capped(&dir, &["--full-names", "-o", &out, "long.eventlog"]);
        assert_eq!(ran.code, Some(0), "{format}: {}", ran.describe());
        let err = ran.stderr_text();
        assert!(
            err.contains("4 band names of more than 65536 bytes cut short"),
            "{err}"
        );
        assert!(ran.max_rss_kib < 200 << 10, "{format}: {}", ran.describe());
        assert!(
            size(&dir, &out) < most,
            "{format}: {} bytes",
            size(&dir, &out)
        );
        assert!(size(&dir, "long.aux") < 1 << 20);
        assert_eq!(files_in(dir.path()), ["long.aux", "long.eventlog", &out]);
        std::fs::remove_file(dir.join(&out)).unwrap();
    }
    // Without --full-names the run's -L (25) cuts them, as the .hp has them.
    let ran = capped(&dir, &["--summary=json", "long.eventlog"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    assert!(!ran.stderr_text().contains("cut short"));
}

/// Many long names share a budget of 64 MiB: 2,000 stacks of 255 long labels (a 4 MB
/// log; 30 GB of names in full) are each cut to the budget's share, and the run stays
/// within a few hundred megabytes.
#[test]
fn many_long_names_share_one_budget() {
    let dir = TempDir::in_tmp("names-budget");
    dir.write(
        "many.eventlog",
        &hostile::long_names_eventlog(2000, 2, 60_000),
    );
    let ran = capped(&dir, &["--full-names", "-o", "x.svg", "many.eventlog"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    // 64 MiB / 2000 = 33,554 bytes each.
    let err = ran.stderr_text();
    assert!(
        err.contains("2000 band names of more than 33554 bytes cut short"),
        "{err}"
    );
    assert!(ran.max_rss_kib < 600 << 10, "{}", ran.describe());
    assert!(
        size(&dir, "x.svg") < 4 << 20,
        "{} bytes",
        size(&dir, "x.svg")
    );
}

/// A DATE of a megabyte less a byte (within the `.hp` reader's limits), units and 20 key
/// names of 60 KB: the SVG places only the glyphs its page shows, so rsvg reads it
/// (it refuses documents of over a million elements), and the page stays small.
#[test]
fn text_no_chart_can_show_whole_is_cut_to_what_shows() {
    let dir = TempDir::in_tmp("huge-text");
    dir.write("huge.hp", &hostile::huge_text_hp((1 << 20) - 1));
    let ran = capped(&dir, &["-o", "x.svg", "huge.hp"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let svg = std::fs::read_to_string(dir.join("x.svg")).unwrap();
    let elements = svg.matches('<').count();
    assert!(elements < 20_000, "{elements} elements");
    for text in svg.split("<text").skip(1) {
        let spans = text.matches("<tspan").count();
        assert!(spans < 700, "{spans} glyphs in one text");
    }
    // The full names stay in the tooltips: 20 bands and 20 key labels of 60 KB.
    assert!(svg.len() < 8 << 20, "{} bytes", svg.len());
    let ran = capped(&dir, &["-o", "x.html", "huge.hp"]);
    assert_eq!(ran.code, Some(0), "{}", ran.describe());
    let html = std::fs::read_to_string(dir.join("x.html")).unwrap();
    assert!(html.matches("<tspan").count() < 20_000);
    if require("rsvg-convert") {
        let ran = Cmd::new("rsvg-convert")
            .args(["-o", "x.png", "x.svg"])
            .current_dir(dir.path())
            .timeout(Duration::from_secs(120))
            .run();
        assert_eq!(ran.code, Some(0), "rsvg-convert: {}", ran.describe());
    }
}
