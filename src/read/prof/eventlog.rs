//! An eventlog's time profile: its samples (read by the eventlog reader's own model,
//! `src/read/eventlog/time_samples.rs`) as a [`Sampled`] tree, cost centres named as
//! the log declares them (161), each sample kept at its time on the log's time axis.
//!
//! A sample's stack leaves out `MAIN`, the root of every stack, which the report's tree
//! has: it is put back, so that a stack's path is the same in both (`GC`, `SYSTEM`,
//! `IDLE` and `OVERHEAD_of` hang from `MAIN`, as in a `-pa` report).

use std::collections::HashMap;

use super::{TimeProfileError, TimeProfileOptions, TimeProfileWarning};
use crate::calltree::{CcId, Columns, Header, Sampled, TreeBuilder};
use crate::read::eventlog::prof_samples::TimeSamples;
use crate::read::eventlog::time_samples::read_time_samples;

/// Reads an eventlog's time profile.
pub(super) fn read_samples(
    bytes: &[u8],
    opts: &TimeProfileOptions,
) -> Result<(Sampled, Vec<TimeProfileWarning>), TimeProfileError> {
    let (samples, warnings) = read_time_samples(bytes, &opts.eventlog)?;
    let mut warnings: Vec<TimeProfileWarning> = warnings
        .into_iter()
        .map(TimeProfileWarning::Eventlog)
        .collect();
    let (sampled, cut) = sampled_with_limit(&samples, opts.max_name_len);
    if cut > 0 {
        // An eventlog has no lines: the warning's is 0.
        warnings.push(TimeProfileWarning::NamesCut {
            line: 0,
            count: cut,
            to: opts.max_name_len,
        });
    }
    Ok((sampled, warnings))
}

/// The tree of an eventlog's samples, and the samples in time order.
pub(crate) fn sampled_of(s: &TimeSamples) -> Sampled {
    sampled_with_limit(s, crate::defaults::MAX_NAME_LEN).0
}

/// [`sampled_of`], names cut to `max` bytes; and how many were.
fn sampled_with_limit(s: &TimeSamples, max: usize) -> (Sampled, usize) {
    let mut b = TreeBuilder::new(Columns::counts(false, false));
    b.set_name_limit(max);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut by_id: HashMap<u32, CcId> = HashMap::new();
    for (id, cc) in &s.ccs {
        let made = b.cost_centre(
            &text(&cc.label),
            &text(&cc.module),
            &text(&cc.src),
            cc.is_caf,
        );
        by_id.insert(*id, made);
    }
    let main = (s.ccs.iter())
        .find(|(_, cc)| &*cc.label == b"MAIN" && &*cc.module == b"MAIN")
        .and_then(|(id, _)| by_id.get(id).copied())
        .unwrap_or_else(|| b.cost_centre("MAIN", "MAIN", "<built-in>", false));
    let stacks: Vec<Vec<CcId>> = (s.stacks.iter())
        .map(|ids| {
            let path = ids.iter().map(|id| match by_id.get(id) {
                Some(&cc) => cc,
                None => b.cost_centre(&format!("?{id}"), "", "", false),
            });
            let mut stack: Vec<CcId> = path.collect();
            if stack.first() != Some(&main) {
                stack.insert(0, main);
            }
            stack
        })
        .collect();
    let mut header = Header::default();
    if !s.args.is_empty() {
        header.split_command_line(&s.args.join(" "));
    }
    header.total_ticks = Some(s.samples.len() as u64);
    header.tick_interval = s.interval;
    header.processors = u32::try_from(s.capabilities).ok().filter(|&c| c > 0);
    let cut = b.names_cut();
    (Sampled::new(b, &stacks, s.samples.clone(), header), cut)
}
