//! The summary as text for people.

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
        let (vu, su) = (unit(&self.value_unit), unit(&self.sample_unit));
        if let Some(file) = &self.file {
            writeln!(out, "{file}")?;
        }
        writeln!(out, "  job      {}", self.job)?;
        writeln!(out, "  date     {}", self.date)?;
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
                s.name,
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
            writeln!(out, "  marker   {}{su}: {}", number(m.time), m.text)?;
        }
        let shown = if self.top.len() < self.bands {
            format!(", the {} biggest by area:", self.top.len())
        } else if self.top.is_empty() {
            String::new()
        } else {
            ", by area:".to_string()
        };
        let kind = (self.breakdown.as_ref())
            .map_or_else(String::new, |b| format!(" {} ({})", b.bands, b.flag));
        writeln!(out, "  bands    {}{kind}{shown}", self.bands)?;
        if let Some(n) = &self.names {
            let binary = (n.binary.as_ref()).map_or_else(String::new, |b| format!(" of {b}"));
            writeln!(
                out,
                "  names    {} by IPE entry, {} by symbol{binary}, {} inside a function (approximate), {} by address only",
                n.ipe, n.symbol, n.approximate, n.unresolved
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
                row.push(b.name.clone());
                let details = (b.info.as_ref()).map_or_else(Vec::new, |i| i.detail_lines());
                (row, details)
            })
            .collect();
        table(out, &head, &rows)
    }
}

/// Right-aligned columns, the last (the name) left as it is, four spaces in; each row's
/// detail lines below its name.
fn table<W: Write>(
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
