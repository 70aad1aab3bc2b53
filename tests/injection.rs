//! Injection-proof output: identifiers, JOB, DATE and units full of PostScript, XML and
//! PDF syntax and control bytes never leave their string, in any backend, and the text
//! shown is the text given. Checked with the real consumers: ghostscript (`-dSAFER`,
//! with `show` redefined to print what it is asked to show), xmllint, qpdf and
//! pdftotext; and with this crate's own strict lexers (`support::pslex`, `support::xmlcheck`).

mod support;

use std::path::Path;

use support::run::{self, Cmd};
use support::{pslex, xmlcheck, TempDir};

use hp2ps::internals::chart::Chart;
use hp2ps::internals::to_winansi;
use hp2ps::internals::write_chart;
use hp2ps::{prepare, Format, RenderOptions};

/// Texts that would end or break a string, a comment or an element if written raw.
const HOSTILE: &[&[u8]] = &[
    b") show (INJECTED-PS) print (",
    b"\\",
    b"a\\",
    b"\\) show",
    b"(",
    b")(",
    b"((unbalanced",
    b"%!PS %%EOF % comment",
    b"\x0c(INJECTED-FF) print flush",
    b"<script>alert(1)</script>",
    b"&amp; & &lt; &#0;",
    b"]]> </svg> </text> </title>",
    b"\"quotes\" 'single'",
    b") Tj ET BT /F1 99 Tf (INJECTED-PDF) Tj (",
    b"<48656c6c6f> Tj endstream endobj %%EOF >> <<",
    b"ctl\x01\x07\x08\x1b[31m\x7f\x00after-nul",
    b"caf\xc3\xa9 \xe2\x82\xac latin\xe9 bad\xff\xfe",
    b"line\nbreak",
    b"tab\there",
];

/// An identifier as a data line: GHC writes `name<TAB>value`, and names with spaces
/// are read whole by the TAB rule. A name cannot hold a line feed, nor start with
/// whitespace; NUL ends it, as in hp2ps.
fn name_of(text: &[u8]) -> Vec<u8> {
    let mut name: Vec<u8> = text
        .iter()
        .map(|&b| if b == b'\n' { b' ' } else { b })
        .collect();
    while name
        .first()
        .is_some_and(|b| b.is_ascii_whitespace() || *b == 0x0b)
    {
        name.remove(0);
    }
    name
}

/// A profile whose header strings and identifiers are hostile texts, starting at
/// `HOSTILE[k]`.
fn hostile_profile(k: usize) -> Vec<u8> {
    let pick = |i: usize| HOSTILE[(k + i) % HOSTILE.len()];
    let mut hp = Vec::new();
    for (i, field) in ["JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"]
        .iter()
        .enumerate()
    {
        let text = pick(i);
        hp.extend_from_slice(field.as_bytes());
        hp.push(b' ');
        hp.extend_from_slice(&support::hp_quoted(text));
        hp.push(b'\n');
    }
    for (s, time) in ["0.0", "1.0", "2.5"].iter().enumerate() {
        hp.extend_from_slice(format!("BEGIN_SAMPLE {time}\n").as_bytes());
        for i in 0..HOSTILE.len() {
            hp.extend_from_slice(&name_of(pick(i)));
            hp.extend_from_slice(format!("\t{}\n", 1000 * (i + 1) + 100 * s).as_bytes());
        }
        hp.extend_from_slice(format!("END_SAMPLE {time}\n").as_bytes());
    }
    hp
}

fn chart_of(hp: &[u8], colour: bool) -> Chart {
    let (profile, _) = support::read_profile(hp).expect("the profile reads");
    // Every band and its key entry (there are fewer names than the default limit).
    let mut opts = RenderOptions::default();
    opts.aggregate.trace_percent = 0.0;
    opts.layout.colour = colour;
    let (chart, _) = prepare(profile, None, &opts);
    chart
}

fn paint(chart: &Chart, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    write_chart(chart, format, &mut out).expect("paint to memory");
    out
}

