//! What each band of a heap profile is in the time profile of the same run, for the
//! page that shows both (`timelink.js`): a `-hc` band's stack (the `.hp` numbers a
//! band by its stack, `(302)…`, which is the report's `no.` in the same run; else the
//! stacks whose names its own name spells, innermost first with `/` between, cut by
//! `-L` with `...`), a `-hm` band's module's cost centres, a `-hr` band's retainer set
//! (`(91)…` is set 91 of the report's table) and its members' cost centres.

use std::collections::HashMap;

use super::json::Json;
use super::time_data::{Carried, CcTable};
use crate::calltree::{CallTree, NodeId};

/// The breakdowns a band links by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkKind {
    /// `-hc`: cost-centre stacks.
    Stacks,
    /// `-hm`: modules.
    Modules,
    /// `-hr`: retainer sets.
    Retainers,
}

impl LinkKind {
    /// The breakdown of a heap profile: its eventlog's (`breakdown`), else its JOB's
    /// first `-h` flag (a bare `-h`, a profiling build's default, is `-hc`).
    pub(crate) fn of(breakdown: Option<&str>, job: &[u8]) -> Option<LinkKind> {
        let job = String::from_utf8_lossy(job);
        let flag = breakdown.map(str::to_string).or_else(|| {
            job.split_whitespace()
                .find(|w| w.starts_with("-h") && w.len() <= 3)
                .map(str::to_string)
        })?;
        match flag.as_str() {
            "-hc" | "-h" => Some(LinkKind::Stacks),
            "-hm" => Some(LinkKind::Modules),
            "-hr" => Some(LinkKind::Retainers),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            LinkKind::Stacks => "hc",
            LinkKind::Modules => "hm",
            LinkKind::Retainers => "hr",
        }
    }
}

/// A band's name taken apart: the number a `.hp` puts in front, and the rest without
/// an eventlog's ` #k`.
fn parts(name: &str) -> (Option<u64>, &str) {
    let mut rest = name;
    let mut number = None;
    if let Some(after) = rest.strip_prefix('(') {
        if let Some((n, tail)) = after.split_once(')') {
            if let Ok(n) = n.parse() {
                number = Some(n);
                rest = tail;
            }
        }
    }
    if let Some((head, k)) = rest.rsplit_once(" #") {
        if k.bytes().all(|b| b.is_ascii_digit()) && !k.is_empty() {
            rest = head;
        }
    }
    (number, rest)
}

/// Whether a `-hc` band's frame names cost centre `label` of `module`: its label, a
/// CAF's `Module.CAF`, or (the frame `-L` cut, ending in `...`) their start.
fn frame_names(frame: &str, label: &str, module: &str) -> bool {
    let qualified = || format!("{module}.{label}");
    match frame.strip_suffix("...") {
        Some(cut) => label.starts_with(cut) || qualified().starts_with(cut),
        None => frame == label || frame == qualified(),
    }
}

