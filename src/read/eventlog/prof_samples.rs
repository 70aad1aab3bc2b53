//! What an eventlog's time profile is made of: the samples as the model reads them
//! ([`ProfSamples`]) and placed on the run's time axis ([`TimeSamples`]). In a file of
//! their own, which the model and the report hold and the reading of them uses.

use std::collections::HashMap;

use super::names::CostCentre;
use super::timeaxis::Clock;
use crate::intern::FxBuild;

/// The samples as read: each one's event time and stack (by number), the stacks, the
/// capabilities seen.
#[derive(Default)]
pub(crate) struct ProfSamples {
    index: HashMap<Box<[u8]>, u32, FxBuild>,
    stacks: Vec<Box<[u8]>>,
    samples: Vec<(u64, u32)>,
    interval: Option<u64>,
    caps: Vec<bool>,
}

impl ProfSamples {
    /// A sample at `t` of capability `cap`: `stack`'s raw ccids, innermost first.
    pub(crate) fn sample(&mut self, t: u64, cap: u32, stack: &[u8]) {
        let key = match self.index.get(stack) {
            Some(&k) => k,
            None => {
                let k = self.stacks.len() as u32;
                self.index.insert(stack.into(), k);
                self.stacks.push(stack.into());
                k
            }
        };
        self.samples.push((t, key));
        // The capabilities seen (a hostile number is not a vector's length).
        if let Some(i) = usize::try_from(cap).ok().filter(|&c| c < 4096) {
            if self.caps.len() <= i {
                self.caps.resize(i + 1, false);
            }
            self.caps[i] = true;
        }
    }

    /// The profile begins, ticking every `interval` nanoseconds.
    pub(crate) fn begin(&mut self, interval: u64) {
        self.interval.get_or_insert(interval);
    }

    /// The samples on `axis`, in time order, with the cost centres `ccs` of their
    /// stacks; `None` when there is no sample.
    pub(crate) fn take(
        &mut self,
        ccs: &HashMap<u32, CostCentre>,
        axis: &Clock,
    ) -> Option<TimeSamples> {
        if self.samples.is_empty() {
            return None;
        }
        let mut samples = std::mem::take(&mut self.samples);
        // Stable: samples of one time keep the file's order.
        samples.sort_by_key(|&(t, _)| t);
        let stacks: Vec<Vec<u32>> = (self.stacks.drain(..))
            .map(|raw| {
                let mut ids: Vec<u32> = (raw.chunks_exact(4))
                    .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                ids.reverse();
                ids
            })
            .collect();
        let mut named: Vec<(u32, CostCentre)> =
            ccs.iter().map(|(&id, cc)| (id, cc.clone())).collect();
        named.sort_by_key(|&(id, _)| id);
        Some(TimeSamples {
            ccs: named,
            stacks,
            samples: samples
                .into_iter()
                .map(|(t, k)| (axis.seconds(t), k))
                .collect(),
            interval: self.interval.map(|ns| ns as f64 / 1e9),
            capabilities: self.caps.iter().filter(|&&c| c).count(),
            args: Vec::new(),
        })
    }
}

/// An eventlog's time profile, on its time axis.
#[derive(Debug, Clone, Default)]
pub(crate) struct TimeSamples {
    /// The cost centres the log declares (161), by id.
    pub(crate) ccs: Vec<(u32, CostCentre)>,
    /// Each stack's ccids, outermost first.
    pub(crate) stacks: Vec<Vec<u32>>,
    /// Each sample's time (seconds on the axis) and stack, in time order.
    pub(crate) samples: Vec<(f64, u32)>,
    /// The tick interval (168), in seconds.
    pub(crate) interval: Option<f64>,
    /// How many capabilities took samples.
    pub(crate) capabilities: usize,
    /// The program's argv (its RTS options among them); empty when read with a heap
    /// profile (whose report has the program).
    pub(crate) args: Vec<String>,
}
