//! Levels of detail kept up to date as items arrive, within a fixed memory: a pyramid.
//!
//! Level 0 keeps the newest `cap` items as they came. Every level hands the level above
//! two items of each four it receives: the lowest and the highest of the four by weight
//! (a census's total, a line's value), in time order. So level k holds, for each run of
//! 2^(k+1) items, the lowest and the highest of them: the envelope of the run at every
//! level, its peaks and troughs never averaged away, and every value a real one. Each
//! level keeps its newest `cap` items, so level k reaches back 2^k·cap items, and memory
//! is at most `cap` items per level: about `cap · log2(n / cap)` for n items, shared
//! between levels (an item kept at several levels is one allocation).
//!
//! The work per item is constant (amortised: level k sees one item in 2^k).
//!
//! [`Pyramid::union`] gives the finest samples known for every stretch of time: all of
//! level 0, then from each coarser level what lies before the finer level's oldest item.

use std::collections::VecDeque;
use std::sync::Arc;

/// What a pyramid keeps: ordered by time, chosen by weight.
pub(crate) trait Item {
    /// Its time.
    fn time(&self) -> f64;
    /// What the level above keeps the lowest and highest of.
    fn weight(&self) -> f64;
}

/// Levels of detail of a stream of items.
#[derive(Debug)]
pub(crate) struct Pyramid<T> {
    cap: usize,
    levels: Vec<Level<T>>,
    /// Items pushed in all.
    count: u64,
}

#[derive(Debug)]
struct Level<T> {
    /// The newest items of this level, oldest first.
    kept: VecDeque<Arc<T>>,
    /// Items received and not yet handed up (fewer than four).
    group: Vec<Arc<T>>,
    /// Whether it ever dropped an item (its oldest no longer the stream's first).
    dropped: bool,
}

impl<T> Level<T> {
    fn new() -> Self {
        Level {
            kept: VecDeque::new(),
            group: Vec::with_capacity(4),
            dropped: false,
        }
    }
}

impl<T: Item> Pyramid<T> {
    /// A pyramid keeping at most `cap` (at least 4) items per level.
    pub(crate) fn new(cap: usize) -> Self {
        Pyramid {
            cap: cap.max(4),
            levels: Vec::new(),
            count: 0,
        }
    }

    /// Items pushed in all.
    pub(crate) fn count(&self) -> u64 {
        self.count
    }

    /// Adds the newest item.
    pub(crate) fn push(&mut self, item: T) {
        self.count += 1;
        self.push_at(0, Arc::new(item));
    }

    fn push_at(&mut self, mut k: usize, mut item: Arc<T>) {
        // One level after the other, without recursion: what a level hands up is its
        // group's two extremes, which the level above takes in turn.
        let mut carry: Option<Arc<T>> = None;
        loop {
            if k == self.levels.len() {
                self.levels.push(Level::new());
            }
            let cap = self.cap;
            let level = &mut self.levels[k];
            for it in std::iter::once(item).chain(carry.take()) {
                level.kept.push_back(Arc::clone(&it));
                if level.kept.len() > cap {
                    level.kept.pop_front();
                    level.dropped = true;
                }
                level.group.push(it);
            }
            if level.group.len() < 4 {
                return;
            }
            let group: Vec<Arc<T>> = level.group.drain(..).collect();
            let (lo, hi) = extremes(&group);
            let (first, second) = if lo <= hi { (lo, hi) } else { (hi, lo) };
            item = Arc::clone(&group[first]);
            carry = Some(Arc::clone(&group[second]));
            k += 1;
        }
    }

    /// The finest items known for every stretch of time, oldest first.
    pub(crate) fn union(&self) -> Vec<Arc<T>> {
        let mut newest_first: Vec<Arc<T>> = Vec::new();
        let mut before = f64::INFINITY;
        for level in &self.levels {
            for item in level.kept.iter().rev() {
                if item.time() < before {
                    newest_first.push(Arc::clone(item));
                }
            }
            if let Some(oldest) = level.kept.front() {
                before = before.min(oldest.time());
            }
            if !level.dropped {
                break;
            }
        }
        newest_first.reverse();
        newest_first
    }

