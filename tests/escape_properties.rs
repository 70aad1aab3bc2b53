//! Properties of the PostScript string escaper, checked on random cases with proptest:
//! ghostscript shows exactly the bytes given. (The reader and the aggregation:
//! `properties.rs`.)

mod support;

use support::{pslex, Cmd};

use hp2ps::internals::paint::{ps_escape as escape, PsEscape as Escape};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

// ---------------------------------------------------------------------------------------
// The PostScript string escaper, through ghostscript.

/// `show` prints the hex of its string on a line of its own (see tests/injection.rs).
const SHOW_PROBE: &str = "/hexdigits (0123456789abcdef) def\n\
/show { (SHOW ) print { dup -4 bitshift hexdigits exch 1 getinterval print \
15 and hexdigits exch 1 getinterval print } forall (\\n) print } bind def\n";

/// What gs shows for `(escaped) show` of each text, in order.
fn ghostscript_shows(escaped: &[Vec<u8>]) -> Vec<Vec<u8>> {
    // One directory per call: tests run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hp2ps-prop-gs-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ps = SHOW_PROBE.as_bytes().to_vec();
    for e in escaped {
        ps.push(b'(');
        ps.extend_from_slice(e);
        ps.extend_from_slice(b") show\n");
    }
    std::fs::write(dir.join("s.ps"), &ps).unwrap();
    let out = Cmd::new(support::tools::GHOSTSCRIPT)
        .args([
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=nullpage",
            "-q",
            "s.ps",
        ])
        .current_dir(&dir)
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "gs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let hex = l
                .strip_prefix("SHOW ")
                .unwrap_or_else(|| panic!("gs printed {l:?}"));
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect()
}

/// Bytes rich in what matters to PostScript strings.
fn ps_text(with_cr: bool) -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => proptest::sample::select(b"()\\%\n\t\x0c\x00 <>/".to_vec()),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..24).prop_map(move |mut v| {
        if !with_cr {
            v.retain(|&b| b != b'\r');
        }
        v
    })
}

fn rule() -> impl Strategy<Value = Escape> {
    prop_oneof![Just(Escape::Key), Just(Escape::Job), Just(Escape::Raw)]
}

/// Escapes each text with its rule, shows them all in one gs run, and compares.
fn escaper_round_trip(cases: &[(Vec<u8>, Escape)]) -> Result<(), TestCaseError> {
    let escaped: Vec<Vec<u8>> = cases.iter().map(|(t, r)| escape(t, *r, true)).collect();
    // The strict lexer agrees before gs is asked.
    for ((text, _), e) in cases.iter().zip(&escaped) {
        let mut ps = vec![b'('];
        ps.extend_from_slice(e);
        ps.extend_from_slice(b") show");
        let toks = pslex::lex(&ps).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&toks[0], &pslex::Token::Str(text.clone()));
    }
    let shown = ghostscript_shows(&escaped);
    let given: Vec<Vec<u8>> = cases.iter().map(|(t, _)| t.clone()).collect();
    prop_assert_eq!(shown, given);
    Ok(())
}

proptest! {
    // Each case is one gs run over 64 texts.
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn ghostscript_shows_exactly_the_bytes_the_escaper_was_given(
        cases in proptest::collection::vec((ps_text(false), rule()), 64),
    ) {
        if support::tools::require_ghostscript() {
            escaper_round_trip(&cases)?;
        }
    }
}

#[test]

fn ghostscript_shows_a_carriage_return_as_given() {
    if support::tools::require_ghostscript() {
        let cases = vec![
            (b"a\rb".to_vec(), Escape::Key),
            (b"\r\n".to_vec(), Escape::Job),
            (b"x\ry".to_vec(), Escape::Raw),
        ];
        escaper_round_trip(&cases).unwrap();
    }
}
