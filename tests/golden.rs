//! Golden tests: our own outputs for the inputs in `golden/inputs/`, committed under
//! `golden/expected/`, one test per case. A change in any output byte fails its test.
//! Re-bless on purpose only: `HP2PS_BLESS=1 cargo test --test golden`.

mod support;

use std::path::{Path, PathBuf};

use support::Cmd;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden")
}

/// Runs `hp2ps <flags> t.hp` in a fresh directory on a copy of the input and compares the
/// `.ps`, the `.aux`, stderr and the exit status with the committed files.
fn check(case: &str, input: &str, flags: &[&str]) {
    let dir = tempdir(case);
    let src = root().join("inputs").join(format!("{input}.hp"));
    std::fs::copy(&src, dir.join("t.hp")).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    let out = Cmd::hp2ps()
        .args(flags)
        .arg("t.hp")
        .current_dir(&dir)
        .output();
    let actual = [
        ("ps", std::fs::read(dir.join("t.ps")).unwrap_or_default()),
        ("aux", std::fs::read(dir.join("t.aux")).unwrap_or_default()),
        (
            "status",
            format!(
                "{}\n{}",
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stderr)
            )
            .into_bytes(),
        ),
    ];
    let expected_dir = root().join("expected");
    let bless = std::env::var_os("HP2PS_BLESS").is_some();
    for (ext, bytes) in actual {
        let path = expected_dir.join(format!("{case}.{ext}"));
        if bless {
            std::fs::write(&path, &bytes).expect("bless");
            continue;
        }
        let want = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (bless new cases with HP2PS_BLESS=1)",
                path.display()
            )
        });
        if want != bytes {
            let got = dir.join(format!("actual.{ext}"));
            std::fs::write(&got, &bytes).ok();
            panic!(
                "{case}: {} differs from {} (first difference at byte {})",
                got.display(),
                path.display(),
                first_difference(&want, &bytes)
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

fn tempdir(case: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("golden")
        .join(case);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

macro_rules! golden {
    ($($case:ident: $input:literal $flags:expr;)*) => {
        $(
            #[test]
            fn $case() {
                check(stringify!($case), $input, &$flags);
            }
        )*
    };
}

golden! {
    manpage: "spec7-01-manpage" [];
    manpage_colour: "spec7-01-manpage" ["-c"];
    manpage_deviation: "spec7-01-manpage" ["-d"];
    manpage_names: "spec7-01-manpage" ["-i"];
    manpage_names_descending: "spec7-01-manpage" ["-i-"];
    manpage_limit_3: "spec7-01-manpage" ["-m3"];
    manpage_trace_5: "spec7-01-manpage" ["-t5"];
    manpage_eps_150mm: "spec7-01-manpage" ["-e150mm"];
    manpage_portrait: "spec7-01-manpage" ["-g"];
    manpage_no_marks_big_title: "spec7-01-manpage" ["-y", "-b"];
    thirty_idents_colour_no_limit: "spec7-04-30-idents-one-sample" ["-c", "-m0", "-t0"];
    job_90_chars: "spec7-07-job-90chars" [];
    big_values: "spec7-08-big-values" [];
    one_sample: "spec7-09-one-sample" [];
    all_zero: "spec7-10-all-zero" [];
    yrange_70: "spec7-11-yrange-70" [];
    yrange_7000: "spec7-11-yrange-7000" [];
    yrange_70000000: "spec7-11-yrange-70000000" [];
    times_3_3_to_9_9: "spec7-12-times-3.3-to-9.9" [];
    times_0_and_0_05: "spec7-13-times-0-and-0.05" [];
    job_doubled_quotes: "spec7-14-job-doubled-quotes" [];
    punctuation: "spec7-15-punctuation" [];
    punctuation_raw_strings: "spec7-15-punctuation-raw" [];
    digit_identifiers: "spec7-16-digit-idents" [];
    one_line: "spec7-17-one-line" [];
    trailing_begin_sample: "spec7-25-trailing-begin-sample" [];
    newline_in_job: "spec7-28-newline-in-job" [];
    idents_45_default: "spec7-32-45-idents" [];
    idents_45_limit_30: "spec7-32-45-idents" ["-m30"];
    idents_45_multipage: "spec7-32-45-idents" ["-M"];
    idents_45_multipage_eps: "spec7-32-45-idents" ["-M", "-e6in", "-c"];
    control_nonascii_bytes: "spec7-42-control-nonascii-bytes" [];
    control_nonascii_bytes_trace_3: "spec7-42-control-nonascii-bytes" ["-t3"];
    crlf: "spec7-44-crlf" [];
    manycc_default: "manycc-O0-hc" [];
    manycc_colour_multipage: "manycc-O0-hc" ["-c", "-M"];
    manycc_no_limit: "manycc-O0-hc" ["-m0", "-t0"];
    longrun_colour: "longrun-O1-hc" ["-c"];
    oddnames_hd: "oddnames-O0-hd" ["-c"];
    oddnames_hc_names: "oddnames-O0-hc" ["-i"];
    keywords_ht: "keywords-O0-hT" [];
    keywords_hc_deviation: "keywords-O0-hc" ["-d"];
    unicode_hc: "unicode-O0-hc" ["-c"];
    unicode_ht_eps: "unicode-O0-hT" ["-e8in"];
    longnames_l200: "longnames-O0-hc-L200" [];
    longnames_hd_small_title: "longnames-O0-hd" ["-s", "-m5"];
    retainer_hr: "retainer-O0-hr" ["-g", "-c"];
    leakmap_bio: "leakmap-O0-hc-bio-dragvoid" ["-t0"];
    threads_noprof: "threads-O1-noprof-hT" ["-m8"];
    textproc_hy: "textproc-O0-hy" ["-d", "-c"];
    arrays_hm: "arrays-O0-hm" [];
    edge_marks: "edge-marks" [];
    edge_huge_values: "edge-huge-values" [];
    edge_large_times: "edge-large-times" [];
    edge_sparse_bands: "edge-sparse-bands" ["-c"];
    edge_zero_values: "edge-zero-values" [];
    edge_single_sample: "edge-single-sample" [];
    edge_duplicate_idents: "edge-duplicate-idents" ["-d"];
    edge_job_36_chars: "edge-job-36chars" [];
    edge_job_35_chars: "edge-job-35chars" [];
    edge_job_escaped_quotes: "edge-job-escaped-quotes" [];
    edge_no_final_newline: "edge-no-final-newline" [];
    edge_truncated_after_begin: "edge-truncated-after-begin" [];
    edge_truncated_mid_sample: "edge-truncated-mid-sample" [];
    edge_crlf: "edge-crlf" [];
    edge_ident_tab: "edge-ident-tab" ["-c"];
    edge_ident_space: "edge-ident-space" [];
    edge_ident_keyword: "edge-ident-keyword" ["-m0", "-t0"];
}

/// The checkout holds the test data's exact bytes: the two CRLF inputs keep their CRs
/// (else their cases above test LF input under a CRLF name), and git converts no line
/// end of any golden or `tests/data` file, on any platform (`core.autocrlf=true` on
/// Windows turned the expected `.ps` files into CRLF before `.gitattributes` said `-text`).
#[test]
fn the_checkout_keeps_the_test_data_bytes() {
    for name in ["edge-crlf.hp", "spec7-44-crlf.hp"] {
        let text = support::golden(name);
        let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        assert!(lines.len() > 3, "{name}: {} lines", lines.len());
        for (i, line) in lines.iter().enumerate() {
            assert!(
                line.ends_with(b"\r\n"),
                "{name} line {}: not CRLF in this checkout: {:?}",
                i + 1,
                String::from_utf8_lossy(line)
            );
        }
    }

    if !support::tools::require("git") {
        return;
    }
    let manifest = env!("CARGO_MANIFEST_DIR");
    // A source tree that is not this repository's checkout (a crate tarball, unpacked
    // alone or inside some other repository): git converted nothing in it.
    let top = Cmd::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(manifest)
        .output();
    let ours = std::fs::canonicalize(manifest).ok();
    let top_dir = String::from_utf8_lossy(&top.stdout).trim().to_string();
    if !top.status.success() || std::fs::canonicalize(&top_dir).ok() != ours {
        eprintln!(
            "SKIPPED: golden::the_checkout_keeps_the_test_data_bytes: not a git checkout of \
             this repository: {}",
            String::from_utf8_lossy(&top.stderr).trim()
        );
        return;
    }
    let listed = Cmd::new("git")
        .args(["ls-files", "-z", "--", "golden", "tests/data"])
        .current_dir(manifest)
        .output();
    assert!(listed.status.success(), "git ls-files failed: {listed:?}");
    let files: Vec<&str> = std::str::from_utf8(&listed.stdout)
        .expect("file names in UTF-8")
        .split('\0')
        .filter(|f| !f.is_empty())
        .collect();
    assert!(files.len() > 100, "git lists only {} files", files.len());
    let attrs = Cmd::new("git")
        .args(["check-attr", "-z", "text", "--"])
        .args(&files)
        .current_dir(manifest)
        .output();
    assert!(attrs.status.success(), "git check-attr failed");
    // -z: NUL-separated triples of path, attribute, value.
    let fields: Vec<&[u8]> = attrs.stdout.split(|&b| b == 0).collect();
    let converted: Vec<String> = fields
        .chunks_exact(3)
        .filter(|t| t[2] != b"unset")
        .map(|t| {
            format!(
                "{} (text: {})",
                String::from_utf8_lossy(t[0]),
                String::from_utf8_lossy(t[2])
            )
        })
        .collect();
    assert_eq!(fields.len() / 3, files.len());
    assert!(
        converted.is_empty(),
        "git may convert the line ends of {} test files (mark them -text in .gitattributes): {:?}",
        converted.len(),
        &converted[..converted.len().min(5)]
    );
}