/// Every text the chart shows, in a canonical order, for multiset comparisons.
fn sorted_texts(chart: &Chart) -> Vec<Vec<u8>> {
    let mut t = pslex::chart_texts(chart);
    t.sort();
    t
}

fn charts() -> Vec<Chart> {
    (0..HOSTILE.len())
        .step_by(3)
        .map(|k| chart_of(&hostile_profile(k), k % 2 == 1))
        .collect()
}

#[test]
fn every_hostile_text_reaches_the_chart() {
    // The profiles really carry the texts (else the tests below prove nothing).
    let chart = chart_of(&hostile_profile(0), false);
    let texts = pslex::chart_texts(&chart);
    assert!(texts.iter().any(|t| t.starts_with(b") show (INJECTED-PS)")));
    assert!(texts.iter().any(|t| t.starts_with(b"(INJECTED-FF)")));
    assert!(texts.iter().any(|t| t == b"ctl\x01\x07\x08\x1b[31m\x7f"));
    assert_eq!(chart.title.date, b"\\");
}

#[test]
fn postscript_strings_and_comments_hold_every_hostile_text() {
    for (i, chart) in charts().iter().enumerate() {
        let ps = paint(chart, Format::Ps);
        if let Err(e) = pslex::check_postscript(&ps, chart) {
            panic!("profile {i}: {e}");
        }
    }
}

/// Prepended to the PostScript: `show` prints the hex of its string on a line of its
/// own instead of drawing it, so the output lists exactly what the page shows.
const SHOW_PROBE: &str = "/hexdigits (0123456789abcdef) def\n\
/show { (SHOW ) print { dup -4 bitshift hexdigits exch 1 getinterval print \
15 and hexdigits exch 1 getinterval print } forall (\\n) print } bind def\n";

