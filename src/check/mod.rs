//! The CI gate (`hp2ps --check[=RULES] [--baseline OLD] NEW`): a profile's numbers
//! judged by rules, alone or against a baseline's, pass or fail. It is a consumer of the
//! summary's numbers (the peak and the area are `--summary`'s), not a painter.
//!
//! Files: `rules.rs` ([`Rules`] and how `--check=RULES` writes them), `numbers.rs` (what
//! is judged of one profile: the peak, the residency at the end, the area, and each
//! band's peak, held peak and quarters' floors, bands matched by name as the page of
//! several runs matches them), `mod.rs` ([`check`] and its [`Verdict`], which serializes
//! to JSON), `text.rs` (the verdict for people). `docs/ci-gate.md` says how to use it.
//!
//! ```
//! use hp2ps::internals::check::{check, Rules};
//! use hp2ps::{load, LoadOptions, Source};
//!
//! let old = b"JOB \"p\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
//!             BEGIN_SAMPLE 0.0\nmap 100\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nmap 100\nEND_SAMPLE 1.0\n";
//! let new = b"JOB \"p\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
//!             BEGIN_SAMPLE 0.0\nmap 150\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nmap 150\nEND_SAMPLE 1.0\n";
//! let load = |b: &[u8]| load(Source::Bytes(b), &LoadOptions::default()).unwrap().profile;
//! let verdict = check(&load(new), Some(&load(old)), &Rules::default());
//! assert!(!verdict.passed);
//! assert_eq!(verdict.rules[1].findings[0].band.as_deref(), Some("map"));
//! ```

mod numbers;
mod rules;
mod text;
mod time;

pub use rules::{Amount, Limit, Rule, RuleError, Rules};
// The command's (run/).
#[cfg(feature = "cli")]
pub(crate) use time::check_time;

use serde::Serialize;

use crate::profile::Profile;
use numbers::{KeyNumbers, Numbers, QUARTERS};

/// What a check found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Verdict {
    /// The profile judged, as the caller names it (`null` in JSON when not given).
    pub file: Option<String>,
    /// The baseline, as the caller names it (absent when not given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_file: Option<String>,
    /// The profile's VALUE_UNIT.
    pub value_unit: String,
    /// The profile's SAMPLE_UNIT.
    pub sample_unit: String,
    /// Whether every rule holds.
    pub passed: bool,
    /// Each rule's outcome, in the order given.
    pub rules: Vec<Outcome>,
}

/// One rule's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Outcome {
    /// The rule as `--check=RULES` writes it (`peak:10%`).
    pub rule: String,
    /// Whether it holds.
    pub passed: bool,
    /// What was judged: `peak`, `end`, `area`, `bands` or `leak`.
    pub what: &'static str,
    /// For a rule on bands: how many were judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<usize>,
    /// For `bands` against a baseline: the least growth judged (the noise floor), in
    /// VALUE_UNIT.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    /// The numbers: of the run for `peak`, `end` and `area` (one, passed or not); of
    /// each band that fails for `bands` and `leak`.
    pub findings: Vec<Finding>,
}

/// One number judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// The band (its key: the name without a `.hp`'s stack number or an eventlog's
    /// ` #k`), for a rule on bands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// The number judged, in VALUE_UNIT (the area in VALUE_UNIT × SAMPLE_UNIT; a band's
    /// held peak for `bands`; the last quarter's floor for `leak`).
    pub value: f64,
    /// A band's own peak, in one census (for `bands`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
    /// When, in SAMPLE_UNIT (the peak's first census, the end's census).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// The baseline's number, when the rule compares with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<f64>,
    /// `value / baseline - 1`, when the baseline's is not 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub growth: Option<f64>,
    /// The most the value may be, in its unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<f64>,
    /// For `leak`: the band's lowest value in each quarter of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floors: Option<[f64; QUARTERS]>,
    /// Whether this number holds.
    pub passed: bool,
}

impl Finding {
    fn of(value: f64, baseline: Option<f64>, limit: f64) -> Finding {
        Finding {
            band: None,
            value,
            peak: None,
            time: None,
            baseline,
            growth: baseline.filter(|&b| b != 0.0).map(|b| value / b - 1.0),
            limit: Some(limit),
            floors: None,
            passed: value <= limit,
        }
    }
}

/// Judges `new` by `rules`, against `baseline` where a rule asks for one (a rule that
/// compares with a baseline, given none, fails and says so).
pub fn check(new: &Profile, baseline: Option<&Profile>, rules: &Rules) -> Verdict {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (value_unit, sample_unit) = (text(&new.value_unit), text(&new.sample_unit));
    let new = Numbers::of(new);
    let old = baseline.map(Numbers::of);
    let outcomes: Vec<Outcome> = (rules.rules.iter())
        .map(|rule| judge(rule, &new, old.as_ref(), rules))
        .collect();
    Verdict {
        file: None,
        baseline_file: None,
        value_unit,
        sample_unit,
        passed: outcomes.iter().all(|o| o.passed),
        rules: outcomes,
    }
}

