//! A report table's columns ([`Layout`], from its header line) and a row cut into them
//! ([`Layout::split`]).
//!
//! GHC pads each text column to its widest entry (in characters: code points) and
//! right-aligns the numbers, so a row's module starts under the header's `MODULE` and its
//! source location under `SRC`, whatever the label holds (spaces, TABs). The numbers are
//! taken from the right, one whitespace-separated token each, so a label or a location
//! with spaces in it (`<no location info>`, `C:\My Files\M.hs:1:1`) stays whole. Two
//! things go wrong in real files, and are read anyway: a name longer than its column
//! glues to the number after it (ghc-prof's `purs.prof`: `…Declarations104975`), and a
//! row that is not where the header says (a file edited by hand) is read by the spaces
//! between its cells, the module being the last module-like word before the location.

/// A numeric column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Num {
    No,
    Entries,
    Time,
    Alloc,
    InheritedTime,
    InheritedAlloc,
    Ticks,
    Bytes,
}

impl Num {
    /// Whether its values are integers (else decimals: shares in percent).
    fn is_integer(self) -> bool {
        matches!(self, Num::No | Num::Entries | Num::Ticks | Num::Bytes)
    }
}

/// The most numeric columns a table has.
pub(super) const MAX_NUMBERS: usize = 8;

/// Where a table's columns are.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Layout {
    /// The character column where `MODULE` starts.
    module: usize,
    /// The one where `SRC` starts (GHC 8.0 and later).
    src: Option<usize>,
    /// The numeric columns, left to right.
    pub(super) numbers: Vec<Num>,
    /// Where each numeric column's header word ends (its character column + 1): GHC
    /// right-aligns the numbers there.
    ends: Vec<usize>,
    /// [`tenths`].
    tenths: Vec<f64>,
}

/// How a row was cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Fit {
    /// Where the header says.
    #[default]
    Aligned,
    /// By the spaces between its cells.
    Loose,
    /// A module glued to the number after it, told apart.
    Glued,
}

/// A row cut into its cells (bytes of the line: a name is made text only when a cost
/// centre is new).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Cells<'a> {
    /// Its indentation (the depth of a tree's row).
    pub(super) indent: usize,
    pub(super) label: &'a [u8],
    pub(super) module: &'a [u8],
    /// Empty when the table has no `SRC`.
    pub(super) src: &'a [u8],
    /// A module glued to its number: the whole token (empty otherwise).
    pub(super) glued: &'a [u8],
    /// The numbers, as [`Layout::numbers`] orders them: integers, and decimals.
    pub(super) ints: [u64; MAX_NUMBERS],
    pub(super) floats: [f64; MAX_NUMBERS],
    pub(super) fit: Fit,
}

/// A row's label, module and source location.
type Names<'a> = (&'a [u8], &'a [u8], &'a [u8]);

fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

impl Layout {
    /// The layout of a header line (`COST CENTRE  MODULE  SRC  no.  entries  %time …`);
    /// `Err` with the first word it does not know.
    pub(super) fn of(header: &str) -> Result<Layout, String> {
        let rest = header
            .strip_prefix("COST CENTRE")
            .ok_or_else(|| header.chars().take(20).collect::<String>())?;
        let mut layout = Layout {
            module: 0,
            src: None,
            numbers: Vec::new(),
            ends: Vec::new(),
            tenths: tenths(),
        };
        let col = "COST CENTRE".len();
        let mut shares = 0;
        for (at, word) in words(rest.as_bytes()) {
            // Words are cut at ASCII spaces: each is text, and `at` a character's start.
            let word = std::str::from_utf8(word).unwrap_or("?");
            let at = col + rest[..at].chars().count();
            let num = match word {
                "MODULE" if layout.module == 0 => {
                    layout.module = at;
                    continue;
                }
                "SRC" if layout.module > 0 && layout.src.is_none() => {
                    layout.src = Some(at);
                    continue;
                }
                "no." => Num::No,
                "entries" => Num::Entries,
                "%time" | "%alloc" => {
                    shares += 1;
                    match (word, shares > 2) {
                        ("%time", false) => Num::Time,
                        ("%alloc", false) => Num::Alloc,
                        ("%time", true) => Num::InheritedTime,
                        _ => Num::InheritedAlloc,
                    }
                }
                "ticks" => Num::Ticks,
                "bytes" => Num::Bytes,
                other => return Err(other.to_string()),
            };
            if layout.numbers.len() == MAX_NUMBERS || layout.numbers.contains(&num) {
                return Err(word.to_string());
            }
            layout.numbers.push(num);
            layout.ends.push(at + word.len());
        }
        if layout.module == 0 {
            return Err("(no MODULE)".to_string());
        }
        Ok(layout)
    }

