//! Band names, as the `.hp` of the same run has them: built at the end of a reading for
//! every band at once ([`Model::band_names`]), or kept up to date band by band as a log
//! is followed ([`NameTable`]), with the same result.
//!
//! A stack's name is cut at the run's `-L` as the `.hp` has it (not with `full_names`);
//! then every name is cut to [`super::EventlogOptions::max_name_len`], and the longest
//! ones further so that all fit in [`super::EventlogOptions::max_names_bytes`]: a few
//! cost centres with long labels make names of up to 255 labels each, far more than the
//! log's own bytes. Names are never built longer than they end up. A `-hi` band keeps
//! its address label: naming it is [`crate::symbolize`]'s step, from the IPE entries.

use std::collections::{HashMap, HashSet};

use super::model::{Key, Model};
use super::names::{
    ccs_length, cut_len, cut_like_rts, disambiguate, name_cap, one_line, stack_path, stack_path_len,
};
use super::EventlogWarning;

/// How a band's name is cut: at the run's `-L` (stacks, unless `full_names`) and to the
/// cap of every name.
#[derive(Clone, Copy)]
struct Cuts {
    rts: Option<usize>,
    cap: usize,
}

impl Model<'_> {
    /// The `-L` cut of this run's stacks (`None` with `full_names`).
    fn rts_cut(&self, args: &[&[u8]]) -> Option<usize> {
        (!self.opts.full_names).then(|| ccs_length(args))
    }

    /// A key's whole length, and its length after the `-L` cut.
    fn lengths(&self, k: &Key, rts: Option<usize>) -> (usize, usize) {
        let full = match k.is_stack {
            true => stack_path_len(&k.bytes, &self.ccs),
            false => k.bytes.len(),
        };
        match rts.filter(|_| k.is_stack) {
            Some(max) => (full, cut_len(full, max)),
            None => (full, full),
        }
    }

    /// A key's name before it is told apart from others (`full` and `len`: its
    /// [`Self::lengths`]), and whether the cap cut it.
    fn base_name(&self, k: &Key, (full, len): (usize, usize), cuts: Cuts) -> (Vec<u8>, bool) {
        let mut n = if k.is_stack {
            // Enough of the path for both cuts: each keeps less than its limit.
            let keep = cuts
                .rts
                .unwrap_or(usize::MAX)
                .min(cuts.cap)
                .saturating_add(1);
            let mut n = Vec::with_capacity(full.min(keep));
            stack_path(&k.bytes, &self.ccs, &mut n, keep);
            if let Some(max) = cuts.rts {
                cut_like_rts(&mut n, full, max);
            }
            n
        } else {
            k.bytes.to_vec()
        };
        let cut = len > cuts.cap;
        if cut {
            cut_like_rts(&mut n, len, cuts.cap);
        }
        one_line(&mut n);
        (n, cut)
    }

    /// Every key's name before they are told apart, the cap, and how many it cut.
    fn base_names(&self, args: &[&[u8]]) -> (Vec<Vec<u8>>, usize, u64) {
        let rts = self.rts_cut(args);
        let lengths: Vec<(usize, usize)> = self.keys.iter().map(|k| self.lengths(k, rts)).collect();
        let (most, budget) = (self.opts.max_name_len, self.opts.max_names_bytes);
        let rts_lengths: Vec<usize> = lengths.iter().map(|l| l.1).collect();
        let cuts = Cuts {
            rts,
            cap: name_cap(&rts_lengths, most, budget),
        };
        let mut cut = 0;
        let names = (self.keys.iter().zip(lengths))
            .map(|(k, l)| {
                let (n, was_cut) = self.base_name(k, l, cuts);
                cut += u64::from(was_cut);
                n
            })
            .collect();
        (names, cuts.cap, cut)
    }

    /// One name per band key, unique (see the module docs), with a warning when names
    /// were cut to fit.
    pub(crate) fn band_names(&mut self, args: &[&[u8]]) -> Vec<Vec<u8>> {
        let (mut names, cap, cut) = self.base_names(args);
        disambiguate(&mut names);
        if cut > 0 {
            let (most, budget) = (self.opts.max_name_len, self.opts.max_names_bytes);
            self.warn(EventlogWarning::NamesCut {
                count: cut,
                to: cap,
                most,
                budget,
            });
        }
        names
    }
}