/// What ghostscript shows for each `show` of `ps`, in order; an error for anything else
/// it prints (an injected `print`, an error report).
fn ghostscript_shows(ps: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let dir = TempDir::in_tmp("gs-show");
    std::fs::write(dir.join("probe.ps"), SHOW_PROBE).unwrap();
    std::fs::write(dir.join("chart.ps"), ps).unwrap();
    let out = Cmd::new(support::tools::GHOSTSCRIPT)
        .args(["-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", "-q"])
        .args(["probe.ps", "chart.ps"])
        .current_dir(dir.path())
        .output();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() || !out.stderr.is_empty() {
        return Err(format!(
            "gs {:?}: {}{}",
            out.status.code(),
            text,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    text.lines()
        .map(|l| {
            let hex = l
                .strip_prefix("SHOW ")
                .ok_or_else(|| format!("gs printed {l:?}"))?;
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn ghostscript_shows_exactly_the_texts_given_and_runs_nothing_else() {
    if !support::tools::require_ghostscript() {
        return;
    }
    for (i, chart) in charts().iter().enumerate() {
        let ps = paint(chart, Format::Ps);
        let mut shown = ghostscript_shows(&ps).unwrap_or_else(|e| panic!("profile {i}: {e}"));
        shown.sort();
        assert_eq!(shown, sorted_texts(chart), "profile {i}");
        support::tools::ghostscript_accepts(&ps).unwrap_or_else(|e| panic!("profile {i}: {e}"));
    }
}

#[test]
fn a_form_feed_in_job_or_date_does_not_end_the_header_comment() {
    let hp = b"JOB \"a\x0c(INJECTED-BY-JOB) print flush\"\n\
        DATE \"d\x0c(INJECTED-BY-DATE) print flush\"\n\
        SAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\nBEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\n";
    let chart = chart_of(hp, false);
    let ps = paint(&chart, Format::Ps);
    pslex::check_postscript(&ps, &chart).expect("nothing outside strings and comments");
    if support::tools::require_ghostscript() {
        let shown = ghostscript_shows(&ps).expect("gs prints only what is shown");
        assert!(!shown.is_empty());
    }
}

#[test]
fn a_carriage_return_in_a_text_is_shown_as_itself() {
    let hp = b"JOB \"job\rwith cr\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
        BEGIN_SAMPLE 0.0\ncr\rname\t1\nEND_SAMPLE 0.0\n";
    let chart = chart_of(hp, false);
    let ps = paint(&chart, Format::Ps);
    pslex::check_postscript(&ps, &chart).expect("every string decodes to its text");
}

#[test]
fn svg_is_well_formed_and_shows_the_texts_given() {
    let xmllint = support::tools::require("/usr/bin/xmllint");
    for (i, chart) in charts().iter().enumerate() {
        let svg = paint(chart, Format::Svg);
        let got = xmlcheck::parse_svg(&svg).unwrap_or_else(|e| panic!("profile {i}: {e}"));
        let mut want: Vec<String> = pslex::chart_texts(chart)
            .iter()
            .filter(|t| !t.is_empty())
            .map(|t| xmlcheck::svg_shown(t))
            .collect();
        want.sort();
        let mut texts = got.texts.clone();
        texts.sort();
        assert_eq!(texts, want, "profile {i}");
        assert_eq!(
            got.title,
            Some(xmlcheck::svg_shown(&chart.job)),
            "profile {i}"
        );
        if xmllint {
            let dir = TempDir::in_tmp("xmllint");
            let file = dir.join("chart.svg");
            std::fs::write(&file, &svg).unwrap();
            let out = Cmd::new("/usr/bin/xmllint")
                .arg("--noout")
                .arg(&file)
                .output();
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "profile {i}: xmllint: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// The content streams of an uncompressed PDF.
fn content_streams(pdf: &[u8]) -> Vec<&[u8]> {
    let mut streams = Vec::new();
    let mut rest = pdf;
    while let Some(at) = find(rest, b"stream\n") {
        let body = &rest[at + 7..];
        let end = find(body, b"\nendstream").expect("endstream");
        streams.push(&body[..end]);
        rest = &body[end + b"\nendstream".len()..];
    }
    streams
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The strings of every `Tj` in the PDF's content streams, and an error for anything
/// in them that is not an operator, a number, a font name or such a string.
fn pdf_shown(pdf: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    const PDF_OPS: &[&str] = &[
        "BT", "ET", "Tf", "Td", "Tm", "Tj", "m", "l", "h", "re", "S", "s", "f", "B", "b", "n", "q",
        "Q", "cm", "w", "g", "G", "rg", "RG", "J", "j", "M",
    ];
    let mut shown = Vec::new();
    for stream in content_streams(pdf) {
        let tokens = pslex::lex(stream)?;
        for (k, tok) in tokens.iter().enumerate() {
            match tok {
                pslex::Token::Str(s) => {
                    let next = tokens.get(k + 1);
                    if next != Some(&pslex::Token::Word(b"Tj".to_vec())) {
                        return Err(format!("string {s:?} not followed by Tj"));
                    }
                    shown.push(s.clone());
                }
                pslex::Token::Word(w) => {
                    let w = String::from_utf8_lossy(w);
                    if !(PDF_OPS.contains(&w.as_ref()) || w.parse::<f64>().is_ok()) {
                        return Err(format!("unexpected token {w:?}"));
                    }
                }
                pslex::Token::Literal(_) => {}
                other => return Err(format!("unexpected {other:?}")),
            }
        }
    }
    Ok(shown)
}

fn tool_output(program: &str, args: &[&std::ffi::OsStr]) -> (bool, String) {
    let out = Cmd::new(program).args(args).output();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn pdf_is_valid_and_shows_the_texts_given() {
    let qpdf = support::tools::require("/usr/bin/qpdf");
    let pdftotext = support::tools::require("/usr/bin/pdftotext");
    for (i, chart) in charts().iter().enumerate() {
        let pdf = paint(chart, Format::Pdf);
        let mut shown = pdf_shown(&pdf).unwrap_or_else(|e| panic!("profile {i}: {e}"));
        shown.sort();
        // The PDF shows each text in WinAnsi (no glyph: `?`); empty texts are left out.
        let mut want: Vec<Vec<u8>> = pslex::chart_texts(chart)
            .iter()
            .filter(|t| !t.is_empty())
            .map(|t| to_winansi(t))
            .collect();
        want.sort();
        assert_eq!(shown, want, "profile {i}");
        let dir = TempDir::in_tmp("pdf");
        let file = dir.join("chart.pdf");
        std::fs::write(&file, &pdf).unwrap();
        if qpdf {
            let (ok, text) = tool_output("/usr/bin/qpdf", &["--check".as_ref(), file.as_os_str()]);
            assert!(ok, "profile {i}: qpdf --check: {text}");
        }
        if pdftotext {
            check_pdftotext(i, chart, &file);
        }
    }
}

/// pdftotext finds every key label that is plain printable ASCII, as it was given.
fn check_pdftotext(i: usize, chart: &Chart, file: &Path) {
    let (ok, text) = tool_output(
        "/usr/bin/pdftotext",
        &["-raw".as_ref(), file.as_os_str(), "-".as_ref()],
    );
    assert!(ok, "profile {i}: pdftotext: {text}");
    let labels = chart
        .pages
        .iter()
        .flat_map(|p| p.key.iter().map(|k| &k.label));
    let mut checked = 0;
    for label in labels {
        if label.iter().all(|b| (0x21..0x7f).contains(b)) {
            let label = String::from_utf8_lossy(label);
            assert!(
                text.contains(label.as_ref()),
                "profile {i}: {label:?} not in {text:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "profile {i}: no plain label to look for");
}

#[test]
fn the_binary_writes_the_same_safe_output_in_every_format() {
    // The library checks above hold for what the binary writes: same bytes.
    let dir = TempDir::in_tmp("inject-bin");
    let hp = hostile_profile(0);
    std::fs::write(dir.join("t.hp"), &hp).unwrap();
    for format in [Format::Ps, Format::Svg, Format::Pdf] {
        let ran = run::hp2ps(
            dir.path(),
            &["-t0", "--format", format.name(), "t.hp"],
            run::Input::Null,
        );
        assert_eq!(ran.code, Some(0), "{}", ran.describe());
        let mut opts = RenderOptions::default();
        opts.aggregate.trace_percent = 0.0;
        let (profile, _) = support::read_profile(hp.as_slice()).unwrap();
        let (chart, _) = prepare(profile, None, &opts);
        let want = paint(&chart, format);
        let got = std::fs::read(dir.join(&format!("t.{}", format.extension()))).unwrap();
        assert!(
            got == want,
            "{}: the binary differs from the library",
            format.name()
        );
    }
}

// The PostScript lexer's own tests (`support::pslex` is an oracle of this suite).
mod pslex_self_tests {
    use super::support::pslex::*;

    #[test]
    fn strings_follow_the_plrm() {
        let toks = lex(b"(a\\(b\\)\\\\c) (x(y)z) (\\101\\7a) (l\\\nm) (c\rd)").unwrap();
        let strs: Vec<Vec<u8>> = toks
            .into_iter()
            .map(|t| match t {
                Token::Str(s) => s,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            strs,
            vec![
                b"a(b)\\c".to_vec(),
                b"x(y)z".to_vec(),
                b"A\x07a".to_vec(),
                b"lm".to_vec(),
                b"c\nd".to_vec()
            ]
        );
        assert!(lex(b"(open").is_err());
        assert!(lex(b"a) show").is_err());
    }

    #[test]
    fn a_form_feed_ends_a_comment() {
        let toks = lex(b"%%Title: a\x0cshowpage\n").unwrap();
        assert_eq!(toks.len(), 2);
        assert_eq!(toks[1], Token::Word(b"showpage".to_vec()));
    }
}
