//! The gate's rules as `--check=RULES` writes them: a comma-separated list of
//! `peak:LIMIT`, `end:LIMIT`, `area:LIMIT`, `bands:LIMIT`, `leak[:AMOUNT]` (a heap
//! profile's), `alloc:LIMIT` (a time profile's), and the setting `noise:AMOUNT`. A LIMIT is a growth against the baseline (`10%`) or a ceiling
//! (`200MiB`, `5e8`; `k`, `M`, `G` are powers of 1000, `Ki`, `Mi`, `Gi` of 1024, a `B`
//! after them optional). `--check` alone is [`Rules::default`]: the peak and every
//! band's peak at most 10 % above the baseline's.

use std::fmt;
use std::str::FromStr;

/// What a rule's number means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// At most this fraction above the baseline's (`10%` is 0.1).
    Growth(f64),
    /// At most this, in VALUE_UNIT (bytes; for the area, VALUE_UNIT × SAMPLE_UNIT).
    AtMost(f64),
}

/// An amount relative to a peak or absolute: the noise floor of `bands`, the least
/// step of `leak`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    /// This fraction of a peak (`1%` is 0.01): of the baseline's for `noise`, of the
    /// run's own for `leak`.
    OfPeak(f64),
    /// This many VALUE_UNITs.
    Value(f64),
}

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// The peak: the highest total in one census.
    Peak(Limit),
    /// The residency at the end: the total of the last census that holds any band.
    End(Limit),
    /// The area: the total's integral over time.
    Area(Limit),
    /// Every band's peak, as held over two neighbouring censuses; bands matched by
    /// name as the page of several runs matches them.
    Bands(Limit),
    /// A leak suspect: a band whose lowest value rises from each quarter of the run to
    /// the next by at least the amount.
    Leak(Amount),
    /// A time profile's total allocation, in bytes (`total alloc`).
    Alloc(Limit),
}

impl Limit {
    /// Whether it is a growth against the baseline.
    pub(crate) fn is_growth(self) -> bool {
        matches!(self, Limit::Growth(_))
    }
}

impl Rule {
    /// Whether it judges a time profile (`alloc`) rather than a heap profile.
    pub(crate) fn of_time(&self) -> bool {
        matches!(self, Rule::Alloc(_))
    }
}

/// The rules of one check, and the noise floor of the band rule.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Rules {
    /// The rules, in the order given. Default: `peak:10%`, `bands:10%`.
    pub rules: Vec<Rule>,
    /// A band's growth against the baseline counts only from this much on (a share of
    /// the baseline's peak, or a value): one census that catches a short-lived
    /// structure, or a few kilobytes more of a small band, is not a regression.
    /// Default: 1 % of the baseline's peak.
    pub noise: Amount,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            rules: vec![
                Rule::Peak(Limit::Growth(0.1)),
                Rule::Bands(Limit::Growth(0.1)),
            ],
            noise: Amount::OfPeak(DEFAULT_SHARE),
        }
    }
}

/// The default noise floor, and the default least step of a leak: 1 % of a peak.
const DEFAULT_SHARE: f64 = 0.01;

impl Rules {
    /// Whether any rule compares with a baseline.
    pub fn need_baseline(&self) -> bool {
        self.rules.iter().any(|r| {
            matches!(
                r,
                Rule::Peak(Limit::Growth(_))
                    | Rule::End(Limit::Growth(_))
                    | Rule::Area(Limit::Growth(_))
                    | Rule::Bands(Limit::Growth(_))
                    | Rule::Alloc(Limit::Growth(_))
            )
        })
    }
}

/// Why a list of rules does not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{what}: {why}")]
pub struct RuleError {
    /// The item of the list that does not read.
    pub what: String,
    /// What was expected.
    pub why: String,
}

impl FromStr for Rules {
    type Err = RuleError;

    fn from_str(text: &str) -> Result<Rules, RuleError> {
        let mut rules = Rules {
            rules: Vec::new(),
            ..Rules::default()
        };
        for item in text.split(',').map(str::trim) {
            let fail = |why: &str| RuleError {
                what: item.to_string(),
                why: why.to_string(),
            };
            let (name, value) = match item.split_once(':') {
                Some((name, value)) => (name.trim(), Some(value.trim())),
                None => (item, None),
            };
            let limit = || {
                let value = value.ok_or_else(|| fail("a limit after ':' (10% or 200MiB)"))?;
                limit(value).ok_or_else(|| fail("a limit: a growth (10%) or a value (200MiB)"))
            };
            let amount = |value: &str| {
                amount(value)
                    .ok_or_else(|| fail("an amount: a share of the peak (1%) or a value (64KiB)"))
            };
            match name {
                "peak" => rules.rules.push(Rule::Peak(limit()?)),
                "end" => rules.rules.push(Rule::End(limit()?)),
                "area" => rules.rules.push(Rule::Area(limit()?)),
                "bands" => rules.rules.push(Rule::Bands(limit()?)),
                "alloc" => rules.rules.push(Rule::Alloc(limit()?)),
                "leak" => rules.rules.push(Rule::Leak(match value {
                    Some(v) => amount(v)?,
                    None => Amount::OfPeak(DEFAULT_SHARE),
                })),
                "noise" => {
                    let value = value.ok_or_else(|| fail("an amount after ':' (1% or 64KiB)"))?;
                    rules.noise = amount(value)?;
                }
                "" => return Err(fail("a rule: peak, end, area, bands, leak, alloc or noise")),
                _ => {
                    return Err(fail(
                        "not a rule: peak, end, area, bands, leak, alloc or noise",
                    ))
                }
            }
        }
        if rules.rules.is_empty() {
            rules.rules = Rules::default().rules;
        }
        Ok(rules)
    }
}

