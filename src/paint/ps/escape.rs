//! PostScript strings: hp2ps's escaping rules, and a stricter mode that always gives
//! valid strings.

/// Which of hp2ps's escaping rules a string gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// The JOB in the title: hp2ps escapes `(` and `)` only.
    Job,
    /// Key labels: `(`, `)` and `\`.
    Key,
    /// DATE, units and the area text: hp2ps writes them raw.
    Raw,
}

/// Escapes text for a PostScript string literal as hp2ps does. With `valid`, the result
/// always shows exactly the bytes given: the JOB gets its backslashes escaped too, a CR
/// becomes `\r` (a raw CR in a string reads as LF), and raw strings are escaped fully
/// when they are not already valid (unbalanced parentheses, a backslash or a CR). Strings
/// that hp2ps writes correctly come out unchanged.
pub fn escape(text: &[u8], rule: Escape, valid: bool) -> Vec<u8> {
    let escaped = |specials: &[u8]| {
        let mut out = Vec::with_capacity(text.len() + 8);
        for &b in text {
            if b == b'\r' && valid {
                out.extend_from_slice(b"\\r");
                continue;
            }
            if specials.contains(&b) {
                out.push(b'\\');
            }
            out.push(b);
        }
        out
    };
    match rule {
        Escape::Key => escaped(b"()\\"),
        Escape::Job if valid => escaped(b"()\\"),
        Escape::Job => escaped(b"()"),
        Escape::Raw if valid && !is_valid_ps_string(text) => escaped(b"()\\"),
        Escape::Raw => text.to_vec(),
    }
}

/// Whether bytes can sit between `(` and `)` as they are and show as themselves:
/// parentheses balanced, no backslash and no CR.
pub(super) fn is_valid_ps_string(text: &[u8]) -> bool {
    let mut depth = 0i64;
    for &b in text {
        match b {
            b'\\' | b'\r' => return false,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Header comments must stay on one line: LF, CR and FF all end a PostScript comment.
pub(crate) fn one_line(text: &[u8]) -> Vec<u8> {
    text.iter()
        .map(|&b| {
            if matches!(b, b'\n' | b'\r' | 0x0c) {
                b' '
            } else {
                b
            }
        })
        .collect()
}