    /// The items held, counted once each (what the memory bound is about).
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        for level in &self.levels {
            for item in level.kept.iter().chain(&level.group) {
                seen.insert(Arc::as_ptr(item) as usize);
            }
        }
        seen.len()
    }
}

/// The positions of the lowest and the highest of `group` by weight (the first lowest
/// and the last highest, so that a flat stretch keeps its ends).
fn extremes<T: Item>(group: &[Arc<T>]) -> (usize, usize) {
    let (mut lo, mut hi) = (0, group.len() - 1);
    for (i, item) in group.iter().enumerate() {
        if item.weight() < group[lo].weight() {
            lo = i;
        }
        if item.weight() >= group[hi].weight() {
            hi = i;
        }
    }
    if lo == hi {
        // One item is both: keep the first and the last of the group.
        return (0, group.len() - 1);
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    struct P(f64, f64);

    impl Item for P {
        fn time(&self) -> f64 {
            self.0
        }
        fn weight(&self) -> f64 {
            self.1
        }
    }

    fn wave(i: u64) -> f64 {
        ((i * 2654435761) % 1000) as f64
    }

    #[test]
    fn memory_stays_within_cap_per_level_and_the_union_is_in_time_order() {
        let mut p = Pyramid::new(64);
        for i in 0..200_000u64 {
            p.push(P(i as f64, wave(i)));
        }
        let levels = p.levels.len();
        assert!(levels <= 17, "{levels} levels");
        assert!(p.held() <= 64 * levels + 4 * levels, "{} held", p.held());
        let u = p.union();
        assert!(u.windows(2).all(|w| w[0].0 < w[1].0), "time order");
        assert_eq!(u.last().unwrap().0, 199_999.0, "the newest is kept");
        assert!(
            u.first().unwrap().0 < 64.0,
            "the union reaches back to the start"
        );
        // Level 0 whole: the newest 64 items are all there.
        let newest: Vec<f64> = u.iter().rev().take(64).map(|p| p.0).collect();
        assert_eq!(
            newest,
            (199_936..200_000)
                .rev()
                .map(|i| i as f64)
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn the_envelope_survives_every_level() {
        // The highest and lowest values anywhere are kept, however old.
        let mut p = Pyramid::new(16);
        for i in 0..100_000u64 {
            let v = match i {
                1234 => 1e9,
                5678 => -1e9,
                _ => wave(i),
            };
            p.push(P(i as f64, v));
        }
        let u = p.union();
        assert!(u.iter().any(|p| p.1 == 1e9), "the peak at 1234");
        assert!(u.iter().any(|p| p.1 == -1e9), "the trough at 5678");
        assert!(u.len() < 16 * 20, "{} kept", u.len());
    }

    #[test]
    fn a_day_of_censuses_keeps_a_few_thousand() {
        // 864,000 censuses (a day at 0.1 s), 1,024 per level: what docs/live.md counts.
        let mut p = Pyramid::new(1024);
        for i in 0..864_000u64 {
            p.push(P(i as f64, wave(i)));
        }
        let (levels, held, union) = (p.levels.len(), p.held(), p.union().len());
        // 5,964 held: every census held is in the union (a coarser level's newer ones
        // are the finer level's too).
        assert_eq!(levels, 19);
        assert!(held <= 19 * 1024, "{held} held");
        assert!((5_000..6_500).contains(&union), "{union} in the union");
        assert_eq!(held, union);
    }

    #[test]
    fn a_short_stream_is_kept_whole() {
        let mut p = Pyramid::new(64);
        for i in 0..50u64 {
            p.push(P(i as f64, wave(i)));
        }
        assert_eq!(p.union().len(), 50);
        assert_eq!(p.count(), 50);
    }
}
