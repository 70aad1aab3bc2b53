//! The page's data is one JSON document in a `<script type="application/json">` element,
//! which the page's script reads; [`Json`] writes it, field by field, as the page's head
//! and panels give their parts (the format is in `docs/formats.md`).
//!
//! Escaping: the JSON sits inside an HTML `<script>` element, which ends at the first
//! `</script` whatever JSON thinks of it. So `<`, `>` and `&` are written as `\u003c`,
//! `\u003e` and `\u0026` (which only occur inside JSON strings), and so are U+2028 and
//! U+2029, which some JavaScript parsers took for line ends. A band named `</script>`
//! stays a string.

use std::io::Write as _;

/// A JSON text being written.
pub(crate) struct Json {
    out: Vec<u8>,
}

impl Json {
    pub(crate) fn new() -> Json {
        Json { out: Vec::new() }
    }

    /// The text, escaped for a `<script>` element (see the module docs). Byte by byte:
    /// the characters replaced are ASCII, or U+2028 and U+2029 (E2 80 A8, E2 80 A9), and
    /// the text is UTF-8 (written from strings), so no replacement splits a character.
    pub(crate) fn into_script_text(self) -> String {
        let text = self.out;
        let mut safe = Vec::with_capacity(text.len() + text.len() / 64);
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'<' => safe.extend_from_slice(b"\\u003c"),
                b'>' => safe.extend_from_slice(b"\\u003e"),
                b'&' => safe.extend_from_slice(b"\\u0026"),
                0xE2 if text.get(i + 1) == Some(&0x80)
                    && matches!(text.get(i + 2), Some(0xA8 | 0xA9)) =>
                {
                    let last = if text[i + 2] == 0xA8 { b'8' } else { b'9' };
                    safe.extend_from_slice(b"\\u202");
                    safe.push(last);
                    i += 2;
                }
                b => safe.push(b),
            }
            i += 1;
        }
        String::from_utf8(safe)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    pub(crate) fn raw(&mut self, s: &str) {
        self.out.extend_from_slice(s.as_bytes());
    }

    /// `"key":`, after a comma unless it opens the object.
    pub(crate) fn key(&mut self, key: &str) {
        if !matches!(self.out.last(), Some(b'{')) {
            self.out.push(b',');
        }
        self.string(key);
        self.out.push(b':');
    }

    /// A JSON string.
    pub(crate) fn string(&mut self, s: &str) {
        // serde_json escapes quotes, backslashes and control characters; writing into a
        // vector cannot fail.
        if serde_json::to_writer(&mut self.out, s).is_err() {
            self.raw("\"\"");
        }
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.string(&String::from_utf8_lossy(b));
    }

    /// A number: an integer when it is one (values of a `.hp` are), else the shortest
    /// text that reads back as the same double; `null` when not finite.
    pub(crate) fn number(&mut self, v: f64) {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        if !v.is_finite() {
            self.raw("null");
        } else if v.fract() == 0.0 && v.abs() <= EXACT {
            // Straight into the text, without a string of its own: a page writes
            // hundreds of thousands of numbers.
            let _ = write!(self.out, "{}", v as i64);
        } else {
            // Debug is the shortest round trip, with an exponent for huge and tiny
            // numbers (which JSON allows).
            let _ = write!(self.out, "{v:?}");
        }
    }

    pub(crate) fn numbers(&mut self, vs: impl IntoIterator<Item = f64>) {
        self.list(vs, |j, v| j.number(v));
    }

    pub(crate) fn list<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut item: impl FnMut(&mut Json, T),
    ) {
        self.out.push(b'[');
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            item(self, x);
        }
        self.out.push(b']');
    }

    pub(crate) fn object(&mut self, fields: impl FnOnce(&mut Json)) {
        self.out.push(b'{');
        fields(self);
        self.out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_integers_when_they_are_and_never_invalid_json() {
        let mut j = Json::new();
        j.numbers([
            3.0,
            -0.0,
            0.25,
            1e300,
            1e-7,
            f64::NAN,
            f64::INFINITY,
            9.007e15,
        ]);
        let text = j.into_script_text();
        assert_eq!(text, "[3,0,0.25,1e300,1e-7,null,null,9007000000000000]");
        let back: Vec<Option<f64>> = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back[2], Some(0.25));
    }

    #[test]
    fn nothing_in_a_string_can_end_the_script_element() {
        let mut j = Json::new();
        j.list(
            [
                "</script><script>alert(1)</script>",
                "a & b",
                "<!--",
                "\u{2028}\u{2029}",
                "\"\\\n",
            ],
            |j, s| j.string(s),
        );
        let text = j.into_script_text();
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}", "\n"] {
            assert!(!text.contains(bad), "{bad:?} in {text}");
        }
        let back: Vec<String> = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back[0], "</script><script>alert(1)</script>");
        assert_eq!(back[3], "\u{2028}\u{2029}");
        assert_eq!(back[4], "\"\\\n");
    }
}