/// The bands' names of a log followed as it is written, kept equal to what
/// [`Model::band_names`] would give of the bands so far: a band that comes costs the
/// building of its own name, and the renaming of the one band whose name it shares
/// when it is the second to have it (both are told apart with ` #k`). Only what the
/// names of all bands decide together makes every name be built again: the names'
/// budget exceeded (the longest are cut to share it), or a band whose name is one that
/// telling others apart gave (`a #1`).
#[derive(Default)]
pub(crate) struct NameTable {
    /// Every band's name, by key.
    names: Vec<Vec<u8>>,
    /// Every band's name before it was told apart, by key.
    bases: Vec<Vec<u8>>,
    /// How many bands have each name before they are told apart, and the first of them.
    base_count: HashMap<Vec<u8>, (u32, u32)>,
    /// The names given to tell bands apart (`a #1`), and the last `k` each name's bands
    /// were given.
    given: HashSet<Vec<u8>>,
    last_k: HashMap<Vec<u8>, u32>,
    /// The bands' names' lengths after the `-L` cut, and their sum (each at most the
    /// longest name), which decides whether names are cut to fit the budget.
    lengths: Vec<usize>,
    total: usize,
    /// Names built, for the tests: one per band that came, unless all were built again.
    pub(crate) built: u64,
}

impl NameTable {
    /// Every band's name, by key.
    pub(crate) fn names(&self) -> &[Vec<u8>] {
        &self.names
    }

    /// Names the bands of `m` that came since the last call; `renamed` is told every band
    /// whose name is new or changed (band number, name).
    pub(crate) fn update(
        &mut self,
        m: &Model<'_>,
        args: &[&[u8]],
        renamed: &mut dyn FnMut(u32, &[u8]),
    ) {
        let known = self.names.len();
        if m.keys.len() == known {
            return;
        }
        let rts = m.rts_cut(args);
        let (most, budget) = (m.opts.max_name_len, m.opts.max_names_bytes);
        let mut all_again = false;
        let mut new = Vec::new();
        for k in &m.keys[known..] {
            let lengths = m.lengths(k, rts);
            self.lengths.push(lengths.1);
            self.total = self.total.saturating_add(lengths.1.min(most));
            new.push(lengths);
        }
        if self.total > budget {
            all_again = true;
        }
        if !all_again {
            let cuts = Cuts { rts, cap: most };
            for (k, lengths) in m.keys[known..].iter().zip(new) {
                let (base, _) = m.base_name(k, lengths, cuts);
                self.built += 1;
                if !self.add(base, renamed) {
                    all_again = true;
                    break;
                }
            }
        }
        if all_again {
            self.again(m, args, renamed);
        }
    }

    /// Adds the next band, named `base` before it is told apart; false (and nothing
    /// changed) when that needs every name told apart again.
    fn add(&mut self, base: Vec<u8>, renamed: &mut dyn FnMut(u32, &[u8])) -> bool {
        if self.given.contains(&base) {
            return false;
        }
        let key = self.names.len() as u32;
        let (count, first) = match self.base_count.get(&base) {
            Some(&(count, first)) => (count, first),
            None => (0, key),
        };
        self.base_count.insert(base.clone(), (count + 1, first));
        self.bases.push(base.clone());
        match count {
            0 => {
                renamed(key, &base);
                self.names.push(base);
            }
            _ => {
                if count == 1 {
                    // The first band of this name is told apart now.
                    let name = self.next_apart(&base);
                    renamed(first, &name);
                    self.names[first as usize] = name;
                }
                let name = self.next_apart(&base);
                renamed(key, &name);
                self.names.push(name);
            }
        }
        true
    }

