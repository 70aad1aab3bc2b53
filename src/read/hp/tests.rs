//! Reader tests: every statement and every error of §2 of `docs/reference/hp2ps-behaviour.md`, and the tolerated damage.

use crate::profile::Profile;
use crate::read::hp::{ReadError, ReadOptions, Warning};

const H: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n";

fn read(text: &str) -> Result<(Profile, Vec<Warning>), ReadError> {
    read_bytes(text.as_bytes())
}

fn read_bytes(text: &[u8]) -> Result<(Profile, Vec<Warning>), ReadError> {
    Profile::read(text, &ReadOptions::default())
}

fn ok(text: &str) -> Profile {
    match read(text) {
        Ok((p, w)) => {
            assert!(w.is_empty(), "unexpected warnings {w:?}");
            p
        }
        Err(e) => panic!("{text:?}: {e}"),
    }
}

/// The error's "line:col: found, expected" text.
fn error(text: &str) -> String {
    match read(text) {
        Ok(_) => panic!("{text:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn values(p: &Profile, name: &str) -> Vec<(u32, f64)> {
    let band = p.bands.iter().find(|b| b.name == name.as_bytes());
    band.map(|b| b.points.iter().map(|pt| (pt.sample, pt.value)).collect())
        .unwrap_or_default()
}

#[test]
fn header_statements_last_one_wins_and_may_appear_anywhere() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nJOB \"second\"\nEND_SAMPLE 0.0\nDATE \"later\"\n"
    ));
    assert_eq!(p.job, b"second");
    assert_eq!(p.date, b"later");
    assert_eq!(p.sample_unit, b"s");
    assert_eq!(p.value_unit, b"b");
}

#[test]
fn strings_double_quotes_newlines_and_nul() {
    let p = ok(&format!(
        "{H}JOB \"a \"\"b\"\" c\"\nDATE \"two\nlines\"\nBEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(p.job, b"a \"b\" c");
    assert_eq!(p.date, b"two\nlines");
    let p = read_bytes(b"JOB \"ab\0cd\" DATE \"d\" SAMPLE_UNIT \"s\" VALUE_UNIT \"b\" BEGIN_SAMPLE 0.0 END_SAMPLE 0.0")
        .unwrap()
        .0;
    assert_eq!(p.job, b"ab");
}

#[test]
fn backslash_is_an_ordinary_string_byte() {
    // `\"` does not escape: the string ends there, and `b\"` follows as an identifier.
    let e = error("JOB \"a \\\"b\\\" c\"\n");
    assert!(e.starts_with("1:"), "{e}");
    assert!(
        e.contains("expected an integer value after identifier"),
        "{e}"
    );
}

#[test]
fn samples_marks_and_data() {
    let p = ok(&format!(
        "{H}MARK 0.5\nBEGIN_SAMPLE 0.0\na 1\nb 2\nEND_SAMPLE 0.0\nMARK 1.5\nBEGIN_SAMPLE 1.0\na 3\nEND_SAMPLE 9.9\n"
    ));
    assert_eq!(p.times, vec![0.0, 1.0]);
    assert_eq!(p.marks, vec![0.5, 1.5]);
    assert_eq!(values(&p, "a"), vec![(0, 1.0), (1, 3.0)]);
    assert_eq!(values(&p, "b"), vec![(0, 2.0)]);
}

#[test]
fn repeated_begin_overwrites_the_time_and_merges_the_data() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\na 1\nBEGIN_SAMPLE 0.5\na 2\nEND_SAMPLE 0.5\n"
    ));
    assert_eq!(p.times, vec![0.5]);
    assert_eq!(values(&p, "a"), vec![(0, 1.0), (0, 2.0)]);
}

#[test]
fn data_outside_a_sample_belongs_to_the_next_one() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nx 7\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n"
    ));
    assert_eq!(values(&p, "x"), vec![(1, 7.0)]);
}

