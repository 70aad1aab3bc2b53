//! Hostile input, the resource cases of docs/robustness.md at sizes that keep the suite
//! fast: streamed input, the child's peak RSS, and an address-space cap so that a
//! regression fails instead of eating the machine. Each case asserts its outcome: what
//! renders, what is refused and how, and how much memory the run took. (Truncations and
//! seeded mutations: `hostile.rs`.)

mod support;

use support::errors::positioned_error_line;
use support::rng::Rng;
use support::run::{self, Input, Overflow};
use support::{Cmd, TempDir};

use std::io::Write;
use std::time::Duration;

// ---------------------------------------------------------------------------------------
// Resource cases: streamed input, the child's peak RSS, an address-space cap so that a
// regression fails instead of eating the machine.

const HEADER: &[u8] = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n";
/// Every run below stays far under this; exceeding it aborts the child.
const ADDRESS_SPACE: u64 = 1 << 30;

fn filter_run(args: &[&str], input: Input) -> run::Ran {
    let dir = TempDir::in_tmp("resource");
    Cmd::hp2ps()
        .args(args)
        .current_dir(dir.path())
        .stdin(input)
        .timeout(Duration::from_secs(240))
        .address_space(Some(ADDRESS_SPACE))
        .capture_limits(1 << 20, 1 << 20, Overflow::Truncate)
        .run()
}

/// Writes `total` bytes made of `unit` repeated, in large chunks.
fn repeat(w: &mut dyn Write, unit: &[u8], total: usize) -> std::io::Result<()> {
    // Whole units per chunk, so that chunk boundaries do not cut a unit.
    let units = ((1 << 20) / unit.len()).max(1);
    let chunk: Vec<u8> = unit
        .iter()
        .copied()
        .cycle()
        .take(units * unit.len())
        .collect();
    let mut left = total;
    while left > 0 {
        let n = left.min(chunk.len());
        w.write_all(&chunk[..n])?;
        left -= n;
    }
    Ok(())
}

fn assert_rss_below(ran: &run::Ran, mib: i64, what: &str) {
    assert!(
        ran.max_rss_kib < mib * 1024,
        "{what}: peak RSS {} KiB, expected under {mib} MiB",
        ran.max_rss_kib
    );
}

fn assert_renders(ran: &run::Ran, what: &str) {
    assert_eq!(ran.code, Some(0), "{what}: {}", ran.describe());
    assert!(ran.stdout.starts_with(b"%!PS-Adobe-2.0\n"), "{what}");
}

fn assert_refused_with(ran: &run::Ran, needle: &str, what: &str) {
    assert_eq!(ran.code, Some(1), "{what}: {}", ran.describe());
    positioned_error_line(&ran.stderr, "stdin").unwrap_or_else(|m| panic!("{what}: {m}"));
    assert!(
        ran.stderr_text().contains(needle),
        "{what}: {:?} lacks {needle:?}",
        ran.stderr_text()
    );
}

#[test]
fn a_long_line_without_newline_is_read_in_bounded_memory() {
    // 128 MiB of blanks inside one line, between statements: all of it must be read.
    let ran = filter_run(
        &[],
        Input::Stream(Box::new(|w| {
            w.write_all(HEADER)?;
            w.write_all(b"BEGIN_SAMPLE 0.0 a 1 END_SAMPLE 0.0")?;
            repeat(w, b" \t", 128 << 20)?;
            w.write_all(b"BEGIN_SAMPLE 1.0 a 2 END_SAMPLE 1.0")
        })),
    );
    assert_renders(&ran, "128 MiB line");
    assert_rss_below(&ran, 48, "128 MiB line");
}

#[test]
fn a_huge_identifier_is_refused_naming_the_limit() {
    for (what, prefix, needle) in [
        (
            "at statement start",
            b"BEGIN_SAMPLE 0.0\n".as_slice(),
            "65536",
        ),
        (
            "after a name",
            b"BEGIN_SAMPLE 0.0\nname ".as_slice(),
            "expected an integer",
        ),
        ("after JOB", b"JOB ".as_slice(), "expected a string"),
    ] {
        let ran = filter_run(
            &[],
            Input::Stream(Box::new(move |w| {
                w.write_all(HEADER)?;
                w.write_all(prefix)?;
                repeat(w, b"x", 64 << 20)?;
                w.write_all(b"\t5\nEND_SAMPLE 0.0\n")
            })),
        );
        let what = format!("64 MiB identifier {what}");
        assert_refused_with(&ran, needle, &what);
        assert_rss_below(&ran, 48, &what);
    }
}

#[test]
fn a_huge_string_is_refused_naming_the_limit() {
    let ran = filter_run(
        &[],
        Input::Stream(Box::new(|w| {
            w.write_all(b"JOB \"")?;
            repeat(w, b"a b\n", 32 << 20)?;
            w.write_all(b"\"\n")
        })),
    );
    assert_refused_with(&ran, "1048576", "32 MiB string");
    assert_rss_below(&ran, 48, "32 MiB string");
}

