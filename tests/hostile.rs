//! Hostile input: every truncation of real profiles, and seeded mutations of the golden
//! inputs through the binary. Each case asserts its outcome: what renders, what is
//! refused and how, and what is left on disk. (The resource cases of docs/robustness.md:
//! `hostile_resources.rs`.)

mod support;

use support::errors::positioned_error_line;
use support::run::{hp2ps, Input};
use support::scratch::assert_same_files;
use support::{golden, pslex, TempDir};

use hp2ps::internals::paint::{write_ps, PsOptions};
use hp2ps::profile::Profile;
use hp2ps::{prepare, LoadError, RenderOptions};
use support::rng::Rng;

/// The PostScript the library renders for `bytes`, with its warnings; or the error.
fn render(bytes: &[u8]) -> Result<(Vec<u8>, usize), LoadError> {
    let (profile, warnings) = support::read_profile(bytes)?;
    let (chart, _) = prepare(profile, None, &RenderOptions::default());
    let mut ps = Vec::new();
    write_ps(&chart, &PsOptions::default(), &mut ps).expect("PostScript to memory");
    Ok((ps, warnings.len()))
}

// ---------------------------------------------------------------------------------------
// Truncation at every byte offset.

/// Whether a line (without its LF) is a whole statement of a GHC-style profile, as a
/// program that stopped writing mid-line could leave it: `KEYWORD 1.5` (with a dot),
/// `name value`, `JOB "closed"`, or only whitespace.
fn is_whole_statement(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let words: Vec<&str> = text.split_ascii_whitespace().collect();
    let float = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit())
            && w.contains('.')
            && w.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    match words.as_slice() {
        [] => true,
        ["MARK" | "BEGIN_SAMPLE" | "END_SAMPLE", t] => float(t),
        ["JOB" | "DATE" | "SAMPLE_UNIT" | "VALUE_UNIT", ..] => {
            text.matches('"').count() >= 2 && text.trim_end().ends_with('"')
        }
        [_, v] => v.chars().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// The reader's rule for a cut-off profile, computed from its lines: a half-written last
/// line is dropped unless it is already a whole statement, then an unfinished last
/// sample is dropped from its BEGIN_SAMPLE on (what precedes it, MARKs included, stays).
fn cut_at_last_complete_sample(prefix: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = prefix.split_inclusive(|&b| b == b'\n').collect();
    if let Some(last) = lines.last() {
        if !last.ends_with(b"\n") && !is_whole_statement(last) {
            lines.pop();
        }
    }
    let first_word = |l: &[u8]| {
        String::from_utf8_lossy(l)
            .split_ascii_whitespace()
            .next()
            .unwrap_or("")
            .to_string()
    };
    let last_begin = lines.iter().rposition(|l| first_word(l) == "BEGIN_SAMPLE");
    if let Some(b) = last_begin {
        if !lines[b..].iter().any(|l| first_word(l) == "END_SAMPLE") {
            lines.truncate(b);
        }
    }
    lines.concat()
}

/// What a cut renders from, or its error.
type Read = Result<(Profile, usize), LoadError>;

/// Where the `.hp` reader's error is (every input here is read as a `.hp`).
fn hp_pos(e: &LoadError) -> hp2ps::Pos {
    match e {
        LoadError::Hp(e) => e.pos().expect("positioned"),
        other => panic!("not the .hp reader's error: {other}"),
    }
}

fn read(bytes: &[u8]) -> Read {
    support::read_profile(bytes).map(|(p, w)| (p, w.len()))
}

/// Every prefix reads to the same profile as its cut at the last complete sample, so it
/// renders the same chart (the rest of the pipeline is a pure function of the profile);
/// the PostScript itself is compared for every distinct cut and every 32nd prefix.
fn check_every_truncation(name: &str) {
    let full = golden(name);
    let mut rendered = 0;
    // The cuts change only at sample boundaries: read each once.
    let mut cut_read: Option<(Vec<u8>, Read)> = None;
    for n in 0..=full.len() {
        let prefix = &full[..n];
        let cut = cut_at_last_complete_sample(prefix);
        let new_cut = cut_read.as_ref().map_or(true, |(c, _)| *c != cut);
        if new_cut {
            cut_read = Some((cut.clone(), read(&cut)));
        }
        let want = &cut_read.as_ref().expect("read above").1;
        match (read(prefix), want) {
            (Ok((profile, warnings)), Ok((want, _))) => {
                assert!(
                    profile == *want,
                    "{name} cut at {n}: differs from the cut at its last complete sample"
                );
                assert_eq!(
                    warnings > 0,
                    cut.len() < prefix.len(),
                    "{name} cut at {n}: a warning iff something was dropped"
                );
                if new_cut || n % 32 == 0 {
                    let (ps, _) = render(prefix).expect("renders");
                    let (cut_ps, _) = render(&cut).expect("renders");
                    assert!(ps == cut_ps, "{name} cut at {n}: the PostScript differs");
                }
                rendered += 1;
            }
            (Err(e), Err(_)) => {
                let pos = hp_pos(&e);
                assert!(pos.line >= 1 && pos.col >= 1, "{name} cut at {n}: {e}");
                assert!(!e.to_string().contains('\n'), "{name} cut at {n}: {e}");
            }
            (Ok(_), Err(e)) => panic!("{name} cut at {n} renders, but its cut is refused: {e}"),
            (Err(e), Ok(_)) => panic!("{name} cut at {n} is refused ({e}), but its cut renders"),
        }
    }
    assert!(
        rendered > full.len() / 2,
        "{name}: only {rendered} prefixes rendered"
    );
}

#[test]
fn every_truncation_of_a_real_ghc_profile_renders_like_its_last_complete_sample() {
    check_every_truncation("arrays-O1-hc.hp");
}

#[test]
fn every_truncation_of_the_man_page_example_keeps_marks_before_the_cut() {
    // Space-separated data lines, trailing spaces and MARKs between samples.
    check_every_truncation("spec7-01-manpage.hp");
}

#[test]
fn the_truncation_rule_itself() {
    let cut = |s: &str| String::from_utf8(cut_at_last_complete_sample(s.as_bytes())).unwrap();
    let head = "JOB \"j\"\nBEGIN_SAMPLE 0.0\na\t1\nEND_SAMPLE 0.0\nMARK 0.5\n";
    assert_eq!(cut(&format!("{head}BEGIN_SAMPLE 1.0\na\t2\n")), head);
    assert_eq!(cut(&format!("{head}MARK 0.")), format!("{head}MARK 0."));
    assert_eq!(cut(&format!("{head}MARK 0")), head);
    assert_eq!(cut(&format!("{head}BEGIN_SAMPLE 1.0\nEND_SAMPLE 1")), head);
    let done = format!("{head}BEGIN_SAMPLE 1.0\nEND_SAMPLE 1.");
    assert_eq!(cut(&done), done);
}

// ---------------------------------------------------------------------------------------
// Seeded mutations through the binary.

const KEYWORD_LINES: &[&[u8]] = &[
    b"BEGIN_SAMPLE 1.0\n",
    b"BEGIN_SAMPLE 0.0\n",
    b"END_SAMPLE 0.0\n",
    b"MARK 0.5\n",
    b"MARK 1e5\n",
    b"JOB \"x\"\n",
    b"DATE \"(\"\n",
    b"VALUE_UNIT \"\\\"\n",
    b"SAMPLE_UNIT\n",
    b"\"\n",
    b"JOB \"unterminated\n",
    b"x\t99999999999999999999999999999999\n",
    b"y 1.5\n",
    b"END_SAMPLE\n",
    b"BEGIN_SAMPLE 100000000000000000.0\n",
    b"\0\xff\xfe\n",
];

fn random_line_start(rng: &mut Rng, data: &[u8]) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(
            data.iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect();
    *rng.pick(&starts)
}

fn random_huge_number(rng: &mut Rng) -> Vec<u8> {
    let digits = *rng.pick(&[20usize, 32, 33, 40, 400, 10_000]);
    let mut n: Vec<u8> = (0..digits).map(|_| b'0' + rng.below(10) as u8).collect();
    n[0] = b'1' + rng.below(9) as u8;
    if rng.chance(1, 2) {
        let at = rng.usize_in(1, n.len() - 1);
        n.insert(at, b'.');
    }
    n
}

/// One mutation: a byte flip, an inserted keyword line, a deleted or repeated line, a
/// huge number, or a cut.
fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    if data.is_empty() {
        data.extend_from_slice(rng.choose(KEYWORD_LINES));
        return;
    }
    match rng.below(7) {
        0 => {
            let i = rng.below(data.len() as u64) as usize;
            data[i] = rng.below(256) as u8;
        }
        1 => {
            let at = random_line_start(rng, data);
            let line = rng.choose(KEYWORD_LINES);
            data.splice(at..at, line.iter().copied());
        }
        2 | 3 => {
            let at = random_line_start(rng, data);
            let end = data[at..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(data.len(), |k| at + k + 1);
            if rng.chance(1, 2) {
                data.drain(at..end);
            } else {
                let line = data[at..end].to_vec();
                data.splice(at..at, line);
            }
        }
        4 | 5 => {
            // Replace a run of digits (a value or a time) with a huge number.
            let digits: Vec<usize> = (0..data.len())
                .filter(|&i| data[i].is_ascii_digit() && (i == 0 || !data[i - 1].is_ascii_digit()))
                .collect();
            if let Some(&at) = (!digits.is_empty()).then(|| rng.pick(&digits)) {
                let end = data[at..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(data.len(), |k| at + k);
                let huge = random_huge_number(rng);
                data.splice(at..end, huge);
            }
        }
        _ => {
            let n = rng.below(data.len() as u64 + 1) as usize;
            data.truncate(n);
        }
    }
}

const OLD_PS: &[u8] = b"%!PS-Adobe-2.0\n% an earlier render, to be kept on failure\n";
// Not what a render could write (no profile has a band named "earlier").
const OLD_AUX: &[u8] = b"X_RANGE 1.00\nY_RANGE 1.00\nORDER earlier 1\n";

/// Runs one mutated input in file mode over earlier outputs, and checks the outcome
/// against the library: rendered exactly as the library renders it, or refused with
/// the library's positioned error, earlier files untouched and no temporary left.
fn check_mutant(case: usize, input: &[u8], gs_sample: &mut Vec<Vec<u8>>) {
    let dir = TempDir::in_tmp("mutant");
    std::fs::write(dir.join("t.hp"), input).unwrap();
    std::fs::write(dir.join("t.ps"), OLD_PS).unwrap();
    std::fs::write(dir.join("t.aux"), OLD_AUX).unwrap();
    let before = dir.snapshot();
    let ran = hp2ps(dir.path(), &["t.hp"], Input::Null);
    let what = format!("mutant {case}: {}", ran.describe());
    assert!(!ran.timed_out && ran.signal.is_none(), "{what}");
    let names: Vec<String> = dir
        .snapshot()
        .iter()
        .map(|(n, _)| n.to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["t.aux", "t.hp", "t.ps"], "{what}: files left");
    match render(input) {
        Ok((want, _)) => {
            assert_eq!(ran.code, Some(0), "{what}");
            let ps = std::fs::read(dir.join("t.ps")).unwrap();
            assert!(
                ps == want,
                "{what}: the binary's PostScript differs from the library's"
            );
            assert!(
                std::fs::read(dir.join("t.aux")).unwrap() != OLD_AUX,
                "{what}"
            );
            if let Err(e) = pslex::lex(&ps) {
                panic!("{what}: {e}");
            }
            gs_sample.push(ps);
        }
        Err(e) => {
            assert_eq!(ran.code, Some(1), "{what}");
            let (line, col) = positioned_error_line(&ran.stderr, "t.hp")
                .unwrap_or_else(|m| panic!("{what}: {m}"));
            let pos = hp_pos(&e);
            assert_eq!((line, col), (pos.line, pos.col), "{what}: library says {e}");
            assert_same_files(
                &before,
                &dir.snapshot(),
                &format!("{what}: a failed run changed files"),
            );
        }
    }
}

#[test]
fn seeded_mutations_of_the_golden_inputs_render_or_are_refused_cleanly() {
    let inputs: Vec<(String, Vec<u8>)> = support::golden_inputs()
        .into_iter()
        .filter(|(_, b)| b.len() < 20_000)
        .collect();
    let mut rng = Rng::new(0x5eed_0005);
    let mut gs_sample = Vec::new();
    let (mut ok, mut refused) = (0, 0);
    for case in 0..300 {
        let (_, original) = rng.pick(&inputs);
        let mut data = original.clone();
        for _ in 0..rng.usize_in(1, 3) {
            mutate(&mut rng, &mut data);
        }
        let before = gs_sample.len();
        check_mutant(case, &data, &mut gs_sample);
        if gs_sample.len() > before {
            ok += 1;
        } else {
            refused += 1;
        }
    }
    // Both outcomes must be well represented for the test to mean anything.
    assert!(ok > 50 && refused > 50, "{ok} rendered, {refused} refused");
    if support::tools::require_ghostscript() {
        for (i, ps) in gs_sample.iter().step_by(8).enumerate() {
            if let Err(e) = support::tools::ghostscript_accepts(ps) {
                panic!("rendered mutant #{i} (of the sample): {e}");
            }
        }
    }
}

/// `-p` with a mutated `.aux`: renders as the library renders with that `.aux`, or is
/// refused with the `.aux` reader's positioned error, every file kept.
#[test]
fn seeded_mutations_of_an_aux_file_render_or_are_refused_cleanly() {
    let aux = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/golden/expected/manpage.aux"
    ))
    .expect("golden aux");
    let profile = golden("spec7-01-manpage.hp");
    let mut rng = Rng::new(0xa0c5);
    let (mut ok, mut refused) = (0, 0);
    for case in 0..80 {
        let mut data = aux.clone();
        for _ in 0..rng.usize_in(1, 3) {
            mutate(&mut rng, &mut data);
        }
        let dir = TempDir::in_tmp("aux-mutant");
        std::fs::write(dir.join("t.hp"), &profile).unwrap();
        std::fs::write(dir.join("t.aux"), &data).unwrap();
        std::fs::write(dir.join("t.ps"), OLD_PS).unwrap();
        let before = dir.snapshot();
        let ran = hp2ps(dir.path(), &["-p", "t.hp"], Input::Null);
        let what = format!("aux mutant {case}: {}", ran.describe());
        match hp2ps::Aux::read(&data) {
            Ok(previous) => {
                assert_eq!(ran.code, Some(0), "{what}");
                let (p, _) = support::read_profile(profile.as_slice()).unwrap();
                let (chart, _) = prepare(p, Some(&previous), &RenderOptions::default());
                let mut want = Vec::new();
                write_ps(&chart, &PsOptions::default(), &mut want).unwrap();
                let got = std::fs::read(dir.join("t.ps")).unwrap();
                assert!(got == want, "{what}: differs from the library's render");
                ok += 1;
            }
            Err(e) => {
                assert_eq!(ran.code, Some(1), "{what}");
                let (line, col) = positioned_error_line(&ran.stderr, "t.aux")
                    .unwrap_or_else(|m| panic!("{what}: {m}"));
                let pos = e
                    .pos()
                    .unwrap_or_else(|| panic!("{what}: no position in {e}"));
                assert_eq!((line, col), (pos.line, pos.col), "{what}: library says {e}");
                assert_same_files(&before, &dir.snapshot(), &what);
                refused += 1;
            }
        }
    }
    assert!(ok > 10 && refused > 10, "{ok} rendered, {refused} refused");
}
