//! The page's script and style as the page carries them: the hand-written sources of
//! `assets/`, readable as written, with their comments and the spaces that separate
//! nothing left out. The same sources always give the same bytes (the page's
//! Content-Security-Policy names them by their hash), and no name or string changes:
//! this drops what the browser skips anyway, and writes the keyword `const` as `let`
//! (which behaves alike where nothing assigns to the name again, and a `const` that is
//! assigned to throws).
//!
//! The script is read token by token, as far as telling code from strings, template
//! literals, regular expressions and comments needs (a `/` starts a regular expression
//! where an operand is expected: after an operator, a bracket or a keyword such as
//! `return`). A run of spaces becomes nothing, or one space where two words, or two
//! `+`, `-` or `/`, would otherwise run together, or `<` and `!` would start an HTML
//! comment. A run that held a line end stays a line end unless the character before it
//! can end no statement (an opening bracket, `;`, `,`, `:` or a binary operator's last
//! character) or the one after it cannot start one (a closing bracket, `;`, `,`, `.`,
//! `:`, `?` or a binary operator's first character other than `+`, `-` and `/`), so
//! that no semicolon JavaScript inserts at a line end is lost. A template literal is
//! copied as it is, and must not hold another one.
//!
//! The style loses its comments, and its spaces beside `{ } ; , >` and after `:`
//! (never before one: `a :hover` is not `a:hover`); strings stay as they are.

/// Characters of names and numbers.
fn wordy(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || !c.is_ascii()
}

/// Keywords after which a `/` starts a regular expression, not a division.
const BEFORE_OPERAND: [&str; 13] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
];

/// The script without comments and needless spaces (see the module docs).
pub(super) fn script(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    // The last token written when it is a word, to tell `return /re/` from `x / y`.
    let mut word = String::new();
    let mut i = 0;
    let mut space = Space::None;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            space = space.and(if c == '\n' { Space::Line } else { Space::Blank });
            i += 1;
            continue;
        }
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            let end = find(&chars, i + 2, &['*', '/']).unwrap_or(chars.len());
            let text: String = chars[i..end.min(chars.len())].iter().collect();
            space = space.and(if text.contains('\n') {
                Space::Line
            } else {
                Space::Blank
            });
            i = end + 2;
            continue;
        }
        let last = out.chars().last();
        let regex_starts = c == '/' && operand_expected(last, &word);
        separate(&mut out, space, last, c, regex_starts);
        space = Space::None;
        let start = i;
        i = match c {
            '\'' | '"' | '`' => quoted(&chars, i, c),
            '/' if regex_starts => regex(&chars, i),
            c if wordy(c) => (i..chars.len())
                .find(|&k| !wordy(chars[k]))
                .unwrap_or(chars.len()),
            _ => i + 1,
        };
        word.clear();
        if wordy(c) {
            word.extend(&chars[start..i]);
        }
        // `let` is `const` that nobody assigns to, in two letters fewer.
        if word == "const" && last != Some('.') {
            out.push_str("let");
        } else {
            out.extend(&chars[start..i.min(chars.len())]);
        }
    }
    out.trim_end().to_string()
}

/// The spaces between two tokens.
#[derive(Clone, Copy, PartialEq)]
enum Space {
    None,
    Blank,
    Line,
}

impl Space {
    fn and(self, other: Space) -> Space {
        match (self, other) {
            (Space::Line, _) | (_, Space::Line) => Space::Line,
            _ => Space::Blank,
        }
    }
}

/// Characters that end no statement: a line end after them is a space.
const ENDS_NOTHING: &str = "{;,([:=&|?*%^<>!~";

/// Characters that start no statement: a line end before them is a space.
const STARTS_NOTHING: &str = "}),];.:?=&|*%^<>";

/// Writes what the spaces before `c` must become, after `last` (`regex`: `c` starts a
/// regular expression, which stays apart from a keyword before it).
fn separate(out: &mut String, space: Space, last: Option<char>, c: char, regex: bool) {
    let Some(last) = last else { return };
    match space {
        Space::None => {}
        Space::Line if !ENDS_NOTHING.contains(last) && !STARTS_NOTHING.contains(c) => {
            out.push('\n')
        }
        _ => {
            let joined = (wordy(last) && wordy(c))
                || (last == c && "+-/".contains(c))
                || (last == '/' && c == '*')
                || (last == '<' && c == '!')
                || (wordy(last) && regex);
            if joined {
                out.push(' ');
            }
        }
    }
}