#[test]
fn many_distinct_identifiers_take_memory_in_proportion() {
    let n = 200_000;
    let profile = move |w: &mut dyn Write| -> std::io::Result<()> {
        w.write_all(HEADER)?;
        w.write_all(b"BEGIN_SAMPLE 0.0\n")?;
        let mut buf = Vec::with_capacity(1 << 20);
        for i in 0..n {
            writeln!(buf, "(id{i})name/of/a/cost/centre\t{}", 1000 + i % 977)?;
        }
        w.write_all(&buf)?;
        w.write_all(b"END_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n")
    };
    let ran = filter_run(&[], Input::Stream(Box::new(profile)));
    assert_renders(&ran, "200,000 identifiers");
    // About 9 MB of names: the kept data, several times over, but not more.
    assert_rss_below(&ran, 200, "200,000 identifiers");
    let key_entries = count(&ran.stdout, b") show\n");
    assert!(key_entries >= 20, "the key lists the 19 biggest and OTHER");
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

#[test]
fn many_marks_are_kept_as_numbers() {
    let n = 1_000_000;
    let profile = move |w: &mut dyn Write| -> std::io::Result<()> {
        w.write_all(HEADER)?;
        w.write_all(b"BEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n")?;
        repeat(w, b"MARK 0.5\n", 9 * n)?;
        w.write_all(b"BEGIN_SAMPLE 1.0\na\t2\nEND_SAMPLE 1.0\n")
    };
    let ran = filter_run(&["-y"], Input::Stream(Box::new(profile)));
    assert_renders(&ran, "10^6 marks with -y");
    assert_rss_below(&ran, 80, "10^6 marks");
    // Drawn, every mark is a caret: the output grows with them, the memory does not.
    let ran = filter_run(
        &[],
        Input::Stream(Box::new(|w| {
            w.write_all(HEADER)?;
            w.write_all(b"BEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n")?;
            repeat(w, b"MARK 0.5\n", 9 * 50_000)?;
            w.write_all(b"BEGIN_SAMPLE 1.0\na\t2\nEND_SAMPLE 1.0\n")
        })),
    );
    assert_renders(&ran, "50,000 marks");
}

#[test]
fn drawing_many_marks_streams_the_output() {
    // 500,000 marks: 4 MB kept, 65 MB of PostScript (32 MB of SVG) written.
    for format in ["ps", "svg"] {
        let ran = filter_run(
            &["--format", format],
            Input::Stream(Box::new(|w| {
                w.write_all(HEADER)?;
                w.write_all(b"BEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n")?;
                repeat(w, b"MARK 0.5\n", 9 * 500_000)?;
                w.write_all(b"BEGIN_SAMPLE 1.0\na\t2\nEND_SAMPLE 1.0\n")
            })),
        );
        assert_eq!(ran.code, Some(0), "{}", ran.describe());
        assert_rss_below(&ran, 32, &format!("500,000 marks drawn as {format}"));
    }
}

#[test]
fn numbers_with_ten_thousand_digits_are_refused_naming_the_limit() {
    let digits = "7".repeat(10_000);
    for (what, text) in [
        (
            "value",
            format!("BEGIN_SAMPLE 0.0\na {digits}\nEND_SAMPLE 0.0\n"),
        ),
        ("time", format!("BEGIN_SAMPLE {digits}.0\nEND_SAMPLE 0.0\n")),
        ("mark", format!("MARK 1.{digits}\n")),
    ] {
        let mut input = HEADER.to_vec();
        input.extend_from_slice(text.as_bytes());
        let ran = filter_run(&[], Input::Bytes(input));
        assert_refused_with(&ran, "at most 32 characters in a number", what);
    }
    // At the start of a statement, digits are an identifier (as in hp2ps): it renders.
    let mut input = HEADER.to_vec();
    input.extend_from_slice(format!("BEGIN_SAMPLE 0.0\n{digits}\t5\nEND_SAMPLE 0.0\n").as_bytes());
    assert_renders(&filter_run(&[], Input::Bytes(input)), "digit identifier");
}

#[test]
fn repeated_begin_sample_lines_overwrite_one_sample() {
    let ran = filter_run(
        &[],
        Input::Stream(Box::new(|w| {
            w.write_all(HEADER)?;
            repeat(w, b"BEGIN_SAMPLE 1.0\na\t1\n", 21 * 1_000_000)?;
            w.write_all(b"END_SAMPLE 1.0\n")
        })),
    );
    assert_renders(&ran, "10^6 BEGIN_SAMPLE lines");
    // One sample, one band with 10^6 points (16 bytes each).
    assert_rss_below(&ran, 120, "10^6 BEGIN_SAMPLE lines");
}

#[test]
fn nul_bytes_and_invalid_utf8_render_or_are_refused_with_a_position() {
    // NUL cuts a name or string, as in hp2ps; other bytes are kept.
    let mut input =
        b"JOB \"a\0hidden\"\nDATE \"\xff\xfe\"\nSAMPLE_UNIT \"\xc3\x28\"\nVALUE_UNIT \"b\"\n"
            .to_vec();
    input.extend_from_slice(b"BEGIN_SAMPLE 0.0\n\xe2\x82\t5\nna\0me\t6\nEND_SAMPLE 0.0\n");
    let ran = filter_run(&[], Input::Bytes(input));
    assert_renders(&ran, "NUL and invalid UTF-8");
    assert!(
        count(&ran.stdout, b"hidden") == 0,
        "text after a NUL is dropped"
    );
    if support::tools::require_ghostscript() {
        support::tools::ghostscript_accepts(&ran.stdout).expect("gs accepts it");
    }
    // Random bytes: refused at the first bad token.
    let mut rng = Rng::new(42);
    for round in 0..20 {
        let junk: Vec<u8> = (0..rng.usize_in(1, 100_000))
            .map(|_| rng.below(256) as u8)
            .collect();
        let ran = filter_run(&[], Input::Bytes(junk));
        assert!(
            ran.code == Some(1) && positioned_error_line(&ran.stderr, "stdin").is_ok(),
            "junk {round}: {}",
            ran.describe()
        );
    }
}
