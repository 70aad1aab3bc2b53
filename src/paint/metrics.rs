//! Helvetica text metrics, for painters that place text themselves.
//!
//! Two encodings matter:
//! * The PostScript painter writes the raw bytes of a name and shows them with
//!   `/Helvetica findfont`, whose encoding is StandardEncoding. [`ps_text_width`] is how
//!   wide ghostscript makes such a string, so an EPS bounding box can contain it.
//! * The PDF painter uses the base-14 Helvetica with WinAnsiEncoding, so names are first
//!   decoded to characters and re-encoded with [`to_winansi`].
//!
//! The widths are Nimbus Sans Regular's (metric-compatible with Helvetica, and the font
//! ghostscript substitutes for it), generated into `helvetica_widths.rs` by
//! `scripts/gen-helvetica-metrics.py`.

use super::helvetica_widths::{STANDARD_ENCODING_WIDTHS, WINANSI_80_9F, WINANSI_WIDTHS};

/// What ghostscript advances, in 1/1000 em, for a byte with no glyph in its encoding.
pub use super::helvetica_widths::NOTDEF_WIDTH;
/// How far below and above the baseline the ink of WinAnsi text can reach, in 1/1000 em.
pub use super::helvetica_widths::{WINANSI_INK_BOTTOM, WINANSI_INK_TOP};

/// The character that stands for anything WinAnsi cannot show. WinAnsi has no U+FFFD,
/// and `?` is visible in every viewer.
pub const REPLACEMENT: u8 = b'?';

/// Advance width, in 1/1000 em, of the glyph at a WinAnsiEncoding code. Codes WinAnsi
/// assigns no glyph (0x00–0x1F, 0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D) give 0:
/// [`to_winansi`] never produces them.
pub fn winansi_width(code: u8) -> u16 {
    WINANSI_WIDTHS[code as usize]
}

/// Advance width, in 1/1000 em, of the byte `code` shown with `/Helvetica findfont`
/// (StandardEncoding). Codes with no glyph in StandardEncoding (the control bytes, 0x7F,
/// 0x80–0xA0 and the gaps above) draw `.notdef`, which in ghostscript's Helvetica draws
/// nothing but still advances 278.
pub fn standard_encoding_width(code: u8) -> u16 {
    STANDARD_ENCODING_WIDTHS[code as usize]
}

/// Width in points of WinAnsi-encoded text at `size` points.
pub fn winansi_text_width(winansi: &[u8], size: f64) -> f64 {
    em_width(winansi.iter().map(|&c| winansi_width(c)), size)
}

/// Width in points of raw bytes shown in PostScript with Helvetica at `size` points.
///
/// This is the font's exact advance. Ghostscript truncates each glyph's advance to
/// 1/256 of a device pixel, so its `stringwidth` can be smaller by up to that much per
/// byte (at 72 dpi: 1/256 pt), never larger.
pub fn ps_text_width(bytes: &[u8], size: f64) -> f64 {
    em_width(bytes.iter().map(|&c| standard_encoding_width(c)), size)
}

fn em_width(widths: impl Iterator<Item = u16>, size: f64) -> f64 {
    let total: u64 = widths.map(u64::from).sum();
    total as f64 * size / 1000.0
}

/// Re-encodes a name from the profile as WinAnsi bytes, one byte per character shown.
///
/// The rule:
/// * Valid UTF-8 sequences are decoded, and each character is mapped to WinAnsi.
/// * Each byte of an invalid UTF-8 sequence is taken alone: 0xA0–0xFF as the Latin-1
///   character of that value (GHC writes some `-hd`/`-hy` names in Latin-1, and Latin-1
///   text rarely forms valid UTF-8), anything else as [`REPLACEMENT`]. So Latin-1 text
///   that happens to be valid UTF-8 (such as `Ã©`) is read as UTF-8.
/// * Characters WinAnsi lacks, and control characters (tab included), become
///   [`REPLACEMENT`]: never dropped, so the text keeps one visible mark per character.
pub fn to_winansi(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for chunk in text.utf8_chunks() {
        out.extend(chunk.valid().chars().map(char_to_winansi));
        out.extend(chunk.invalid().iter().map(|&b| invalid_byte_to_winansi(b)));
    }
    out
}

/// The WinAnsi code of a character, or [`REPLACEMENT`].
pub fn char_to_winansi(c: char) -> u8 {
    match c {
        // Printable ASCII and the printable Latin-1 range are the same codes in WinAnsi.
        ' '..='~' | '\u{A0}'..='\u{FF}' => c as u8,
        _ => WINANSI_80_9F
            .iter()
            .find(|(ch, _)| *ch == c)
            .map_or(REPLACEMENT, |&(_, code)| code),
    }
}

/// A byte that is not part of valid UTF-8: Latin-1 when printable there.
fn invalid_byte_to_winansi(b: u8) -> u8 {
    if b >= 0xA0 {
        b
    } else {
        REPLACEMENT
    }
}

/// External tools for the painters' tests.
#[cfg(test)]
pub(crate) mod test_tools {
    use std::process::Command;

    /// Whether CI is set: there, the tools are installed and a missing one is a failure.
    pub fn in_ci() -> bool {
        std::env::var("CI")
            .is_ok_and(|v| !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")))
    }

    /// A command for `program` if it runs; otherwise says loudly that the test is
    /// skipped, or panics under CI.
    pub fn command_or_skip(program: &str) -> Option<Command> {
        match Command::new(program).arg("--version").output() {
            Ok(_) => Some(Command::new(program)),
            Err(e) => {
                assert!(!in_ci(), "{program} is required when CI is set: {e}");
                eprintln!("SKIPPED: {program} not found ({e}); install it to run this test");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut gs = test_tools::command_or_skip("gs")?;
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
}
