//! A time profile's data on the page (the `time` key of its run; the format is in
//! `docs/formats.md`): its header's facts, its cost centres (label, module, source,
//! fill), the flat table, and its stacks as columns in pre-order (cost centre, depth,
//! own and inherited value of each measure the file has). A tree of more stacks than
//! the page's budget carries its widest ones only (`layout::flame::thin`), thinned
//! again until their JSON fits [`PAGE_STACK_BYTES`]; the page draws what is a pixel
//! wide of them, the rest as its callers' "narrower stacks".

use std::collections::HashMap;

use super::json::Json;
use crate::calltree::{CallTree, CcId, Measure, NodeId, NONE};
use crate::defaults::{PAGE_STACKS, PAGE_STACK_BYTES};
use crate::layout::flame::{inherited_of, module_fill, thin_trees, Inherited, Thinned};
use crate::paint::svg::hex;

/// The measures, as the page names them.
pub(super) const MEASURES: [(Measure, &str); 5] = [
    (Measure::Time, "time"),
    (Measure::Alloc, "alloc"),
    (Measure::Entries, "entries"),
    (Measure::Ticks, "ticks"),
    (Measure::Bytes, "bytes"),
];

/// A share derived from counts to four decimals (the file's own shares as written).
fn share(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

/// The cost centres a page's data names, each once by (label, module, source), in
/// order of first use; trees of other tables (an eventlog's samples) map into it.
#[derive(Default, Clone)]
pub(super) struct CcTable<'a> {
    names: Vec<(&'a str, &'a str, &'a str)>,
    index: HashMap<(&'a str, &'a str, &'a str), u32>,
}

impl<'a> CcTable<'a> {
    /// The index of `tree`'s cost centre `cc`.
    pub(super) fn of(&mut self, tree: &'a CallTree, cc: CcId) -> u32 {
        let c = tree.cost_centre(cc);
        let key = (c.label, c.module, c.src);
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(key);
        self.index.insert(key, i);
        i
    }

    pub(super) fn len(&self) -> usize {
        self.names.len()
    }

    /// About how many bytes of the page's JSON the cost centres from the `from`-th on
    /// take: their texts, and their punctuation and fill.
    fn bytes_from(&self, from: usize) -> usize {
        let named = self.names.get(from..).unwrap_or_default();
        named
            .iter()
            .map(|(l, m, s)| l.len() + m.len() + s.len() + 24)
            .sum()
    }

    /// `{"label":[…],"module":[…],"src":[…],"fill":[…]}`.
    pub(super) fn write(&self, j: &mut Json) {
        j.object(|j| {
            for (key, pick) in [("label", 0), ("module", 1), ("src", 2)] {
                j.key(key);
                j.list(&self.names, |j, n| j.string([n.0, n.1, n.2][pick]));
            }
            j.key("fill");
            j.list(&self.names, |j, &(label, module, src)| {
                let cc = crate::calltree::CostCentre {
                    label,
                    module,
                    src,
                    is_caf: false,
                };
                j.string(&hex(module_fill(cc)))
            });
        });
    }
}

/// A tree's stacks as the page carries them: the nodes kept, and each node's carried
/// index or its nearest kept caller's.
pub(super) struct Carried {
    pub(super) thinned: Thinned,
    /// By node: its index among the kept, [`NONE`] when left out.
    index: Vec<u32>,
}

impl Carried {
    fn of(trees: &[&CallTree], thinned: Thinned) -> Carried {
        let len = trees.first().map_or(0, |t| t.len());
        let mut index = vec![NONE; len];
        for (i, n) in thinned.kept.iter().enumerate() {
            index[n.index()] = i as u32;
        }
        Carried { thinned, index }
    }

    /// Node `n`'s carried index, or its nearest kept caller's (`None`: no caller kept).
    pub(super) fn place(&self, tree: &CallTree, n: NodeId) -> Option<u32> {
        let mut at = Some(n);
        while let Some(m) = at {
            if self.index[m.index()] != NONE {
                return Some(self.index[m.index()]);
            }
            at = tree.parent(m);
        }
        None
    }

    pub(super) fn is_thinned(&self) -> bool {
        self.thinned.threshold > 0.0
    }
}

/// Which measures `tree` has, in the page's order: allocation only where the file
/// says it (an eventlog's samples are ticks alone).
pub(super) fn measures_of(tree: &CallTree) -> Vec<(Measure, &'static str)> {
    let c = tree.columns();
    let alloc = c.percentages || c.bytes;
    (MEASURES.into_iter())
        .filter(|(m, _)| tree.has(*m) && (alloc || *m != Measure::Alloc))
        .collect()
}

/// The JSON text of the stacks of `trees` (`names` each: one, or a comparison's two of
/// one shape, their values under `own`/`inh` or each side's name), within the page's
/// budget: thinned as far as it takes. The cost centres are `trees[0]`'s, in `ccs`.
pub(super) fn stacks_within_budget<'a>(
    trees: &[&'a CallTree],
    sides: &[&str],
    ccs: &mut CcTable<'a>,
    budget: usize,
) -> (String, Carried) {
    // Each tree's inherited values, once: for the thinning and the data.
    let inherited: Vec<Inherited> = trees.iter().map(|t| inherited_of(t)).collect();
    let with: Vec<(&CallTree, &Inherited)> = trees.iter().copied().zip(&inherited).collect();
    // The JSON of a sample of the stacks (and of the cost centres they name) says how
    // many fit the bytes.
    let mut stacks = budget.min(PAGE_STACKS);
    let len = trees.first().map_or(0, |t| t.len());
    if len > stacks {
        let sample = Carried::of(trees, sample_of(len, SAMPLE));
        let mut j = Json::new();
        let mut named = ccs.clone();
        write_stacks(&mut j, &with, sides, &sample, &mut named);
        let bytes = j.into_script_text().len() + named.bytes_from(ccs.len());
        let per_stack = bytes as f64 / SAMPLE as f64;
        let fit = (PAGE_STACK_BYTES as f64 * 0.85 / per_stack.max(1.0)) as usize;
        stacks = stacks.min(fit.max(1000));
    }
    loop {
        let carried = Carried::of(trees, thin_trees(&with, stacks));
        let mut j = Json::new();
        let mut trial = ccs.clone();
        write_stacks(&mut j, &with, sides, &carried, &mut trial);
        let text = j.into_script_text();
        let bytes = text.len() + trial.bytes_from(ccs.len());
        let fits = bytes <= PAGE_STACK_BYTES || stacks <= 1000;
        if fits || carried.thinned.kept.len() < stacks {
            *ccs = trial;
            return (text, carried);
        }
        let scale = PAGE_STACK_BYTES as f64 / bytes as f64 * 0.95;
        stacks = ((stacks as f64 * scale) as usize).max(1000);
    }
}

/// How many stacks the sample that measures a large tree's JSON has.
const SAMPLE: usize = 4000;

/// `count` of `len` stacks evenly spread (their JSON's size per stack is the whole's).
fn sample_of(len: usize, count: usize) -> Thinned {
    let step = (len / count.max(1)).max(1);
    Thinned {
        kept: (0..len)
            .step_by(step)
            .take(count)
            .map(|i| NodeId(i as u32))
            .collect(),
        threshold: 1.0,
    }
}

/// `{"cc":[…],"depth":[…],"no":[…],"thinned":b, <side>:{"time":[…],…}, …}`: with one
/// side named "own", the inherited values follow as "inh".
fn write_stacks<'a>(
    j: &mut Json,
    trees: &[(&'a CallTree, &Inherited)],
    sides: &[&str],
    carried: &Carried,
    ccs: &mut CcTable<'a>,
) {
    let Some(&(tree, _)) = trees.first() else {
        j.raw("null");
        return;
    };
    let kept = &carried.thinned.kept;
    j.object(|j| {
        j.key("cc");
        let cc: Vec<u32> = kept.iter().map(|&n| ccs.of(tree, tree.cc(n))).collect();
        j.numbers(cc.iter().map(|&c| f64::from(c)));
        j.key("depth");
        j.numbers(kept.iter().map(|&n| tree.depth(n) as f64));
        j.key("no");
        match kept.iter().any(|&n| tree.no(n).is_some()) {
            true => j.numbers(kept.iter().map(|&n| tree.no(n).map_or(-1.0, f64::from))),
            false => j.raw("null"),
        }
        j.key("thinned");
        j.raw(if carried.is_thinned() {
            "true"
        } else {
            "false"
        });
        for ((t, inherited), side) in trees.iter().zip(sides) {
            j.key(side);
            values(j, t, kept, None);
            if *side == "own" {
                j.key("inh");
                values(j, t, kept, Some(inherited));
            }
        }
    });
}

/// Each measure's own values of the `kept` nodes of `tree`, or with `inherited` (the
/// tree's), their inherited ones.
fn values(j: &mut Json, tree: &CallTree, kept: &[NodeId], inherited: Option<&Inherited>) {
    let derived = !tree.columns().percentages;
    j.object(|j| {
        for (m, name) in measures_of(tree) {
            j.key(name);
            let percent = matches!(m, Measure::Time | Measure::Alloc);
            let round = |v: f64| if percent && derived { share(v) } else { v };
            let at = MEASURES.iter().position(|(x, _)| *x == m).unwrap_or(0);
            match inherited.and_then(|i| i.get(at)).and_then(Option::as_ref) {
                Some(all) => j.numbers(kept.iter().map(|n| round(all[n.index()]))),
                None => j.numbers(kept.iter().map(|&n| round(tree.own(n, m).unwrap_or(0.0)))),
            }
        }
    });
}

/// The flat table of `tree` for the first `count` cost centres of `ccs` (the table's:
/// `tree`'s, in their order in `ccs`).
pub(super) fn write_flat(j: &mut Json, tree: &CallTree, ccs: &CcTable<'_>, count: usize) {
    let rows = tree.flat_table();
    let h = tree.header();
    // The table's cost centres, by their index in `ccs`.
    let mut by_cc: Vec<Option<usize>> = vec![None; count.min(ccs.len())];
    for (i, row) in rows.iter().enumerate() {
        let c = tree.cost_centre(row.cc);
        if let Some(&k) = ccs.index.get(&(c.label, c.module, c.src)) {
            if let Some(at) = by_cc.get_mut(k as usize) {
                *at = Some(i);
            }
        }
    }
    let pick = |f: &dyn Fn(&crate::calltree::FlatRow) -> f64| -> Vec<f64> {
        (by_cc.iter())
            .map(|r| r.map_or(0.0, |i| f(&rows[i])))
            .collect()
    };
    let c = tree.columns();
    j.object(|j| {
        j.key("stacks");
        j.numbers(pick(&|r| r.stacks as f64));
        j.key("entries");
        match c.entries {
            true => j.numbers(pick(&|r| r.entries as f64)),
            false => j.raw("null"),
        }
        j.key("time");
        j.numbers(pick(&|r| share(r.time_share(h))));
        j.key("alloc");
        j.numbers(pick(&|r| share(r.alloc_share(h))));
        j.key("inhTime");
        j.numbers(pick(&|r| share(r.inherited_time)));
        j.key("inhAlloc");
        j.numbers(pick(&|r| share(r.inherited_alloc)));
        j.key("ticks");
        match c.ticks {
            true => j.numbers(pick(&|r| r.ticks.unwrap_or(0) as f64)),
            false => j.raw("null"),
        }
        j.key("bytes");
        match c.bytes {
            true => j.numbers(pick(&|r| r.bytes.unwrap_or(0) as f64)),
            false => j.raw("null"),
        }
    });
}

/// The header's facts: `{"program":…,"commandLine":…,"rts":[…],"date":…,"totalTime":…,
/// "totalTicks":…,"interval":…,"processors":…,"totalAlloc":…}` (`null` where unsaid).
pub(super) fn write_header(j: &mut Json, tree: &CallTree) {
    let h = tree.header();
    let text = |j: &mut Json, s: &Option<String>| match s {
        Some(s) => j.string(s),
        None => j.raw("null"),
    };
    let number = |j: &mut Json, v: Option<f64>| j.number(v.unwrap_or(f64::NAN));
    j.object(|j| {
        j.key("program");
        text(j, &h.program);
        j.key("commandLine");
        text(j, &h.command_line);
        j.key("rts");
        j.list(&h.rts_options, |j, o| j.string(o));
        j.key("date");
        text(j, &h.date);
        j.key("totalTime");
        number(j, h.total_time);
        j.key("totalTicks");
        number(j, h.total_ticks.map(|t| t as f64));
        j.key("interval");
        number(j, h.tick_interval);
        j.key("processors");
        number(j, h.processors.map(f64::from));
        j.key("totalAlloc");
        number(j, h.total_alloc.map(|a| a as f64));
    });
}