#[test]
fn identifiers_may_start_with_digits_and_contain_punctuation() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\n123abc 5\n42 7\nfoo 1 2 3 bar 4\n(1)a\"b\\c 9\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(values(&p, "123abc"), vec![(0, 5.0)]);
    assert_eq!(values(&p, "42"), vec![(0, 7.0)]);
    assert_eq!(values(&p, "foo"), vec![(0, 1.0)]);
    assert_eq!(values(&p, "2"), vec![(0, 3.0)]);
    assert_eq!(values(&p, "bar"), vec![(0, 4.0)]);
    assert_eq!(values(&p, "(1)a\"b\\c"), vec![(0, 9.0)]);
}

#[test]
fn keywords_need_an_upper_case_first_letter_and_an_exact_spelling() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nbegin_sample 1\nX_RANGE 2\nMAIN 3\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(p.bands.len(), 3);
}

#[test]
fn number_tokens_follow_atof() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 1.2.3\nEND_SAMPLE 1.\nBEGIN_SAMPLE 2..5\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(p.times, vec![1.2, 2.0]);
    // `1e5` is the integer 1 followed by the identifier `e5`.
    let e = error(&format!("{H}BEGIN_SAMPLE 0.0\na 1e5\nEND_SAMPLE 0.0\n"));
    assert!(e.contains("identifier \"e5\""), "{e}");
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nbig 5000000000\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(values(&p, "big"), vec![(0, 5e9)]);
}

#[test]
fn whole_profile_on_one_line_and_crlf() {
    let p = ok("JOB \"j\" DATE \"d\" SAMPLE_UNIT \"s\" VALUE_UNIT \"b\" BEGIN_SAMPLE 0.0 a 1 END_SAMPLE 0.0");
    assert_eq!(values(&p, "a"), vec![(0, 1.0)]);
    let crlf = format!("{H}BEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n").replace('\n', "\r\n");
    assert_eq!(values(&ok(&crlf), "a"), vec![(0, 1.0)]);
}

#[test]
fn header_keyword_needs_a_string() {
    for kw in ["JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"] {
        let e = error(&format!("{kw} 12\n"));
        assert_eq!(
            e,
            format!(
                "1:{}: integer 12, expected a string after {kw}",
                kw.len() + 2
            )
        );
    }
}

#[test]
fn mark_needs_a_float_outside_samples() {
    let e = error(&format!("{H}MARK 1\n"));
    assert_eq!(
        e,
        "5:6: integer 1, expected a number with a decimal point (such as 1.0) after MARK"
    );
    let e = error(&format!("{H}BEGIN_SAMPLE 0.0\nMARK 1.0\n"));
    assert!(e.starts_with("6:1: MARK inside a sample"), "{e}");
}

#[test]
fn begin_sample_needs_a_float_in_order() {
    for bad in ["0", "1e5", ".5", "\"x\""] {
        let e = error(&format!("{H}BEGIN_SAMPLE {bad}\n"));
        assert!(e.starts_with("5:14: "), "{bad}: {e}");
        assert!(e.ends_with("after BEGIN_SAMPLE"), "{bad}: {e}");
    }
    let e = error(&format!(
        "{H}BEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 0.5\n"
    ));
    assert!(
        e.starts_with("7:1: BEGIN_SAMPLE 0.500000 (samples out of sequence)"),
        "{e}"
    );
    // Equal times are allowed.
    ok(&format!(
        "{H}BEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n"
    ));
}

