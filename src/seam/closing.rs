//! Sums kept census by census only until their census is complete (issue 39): the
//! readings of a long profile add values into a sum per census (the stack's height, the
//! merged bands' sum, the sum of magnitudes), and a census's sum can take values from two
//! runs when a chunk ends inside it. Once the builder has seen a census end, no later
//! value is in it, so its sum is handed on (written to a spill, or checked) and given up:
//! what is held is the censuses still open, not one double per census of the run.
//!
//! Held without ever being handed on, a [`Closing`] is a `Vec<f64>` grown by `resize`.

use std::collections::VecDeque;

/// Sums by census, from the first census not yet handed on.
#[derive(Debug, Default, Clone)]
pub(crate) struct Closing {
    /// The first census held: those before it were handed on.
    from: usize,
    /// The sums of censuses `from..`, 0 where nothing was added.
    held: VecDeque<f64>,
    /// The most censuses held at once (what the tests hold the readings to).
    most_held: usize,
}

impl Closing {
    /// One past the last census reached (by [`Self::add`] or [`Self::reach`]), or the
    /// first held when none is.
    pub(crate) fn len(&self) -> usize {
        self.from + self.held.len()
    }

    /// Reaches census `end - 1` (as `Vec::resize(end, 0.0)` when shorter).
    pub(crate) fn reach(&mut self, end: usize) {
        if end > self.len() {
            self.held.resize(end - self.from, 0.0);
            self.most_held = self.most_held.max(self.held.len());
        }
    }

    /// The sum of census `at`, reached first. A census handed on is not held: the
    /// builder hands values of open censuses only (`debug_assert`ed), and one that came
    /// late would be left out.
    #[inline]
    pub(crate) fn at(&mut self, at: usize) -> Option<&mut f64> {
        debug_assert!(at >= self.from, "census {at} came after it was handed on");
        self.reach(at + 1);
        self.held.get_mut(at.checked_sub(self.from)?)
    }

    /// Adds `value` into census `at`'s sum.
    #[inline]
    pub(crate) fn add(&mut self, at: usize, value: f64) {
        if let Some(sum) = self.at(at) {
            *sum += value;
        }
    }

    /// Drops the sums of census `end` and later (an incomplete last census).
    pub(crate) fn truncate(&mut self, end: usize) {
        self.held.truncate(end.saturating_sub(self.from));
    }

    /// Whether [`Self::hand_on`] of `end` would hand any census on (asked first: a
    /// reading asks at every point, and most of the time none is).
    #[inline]
    pub(crate) fn any_before(&self, end: usize) -> bool {
        end > self.from && !self.held.is_empty()
    }

    /// Hands on the censuses before `end` that are held, in order, as `(census, sum)`:
    /// their censuses are complete. Those before `end` not reached yet are handed on
    /// later, once reached (as the zeros `Vec::resize` would have put there).
    pub(crate) fn hand_on(&mut self, end: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let count = end.saturating_sub(self.from).min(self.held.len());
        let from = self.from;
        self.from += count;
        self.held
            .drain(..count)
            .enumerate()
            .map(move |(k, s)| (from + k, s))
    }

    /// The most censuses held at once.
    #[cfg(test)]
    pub(crate) fn most_held(&self) -> usize {
        self.most_held
    }

    /// The sums held, in census order.
    pub(crate) fn held(&self) -> impl Iterator<Item = f64> + '_ {
        self.held.iter().copied()
    }

    /// Hands on every census held.
    pub(crate) fn hand_on_all(&mut self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.hand_on(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::Closing;

    /// Handed on at any cuts, the sums are those of a `Vec` grown by `resize` and
    /// truncated alike, census by census, each once and in order.
    #[test]
    fn handed_on_at_any_cuts_the_sums_are_a_vecs() {
        let mut next = crate::test_rng::xorshift(11);
        for round in 0..300 {
            let (mut plain, mut closing) = (Vec::<f64>::new(), Closing::default());
            let mut out: Vec<(usize, f64)> = Vec::new();
            let mut complete = 0usize;
            for _ in 0..200 {
                match next() % 6 {
                    // A value into an open census.
                    0..=2 => {
                        let at = complete + (next() % 4) as usize;
                        let value = (next() % 1000) as f64 / 4.0;
                        if plain.len() <= at {
                            plain.resize(at + 1, 0.0);
                        }
                        plain[at] += value;
                        closing.add(at, value);
                    }
                    // Room made further on.
                    3 => {
                        let end = complete + (next() % 5) as usize;
                        if plain.len() < end {
                            plain.resize(end, 0.0);
                        }
                        closing.reach(end);
                    }
                    // Censuses complete, and handed on.
                    _ => {
                        complete += (next() % 3) as usize;
                        out.extend(closing.hand_on(complete));
                    }
                }
                assert_eq!(closing.len(), plain.len());
            }
            if round % 2 == 0 {
                plain.truncate(complete + 1);
                closing.truncate(complete + 1);
            }
            out.extend(closing.hand_on_all());
            let want: Vec<(usize, u64)> = plain.iter().map(|s| s.to_bits()).enumerate().collect();
            let got: Vec<(usize, u64)> = out.iter().map(|&(k, s)| (k, s.to_bits())).collect();
            assert!(got == want, "round {round}:\n{got:?}\n{want:?}");
        }
    }
}