/// Whether a `/` after `last` (and the word `word` just before it) starts a regular
/// expression.
fn operand_expected(last: Option<char>, word: &str) -> bool {
    match last {
        None => true,
        Some(c) if wordy(c) => BEFORE_OPERAND.contains(&word),
        Some(c) => !")]}'\"`".contains(c),
    }
}

/// The index after the string that starts at `i` with `quote` (escapes skipped).
fn quoted(chars: &[char], i: usize, quote: char) -> usize {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    chars.len()
}

/// The index after the regular expression that starts at `i`, with its flags.
fn regex(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    let mut class = false;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '[' => class = true,
            ']' => class = false,
            '/' if !class => break,
            '\n' => return j,
            _ => {}
        }
        j += 1;
    }
    j += 1;
    while j < chars.len() && chars[j].is_ascii_alphabetic() {
        j += 1;
    }
    j
}

/// Where `pattern` next starts at or after `from`.
fn find(chars: &[char], from: usize, pattern: &[char]) -> Option<usize> {
    (from..chars.len()).find(|&k| chars[k..].starts_with(pattern))
}

/// The style without comments and needless spaces (see the module docs).
pub(super) fn style(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let mut space = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            space = true;
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i = find(&chars, i + 2, &['*', '/']).map_or(chars.len(), |e| e + 2);
            space = true;
            continue;
        }
        let last = out.chars().last();
        if space && last.is_some_and(|l| !"{};,>:".contains(l)) && !"{};,>".contains(c) {
            out.push(' ');
        }
        space = false;
        if c == '}' && out.ends_with(';') {
            out.pop();
        }
        let start = i;
        i = match c {
            '\'' | '"' => quoted(&chars, i, c),
            _ => i + 1,
        };
        out.extend(&chars[start..i.min(chars.len())]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_spaces_go_and_names_stay_apart() {
        let js = "// a comment\nconst a = b + c; /* more */\n  let x = typeof y;\nif (a) {\n  f(a, b);\n}\n";
        assert_eq!(script(js), "let a=b+c;let x=typeof y;if(a){f(a,b);}");
        assert_eq!(script("x.const = constant"), "x.const=constant");
    }

    #[test]
    fn strings_templates_and_regexes_are_copied_as_they_are() {
        let js = "s = 'a  // b' + \"c /* d */\" + `e  ${f}  g`;\nr = /[/ ]+\\/  x/gi.test(s); q = a / b / c;";
        assert_eq!(
            script(js),
            "s='a  // b'+\"c /* d */\"+`e  ${f}  g`;r=/[/ ]+\\/  x/gi.test(s);q=a/b/c;"
        );
        assert_eq!(script("return /a b/.test(x)"), "return /a b/.test(x)");
        assert_eq!(script("x = (a) / 2 / (b)"), "x=(a)/2/(b)");
    }

    #[test]
    fn line_ends_that_may_end_a_statement_stay() {
        // `return` alone on its line returns nothing; `i++` then `j` are two statements.
        assert_eq!(script("return\nx"), "return\nx");
        assert_eq!(script("i++\nj"), "i++\nj");
        assert_eq!(script("a = b\n(c)"), "a=b\n(c)");
        assert_eq!(script("f(a,\n  b\n)"), "f(a,b)");
        assert_eq!(script("x = 1\n}"), "x=1}");
        assert_eq!(script("a\n.b()"), "a.b()");
    }

    #[test]
    fn operators_that_would_merge_keep_a_space() {
        assert_eq!(script("a + +b; c - -d; e < !f"), "a+ +b;c- -d;e< !f");
        assert_eq!(script("a - +b"), "a-+b");
    }

    #[test]
    fn the_style_keeps_its_selectors_and_values() {
        let css = "/* c */\n.a .b > c:hover, d :not(.e) {\n  border: 1px solid var(--x);\n  content: \" \\25B2\";\n}\n@media (max-width: 900px) { .f { g: calc(1px + 2px); } }\n";
        assert_eq!(
            style(css),
            ".a .b>c:hover,d :not(.e){border:1px solid var(--x);content:\" \\25B2\"}@media (max-width:900px){.f{g:calc(1px + 2px)}}"
        );
    }
}