#[test]
fn end_sample_needs_a_float_and_a_begin() {
    let e = error(&format!("{H}BEGIN_SAMPLE 0.0\nEND_SAMPLE 0\n"));
    assert!(e.starts_with("6:12: integer 0, expected"), "{e}");
    // hp2ps segfaults here.
    let e = error(&format!("{H}END_SAMPLE 0.0\n"));
    assert_eq!(
        e,
        "5:1: END_SAMPLE outside a sample, expected BEGIN_SAMPLE before END_SAMPLE"
    );
    let e = error(&format!(
        "{H}BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    ));
    assert!(e.starts_with("7:1: END_SAMPLE outside a sample"), "{e}");
}

#[test]
fn identifier_needs_an_integer() {
    let cases = [
        ("a 1.5", "number 1.5"),
        ("a -1", "identifier \"-1\""),
        ("a b 1", "identifier \"b\""),
        ("a \"s\"", "a string"),
        ("a END_SAMPLE 0.0", "keyword END_SAMPLE"),
    ];
    for (line, found) in cases {
        let e = error(&format!(
            "{H}BEGIN_SAMPLE 0.0\n{line}\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n"
        ));
        assert_eq!(
            e,
            format!("6:3: {found}, expected an integer value after identifier \"a\""),
            "{line}"
        );
    }
}

#[test]
fn statement_cannot_start_with_a_string() {
    let e = error(&format!("{H}\"x\" 1\n"));
    assert!(e.starts_with("5:1: a string, expected a statement"), "{e}");
}

#[test]
fn unterminated_string_in_the_header_is_an_error() {
    // The file ends in the statement, but there is no complete sample to render.
    let e = error("JOB \"j\n");
    assert_eq!(
        e,
        "1:5: a string that is never closed (the file ends inside it), expected a closing \""
    );
}

#[test]
fn lines_count_every_lf_even_inside_strings() {
    let e = error("JOB \"j\nk\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\nx\ny 1\n");
    assert!(e.starts_with("7:1: identifier \"y\""), "{e}");
}

#[test]
fn missing_header_fields_in_hp2ps_order() {
    let body = "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n";
    assert!(error(body).contains("expected a JOB line"));
    assert!(error(&format!("JOB \"j\"\n{body}")).contains("expected a DATE line"));
    assert!(
        error(&format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\n{body}")).contains("VALUE_UNIT")
    );
    assert!(
        error(&format!("JOB \"j\"\nDATE \"d\"\nVALUE_UNIT \"s\"\n{body}")).contains("SAMPLE_UNIT")
    );
    assert_eq!(
        error(""),
        "1:1: end of file, expected a JOB line (the profile has none)"
    );
    assert!(error(H).starts_with("5:1: end of file, expected at least one complete sample"));
}

#[test]
fn numbers_longer_than_32_characters_are_refused() {
    let e = error(&format!(
        "{H}BEGIN_SAMPLE 0.0\nMAIN\t123456789012345678901234567890123\n"
    ));
    assert_eq!(
        e,
        "6:6: a number of 33 characters, expected at most 32 characters in a number"
    );
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nMAIN\t12345678901234567890123456789012\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(
        values(&p, "MAIN"),
        vec![(0, 12345678901234567890123456789012.0)]
    );
}

#[test]
fn long_identifiers_are_accepted_up_to_the_limit() {
    let long = "x".repeat(6000);
    let p = ok(&format!("{H}BEGIN_SAMPLE 0.0\n{long}\t5\nEND_SAMPLE 0.0\n"));
    assert_eq!(p.bands[0].name.len(), 6000);
    let opts = ReadOptions {
        max_name_len: 100,
        ..ReadOptions::default()
    };
    let text = format!(
        "{H}BEGIN_SAMPLE 0.0\n{}\t5\nEND_SAMPLE 0.0\n",
        "y".repeat(101)
    );
    let e = Profile::read(text.as_bytes(), &opts)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "6:1: an identifier of 101 bytes, expected at most 100 bytes (the limit on identifier length)");
}

#[test]
fn ghc_lines_hp2ps_cannot_tokenize_are_read_by_the_tab_rule() {
    let p = ok(&format!(
        "{H}BEGIN_SAMPLE 0.0\nname with spaces\t10\ncc\twith tab\t20\nJOB\t30\nEND_SAMPLE\t40\nMARK\t50\n(1)x y\t60\nEND_SAMPLE 0.0\n"
    ));
    assert_eq!(values(&p, "name with spaces"), vec![(0, 10.0)]);
    assert_eq!(values(&p, "cc\twith tab"), vec![(0, 20.0)]);
    assert_eq!(values(&p, "JOB"), vec![(0, 30.0)]);
    assert_eq!(values(&p, "END_SAMPLE"), vec![(0, 40.0)]);
    assert_eq!(values(&p, "MARK"), vec![(0, 50.0)]);
    assert_eq!(values(&p, "(1)x y"), vec![(0, 60.0)]);
    assert_eq!(p.times.len(), 1);
}

#[test]
fn the_tab_rule_does_not_apply_outside_samples_or_where_tokens_work() {
    let e = error(&format!(
        "{H}name with spaces\t10\nBEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    ));
    assert!(e.starts_with("5:6: identifier \"with\""), "{e}");
    // Tokens read `a 1` then `b`=2: the same as hp2ps, not "a 1\tb"... (no TAB rule).
    let p = ok(&format!("{H}BEGIN_SAMPLE 0.0\na 1\tb 2\nEND_SAMPLE 0.0\n"));
    assert_eq!(values(&p, "a"), vec![(0, 1.0)]);
    assert_eq!(values(&p, "b"), vec![(0, 2.0)]);
}

#[test]
fn an_incomplete_last_sample_is_dropped_with_a_warning() {
    let (p, w) = read(&format!(
        "{H}BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 2\nnew 5\n"
    ))
    .unwrap();
    assert_eq!(p.times, vec![0.0]);
    assert_eq!(values(&p, "a"), vec![(0, 1.0)]);
    assert!(values(&p, "new").is_empty() && p.bands.len() == 1);
    assert!(matches!(
        w[..],
        [Warning::IncompleteLastSample {
            samples_kept: 1,
            ..
        }]
    ));
}

#[test]
fn a_half_written_last_line_is_dropped_with_a_warning() {
    for tail in [
        "(246)GHC.IO.",
        "a",
        "a 12 b",
        "END_SAMP",
        "END_SAMPLE",
        "JOB \"unfinished",
    ] {
        let (p, w) = read(&format!(
            "{H}BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\n{tail}"
        ))
        .unwrap_or_else(|e| panic!("{tail:?}: {e}"));
        assert_eq!(p.times, vec![0.0], "{tail:?}");
        assert!(!w.is_empty(), "{tail:?}");
    }
    // A last line cut after the sample ends keeps the sample.
    let (p, w) = read(&format!("{H}BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nb")).unwrap();
    assert_eq!(p.times, vec![0.0]);
    assert!(matches!(w[..], [Warning::TruncatedLastLine { .. }]));
    // An error on a complete line is still an error.
    assert!(read(&format!("{H}BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nb c\n")).is_err());
}

#[test]
fn trailing_begin_sample_without_data_is_ignored_like_hp2ps() {
    let (p, _) = read(&format!(
        "{H}BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\n"
    ))
    .unwrap();
    assert_eq!(p.times, vec![0.0]);
}

#[test]
fn a_bom_is_part_of_the_first_identifier() {
    let e = read_bytes(b"\xef\xbb\xbfJOB \"j\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("1:8: a string, expected an integer value after identifier"),
        "{e}"
    );
}

#[test]
fn very_long_lines_are_read_in_bounded_pieces() {
    let mut text = H.replace('\n', " ");
    text.push_str("BEGIN_SAMPLE 0.0 ");
    for i in 0..60_000 {
        text.push_str(&format!("id{} {} ", i % 100, i));
    }
    text.push_str("END_SAMPLE 0.0");
    let p = ok(&text);
    assert_eq!(p.bands.len(), 100);
    assert_eq!(
        p.bands.iter().map(|b| b.points.len()).sum::<usize>(),
        60_000
    );
}

#[test]
fn a_string_split_across_segments_keeps_doubled_quotes() {
    let mut job = String::new();
    for _ in 0..40_000 {
        job.push_str("ab\"\"cd ");
    }
    let text = format!("JOB \"{job}\" DATE \"d\" SAMPLE_UNIT \"s\" VALUE_UNIT \"b\" BEGIN_SAMPLE 0.0 END_SAMPLE 0.0");
    let p = ok(&text);
    assert_eq!(p.job, job.replace("\"\"", "\"").as_bytes());
}