    /// Whether the table has a `SRC` column.
    pub(super) fn has_src(&self) -> bool {
        self.src.is_some()
    }

    /// Whether the table has column `num`.
    pub(super) fn has(&self, num: Num) -> bool {
        self.numbers.contains(&num)
    }

    /// Cuts `line` into its cells; `known` says whether a text is a module seen before
    /// (to tell a glued module from its number). `Err` says what is wrong.
    #[cfg(test)]
    pub(super) fn split<'a>(
        &self,
        line: &'a [u8],
        known: &dyn Fn(&[u8]) -> bool,
    ) -> Result<Cells<'a>, &'static str> {
        let mut cells = Cells::default();
        self.split_into(line, known, &mut cells)?;
        Ok(cells)
    }

    /// [`Self::split`] into `cells` (a row's reading in the reader's loops: the cells,
    /// some two hundred bytes, are not copied out of it for every row).
    #[inline]
    pub(super) fn split_into<'a>(
        &self,
        line: &'a [u8],
        known: &dyn Fn(&[u8]) -> bool,
        cells: &mut Cells<'a>,
    ) -> Result<(), &'static str> {
        let b = line;
        let indent = b.iter().take_while(|&&c| c == b' ').count();
        let k = self.numbers.len();
        let mut tokens = [(0usize, 0usize); MAX_NUMBERS];
        if !self.numbers_in_place(b, indent, &mut tokens) {
            let mut end = b.len();
            for i in (0..k).rev() {
                while end > indent && is_space(b[end - 1]) {
                    end -= 1;
                }
                let mut start = end;
                while start > indent && !is_space(b[start - 1]) {
                    start -= 1;
                }
                if start == end {
                    return Err("fewer columns than the header has");
                }
                tokens[i] = (start, end);
                end = start;
            }
        }
        cells.indent = indent;
        cells.glued = b"";
        cells.fit = Fit::Aligned;
        let mut text_end = tokens.first().map_or(b.len(), |t| t.0);
        for (i, &num) in self.numbers.iter().enumerate() {
            let token = &line[tokens[i].0..tokens[i].1];
            let ok = match num.is_integer() {
                true => parse_integer(token).map(|v| cells.ints[i] = v),
                false => parse_decimal(token, &self.tenths).map(|v| cells.floats[i] = v),
            };
            if ok.is_some() {
                continue;
            }
            if i > 0 || !num.is_integer() {
                return Err("a column that is not a number");
            }
            let cut = (self.unglue(token, known)).ok_or("a column that is not a number")?;
            // At most 19 digits (`unglue`): it fits.
            cells.ints[0] = parse_integer(&token[cut..]).unwrap_or(0);
            text_end = tokens[0].0 + cut;
            cells.fit = Fit::Glued;
            cells.glued = token;
        }
        let text = trim_end(&line[..text_end]);
        if text.len() <= indent {
            return Err("no cost centre before the numbers");
        }
        match self.aligned(text, indent) {
            Some((label, module, src)) => {
                (cells.label, cells.module, cells.src) = (label, module, src)
            }
            None => {
                (cells.label, cells.module, cells.src) = self.loose(text, indent)?;
                if cells.fit == Fit::Aligned {
                    cells.fit = Fit::Loose;
                }
            }
        }
        Ok(())
    }

    /// Finds the numbers where GHC puts them, each ending under its header word (all
    /// but a few rows in 2 million of GHC's reports): `false` when a row's are not
    /// there, to be looked for from its end instead.
    #[inline]
    fn numbers_in_place(&self, b: &[u8], indent: usize, tokens: &mut [(usize, usize)]) -> bool {
        if self.ends.last() != Some(&b.len()) {
            return false;
        }
        let mut after = indent;
        for (token, &end) in tokens.iter_mut().zip(&self.ends) {
            if end <= after || is_space(b[end - 1]) {
                return false;
            }
            let mut start = end - 1;
            while start > after && !is_space(b[start - 1]) {
                start -= 1;
            }
            if start <= after {
                return false;
            }
            *token = (start, end);
            after = end;
        }
        true
    }

    /// Where a module glued to the number after it ends in `token`: after the longest
    /// known module it starts with, else before its trailing digits. Only where the cut
    /// is sure: without a `SRC` column (a module ends in a letter, or is known), or
    /// after a location's `>` or `)`.
    pub(super) fn unglue(&self, token: &[u8], known: &dyn Fn(&[u8]) -> bool) -> Option<usize> {
        let digits = token
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let first_digit = token.len() - digits;
        if digits == 0 || first_digit == 0 {
            return None;
        }
        // The number is at most 19 digits (it always fits a u64); digits before them
        // are the module's.
        let first_digit = first_digit.max(token.len().saturating_sub(19));
        if self.src.is_some() {
            return matches!(token[first_digit - 1], b'>' | b')').then_some(first_digit);
        }
        let longest_known = (first_digit + 1..token.len())
            .rev()
            .find(|&cut| known(&token[..cut]));
        Some(longest_known.unwrap_or(first_digit))
    }

    /// The label, module and location of a row's `text` where the header puts them.
    fn aligned<'a>(&self, text: &'a [u8], indent: usize) -> Option<Names<'a>> {
        let last = self.src.unwrap_or(self.module);
        let (m, s) = match text.get(..last + 1).unwrap_or(text).is_ascii() {
            // Columns are characters: bytes, in ASCII.
            true => (self.module, self.src),
            false => {
                let t = std::str::from_utf8(text).ok()?;
                (
                    byte_of_column(t, self.module)?,
                    match self.src {
                        Some(col) => Some(byte_of_column(t, col)?),
                        None => None,
                    },
                )
            }
        };
        if m <= indent || m >= text.len() || !is_space(text[m - 1]) || is_space(text[m]) {
            return None;
        }
        let module_end = m + text[m..]
            .iter()
            .position(|&c| is_space(c))
            .unwrap_or(text.len() - m);
        let label = trim_end(&text[indent..m]);
        let module = &text[m..module_end];
        match s {
            None => (module_end == text.len()).then_some((label, module, &b""[..])),
            Some(s) => {
                let gap = text.get(module_end..s)?;
                if s >= text.len() || gap.is_empty() || !gap.iter().all(|&c| is_space(c)) {
                    return None;
                }
                Some((label, module, &text[s..]))
            }
        }
    }

    /// The label, module and location of a row's `text`, by the spaces between them.
    fn loose<'a>(&self, text: &'a [u8], indent: usize) -> Result<Names<'a>, &'static str> {
        let words: Vec<(usize, &[u8])> = words(&text[indent..])
            .map(|(at, w)| (indent + at, w))
            .collect();
        let short = "too few cells before the numbers";
        let j = match self.src {
            None => words
                .len()
                .checked_sub(1)
                .filter(|&j| j >= 1)
                .ok_or(short)?,
            Some(_) => {
                if words.len() < 3 {
                    return Err(short);
                }
                let last = words.len() - 1;
                // `<no location info>`: the location starts at its `<`.
                let bracketed = (words[last].1.ends_with(b">"))
                    .then(|| (1..=last).rev().find(|&i| words[i].1.starts_with(b"<")))
                    .flatten()
                    .filter(|&i| i >= 2);
                match bracketed {
                    Some(i) => i - 1,
                    None => (1..last)
                        .rev()
                        .find(|&i| is_module_like(words[i].1))
                        .unwrap_or(last - 1),
                }
            }
        };
        let (at, module) = words[j];
        let label = trim_end(&text[indent..at]);
        let src = match self.src {
            Some(_) => trim_start(&text[at + module.len()..]),
            None => b"",
        };
        Ok((label, module, src))
    }
}