/// `10%` (a growth) or a value.
fn limit(text: &str) -> Option<Limit> {
    match amount(text)? {
        Amount::OfPeak(share) => Some(Limit::Growth(share)),
        Amount::Value(v) => Some(Limit::AtMost(v)),
    }
}

/// `1%` or a value with its unit; never negative, always finite.
fn amount(text: &str) -> Option<Amount> {
    if let Some(number) = text.strip_suffix('%') {
        let share = number.trim().parse::<f64>().ok()? / 100.0;
        return (share.is_finite() && share >= 0.0).then_some(Amount::OfPeak(share));
    }
    let split = text
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let unit = unit.trim();
    let scale = match unit.strip_suffix(['B', 'b']).unwrap_or(unit) {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "Ki" | "KI" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0_f64.powi(4),
        _ => return None,
    };
    let v = number.trim().parse::<f64>().ok()? * scale;
    (v.is_finite() && v >= 0.0).then_some(Amount::Value(v))
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = |f: &mut fmt::Formatter<'_>, name: &str, l: &Limit| match l {
            Limit::Growth(g) => write!(f, "{name}:{}%", percent(*g)),
            Limit::AtMost(v) => write!(f, "{name}:{v}"),
        };
        match self {
            Rule::Peak(l) => limit(f, "peak", l),
            Rule::End(l) => limit(f, "end", l),
            Rule::Area(l) => limit(f, "area", l),
            Rule::Bands(l) => limit(f, "bands", l),
            Rule::Alloc(l) => limit(f, "alloc", l),
            Rule::Leak(Amount::OfPeak(s)) => write!(f, "leak:{}%", percent(*s)),
            Rule::Leak(Amount::Value(v)) => write!(f, "leak:{v}"),
        }
    }
}

/// A fraction as a percentage, without the float's noise (`0.1` is `10`).
pub(super) fn percent(fraction: f64) -> f64 {
    (fraction * 100.0 * 1e9).round() / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_as_written() {
        let r: Rules = "peak:10%, end:200MiB,area:5e8,bands:0%,leak,noise:64KiB"
            .parse()
            .unwrap();
        assert_eq!(
            r.rules,
            [
                Rule::Peak(Limit::Growth(0.1)),
                Rule::End(Limit::AtMost(200.0 * 1024.0 * 1024.0)),
                Rule::Area(Limit::AtMost(5e8)),
                Rule::Bands(Limit::Growth(0.0)),
                Rule::Leak(Amount::OfPeak(0.01)),
            ]
        );
        assert_eq!(r.noise, Amount::Value(65536.0));
        let shown: Vec<String> = r.rules.iter().map(|r| r.to_string()).collect();
        assert_eq!(
            shown,
            [
                "peak:10%",
                "end:209715200",
                "area:500000000",
                "bands:0%",
                "leak:1%"
            ]
        );
        assert_eq!(
            "leak:2MB".parse::<Rules>().unwrap().rules,
            [Rule::Leak(Amount::Value(2e6))]
        );
        assert!(r.need_baseline());
        assert!(!"peak:1G,leak".parse::<Rules>().unwrap().need_baseline());
        let alloc = "alloc:10%".parse::<Rules>().unwrap();
        assert_eq!(alloc.rules, [Rule::Alloc(Limit::Growth(0.1))]);
        assert_eq!(alloc.rules[0].to_string(), "alloc:10%");
        assert!(alloc.need_baseline() && alloc.rules[0].of_time());
        assert!(!"alloc:1GiB".parse::<Rules>().unwrap().need_baseline());
    }

    #[test]
    fn noise_alone_keeps_the_default_rules() {
        let r: Rules = "noise:5%".parse().unwrap();
        assert_eq!(r.rules, Rules::default().rules);
        assert_eq!(r.noise, Amount::OfPeak(0.05));
    }

    #[test]
    fn what_does_not_read_is_named() {
        for (bad, what) in [
            ("peak", "peak"),
            ("peak:ten", "peak:ten"),
            ("peak:-5%", "peak:-5%"),
            ("heap:10%", "heap:10%"),
            ("peak:10%,,bands:1%", ""),
            ("area:5XB", "area:5XB"),
            ("noise", "noise"),
            ("leak:inf", "leak:inf"),
        ] {
            let e = bad.parse::<Rules>().unwrap_err();
            assert_eq!(e.what, what, "{bad}: {e}");
        }
    }
}
