//! The verdict as text for people: a line for the check, then a line per rule (`pass`
//! or `FAIL`, the rule, its numbers), and under a rule on bands a line per band that
//! fails. Texts of the profile (band names, units, file names) go through
//! [`printable`], as the summary's do.

use std::io::{self, Write};

use super::{Finding, Outcome, Verdict};
use crate::num::number;
use crate::summary::printable;

impl Verdict {
    /// Writes the verdict as text for people.
    pub fn write_text<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let new = self.file.as_deref().unwrap_or("stdin");
        let against = match &self.baseline_file {
            Some(old) => format!(" against {}", printable(old)),
            None => String::new(),
        };
        let failed = self.rules.iter().filter(|r| !r.passed).count();
        let verdict = match failed {
            0 => format!("every rule holds ({})", self.rules.len()),
            n => format!("{n} of {} rules fail", self.rules.len()),
        };
        writeln!(out, "{}{against}: {verdict}", printable(new))?;
        let unit = format!(" {}", printable(&self.value_unit));
        let area_unit = format!("{unit} x {}", printable(&self.sample_unit));
        for rule in &self.rules {
            let mark = if rule.passed { "pass" } else { "FAIL" };
            write!(out, "  {mark} {}: ", rule.rule)?;
            match rule.what {
                "bands" | "leak" => bands(out, rule, &unit)?,
                what => {
                    let unit = if what == "area" { &area_unit } else { &unit };
                    let words = match what {
                        "peak" => "the peak",
                        "end" => "the residency at the end",
                        "alloc" => "the total allocation",
                        _ => "the area",
                    };
                    for f in &rule.findings {
                        writeln!(out, "{words} {}", judged(f, unit, &self.sample_unit))?;
                    }
                    if rule.findings.is_empty() {
                        let kind = match what {
                            "alloc" => "no total allocation (a time profile's rule)",
                            _ => "no such number (a heap profile's rule)",
                        };
                        writeln!(out, "{words}: the profile has {kind}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A number, when, and how it compares: `is 40,533,792 bytes at 0.35 seconds, 3.2%
/// above the baseline's 39,277,040 (at most 43,204,744)`.
fn judged(f: &Finding, unit: &str, sample_unit: &str) -> String {
    let mut s = format!("is {}{unit}", number(f.value));
    if let Some(t) = f.time {
        s += &format!(" at {} {}", number(t), printable(sample_unit));
    }
    match (f.baseline, f.growth) {
        (Some(b), Some(g)) => {
            let (how, by) = if g >= 0.0 {
                ("above", g)
            } else {
                ("below", -g)
            };
            s += &format!(
                ", {}% {how} the baseline's {}",
                number(by * 100.0),
                number(b)
            );
        }
        (Some(b), None) => s += &format!(", the baseline's {}", number(b)),
        (None, _) => {}
    }
    match f.limit {
        Some(most) => s += &format!(" (at most {})", number(most)),
        None if !f.passed => s += " (no --baseline to compare with)",
        None => {}
    }
    s
}

/// A rule on bands: how many were judged and fail, then a line per band that fails.
fn bands<W: Write>(out: &mut W, rule: &Outcome, unit: &str) -> io::Result<()> {
    let judged = rule.judged.unwrap_or(0);
    let failing: Vec<&Finding> = rule.findings.iter().filter(|f| f.band.is_some()).collect();
    let noise = match rule.noise {
        Some(n) => format!(
            " (a band that grew by less than {}{unit} is not judged)",
            number(n)
        ),
        None => String::new(),
    };
    match rule.what {
        "leak" => writeln!(
            out,
            "{} of {judged} bands grow over the whole run (their lowest value rises from \
             each quarter of the run to the next)",
            failing.len()
        )?,
        _ => writeln!(
            out,
            "{} of {judged} bands over the limit{noise}",
            failing.len()
        )?,
    }
    if rule.findings.iter().any(|f| f.band.is_none() && !f.passed) {
        writeln!(out, "    no --baseline to compare with")?;
    }
    for f in failing {
        let name = printable(f.band.as_deref().unwrap_or(""));
        match f.floors {
            Some(floors) => {
                let steps: Vec<String> = floors.iter().map(|&v| number(v)).collect();
                writeln!(out, "    {name}: {}{unit}", steps.join(" -> "))?
            }
            None => {
                let peak = f
                    .peak
                    .map_or(String::new(), |p| format!(" (peak {})", number(p)));
                let base = match (f.baseline, f.growth) {
                    (Some(b), Some(g)) => format!(
                        ", {}% above the baseline's {}",
                        number(g * 100.0),
                        number(b)
                    ),
                    (Some(b), None) => format!(", the baseline's {}", number(b)),
                    (None, _) => String::new(),
                };
                let most = f
                    .limit
                    .map_or(String::new(), |m| format!(" (at most {})", number(m)));
                writeln!(
                    out,
                    "    {name}: held {}{unit}{peak}{base}{most}",
                    number(f.value)
                )?
            }
        }
    }
    Ok(())
}
