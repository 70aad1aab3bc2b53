//! Rows written in place, by several threads at once: a reader that knows how many rows
//! are coming ([`TreeBuilder::new_rows`]) gets the new rows' columns, cuts them among
//! its threads ([`RowsMut::split_at`]), each writing its rows' level (a report's
//! indentation), cost centre and numbers where they go ([`RowsMut::set`]); then it
//! drops the rows it did not want ([`TreeBuilder::keep_rows`]) and links the rest into
//! the tree ([`TreeBuilder::link_rows`]: parents, depths, subtree ends, as
//! [`TreeBuilder::push`] would have). A million rows are then not copied from a
//! reader's own records into the builder: a hundred megabytes less memory written.

use super::{Row, TreeBuilder, NONE};

/// The columns of new rows, to be written in place.
pub(crate) struct RowsMut<'t> {
    /// Each row's level (its indentation), until [`TreeBuilder::link_rows`] makes it
    /// its depth.
    level: &'t mut [u32],
    cc: &'t mut [u32],
    no: &'t mut [u32],
    entries: &'t mut [u64],
    time: &'t mut [f64],
    alloc: &'t mut [f64],
    inherited_time: &'t mut [f64],
    inherited_alloc: &'t mut [f64],
    ticks: &'t mut [u64],
    bytes: &'t mut [u64],
}

/// Splits a column at `mid` (an empty one, for a column the file does not have, stays
/// empty on both sides).
fn cut<T>(s: &mut [T], mid: usize) -> (&mut [T], &mut [T]) {
    match s.is_empty() {
        true => (&mut [], &mut []),
        false => s.split_at_mut(mid),
    }
}

impl<'t> RowsMut<'t> {
    /// How many rows.
    pub(crate) fn len(&self) -> usize {
        self.cc.len()
    }

    /// The first `mid` rows, and the rest.
    pub(crate) fn split_at(self, mid: usize) -> (RowsMut<'t>, RowsMut<'t>) {
        let (level, level2) = self.level.split_at_mut(mid);
        let (cc, cc2) = self.cc.split_at_mut(mid);
        let (no, no2) = self.no.split_at_mut(mid);
        let (entries, entries2) = self.entries.split_at_mut(mid);
        let (time, time2) = self.time.split_at_mut(mid);
        let (alloc, alloc2) = self.alloc.split_at_mut(mid);
        let (it, it2) = self.inherited_time.split_at_mut(mid);
        let (ia, ia2) = self.inherited_alloc.split_at_mut(mid);
        let (ticks, ticks2) = cut(self.ticks, mid);
        let (bytes, bytes2) = cut(self.bytes, mid);
        (
            RowsMut {
                level,
                cc,
                no,
                entries,
                time,
                alloc,
                inherited_time: it,
                inherited_alloc: ia,
                ticks,
                bytes,
            },
            RowsMut {
                level: level2,
                cc: cc2,
                no: no2,
                entries: entries2,
                time: time2,
                alloc: alloc2,
                inherited_time: it2,
                inherited_alloc: ia2,
                ticks: ticks2,
                bytes: bytes2,
            },
        )
    }

    /// Writes row `i`: its level, cost centre (a number the reader gives it meaning),
    /// `no.` ([`NONE`] for none) and numbers.
    #[inline]
    pub(crate) fn set(&mut self, i: usize, level: u32, cc: u32, no: u32, row: &Row) {
        self.level[i] = level;
        self.cc[i] = cc;
        self.no[i] = no;
        self.set_numbers(i, row);
    }

    /// Writes row `i`'s numbers.
    #[inline]
    pub(crate) fn set_numbers(&mut self, i: usize, row: &Row) {
        self.entries[i] = row.entries;
        self.time[i] = row.time;
        self.alloc[i] = row.alloc;
        self.inherited_time[i] = row.inherited_time;
        self.inherited_alloc[i] = row.inherited_alloc;
        if let Some(t) = self.ticks.get_mut(i) {
            *t = row.ticks;
        }
        if let Some(b) = self.bytes.get_mut(i) {
            *b = row.bytes;
        }
    }

    /// Marks row `i` as one to drop ([`TreeBuilder::keep_rows`]).
    #[inline]
    pub(crate) fn drop_row(&mut self, i: usize) {
        self.cc[i] = DROPPED;
    }
}

/// The cost centre of a row to drop.
pub(crate) const DROPPED: u32 = u32::MAX;