/// `b` without the spaces and TABs at its end.
fn trim_end(b: &[u8]) -> &[u8] {
    let end = b.iter().rposition(|&c| !is_space(c)).map_or(0, |i| i + 1);
    &b[..end]
}

/// `b` without the spaces and TABs at its start.
fn trim_start(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|&c| !is_space(c)).unwrap_or(b.len());
    &b[start..]
}

/// The whitespace-separated words of `text`, each with its byte offset.
fn words(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let b = text;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        if i == b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && !is_space(b[i]) {
            i += 1;
        }
        Some((start, &text[start..i]))
    })
}

/// The byte offset of character column `col` of `text` (its end for the column just
/// after it; `None` beyond).
fn byte_of_column(text: &str, col: usize) -> Option<usize> {
    if text.is_ascii() {
        return (col <= text.len()).then_some(col);
    }
    text.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .nth(col)
}

/// Whether `word` can be a module's name (`Data.Map.Internal`, `MAIN`).
fn is_module_like(word: &[u8]) -> bool {
    let Ok(word) = std::str::from_utf8(word) else {
        return false;
    };
    word.split('.').all(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(char::is_uppercase)
            && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '\'')
    })
}

/// A count (digits only, at most `u64::MAX`).
#[inline]
pub(super) fn parse_integer(s: &[u8]) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    if s.len() <= 19 {
        // Nineteen digits stay below 10^19 < 2^64: no overflow to check for.
        let mut v = 0u64;
        for &c in s {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                return None;
            }
            v = v * 10 + u64::from(d);
        }
        return Some(v);
    }
    s.iter().try_fold(0u64, |acc, &c| {
        let d = c.wrapping_sub(b'0');
        (d < 10).then_some(())?;
        acc.checked_mul(10)?.checked_add(u64::from(d))
    })
}