/// The most a number may be: its ceiling, or its baseline's grown by the limit.
fn ceiling(limit: Limit, baseline: Option<f64>) -> Option<f64> {
    match limit {
        Limit::AtMost(v) => Some(v),
        Limit::Growth(g) => baseline.map(|b| b * (1.0 + g)),
    }
}

fn judge(rule: &Rule, new: &Numbers, old: Option<&Numbers>, rules: &Rules) -> Outcome {
    let outcome = |what, findings: Vec<Finding>| Outcome {
        rule: rule.to_string(),
        passed: !findings.is_empty() && findings.iter().all(|f| f.passed),
        what,
        judged: None,
        noise: None,
        findings,
    };
    let total = |what, (value, time): (f64, Option<f64>), base: Option<f64>, limit: Limit| {
        let base = base.filter(|_| matches!(limit, Limit::Growth(_)));
        let finding = match ceiling(limit, base) {
            Some(most) => Finding {
                time,
                ..Finding::of(value, base, most)
            },
            None => no_baseline(value),
        };
        outcome(what, vec![finding])
    };
    match *rule {
        Rule::Peak(limit) => total(
            "peak",
            (new.peak.0, Some(new.peak.1)),
            old.map(|o| o.peak.0),
            limit,
        ),
        Rule::End(limit) => total(
            "end",
            (new.end.0, Some(new.end.1)),
            old.map(|o| o.end.0),
            limit,
        ),
        Rule::Area(limit) => total("area", (new.area, None), old.map(|o| o.area), limit),
        Rule::Bands(limit) => bands(rule, limit, new, old, rules),
        Rule::Leak(step) => leaks(rule, step, new),
        // A time profile's total: a heap profile has none, and fails it.
        Rule::Alloc(_) => outcome("alloc", Vec::new()),
    }
}

/// A number that a rule would compare with a baseline it was not given: it fails.
fn no_baseline(value: f64) -> Finding {
    Finding {
        limit: None,
        passed: false,
        ..Finding::of(value, None, f64::INFINITY)
    }
}

/// `bands:LIMIT`: every band's held peak at most the limit, or at most LIMIT above its
/// baseline's (a band new in `new` has a baseline of 0) once it grew by the noise floor.
fn bands(
    rule: &Rule,
    limit: Limit,
    new: &Numbers,
    old: Option<&Numbers>,
    rules: &Rules,
) -> Outcome {
    let growth = matches!(limit, Limit::Growth(_));
    let noise = match (rules.noise, old) {
        (Amount::OfPeak(share), Some(old)) => share * old.peak.0,
        (Amount::Value(v), _) => v,
        (Amount::OfPeak(_), None) => 0.0,
    };
    let mut findings = Vec::new();
    if growth && old.is_none() {
        findings.push(no_baseline(new.peak.0));
    }
    for (key, n) in &new.bands {
        let base = (old.filter(|_| growth)).map(|o| o.bands.get(key).map_or(0.0, |b| b.held));
        let Some(most) = ceiling(limit, base) else {
            continue;
        };
        let grew = base.map_or(true, |b| n.held - b >= noise);
        if n.held > most && grew {
            findings.push(Finding {
                band: Some(key.clone()),
                peak: Some(n.peak),
                ..Finding::of(n.held, base, most)
            });
        }
    }
    Outcome {
        rule: rule.to_string(),
        passed: findings.is_empty(),
        what: "bands",
        judged: Some(new.bands.len()),
        noise: (growth && old.is_some()).then_some(noise),
        findings,
    }
}

/// `leak[:STEP]`: the bands whose floor rises by at least the step from each quarter
/// of the run to the next.
fn leaks(rule: &Rule, step: Amount, new: &Numbers) -> Outcome {
    let step = match step {
        Amount::OfPeak(share) => share * new.peak.0,
        Amount::Value(v) => v,
    };
    let rises = |k: &KeyNumbers| {
        (k.floors).filter(|f| {
            f.windows(2)
                .all(|w| w[1] - w[0] >= step.max(f64::MIN_POSITIVE))
        })
    };
    let findings: Vec<Finding> = (new.bands.iter())
        .filter_map(|(key, k)| {
            let floors = rises(k)?;
            Some(Finding {
                band: Some(key.clone()),
                peak: Some(k.peak),
                floors: Some(floors),
                limit: None,
                passed: false,
                ..Finding::of(floors[QUARTERS - 1], None, 0.0)
            })
        })
        .collect();
    Outcome {
        rule: rule.to_string(),
        passed: findings.is_empty(),
        what: "leak",
        judged: Some(new.bands.len()),
        noise: None,
        findings,
    }
}

impl Verdict {
    /// Writes the verdict as one line of JSON (no newline).
    pub fn write_json<W: std::io::Write>(&self, out: &mut W) -> std::io::Result<()> {
        serde_json::to_writer(out, self).map_err(std::io::Error::from)
    }
}

#[cfg(test)]
mod tests;