    /// The next name that tells a band of name `base` apart: ` #k` after the last one
    /// given, skipping every name a band has or was given.
    fn next_apart(&mut self, base: &[u8]) -> Vec<u8> {
        let k = self.last_k.entry(base.to_vec()).or_insert(0);
        loop {
            *k += 1;
            let mut name = base.to_vec();
            name.extend_from_slice(format!(" #{k}").as_bytes());
            if !self.base_count.contains_key(&name) && !self.given.contains(&name) {
                self.given.insert(name.clone());
                return name;
            }
        }
    }

    /// Every name built again, as at the end of a reading; the bands whose name changed
    /// are told.
    fn again(&mut self, m: &Model<'_>, args: &[&[u8]], renamed: &mut dyn FnMut(u32, &[u8])) {
        let (bases, _, _) = m.base_names(args);
        self.built += bases.len() as u64;
        let mut names = bases.clone();
        disambiguate(&mut names);
        for (i, name) in names.iter().enumerate() {
            if self.names.get(i) != Some(name) {
                renamed(i as u32, name);
            }
        }
        self.settle(bases, names);
    }

    /// The table of `names`, which telling `bases` apart all at once gave: the count and
    /// first band of each name before, the names given and each name's last `k`.
    fn settle(&mut self, bases: Vec<Vec<u8>>, names: Vec<Vec<u8>>) {
        self.base_count.clear();
        self.given.clear();
        self.last_k.clear();
        for (i, (base, name)) in bases.iter().zip(&names).enumerate() {
            let entry = self.base_count.entry(base.clone()).or_insert((0, i as u32));
            entry.0 += 1;
            if let Some(k) = (name.strip_prefix(base.as_slice()))
                .and_then(|rest| rest.strip_prefix(b" #"))
                .and_then(|k| std::str::from_utf8(k).ok()?.parse::<u32>().ok())
            {
                self.given.insert(name.clone());
                let last = self.last_k.entry(base.clone()).or_insert(0);
                *last = (*last).max(k);
            }
        }
        self.bases = bases;
        self.names = names;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::eventlog::EventlogOptions;
    use crate::test_rng::xorshift;

    /// The table's names, band by band, against `disambiguate` of all of them at once,
    /// on names that collide often, some of them spelt as names that telling apart gives
    /// (`a #2`: then every name is told apart again, as a whole reading does).
    #[test]
    fn the_table_tells_bands_apart_as_a_whole_reading_does() {
        for seed in 1..300u64 {
            let mut next = xorshift(seed);
            let mut table = NameTable::default();
            let mut bases: Vec<Vec<u8>> = Vec::new();
            for _ in 0..40 {
                let base = match next() % 10 {
                    0 => format!("a #{}", 1 + next() % 3),
                    n => ["a", "b", "c", "b #1"][(n % 4) as usize].to_string(),
                }
                .into_bytes();
                bases.push(base.clone());
                let mut names = bases.clone();
                disambiguate(&mut names);
                let mut told = Vec::new();
                if table.add(base, &mut |k, n| told.push((k, n.to_vec()))) {
                    for (k, n) in told {
                        assert_eq!(names[k as usize], n, "seed {seed}");
                    }
                } else {
                    table.settle(bases.clone(), names.clone());
                }
                assert_eq!(table.names, names, "seed {seed}: {bases:?}");
            }
        }
    }

    /// A band that comes costs the building of its own name: a thousand bands, told one
    /// at a time, build a thousand names (every band's name built at each band's coming
    /// would be half a million).
    #[test]
    fn a_band_that_comes_builds_its_own_name_only() {
        let opts = EventlogOptions::default();
        let mut m = Model::new(&opts);
        let mut table = NameTable::default();
        let mut told = 0;
        for i in 0..1000 {
            m.key(false, format!("band {i}").as_bytes());
            table.update(&m, &[], &mut |_, _| told += 1);
        }
        assert_eq!(table.names(), &m.band_names(&[])[..]);
        assert_eq!((table.built, told), (1000, 1000));
    }
}
