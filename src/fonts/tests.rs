//! Tests of the Helvetica metrics, against ghostscript where it is installed.

use super::*;
use std::process::Command;

#[test]
fn ascii_and_latin1_map_to_themselves() {
    assert_eq!(to_winansi(b"SYSTEM (x)"), b"SYSTEM (x)");
    assert_eq!(to_winansi("café ÿ".as_bytes()), b"caf\xe9 \xff");
}

#[test]
fn windows_1252_extras_map_to_0x80_range() {
    assert_eq!(
        to_winansi("€ – “q” •".as_bytes()),
        b"\x80 \x96 \x93q\x94 \x95"
    );
}

#[test]
fn unshowable_characters_become_visible_replacements() {
    // One `?` per character, whatever its UTF-8 length.
    assert_eq!(to_winansi("a→b😀c".as_bytes()), b"a?b?c");
    assert_eq!(to_winansi("Ω".as_bytes()), b"?");
    assert_eq!(to_winansi(b"a\tb\x7f\x01"), b"a?b??");
    // C1 controls, even written as valid UTF-8.
    assert_eq!(to_winansi("\u{85}".as_bytes()), b"?");
}

#[test]
fn invalid_utf8_reads_as_latin1_bytes() {
    // Latin-1 "café!" and "éé": 0xE9 starts a 3-byte UTF-8 sequence that never ends.
    assert_eq!(to_winansi(b"caf\xe9!"), b"caf\xe9!");
    assert_eq!(to_winansi(b"\xe9\xe9"), b"\xe9\xe9");
    assert_eq!(to_winansi(b"x\xe9"), b"x\xe9");
    // Stray continuation bytes below 0xA0 are not printable Latin-1.
    assert_eq!(to_winansi(b"a\x80\x9fb"), b"a??b");
    // A truncated euro sign: 0xE2 is Latin-1 `â`, 0x82 is not printable.
    assert_eq!(to_winansi(b"\xe2\x82x"), b"\xe2?x");
}

#[test]
fn every_output_code_has_a_glyph() {
    let all: Vec<u8> = (0..=255).collect();
    let mut text = to_winansi(&all);
    text.extend(to_winansi("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ".as_bytes()));
    for c in text {
        assert!(winansi_width(c) > 0, "code {c:#04x} has no glyph");
    }
}

#[test]
fn widths_in_points() {
    // S Y S T E M = 667 + 667 + 667 + 611 + 667 + 833.
    assert_eq!(ps_text_width(b"SYSTEM", 10.0), 41.12);
    assert_eq!(winansi_text_width(b"SYSTEM", 10.0), 41.12);
    // Where the encodings differ: 0x27 is quoteright (222) vs quotesingle (191).
    assert_eq!(standard_encoding_width(b'\''), 222);
    assert_eq!(winansi_width(b'\''), 191);
    // Unencoded bytes still advance in PostScript.
    assert_eq!(ps_text_width(b"\x00\x80", 10.0), 5.56);
    assert_eq!(winansi_width(0x81), 0);
}

/// Runs a PostScript program in ghostscript and returns the numbers it prints, or
/// `None` (after saying so) when gs is missing.
fn gs_numbers(program: &str) -> Option<Vec<f64>> {
    let mut gs = command_or_skip("gs")?;
    let output = gs
        .args(["-q", "-dNODISPLAY", "-dBATCH", "-dNOPAUSE", "-c", program])
        .output()
        .expect("gs runs");
    assert!(output.status.success(), "gs failed: {output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    Some(
        text.split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect(),
    )
}

/// PostScript that prints the width, at 1000 pt, of every code 0..=255 in `font`.
fn all_code_widths(font: &str) -> String {
    format!(
        "{font} 1000 scalefont setfont \
         0 1 255 {{ 1 string dup 0 4 -1 roll put stringwidth pop = }} for"
    )
}

#[test]
fn standard_encoding_widths_match_ghostscript() {
    let Some(gs) = gs_numbers(&all_code_widths("/Helvetica findfont")) else {
        return;
    };
    assert_eq!(gs.len(), 256);
    for (code, w) in gs.iter().enumerate() {
        assert_eq!(
            *w,
            standard_encoding_width(code as u8) as f64,
            "code {code:#04x}"
        );
    }
}

#[test]
fn winansi_widths_match_ghostscript() {
    let reencoded = "/Helvetica findfont dup length dict copy \
         dup /Encoding /WinAnsiEncoding /Encoding findresource put \
         /HelveticaWinAnsi exch definefont";
    let Some(gs) = gs_numbers(&all_code_widths(reencoded)) else {
        return;
    };
    assert_eq!(gs.len(), 256);
    for (code, w) in gs.iter().enumerate() {
        let ours = winansi_width(code as u8);
        // gs fills WinAnsi's unassigned codes with `bullet`; we never emit them.
        if ours != 0 {
            assert_eq!(*w, ours as f64, "code {code:#04x}");
        }
    }
}

#[test]
fn string_widths_match_ghostscript_at_10pt() {
    let samples: [&[u8]; 5] = [
        b"SYSTEM",
        b"MAIN.main.go (x)",
        "caf\u{e9} \u{20ac}5 \u{2192}".as_bytes(),
        b"\xe9\xe4\x80\x9f\ttab\x00",
        b"\xa1\xa4\xa7\xa8\xc1\xe1\xe8\xea\xfb\xff",
    ];
    let program: String = samples
        .iter()
        .map(|s| format!("({}) stringwidth pop =\n", octal_escaped(s)))
        .collect();
    let Some(gs) = gs_numbers(&format!(
        "/Helvetica findfont 10 scalefont setfont {program}"
    )) else {
        return;
    };
    for (s, w) in samples.iter().zip(&gs) {
        let ours = ps_text_width(s, 10.0);
        // gs truncates each advance to 1/256 pt at 72 dpi.
        let slack = s.len() as f64 / 256.0 + 1e-9;
        assert!(
            *w <= ours + 1e-9 && ours - w <= slack,
            "{s:?}: gs {w}, ours {ours}"
        );
    }
}

fn octal_escaped(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:03o}")).collect()
}

/// Whether CI is set: there, the tools are installed and a missing one is a failure.
fn in_ci() -> bool {
    std::env::var("CI")
        .is_ok_and(|v| !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")))
}

/// A command for `program` if it runs; otherwise says loudly that the test is
/// skipped, or panics under CI.
fn command_or_skip(program: &str) -> Option<Command> {
    match Command::new(program).arg("--version").output() {
        Ok(_) => Some(Command::new(program)),
        Err(e) => {
            assert!(!in_ci(), "{program} is required when CI is set: {e}");
            eprintln!("SKIPPED: {program} not found ({e}); install it to run this test");
            None
        }
    }
}

#[test]
fn one_ink_range_holds_the_font_box_and_every_winansi_glyph() {
    assert_eq!(INK.bottom, -0.225);
    assert_eq!(INK.top, 0.953);
}
