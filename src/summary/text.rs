//! The summary as text for people.

use std::io::{self, Write};

use super::Summary;

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
        let shown = if self.top.len() < self.bands {
            format!(", the {} biggest by area:", self.top.len())
        } else if self.top.is_empty() {
            String::new()
        } else {
            ", by area:".to_string()
        };
        writeln!(out, "  bands    {}{shown}", self.bands)?;
        if self.top.is_empty() {
            return Ok(());
        }
        let rows: Vec<[String; 5]> = self
            .top
            .iter()
            .map(|b| {
                [
                    number(b.area),
                    format!("{:.1}%", b.share * 100.0),
                    number(b.peak),
                    number(b.peak_time),
                    b.name.clone(),
                ]
            })
            .collect();
        let head = ["area", "share", "peak", "at", "name"];
        let width = |i: usize| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([head[i].len()])
                .max()
                .unwrap_or(0)
        };
        let w: Vec<usize> = (0..4).map(width).collect();
        let line = |out: &mut W, r: [&str; 5]| {
            writeln!(
                out,
                "    {:>w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3]
            )
        };
        line(out, head)?;
        for r in &rows {
            line(out, [&r[0], &r[1], &r[2], &r[3], &r[4]])?;
        }
        Ok(())
    }
}

/// A number for people: thousands separated by commas (as in the chart's title), at most
/// two decimals, no trailing zeros.
pub(super) fn number(v: f64) -> String {
    let text = if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) if rest.bytes().any(|b| b.is_ascii_digit() && b != b'0') => ("-", rest),
        Some(rest) => ("", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = unsigned.split_at(unsigned.find('.').unwrap_or(unsigned.len()));
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return text; // inf, NaN
    }
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{sign}{grouped}{frac}")
}
