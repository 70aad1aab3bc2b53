//! The time profile's summary and comparison as text for people, every text of a profile
//! written through [`printable`] (as the heap summary's).

use std::io::{self, Write};

use super::text::{printable, table};
use super::time::{ChangeSummary, CostCentreSummary, Run, TimeComparison, TimeSummary};
use crate::num::number;

/// `label  module  src`, printable.
fn cost_centre_name(name: &str, module: &str, src: &str) -> String {
    let mut s = format!("{}  {}", printable(name), printable(module));
    if !src.is_empty() {
        s.push_str("  ");
        s.push_str(&printable(src));
    }
    s
}

fn or_unknown(v: Option<String>) -> String {
    v.unwrap_or_else(|| "?".to_string())
}

/// `4.66 seconds, 4,656 ticks of 1 ms, 1 processor`, what the run says of it.
fn time_line(r: &Run) -> String {
    let mut parts = Vec::new();
    if let Some(t) = r.total_time {
        parts.push(format!("{} seconds", number(t)));
    }
    if let Some(t) = r.total_ticks {
        let every = r
            .tick_interval
            .map_or_else(String::new, |i| format!(" of {} ms", number(i * 1e3)));
        parts.push(format!("{} ticks{every}", number(t as f64)));
    }
    if let Some(p) = r.processors {
        parts.push(format!("{p} processor{}", if p == 1 { "" } else { "s" }));
    }
    parts.join(", ")
}

fn percent(v: f64) -> String {
    format!("{v:.1}%")
}

impl TimeSummary {
    /// Writes the summary as text for people.
    pub fn write_text<W: Write>(&self, out: &mut W) -> io::Result<()> {
        if let Some(file) = &self.file {
            writeln!(out, "{}", printable(file))?;
        }
        let r = &self.run;
        let line = r.command_line.as_ref().or(r.program.as_ref());
        writeln!(out, "  program  {}", printable(&or_unknown(line.cloned())))?;
        if let Some(d) = &r.date {
            writeln!(out, "  date     {}", printable(d))?;
        }
        writeln!(out, "  time     {}", time_line(r))?;
        if let Some(a) = r.total_alloc {
            writeln!(out, "  alloc    {} bytes", number(a as f64))?;
        }
        let shown = match self.top.len() {
            0 => String::new(),
            n if n < self.cost_centres => format!(", the {n} costliest by time:"),
            _ => ", by time:".to_string(),
        };
        writeln!(
            out,
            "  cost centres  {} in {} stacks{shown}",
            self.cost_centres, self.stacks
        )?;
        if self.top.is_empty() {
            return Ok(());
        }
        let counts = self.top.iter().any(|c| c.ticks.is_some());
        let mut head = vec!["time", "alloc"];
        if counts {
            head.extend(["ticks", "bytes"]);
        }
        head.extend(["entries", "cost centre"]);
        let rows: Vec<(Vec<String>, Vec<String>)> = (self.top.iter())
            .map(|c: &CostCentreSummary| {
                let mut row = vec![percent(c.time_pct), percent(c.alloc_pct)];
                if counts {
                    let n = |v: Option<u64>| v.map_or_else(String::new, |v| number(v as f64));
                    row.extend([n(c.ticks), n(c.bytes)]);
                }
                row.push(c.entries.map_or_else(String::new, |e| number(e as f64)));
                row.push(cost_centre_name(&c.name, &c.module, &c.src));
                (row, Vec::new())
            })
            .collect();
        table(out, &head, &rows)
    }
}

/// A change with its sign (`+1.5`, `-0.3`, `0`).
fn signed(v: f64) -> String {
    let text = number(v);
    if v > 0.0 && !text.starts_with('+') {
        format!("+{text}")
    } else {
        text
    }
}

/// `a -> b`, `?` for what a run does not say.
fn both<T>(a: Option<T>, b: Option<T>, f: impl Fn(T) -> String) -> String {
    let side = |v: Option<T>| v.map_or_else(|| "?".to_string(), &f);
    format!("{} -> {}", side(a), side(b))
}

impl TimeComparison {
    /// Writes the comparison as text for people.
    pub fn write_text<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let (b, a) = (&self.before, &self.after);
        let file = |f: &Option<String>| or_unknown(f.clone());
        writeln!(
            out,
            "{} -> {}",
            printable(&file(&b.file)),
            printable(&file(&a.file))
        )?;
        let program = |r: &Run| or_unknown(r.program.clone());
        writeln!(
            out,
            "  program  {} -> {}",
            printable(&program(&b.run)),
            printable(&program(&a.run))
        )?;
        // A line neither run says (an eventlog's samples give no total time or
        // allocation) is left out rather than printed as `? -> ?`.
        let seconds = |t: f64| format!("{} s", number(t));
        if b.run.total_time.is_some() || a.run.total_time.is_some() {
            writeln!(
                out,
                "  time     {}",
                both(b.run.total_time, a.run.total_time, seconds)
            )?;
        }
        let count = |t: u64| number(t as f64);
        writeln!(
            out,
            "  ticks    {}",
            both(b.run.total_ticks, a.run.total_ticks, count)
        )?;
        if b.run.total_alloc.is_some() || a.run.total_alloc.is_some() {
            writeln!(
                out,
                "  alloc    {} bytes",
                both(b.run.total_alloc, a.run.total_alloc, count)
            )?;
        }
        let shown = match self.changes.len() {
            0 => String::new(),
            n if n < self.cost_centres => format!(", the {n} whose time changed most:"),
            _ => ", by change of time:".to_string(),
        };
        writeln!(
            out,
            "  cost centres  {} and {} ({} in all){shown}",
            b.cost_centres, a.cost_centres, self.cost_centres
        )?;
        if self.changes.is_empty() {
            return Ok(());
        }
        let head = [
            "time",
            "change",
            "alloc change",
            "entries change",
            "cost centre",
        ];
        let rows: Vec<(Vec<String>, Vec<String>)> = (self.changes.iter())
            .map(|c: &ChangeSummary| {
                let name = cost_centre_name(&c.name, &c.module, &c.src);
                let note = match c.runs {
                    "before" => "  (gone)",
                    "after" => "  (new)",
                    _ => "",
                };
                let row = vec![
                    both(c.time_pct_before, c.time_pct_after, percent),
                    signed((c.time_pct_change * 10.0).round() / 10.0),
                    signed((c.alloc_pct_change * 10.0).round() / 10.0),
                    signed(c.entries_change as f64),
                    format!("{name}{note}"),
                ];
                (row, Vec::new())
            })
            .collect();
        table(out, &head, &rows)
    }
}
