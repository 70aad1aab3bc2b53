//! What damage cost: the byte ranges the framer skipped, and the censuses lost with them.
//!
//! A census is lost when damage falls inside it (it was open: its points are dropped), or
//! when damage took its BEGIN (its points then come outside any census, and its END
//! closes nothing). Such a loss is counted once: when the census's END comes with no
//! census open, or when the next census begins without it.

use super::error::{DamagedRegion, EventlogWarning};

/// Regions kept for the warning (the rest are only counted).
const KEPT: usize = 8;

/// The damage met while reading, in file order.
#[derive(Debug, Default)]
pub(crate) struct DamageLog {
    regions: Vec<DamagedRegion>,
    /// Regions in all (consecutive skips count as one), and their bytes.
    count: u64,
    bytes: u64,
    lost: u64,
    /// A census was dropped at the last damage, not counted yet.
    dropped: bool,
    /// Damage came after the last census began: a census END now closes a census whose
    /// BEGIN was lost.
    since_begin: bool,
    /// The last region met (kept or not): for a live reading's announcement, and where
    /// it ended, to join consecutive skips.
    last: Option<(u64, u64)>,
}

impl DamageLog {
    /// Bytes `from..to` were skipped (an empty range: an event that damage made
    /// unusable, at `from`); `dropped` whether a census was open there and so dropped.
    pub(crate) fn hit(&mut self, from: u64, to: u64, dropped: bool) {
        self.bytes += to - from;
        if self.last.map(|(_, end)| end) == Some(from) {
            if let Some(r) = self.regions.last_mut().filter(|r| r.to == from) {
                r.to = to;
            }
        } else {
            self.count += 1;
            if self.regions.len() < KEPT {
                self.regions.push(DamagedRegion {
                    from,
                    to,
                    censuses_lost: 0,
                    first_lost: 0,
                });
            }
        }
        self.last = match self.last {
            Some((start, end)) if end == from => Some((start, to)),
            _ => Some((from, to)),
        };
        self.dropped |= dropped;
        self.since_begin = true;
    }

    /// A census began; `kept` censuses were complete before it.
    pub(crate) fn began(&mut self, kept: usize) {
        if self.dropped {
            // The census dropped at the damage never ended.
            self.lose(kept);
        }
        self.since_begin = false;
    }

    /// A census END came with no census open; `kept` censuses were complete before it.
    pub(crate) fn end_without_census(&mut self, kept: usize) {
        if self.since_begin {
            self.lose(kept);
            self.since_begin = false;
        }
    }

    /// The data ended; `kept` censuses were complete.
    pub(crate) fn ended(&mut self, kept: usize) {
        if self.dropped {
            self.lose(kept);
        }
    }

    fn lose(&mut self, kept: usize) {
        self.dropped = false;
        self.lost += 1;
        let number = kept as u64 + self.lost;
        // The loss belongs to the last region met (kept or not).
        if self.regions.len() as u64 == self.count {
            if let Some(r) = self.regions.last_mut() {
                r.censuses_lost += 1;
                if r.first_lost == 0 {
                    r.first_lost = number;
                }
            }
        }
    }

    /// Whether any damage was met.
    pub(crate) fn any(&self) -> bool {
        self.count > 0
    }

    /// The bytes of the last region met: `(from, to)`.
    pub(crate) fn last_region(&self) -> Option<(u64, u64)> {
        self.last
    }

    /// Censuses lost so far.
    pub(crate) fn lost(&self) -> u64 {
        self.lost
    }

    /// The warning that sums the damage up, if there was any.
    pub(crate) fn warning(&self) -> Option<EventlogWarning> {
        self.any().then(|| EventlogWarning::Damaged {
            regions: self.regions.iter().map(DamagedRegion::ranges).collect(),
            count: self.count,
            bytes: self.bytes,
            censuses_lost: self.lost,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_is_counted_once() {
        // Inside a census: dropped there, its END comes later.
        let mut d = DamageLog::default();
        d.hit(100, 120, true);
        d.end_without_census(4);
        d.began(4);
        d.ended(4);
        assert_eq!((d.lost(), d.regions[0].first_lost), (1, 5));
        // A census's BEGIN lost: its END closes nothing.
        let mut d = DamageLog::default();
        d.hit(100, 120, false);
        d.end_without_census(2);
        d.end_without_census(2);
        assert_eq!(d.lost(), 1);
        // Its END lost: the next BEGIN shows it.
        let mut d = DamageLog::default();
        d.hit(100, 120, true);
        d.began(3);
        assert_eq!(d.lost(), 1);
        // Damage between censuses costs none; consecutive skips are one region.
        let mut d = DamageLog::default();
        d.hit(10, 20, false);
        d.hit(20, 30, false);
        d.began(0);
        d.ended(1);
        assert_eq!((d.lost(), d.count, d.bytes), (0, 1, 20));
        assert_eq!(d.regions[0].to, 30);
    }
}
