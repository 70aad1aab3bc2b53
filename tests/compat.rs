//! One test per deliberate difference from GHC's hp2ps, as listed in docs/compat.md.
//! Each shows the behaviour a user gets instead of hp2ps's crash, hang or broken output.

mod support;

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use support::tools::{ghostscript_accepts, require_ghostscript};
use support::{Cmd, TempDir};

const H: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";

use support::golden_text as golden;

/// Runs `hp2ps <args> t.hp` on `input` in a fresh directory; returns the output and the
/// `.ps` and `.aux` it left (empty when absent).
fn render(input: &[u8], args: &[&str]) -> (Output, Vec<u8>, Vec<u8>) {
    render_with_aux(input, None, args)
}

fn render_with_aux(input: &[u8], aux: Option<&str>, args: &[&str]) -> (Output, Vec<u8>, Vec<u8>) {
    let dir = TempDir::new("compat");
    std::fs::write(dir.path().join("t.hp"), input).unwrap();
    if let Some(aux) = aux {
        std::fs::write(dir.path().join("t.aux"), aux).unwrap();
    }
    let out = Cmd::hp2ps()
        .args(args)
        .arg("t.hp")
        .current_dir(dir.path())
        .output();
    let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap_or_default();
    (out, read("t.ps"), read("t.aux"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

// 1. Flag errors: covered with every spelling in tests/cli.rs
//    (usage_errors_exit_2_with_a_hint_and_help_goes_to_stdout); here the hp2ps examples.
#[test]
fn d1_bad_flags_exit_2_and_create_nothing() {
    for bad in ["-t6", "-e1in", "-x", "--foo", "-pz", "-e144"] {
        let (out, ps, aux) = render(golden("spec7-01-manpage.hp").as_bytes(), &[bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            out.stdout.is_empty(),
            "{bad}: usage goes to stderr, not stdout"
        );
        assert!(stderr(&out).contains("Try 'hp2ps --help'"), "{bad}");
        assert!(ps.is_empty() && aux.is_empty(), "{bad}");
    }
}

// 2. `-l` is the manual's "no band limit, no key": the same output as `-m0`.
#[test]
fn d2_l_is_m0() {
    let input = golden("spec7-32-45-idents.hp");
    let (a, ps_l, aux_l) = render(input.as_bytes(), &["-l"]);
    let (b, ps_m0, aux_m0) = render(input.as_bytes(), &["-m0"]);
    assert!(a.status.success() && b.status.success());
    assert_eq!(ps_l, ps_m0);
    assert_eq!(aux_l, aux_m0);
    assert_eq!(String::from_utf8_lossy(&aux_l).matches("ORDER").count(), 45);
}

// 3. PostScript strings are always valid.
#[test]
fn d3_job_backslashes_are_escaped() {
    let input = format!(
        "JOB \"a\\b(c)\"\n{}BEGIN_SAMPLE 0.0\nx 1\nEND_SAMPLE 0.0\n",
        &H[8..]
    );
    let (out, ps, _) = render(input.as_bytes(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(contains(&ps, "(a\\\\b\\(c\\)) show\n"));
}

#[test]
fn d3_date_and_units_are_raw_when_valid_and_escaped_otherwise() {
    let input = "JOB \"j\"\nDATE \"(\"\nSAMPLE_UNIT \"s (x)\"\nVALUE_UNIT \"b\\\\\"\n\
                 BEGIN_SAMPLE 0.0\nx 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nx 2\nEND_SAMPLE 1.0\n";
    let (out, ps, _) = render(input.as_bytes(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(contains(&ps, "HE12 setfont\n(\\()\n"), "DATE escaped");
    assert!(contains(&ps, "(s (x))\n"), "balanced unit raw");
    assert!(contains(&ps, "(b\\\\\\\\)\n"), "backslash unit escaped");
    if require_ghostscript() {
        ghostscript_accepts(&ps).expect("valid PostScript");
    }
}

#[test]
fn d3_title_and_creation_date_comments_stay_on_one_line() {
    let input = "JOB \"two\nlines\"\nDATE \"a\r\nb\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
                 BEGIN_SAMPLE 0.0\nx 1\nEND_SAMPLE 0.0\n";
    let (out, ps, _) = render(input.as_bytes(), &[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&ps);
    assert!(text.contains("%%Title: two lines\n"), "{}", &text[..200]);
    assert!(text.contains("%%CreationDate: a  b\n"));
    // The title itself keeps the newline, as hp2ps.
    assert!(text.contains("(two\nlines) show"));
}

// 4. Input errors: one positioned line, exit 1, nothing written. Also covered in
//    tests/cli.rs (input_errors_exit_1_with_one_positioned_line_and_keep_earlier_output).
#[test]
fn d4_input_error_message_names_file_line_column_found_and_expected() {
    let input = format!(
        "{H}BEGIN_SAMPLE 0.0\nx 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 0.5\ny z\nEND_SAMPLE 0.5\n"
    );
    let (out, ps, aux) = render(input.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "hp2ps: t.hp:9:3: identifier \"z\", expected an integer value after identifier \"y\"\n"
    );
    assert!(ps.is_empty() && aux.is_empty());
}

// 5. Truncated profiles render their complete samples.
#[test]
fn d5_truncated_profile_renders_like_the_file_cut_at_its_last_complete_sample() {
    let full = golden("arrays-O1-hc.hp");
    let last_begin = full.rfind("BEGIN_SAMPLE").unwrap();
    let cut_clean = &full[..last_begin];
    let (_, want_ps, want_aux) = render(cut_clean.as_bytes(), &[]);
    assert!(!want_ps.is_empty());
    let last_end = full.rfind("END_SAMPLE").unwrap();
    // Every cut inside the last sample, from its BEGIN_SAMPLE line to its END_SAMPLE keyword.
    for cut in (last_begin + 1..last_end + 5).step_by(7) {
        let (out, ps, aux) = render(&full.as_bytes()[..cut], &[]);
        assert!(out.status.success(), "cut at {cut}: {}", stderr(&out));
        assert!(stderr(&out).contains("warning"), "cut at {cut}");
        assert_eq!(ps, want_ps, "cut at {cut}");
        assert_eq!(aux, want_aux, "cut at {cut}");
    }
}

// 6. hp2ps's crashes and hangs.
#[test]
fn d6_end_sample_before_begin_sample_is_an_error_not_a_segfault() {
    let (out, ps, _) = render(format!("{H}END_SAMPLE 0.0\n").as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("5:1: END_SAMPLE outside a sample, expected BEGIN_SAMPLE"));
    assert!(ps.is_empty());
}

#[test]
fn d6_huge_sample_times_terminate() {
    let input = format!(
        "{H}BEGIN_SAMPLE 100000000000000000.0\nx 1\nEND_SAMPLE 0.0\n\
         BEGIN_SAMPLE 100000000000000016.0\nx 2\nEND_SAMPLE 0.0\n"
    );
    let start = Instant::now();
    let (out, ps, _) = render(input.as_bytes(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "it must not loop"
    );
    assert!(ps.len() < 100_000, "no runaway output");
    assert!(
        contains(&ps, "(100000000000000000.0)"),
        "one x tick at the first sample"
    );
}

#[test]
fn d6_nan_and_infinite_eps_widths_are_usage_errors() {
    for bad in ["-enan", "-einf", "-einfin", "-e-1in"] {
        let (out, ps, _) = render(golden("spec7-01-manpage.hp").as_bytes(), &[bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(ps.is_empty(), "{bad}");
    }
}

#[test]
fn d6_aux_files_with_more_lines_than_bands_still_render() {
    let input = format!("{H}BEGIN_SAMPLE 0.0\na 1\nb 2\nEND_SAMPLE 0.0\n");
    let mut big_aux = String::from("X_RANGE 1.00\nY_RANGE 3.00\nORDER b 1\nORDER a 2\n");
    for i in 0..40 {
        big_aux.push_str(&format!("ORDER other{i} {}\n", i + 3));
    }
    big_aux.push_str("SHADE b 0.20\n");
    for i in 0..40 {
        big_aux.push_str(&format!("SHADE other{i} 0.50\n"));
    }
    let small_aux = "X_RANGE 1.00\nY_RANGE 3.00\nORDER b 1\nORDER a 2\nSHADE b 0.20\n";
    let (out, ps, aux) = render_with_aux(input.as_bytes(), Some(&big_aux), &["-p"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (_, want_ps, want_aux) = render_with_aux(input.as_bytes(), Some(small_aux), &["-p"]);
    assert_eq!(ps, want_ps);
    assert_eq!(aux, want_aux);
}

#[test]
fn d6_identifiers_longer_than_4999_bytes_render_whole() {
    let long = "L".repeat(6000);
    let input = format!("{H}BEGIN_SAMPLE 0.0\n{long} 5\nshort 5\nEND_SAMPLE 0.0\n");
    let (out, ps, aux) = render(input.as_bytes(), &["-m0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(contains(&aux, &format!("ORDER {long} ")));
    assert!(contains(&ps, "lineto"));
}

#[test]
fn d6_numbers_longer_than_32_digits_are_a_clean_error() {
    let input = format!(
        "{H}BEGIN_SAMPLE 0.0\nMAIN\t{}\nEND_SAMPLE 0.0\n",
        "1".repeat(33)
    );
    let (out, ps, _) = render(input.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "hp2ps: t.hp:6:6: a number of 33 characters, expected at most 32 characters in a number\n"
    );
    assert!(ps.is_empty());
}

// 7. Several files: covered in tests/cli.rs
//    (several_files_render_each_and_one_failure_does_not_stop_the_others).
#[test]
fn d7_several_files_give_the_same_bytes_as_single_runs() {
    let dir = TempDir::new("compat-many");
    let a = golden("spec7-01-manpage.hp");
    let b = golden("unicode-O0-hc.hp");
    std::fs::write(dir.path().join("a.hp"), &a).unwrap();
    std::fs::write(dir.path().join("b.hp"), &b).unwrap();
    let out = Cmd::hp2ps()
        .args(["-c", "a.hp", "b.hp"])
        .current_dir(dir.path())
        .output();
    assert!(out.status.success());
    let (_, single_b, _) = render(b.as_bytes(), &["-c"]);
    assert_eq!(std::fs::read(dir.path().join("b.ps")).unwrap(), single_b);
}

// 8. Real GHC output that hp2ps rejects.
#[test]
fn d8_names_with_tabs_spaces_and_keyword_spellings_render() {
    for file in [
        "edge-ident-tab.hp",
        "edge-ident-space.hp",
        "edge-ident-keyword.hp",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("golden/inputs")
            .join(file);
        let text = match std::fs::read(&path) {
            Ok(t) => t,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        let (out, ps, _) = render(&text, &["-m0", "-t0"]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        assert!(!ps.is_empty());
    }
    let input = format!(
        "{H}BEGIN_SAMPLE 0.0\nMAIN band\t160\nMAIN\tband\t150\nJOB\t140\nEND_SAMPLE\t130\n\
         MARK\t120\nDATE\t110\nEND_SAMPLE 0.0\n"
    );
    let (out, _, aux) = render(input.as_bytes(), &["-m0", "-t0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let aux = String::from_utf8_lossy(&aux);
    for name in [
        "MAIN band",
        "MAIN\tband",
        "JOB",
        "END_SAMPLE",
        "MARK",
        "DATE",
    ] {
        assert!(aux.contains(&format!("ORDER {name} ")), "{name:?} in {aux}");
    }
}
