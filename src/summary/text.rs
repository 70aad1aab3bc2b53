//! The summary as text for people.
//!
//! Every text taken from a profile (JOB, DATE, units, band, line and marker names, the
//! `-hi` details, file names) is written through [`printable`]: a downloaded profile must
//! not set the terminal's title, write its clipboard (OSC 52), clear its screen or forge
//! summary lines with a line end of its own.

use std::borrow::Cow;
use std::io::{self, Write};

use super::Summary;
use crate::num::number;

impl Summary {
    /// Writes the summary as text for people.
    pub fn write_text<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let unit = |u: &str| {
            if u.is_empty() {
                String::new()
            } else {
                format!(" {u}")
            }
        };
        let (vu, su) = (
            unit(&printable(&self.value_unit)),
            unit(&printable(&self.sample_unit)),
        );
        if let Some(file) = &self.file {
            writeln!(out, "{}", printable(file))?;
        }
        writeln!(out, "  job      {}", printable(&self.job))?;
        writeln!(out, "  date     {}", printable(&self.date))?;
        writeln!(
            out,
            "  samples  {}, from {} to {}{su} (span {})",
            self.samples,
            number(self.start),
            number(self.end),
            number(self.span)
        )?;
        writeln!(
            out,
            "  peak     {}{vu} at {}{su}",
            number(self.peak.total),
            number(self.peak.time)
        )?;
        writeln!(out, "  area     {}{vu} x{su}", number(self.area))?;
        for s in &self.series {
            writeln!(
                out,
                "  line     {} peaks at {}{vu} at {}{su}",
                printable(&s.name),
                number(s.peak),
                number(s.time)
            )?;
        }
        if let Some(f) = &self.filtered {
            writeln!(
                out,
                "  filtered {} band(s) left out, {}{vu} x{su} ({:.1}% of the area)",
                f.bands,
                number(f.area),
                f.share * 100.0
            )?;
        }
        for m in &self.markers {
            writeln!(
                out,
                "  marker   {}{su}: {}",
                number(m.time),
                printable(&m.text)
            )?;
        }
        for note in &self.notes {
            writeln!(out, "  note     {}", printable(note))?;
        }
        let shown = if self.top.len() < self.bands {
            format!(", the {} biggest by area:", self.top.len())
        } else if self.top.is_empty() {
            String::new()
        } else {
            ", by area:".to_string()
        };
        let kind = (self.breakdown.as_ref()).map_or_else(String::new, |b| {
            format!(" {} ({})", b.bands_are(), b.flag())
        });
        writeln!(out, "  bands    {}{kind}{shown}", self.bands)?;
        if let Some(n) = &self.names {
            let binary =
                (n.binary.as_ref()).map_or_else(String::new, |b| format!(" of {}", printable(b)));
            writeln!(
                out,
                "  names    {} by IPE entry, {} by symbol{binary}, {} inside a function (approximate), {} by address only",
                n.by_ipe, n.by_symbol, n.approximate, n.unresolved
            )?;
        }
        if self.top.is_empty() {
            return Ok(());
        }
        let slopes = self.top.iter().any(|b| b.slope.is_some());
        let mut head = vec!["area", "share", "peak", "at"];
        if slopes {
            head.push("slope/s");
        }
        head.push("name");
        let rows: Vec<(Vec<String>, Vec<String>)> = self
            .top
            .iter()
            .map(|b| {
                let mut row = vec![
                    number(b.area),
                    format!("{:.1}%", b.share * 100.0),
                    number(b.peak),
                    number(b.peak_time),
                ];
                if slopes {
                    row.push(b.slope.map_or_else(String::new, number));
                }
                row.push(printable(&b.name).into_owned());
                let details = (b.info.as_ref()).map_or_else(Vec::new, |i| {
                    let lines = i.detail_lines().into_iter();
                    lines.map(|l| printable(&l).into_owned()).collect()
                });
                (row, details)
            })
            .collect();
        table(out, &head, &rows)
    }
}

/// Right-aligned columns, the last (the name) left as it is, four spaces in; each row's
/// detail lines below its name.
pub(super) fn table<W: Write>(
    out: &mut W,
    head: &[&str],
    rows: &[(Vec<String>, Vec<String>)],
) -> io::Result<()> {
    let numbers = head.len() - 1;
    let widths: Vec<usize> = (0..numbers)
        .map(|i| {
            rows.iter()
                .map(|(r, _)| r[i].chars().count())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |out: &mut W, cells: &[&str]| {
        write!(out, "    ")?;
        for (cell, width) in cells.iter().zip(&widths) {
            write!(out, "{cell:>width$}  ")?;
        }
        writeln!(out, "{}", cells[numbers])
    };
    line(out, head)?;
    let indent = 4 + widths.iter().map(|w| w + 2).sum::<usize>();
    for (row, details) in rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        line(out, &cells)?;
        for d in details {
            writeln!(out, "{:indent$}  {d}", "")?;
        }
    }
    Ok(())
}

/// `text` as a terminal shows it without obeying it: every control character (C0, DEL,
/// C1: ESC, BEL, CR, LF, NUL, CSI, …) written as an escape (`\n`, `\x1b`, `\u{9b}`), and
/// so are the bidirectional formatting characters, which reorder what a terminal shows
/// (`\u{202e}`). The same escapes as the command's messages on stderr.
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x100 && needs_escape(c) => {
                out.push_str(&format!("\\x{:02x}", u32::from(c)))
            }
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether a terminal could take `c` as a command rather than a character to show.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
