//! A small XML well-formedness checker for the SVG painter's output, and an oracle on
//! top of it: every `<text>` and the `<title>` hold exactly a text of the chart.
//!
//! It accepts the subset of XML the painter writes (a declaration, elements with quoted
//! attributes, character data with entity and character references) and rejects
//! anything else, so a name that escaped its text node fails here. xmllint, run by the
//! tests, is the full check; this one is fast enough for the fuzz targets.
//!
//! Shared by `tests/` and the `fuzz/` targets through `#[path]`.

#![allow(dead_code)]

use hp2ps::internals::chart::Chart;

/// What a document holds: the character data of each `<text>` (its `<tspan>`s
/// included, a `<title>` child not), of the document's `<title>` (a child of the root),
/// and of the tooltips (every other `<title>`), decoded.
#[derive(Debug, Default)]
pub struct Texts {
    pub texts: Vec<String>,
    pub title: Option<String>,
    pub tooltips: Vec<String>,
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.')
}

struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        let near: String = self.rest().chars().take(40).collect();
        Err(format!("{what} at byte {} (near {near:?})", self.i))
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.rest().starts_with(lit) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn spaces(&mut self) -> bool {
        let n = self.rest().len()
            - self
                .rest()
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .len();
        self.i += n;
        n > 0
    }

    fn name(&mut self) -> Result<&'a str, String> {
        let n = self
            .rest()
            .find(|c: char| !is_name_char(c))
            .unwrap_or(self.rest().len());
        if n == 0 {
            return self.err("expected a name");
        }
        let name = &self.rest()[..n];
        self.i += n;
        Ok(name)
    }

    /// Character data up to the next `<`, references decoded. `in_attr` also stops at
    /// the closing quote.
    fn chars(&mut self, quote: Option<char>) -> Result<String, String> {
        let mut out = String::new();
        loop {
            let Some(c) = self.rest().chars().next() else {
                return Ok(out);
            };
            if c == '<' || Some(c) == quote {
                return Ok(out);
            }
            if !is_xml_char(c) {
                return self.err("a character XML forbids");
            }
            if c == '&' {
                out.push(self.reference()?);
                continue;
            }
            if quote.is_none() && self.rest().starts_with("]]>") {
                return self.err("']]>' in character data");
            }
            self.i += c.len_utf8();
            out.push(c);
        }
    }

    fn reference(&mut self) -> Result<char, String> {
        let Some(end) = self.rest().find(';') else {
            return self.err("an unterminated reference");
        };
        let body = &self.rest()[1..end];
        let c = match body {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let code = if let Some(hex) = body.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = body.strip_prefix('#') {
                    dec.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32).filter(|&c| is_xml_char(c))
            }
        };
        match c {
            Some(c) => {
                self.i += end + 1;
                Ok(c)
            }
            None => self.err("a bad reference"),
        }
    }

    fn attributes(&mut self) -> Result<(), String> {
        let mut seen: Vec<&str> = Vec::new();
        loop {
            let had_space = self.spaces();
            if self.rest().starts_with('>') || self.rest().starts_with("/>") {
                return Ok(());
            }
            if !had_space {
                return self.err("attributes must be separated by spaces");
            }
            let name = self.name()?;
            if seen.contains(&name) {
                return self.err("a repeated attribute");
            }
            seen.push(name);
            if !self.eat("=") {
                return self.err("expected '='");
            }
            let quote = match self.rest().chars().next() {
                Some(q @ ('"' | '\'')) => q,
                _ => return self.err("expected a quoted value"),
            };
            self.i += 1;
            self.chars(Some(quote))?;
            if !self.eat(&quote.to_string()) {
                return self.err("'<' in an attribute value");
            }
        }
    }
}

/// Checks that `svg` is a well-formed document with one `<svg>` root, and returns its
/// texts.
pub fn parse_svg(svg: &[u8]) -> Result<Texts, String> {
    let s = std::str::from_utf8(svg).map_err(|e| format!("not UTF-8: {e}"))?;
    let mut p = Parser { s, i: 0 };
    if !p.eat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>") {
        return p.err("expected the XML declaration");
    }
    let mut stack: Vec<&str> = Vec::new();
    let mut texts = Texts::default();
    let mut current: Option<String> = None;
    let mut roots = 0;
    loop {
        let data = p.chars(None)?;
        if stack.is_empty() && !data.trim().is_empty() {
            return p.err("text outside the root element");
        }
        let in_text_title = stack.last() == Some(&"title") && stack.contains(&"text");
        if let Some(t) = current.as_mut().filter(|_| !in_text_title) {
            t.push_str(&data);
        }
        if p.rest().is_empty() {
            break;
        }
        if p.eat("</") {
            let name = p.name()?;
            p.spaces();
            if !p.eat(">") {
                return p.err("expected '>'");
            }
            if stack.pop() != Some(name) {
                return p.err("a mismatched end tag");
            }
            if matches!(name, "text" | "title") && !stack.contains(&"text") {
                let t = current.take().unwrap_or_default();
                if name == "text" {
                    texts.texts.push(t);
                } else if stack == ["svg"] {
                    texts.title = Some(t);
                } else {
                    texts.tooltips.push(t);
                }
            }
        } else if p.eat("<!--") {
            match p.rest().find("-->") {
                Some(k) if !p.rest()[..k].contains("--") => p.i += k + 3,
                _ => return p.err("a bad comment"),
            }
        } else if p.eat("<") {
            let name = p.name()?;
            if stack.is_empty() {
                roots += 1;
            }
            p.attributes()?;
            if p.eat("/>") {
                continue;
            }
            p.eat(">");
            if matches!(name, "text" | "title") && current.is_none() {
                current = Some(String::new());
            }
            stack.push(name);
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(texts)
}

/// What the SVG shows for `text`: valid UTF-8 as it is, invalid sequences and the
/// characters XML cannot hold as U+FFFD.
pub fn svg_shown(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .chars()
        .map(|c| if is_xml_char(c) { c } else { '\u{fffd}' })
        .collect()
}

/// Checks the SVG of `chart`: well-formed, and every text one of the chart's texts, or
/// (a text that runs past the page's edge, whose glyphs there are left out) a part of
/// one.
pub fn check_svg(svg: &[u8], chart: &Chart, texts_of_chart: &[Vec<u8>]) -> Result<(), String> {
    let got = parse_svg(svg)?;
    let allowed: Vec<String> = texts_of_chart.iter().map(|t| svg_shown(t)).collect();
    for t in &got.texts {
        let part = !t.is_empty() && allowed.iter().any(|a| a.contains(t.as_str()));
        if !allowed.contains(t) && !part {
            return Err(format!("text {t:?} is no text of the chart"));
        }
    }
    if got.title.as_deref() != Some(svg_shown(&chart.job).as_str()) {
        return Err(format!(
            "title {:?} is not the JOB {:?}",
            got.title,
            svg_shown(&chart.job)
        ));
    }
    Ok(())
}