impl TreeBuilder {
    /// `n` new rows (zeroed) after the last, to be written in place.
    pub(crate) fn new_rows(&mut self, n: usize) -> RowsMut<'_> {
        let from = self.tree.len();
        self.grow_to(from + n);
        self.rows_from(from)
    }

    /// Every column `to` rows long (new ones zeroed).
    fn grow_to(&mut self, to: usize) {
        let t = &mut self.tree;
        for v in [
            &mut t.cc,
            &mut t.parent,
            &mut t.end,
            &mut t.depth,
            &mut t.no,
        ] {
            v.resize(to, 0);
        }
        for v in [
            &mut t.time,
            &mut t.alloc,
            &mut t.inherited_time,
            &mut t.inherited_alloc,
        ] {
            v.resize(to, 0.0);
        }
        t.entries.resize(to, 0);
        if t.columns.ticks {
            t.ticks.resize(to, 0);
        }
        if t.columns.bytes {
            t.bytes.resize(to, 0);
        }
    }

    /// The rows from `from` on, to be written in place.
    pub(crate) fn rows_from(&mut self, from: usize) -> RowsMut<'_> {
        let t = &mut self.tree;
        fn counted(v: &mut [u64], from: usize) -> &mut [u64] {
            match v.is_empty() {
                true => &mut [],
                false => &mut v[from..],
            }
        }
        RowsMut {
            level: &mut t.depth[from..],
            cc: &mut t.cc[from..],
            no: &mut t.no[from..],
            entries: &mut t.entries[from..],
            time: &mut t.time[from..],
            alloc: &mut t.alloc[from..],
            inherited_time: &mut t.inherited_time[from..],
            inherited_alloc: &mut t.inherited_alloc[from..],
            ticks: counted(&mut t.ticks, from),
            bytes: counted(&mut t.bytes, from),
        }
    }

    /// The cost centre (as written in place) of row `i`, to be given its meaning.
    pub(crate) fn raw_cc_mut(&mut self, i: usize) -> &mut u32 {
        &mut self.tree.cc[i]
    }

    /// The `no.` of row `i`.
    pub(crate) fn raw_no_mut(&mut self, i: usize) -> &mut u32 {
        &mut self.tree.no[i]
    }

    /// Keeps the rows from `from` on that are not marked dropped, in order, and no row
    /// after the first `until`.
    pub(crate) fn keep_rows(&mut self, from: usize, until: usize) {
        let t = &mut self.tree;
        let until = until.min(t.len());
        if !t.cc[from.min(until)..until].contains(&DROPPED) {
            // Nothing dropped (the usual case): only what comes after `until` goes.
            for v in [
                &mut t.cc,
                &mut t.parent,
                &mut t.end,
                &mut t.depth,
                &mut t.no,
            ] {
                v.truncate(until);
            }
            for v in [
                &mut t.time,
                &mut t.alloc,
                &mut t.inherited_time,
                &mut t.inherited_alloc,
            ] {
                v.truncate(until);
            }
            for v in [&mut t.entries, &mut t.ticks, &mut t.bytes] {
                v.truncate(until);
            }
            return;
        }
        let keep: Vec<bool> = (0..until).map(|i| i < from || t.cc[i] != DROPPED).collect();
        fn compact<T: Copy>(v: &mut Vec<T>, keep: &[bool], until: usize) {
            if v.is_empty() {
                return;
            }
            let mut w = 0;
            for r in 0..until {
                if keep[r] {
                    v[w] = v[r];
                    w += 1;
                }
            }
            v.truncate(w);
        }
        compact(&mut t.cc, &keep, until);
        compact(&mut t.parent, &keep, until);
        compact(&mut t.end, &keep, until);
        compact(&mut t.depth, &keep, until);
        compact(&mut t.no, &keep, until);
        compact(&mut t.entries, &keep, until);
        compact(&mut t.time, &keep, until);
        compact(&mut t.alloc, &keep, until);
        compact(&mut t.inherited_time, &keep, until);
        compact(&mut t.inherited_alloc, &keep, until);
        compact(&mut t.ticks, &keep, until);
        compact(&mut t.bytes, &keep, until);
    }

    /// Links the rows from `from` on into the tree, as [`TreeBuilder::push`] links a
    /// row: each one's parent is the last row before it of a lower level.
    pub(crate) fn link_rows(&mut self, from: usize) {
        let len = self.tree.len();
        for i in from..len {
            let level = self.tree.depth[i] as usize;
            while let Some(&(l, n)) = self.open.last() {
                if l < level {
                    break;
                }
                self.tree.end[n as usize] = i as u32;
                self.open.pop();
            }
            let t = &mut self.tree;
            t.parent[i] = self.open.last().map_or(NONE, |&(_, p)| p);
            t.end[i] = i as u32 + 1;
            t.depth[i] = self.open.len() as u32;
            self.open.push((level, i as u32));
        }
    }
}