/// The nodes of `tree` a `-hc` band named `rest` (innermost first) is the stack of,
/// found by their names: every stack its frames spell from MAIN's child down (all the
/// way unless `-L` cut the name).
fn stacks_named(tree: &CallTree, by_label: &HashMap<&str, Vec<NodeId>>, rest: &str) -> Vec<NodeId> {
    let frames: Vec<&str> = rest.split('/').collect();
    let cut = rest.ends_with("...");
    let Some(first) = frames.first() else {
        return Vec::new();
    };
    let start = first.strip_suffix("...").unwrap_or(first);
    let candidates: Vec<NodeId> = match first.ends_with("...") {
        true => (by_label.iter())
            .filter(|(l, _)| l.starts_with(start))
            .flat_map(|(_, v)| v.iter().copied())
            .collect(),
        false => by_label.get(first).cloned().unwrap_or_default(),
    };
    let named = |n: NodeId, frame: &str| {
        let c = tree.cost_centre(tree.cc(n));
        frame_names(frame, c.label, c.module)
    };
    let mut found: Vec<NodeId> = Vec::new();
    'candidates: for n in candidates.into_iter().chain(caf_candidates(tree, first)) {
        let mut at = Some(n);
        for frame in &frames {
            match at {
                Some(m) if named(m, frame) => at = tree.parent(m),
                _ => continue 'candidates,
            }
        }
        // Uncut, the frames end at MAIN's child: what is above is a root.
        if cut || at.map_or(true, |m| tree.parent(m).is_none()) {
            found.push(n);
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The CAF nodes a frame `Module.CAF` names (a CAF's label is `CAF`, not indexed so).
fn caf_candidates(tree: &CallTree, frame: &str) -> Vec<NodeId> {
    let Some(module) = frame.strip_suffix(".CAF") else {
        return Vec::new();
    };
    (tree.nodes())
        .filter(|&n| {
            let c = tree.cost_centre(tree.cc(n));
            c.label == "CAF" && c.module == module
        })
        .collect()
}

/// `{"kind":"hc"|"hm"|"hr","bands":[{"name":…,"nodes":[…]|"ccs":[…],"set":…,"members":[…]}]}`
/// for the heap bands `bands` (the band table's names) of a breakdown `kind`.
pub(super) fn write_link<'a>(
    j: &mut Json,
    kind: LinkKind,
    bands: &[String],
    tree: &'a CallTree,
    carried: &Carried,
    ccs: &mut CcTable<'a>,
) {
    let mut by_label: HashMap<&str, Vec<NodeId>> = HashMap::new();
    let mut by_no: HashMap<u32, NodeId> = HashMap::new();
    for n in tree.nodes() {
        by_label
            .entry(tree.cost_centre(tree.cc(n)).label)
            .or_default()
            .push(n);
        if let Some(no) = tree.no(n) {
            by_no.insert(no, n);
        }
    }
    let mut qualified: HashMap<String, Vec<u32>> = HashMap::new();
    if kind != LinkKind::Stacks {
        for cc in tree.cost_centres() {
            let c = tree.cost_centre(cc);
            let key = match kind {
                LinkKind::Modules => c.module.to_string(),
                _ => format!("{}.{}", c.module, c.label),
            };
            qualified.entry(key).or_default().push(ccs.of(tree, cc));
        }
    }
    j.object(|j| {
        j.key("kind");
        j.string(kind.name());
        j.key("bands");
        j.list(bands.iter().filter(|b| *b != "OTHER"), |j, name| {
            let (number, rest) = parts(name);
            j.object(|j| {
                j.key("name");
                j.string(name);
                match kind {
                    LinkKind::Stacks => {
                        // The report's `no.` of the same run, when its innermost name agrees.
                        let first = rest.split('/').next().unwrap_or("");
                        let numbered = (number.and_then(|n| u32::try_from(n).ok()))
                            .and_then(|n| by_no.get(&n).copied())
                            .filter(|&n| {
                                let c = tree.cost_centre(tree.cc(n));
                                frame_names(first, c.label, c.module)
                            });
                        let nodes = match numbered {
                            Some(n) => vec![n],
                            None => stacks_named(tree, &by_label, rest),
                        };
                        let mut places: Vec<u32> = nodes
                            .iter()
                            .filter_map(|&n| carried.place(tree, n))
                            .collect();
                        places.dedup();
                        j.key("nodes");
                        j.numbers(places.iter().map(|&p| f64::from(p)));
                    }
                    LinkKind::Modules => {
                        j.key("ccs");
                        let found = qualified.get(rest).cloned().unwrap_or_default();
                        j.numbers(found.iter().map(|&c| f64::from(c)));
                    }
                    LinkKind::Retainers => {
                        let set = number.and_then(|n| tree.retainer_set(n));
                        j.key("set");
                        j.number(number.map_or(f64::NAN, |n| n as f64));
                        j.key("members");
                        let members = set.map(|s| s.members.clone()).unwrap_or_default();
                        j.list(&members, |j, m| j.string(m));
                        let mut found: Vec<u32> = (members.iter())
                            .flat_map(|m| m.split(','))
                            .flat_map(|part| qualified.get(part).cloned().unwrap_or_default())
                            .collect();
                        found.sort_unstable();
                        found.dedup();
                        j.key("ccs");
                        j.numbers(found.iter().map(|&c| f64::from(c)));
                    }
                }
            });
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_name_comes_apart() {
        assert_eq!(
            parts("(302)countWords.step/count..."),
            (Some(302), "countWords.step/count...")
        );
        assert_eq!(parts("tokensFrom/main.ts #2"), (None, "tokensFrom/main.ts"));
        assert_eq!(parts("(x)y"), (None, "(x)y"));
        assert!(frame_names("Main.CAF", "CAF", "Main"));
        assert!(frame_names("count...", "countWords", "Main"));
        assert!(!frame_names("count", "countWords", "Main"));
    }

    #[test]
    fn the_breakdown_is_the_eventlogs_or_the_jobs() {
        assert_eq!(
            LinkKind::of(Some("-hm"), b"p +RTS -hc"),
            Some(LinkKind::Modules)
        );
        assert_eq!(
            LinkKind::of(None, b"leakmap +RTS -p -hc -l"),
            Some(LinkKind::Stacks)
        );
        assert_eq!(
            LinkKind::of(None, b"p +RTS -hr -p"),
            Some(LinkKind::Retainers)
        );
        assert_eq!(LinkKind::of(None, b"p +RTS -hT"), None);
        assert_eq!(
            LinkKind::of(None, b"p +RTS -h -RTS"),
            Some(LinkKind::Stacks)
        );
    }
}
