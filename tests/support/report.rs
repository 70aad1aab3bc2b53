//! Counting verdicts, printing the summary line, and failing readably.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::compare::Verdict;

/// How many mismatches the failure message lists in detail.
const SHOWN_MISMATCHES: usize = 10;

/// Verdict counts of one test.
pub struct Tally {
    name: String,
    identical: usize,
    skipped: BTreeMap<String, usize>,
    /// (case label, differences, saved input path)
    mismatches: Vec<(String, Vec<String>, Option<PathBuf>)>,
}

impl Tally {
    pub fn new(name: &str) -> Self {
        Tally {
            name: name.to_string(),
            identical: 0,
            skipped: BTreeMap::new(),
            mismatches: Vec::new(),
        }
    }

    /// Records one case. On a mismatch, `input` is saved under the target's
    /// temp dir so the case can be rerun by hand.
    pub fn record(&mut self, label: &str, input: &[u8], verdict: Verdict) {
        match verdict {
            Verdict::Identical => self.identical += 1,
            Verdict::Skipped(reason) => *self.skipped.entry(reason).or_default() += 1,
            Verdict::Mismatch(diffs) => {
                let saved = save_failing_input(&self.name, self.mismatches.len(), input);
                self.mismatches.push((label.to_string(), diffs, saved));
            }
        }
    }

    pub fn compared(&self) -> usize {
        self.identical + self.mismatches.len()
    }

    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    pub fn skipped_for(&self, reason_part: &str) -> usize {
        self.skipped
            .iter()
            .filter(|(r, _)| r.contains(reason_part))
            .map(|(_, n)| n)
            .sum()
    }

    /// `differential NAME: N compared, N identical, N skipped (reason: count, ...)`
    pub fn summary(&self) -> String {
        let reasons: Vec<String> = self
            .skipped
            .iter()
            .map(|(reason, n)| format!("{reason}: {n}"))
            .collect();
        let mut line = format!(
            "differential {}: {} compared, {} identical, {} skipped ({})",
            self.name,
            self.compared(),
            self.identical,
            self.skipped_total(),
            reasons.join(", ")
        );
        if !self.mismatches.is_empty() {
            line.push_str(&format!(", {} MISMATCHED", self.mismatches.len()));
        }
        line
    }

    /// Prints the summary; panics listing the first mismatches, or when fewer
    /// than `min_compared` cases were comparable (a harness that skips
    /// everything must not pass silently).
    pub fn finish(self, min_compared: usize) {
        let summary = self.summary();
        eprintln!("{summary}");
        if !self.mismatches.is_empty() {
            let mut msg = format!("{summary}\nfirst mismatches:\n");
            for (label, diffs, saved) in self.mismatches.iter().take(SHOWN_MISMATCHES) {
                msg.push_str(&format!("- {label}\n"));
                if let Some(path) = saved {
                    msg.push_str(&format!("    input saved as {}\n", path.display()));
                }
                for d in diffs {
                    msg.push_str(&format!("    {d}\n"));
                }
            }
            panic!("{msg}");
        }
        assert!(
            self.compared() >= min_compared,
            "{summary}\nonly {} cases were comparable, expected at least {min_compared}",
            self.compared()
        );
    }
}

/// Saves a failing input as `<target tmp>/differential-failures/<test>-<n>.hp`.
fn save_failing_input(test: &str, n: usize, input: &[u8]) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("differential-failures");
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("{test}-{n}.hp"));
    std::fs::write(&path, input).ok()?;
    Some(path)
}
