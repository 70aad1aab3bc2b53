//! Points whose bands come by key into a table of names that stays the same for the
//! whole reading (an eventlog's, [`crate::seam::Sink::keyed_census`]): each key's band
//! is looked up by name once, not at every point. The second reading of a long
//! eventlog hands over tens of millions of points on the reading's one calling thread,
//! and a name compared at each was a tenth of it.

use super::ProfileBuilder;

/// A key whose band is not known yet (in [`ProfileBuilder::by_key`]).
pub(super) const NO_BAND: u32 = u32::MAX;

impl ProfileBuilder {
    /// The points (key, value) of the current sample, the band of each key named
    /// `name_of(key)` (the same name every time for one key: a new name for a key is
    /// not noticed; `None`: the point is not taken): in one go where what is kept
    /// allows ([`super::Keeping::take_census`]), else one by one.
    pub(crate) fn keyed_points<N: AsRef<[u8]>>(
        &mut self,
        points: &[(u32, f64)],
        name_of: impl Fn(u32) -> Option<N>,
    ) {
        let mut batch = std::mem::take(&mut self.census_batch);
        batch.clear();
        for &(key, value) in points {
            if let Some(name) = name_of(key) {
                let id = self.keyed_band(key, name.as_ref());
                self.previous = id as usize + 1;
                batch.push((id, value));
            }
        }
        if !self.keeping.take_census(&batch, self.current) {
            for &(id, value) in &batch {
                self.point(id, value);
            }
        }
        self.census_batch = batch;
    }

    /// The band of `key`: looked up by `name` the first time, then remembered (until
    /// the bands are numbered again: `discard_incomplete_sample` forgets them).
    fn keyed_band(&mut self, key: u32, name: &[u8]) -> u32 {
        let key = key as usize;
        if let Some(&id) = self.by_key.get(key).filter(|&&id| id != NO_BAND) {
            return id;
        }
        let id = self.band_id(name);
        if self.by_key.len() <= key {
            self.by_key.resize(key + 1, NO_BAND);
        }
        self.by_key[key] = id;
        id
    }
}

#[cfg(test)]
mod tests {
    use crate::seam::{ProfileBuilder, Sink};

    /// Censuses by key build the profile that the same points by name build: bands
    /// numbered in the order their first points come, and after a sample that was cut
    /// off, with a band only it had (dropped with it, the bands numbered anew), the
    /// keys met before and after still go to their own bands.
    #[test]
    fn by_key_is_by_name() {
        let names: Vec<Vec<u8>> = ["a", "bb", "c", "dd", "e"].map(|n| n.into()).to_vec();
        let censuses: [&[(u32, f64)]; 4] = [
            &[(2, 1.0), (0, 2.0)],
            &[(0, 3.0), (4, 4.0), (2, 5.0)],
            &[(1, 6.0), (3, 7.0)],
            &[(3, 8.0), (0, 9.0), (1, 10.0)],
        ];
        let (mut keyed, mut named) = (ProfileBuilder::default(), ProfileBuilder::default());
        for (k, points) in censuses.iter().enumerate() {
            let time = k as f64;
            keyed.keyed_census(time, points, &names);
            named.census(time, points, &names);
            if k == 1 {
                // A sample cut off, with the only point so far of "bb".
                for b in [&mut keyed as &mut dyn Sink, &mut named] {
                    b.begin_sample(9.0);
                    b.data(b"bb", 1.0);
                    b.data(b"a", 1.0);
                    assert!(b.discard_incomplete_sample());
                }
            }
        }
        let (keyed, named) = (keyed.finish(), named.finish());
        assert_eq!(keyed, named);
        let order: Vec<&[u8]> = keyed.bands.iter().map(|b| &b.name[..]).collect();
        assert_eq!(order, [&b"c"[..], b"a", b"e", b"bb", b"dd"]);
    }
}
