//! The gate on a time profile (`hp2ps --check=alloc:10% --baseline old.prof new.prof`):
//! its total allocation (the report's `total alloc`, `-pj`'s), judged as the heap
//! profile's totals are, by a ceiling or a growth against the baseline's. The only
//! rule of a time profile (`alloc`); a time profile's total time is left aside, as
//! times jitter from run to run far more than the bytes a program allocates.

use super::{ceiling, no_baseline, Finding, Outcome, Rule, Rules, Verdict};
use crate::summary::TimeSummary;

/// Judges the time profile `new` by `rules` (its `alloc` rules; any other fails: it
/// judges a heap profile), against `baseline` where a rule asks for one.
pub(crate) fn check_time(
    new: &TimeSummary,
    baseline: Option<&TimeSummary>,
    rules: &Rules,
) -> Verdict {
    let alloc = |s: &TimeSummary| s.run.total_alloc.map(|b| b as f64);
    let outcomes: Vec<Outcome> = (rules.rules.iter())
        .map(|rule| {
            let findings = match (*rule, alloc(new)) {
                (Rule::Alloc(limit), Some(value)) => {
                    let base = baseline.and_then(alloc).filter(|_| limit.is_growth());
                    vec![match ceiling(limit, base) {
                        Some(most) => Finding::of(value, base, most),
                        None => no_baseline(value),
                    }]
                }
                // No total to judge (an eventlog's time samples), or a heap profile's
                // rule: it fails, with no number.
                _ => Vec::new(),
            };
            Outcome {
                rule: rule.to_string(),
                passed: !findings.is_empty() && findings.iter().all(|f| f.passed),
                what: "alloc",
                judged: None,
                noise: None,
                findings,
            }
        })
        .collect();
    Verdict {
        file: None,
        baseline_file: None,
        value_unit: String::from("bytes"),
        sample_unit: String::from("seconds"),
        passed: outcomes.iter().all(|o| o.passed),
        rules: outcomes,
    }
}