/// `n / 10` for every `n` below [`TENTHS`], each the closest double to its decimal:
/// the shares of a report (`38.3`) are read by a lookup instead of a division (a table
/// each [`Layout`] holds).
pub(super) fn tenths() -> Vec<f64> {
    (0..TENTHS).map(|n| n as f64 / 10.0).collect()
}

/// How many tenths [`tenths`] holds (up to 204.7 %).
const TENTHS: u64 = 2048;

/// A share (`38.3`, `100.0`, `0`): the decimal's closest double, as `str::parse` gives,
/// without its cost for the common short forms.
pub(super) fn parse_decimal(s: &[u8], tenths: &[f64]) -> Option<f64> {
    let dot = s.iter().position(|&c| c == b'.');
    let (whole, frac) = match dot {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, &b""[..]),
    };
    let fast = (whole.len() + frac.len() <= 15)
        .then(|| {
            Some((
                parse_integer(whole)?,
                parse_integer(frac).or(frac.is_empty().then_some(0))?,
            ))
        })
        .flatten();
    match fast {
        Some((w, f)) if frac.len() == 1 && w * 10 + f < TENTHS => {
            tenths.get((w * 10 + f) as usize).copied()
        }
        Some((w, f)) => {
            let scale = 10u64.pow(frac.len() as u32);
            // Both exact below 2^53: the quotient is the correctly rounded decimal.
            Some((w * scale + f) as f64 / scale as f64)
        }
        None => {
            let text = std::str::from_utf8(s).ok()?;
            let unsigned = !text.starts_with(['+', '-']);
            text.parse::<f64>()
                .ok()
                .filter(|v| unsigned && v.is_finite() && *v >= 0.0)
        }
    }
}
