//! Tests of the PostScript painter.

use super::escape::*;

#[test]
fn escaping_rules() {
    assert_eq!(escape(b"a(b)\\c", Escape::Key, true), b"a\\(b\\)\\\\c");
    assert_eq!(escape(b"j(ob)\\x", Escape::Job, false), b"j\\(ob\\)\\x");
    assert_eq!(escape(b"j(ob)\\x", Escape::Job, true), b"j\\(ob\\)\\\\x");
    assert_eq!(escape(b"(balanced)", Escape::Raw, true), b"(balanced)");
    assert_eq!(escape(b"(", Escape::Raw, true), b"\\(");
    assert_eq!(escape(b"(", Escape::Raw, false), b"(");
    assert_eq!(escape(b")(", Escape::Raw, true), b"\\)\\(");
    assert_eq!(escape(b"a\\b", Escape::Raw, true), b"a\\\\b");
    assert_eq!(escape(b"a\rb", Escape::Key, true), b"a\\rb");
    assert_eq!(escape(b"a\rb", Escape::Raw, true), b"a\\rb");
    assert_eq!(escape(b"a\rb", Escape::Raw, false), b"a\rb");
}
