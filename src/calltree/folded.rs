//! What a node is measured by ([`Measure`]), each node's own and inherited value of it,
//! and folded stacks: `MAIN.MAIN;Main.CAF;Main.main 674`, a line per distinct path of
//! `Module.label` frames, its value the sum of its nodes' own values, lines sorted by
//! their bytes, as inferno's `inferno-collapse-ghcprof` writes them (its `--time` is
//! `%time` in tenths of a percent, `--ticks` and `--bytes` the columns).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::{CallTree, NodeId};

/// What a node is measured by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Measure {
    /// The share of the time, in percent.
    Time,
    /// The share of the allocation, in percent.
    Alloc,
    /// Entries.
    Entries,
    /// Ticks (`-P`, `-pa`, `-pj`, an eventlog).
    Ticks,
    /// Bytes allocated (`-P`, `-pa`, `-pj`).
    Bytes,
}

impl CallTree {
    /// Whether the tree has values of `m` (ticks and bytes only when the file counts
    /// them).
    pub fn has(&self, m: Measure) -> bool {
        match m {
            Measure::Time | Measure::Alloc => true,
            Measure::Entries => self.columns.entries,
            Measure::Ticks => self.columns.ticks,
            Measure::Bytes => self.columns.bytes,
        }
    }

    /// A node's own value of `m` (`None` when the tree has none).
    pub fn own(&self, n: NodeId, m: Measure) -> Option<f64> {
        let i = n.index();
        self.has(m).then(|| match m {
            Measure::Time => self.time[i],
            Measure::Alloc => self.alloc[i],
            Measure::Entries => self.entries[i] as f64,
            Measure::Ticks => self.ticks[i] as f64,
            Measure::Bytes => self.bytes[i] as f64,
        })
    }

    /// Every node's inherited value of `m` (its subtree's), by node: the file's for
    /// time and allocation, sums for the rest (`None` when the tree has none).
    pub fn inherited(&self, m: Measure) -> Option<Vec<f64>> {
        let counts = |v: &[u64]| self.subtree_sums(v).into_iter().map(|c| c as f64).collect();
        self.has(m).then(|| match m {
            Measure::Time => self.inherited_time.clone(),
            Measure::Alloc => self.inherited_alloc.clone(),
            Measure::Entries => counts(&self.entries),
            Measure::Ticks => counts(&self.ticks),
            Measure::Bytes => counts(&self.bytes),
        })
    }

    /// The folded stacks of `m`: (path, value) by path, as inferno writes them; a
    /// share is in tenths of a percent, rounded (`None` when the tree has no `m`).
    pub fn folded(&self, m: Measure) -> Option<Vec<(String, u64)>> {
        if !self.has(m) {
            return None;
        }
        let mut lines: BTreeMap<String, u64> = BTreeMap::new();
        // The path of the current node, and where each level's frame ends in it.
        let mut path = String::new();
        let mut ends: Vec<usize> = Vec::new();
        for n in self.nodes() {
            let depth = self.depth(n);
            ends.truncate(depth);
            path.truncate(ends.last().copied().unwrap_or(0));
            if depth > 0 {
                path.push(';');
            }
            let cc = self.cost_centre(self.cc(n));
            path.push_str(cc.module);
            path.push('.');
            path.push_str(cc.label);
            ends.push(path.len());
            let value = match m {
                Measure::Time | Measure::Alloc => {
                    (self.own(n, m).unwrap_or(0.0) * 10.0).round().max(0.0) as u64
                }
                _ => self.own(n, m).unwrap_or(0.0) as u64,
            };
            let line = lines.entry(path.clone()).or_insert(0);
            *line = line.saturating_add(value);
        }
        Some(lines.into_iter().collect())
    }

    /// Writes [`Self::folded`] as text, a line each (nothing when the tree has no `m`).
    pub fn write_folded<W: Write>(&self, m: Measure, out: &mut W) -> io::Result<()> {
        for (path, value) in self.folded(m).unwrap_or_default() {
            writeln!(out, "{path} {value}")?;
        }
        Ok(())
    }
}
