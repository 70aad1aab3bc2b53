//! What the profile builder keeps of the points it is given: every one (the default), or,
//! for the two readings of a long `.hp` (`crate::profile::keep`), only each band's total
//! (the first) or only the points of the bands drawn and the sum of those merged into
//! OTHER (the second); or, for `--summary` of a long `.hp`, no point but the sums the
//! summary needs (`summing.rs`), and with `--sort growth` a second reading's slopes
//! (`sloping.rs`). The builder interns names alike in every mode, so a
//! band has the same number in both readings of the same bytes.

use super::closing::Closing;
use super::run::RunSplit;
use super::sloping::Sloping;
use super::summing::Summing;
use super::totals::Totals;
use crate::profile::keep::{BandTotals, Drawing, Role, Sums};
use crate::profile::spill::Spill;
use crate::profile::Point;

/// What the builder keeps.
#[derive(Debug, Default)]
pub(crate) enum Keeping {
    /// Every point.
    #[default]
    Every,
    /// Each band's total only.
    Totals(Totals),
    /// The drawn bands' points and the merged bands' sum.
    Drawn(Drawn),
    /// The summary's sums: the stack's heights, each band's peak and area.
    Summed(Summing),
    /// The bands' growth, from a first reading's means (`--summary --sort growth`).
    Sloped(Sloping),
    /// Two of these at once, two readings' worth in one (the page of a long `.hp`: the
    /// totals and the sums, then the drawn points and the growth); at most one of them
    /// keeps points, and the first says which bands remain after a census is dropped.
    Both(Box<(Keeping, Keeping)>),
}

/// What the builder knows of the censuses when it hands points over: how many are
/// complete, and the times read so far (the complete ones' first).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Censuses<'a> {
    pub(crate) complete: u32,
    /// The first census that points may still come for (this run's or block's first):
    /// those before it are over.
    pub(crate) open: u32,
    pub(crate) times: &'a [f64],
}

/// The second reading's state.
#[derive(Debug, Default)]
pub(crate) struct Drawn {
    drawing: Drawing,
    /// What is added up census by census.
    open: OpenSums,
    /// The last census any point was in (the builder's `dropped` needs it).
    last: Option<u32>,
    /// How many runs came split by role (the tests check that some did).
    pub(crate) runs_split: u64,
}

impl Keeping {
    /// The first reading's.
    pub(crate) fn totals() -> Keeping {
        Keeping::Totals(Totals::default())
    }

    /// The second reading's, with each band's role and count by its number.
    pub(crate) fn drawn(drawing: Drawing) -> Keeping {
        Keeping::Drawn(Drawn {
            open: OpenSums::new(&drawing.roles),
            drawing,
            ..Drawn::default()
        })
    }

    /// Takes `points` of band `id` (their samples counted from `base`); `band` is its
    /// points as kept, `at` what is known of the censuses.
    pub(crate) fn take(
        &mut self,
        band: &mut Vec<Point>,
        id: u32,
        points: &[Point],
        base: u32,
        at: Censuses<'_>,
    ) {
        match self {
            Keeping::Every => band.extend(points.iter().map(|p| shifted(p, base))),
            Keeping::Totals(t) => t.take(id, points, base, at.open),
            Keeping::Drawn(d) => d.take(band, id, points, base, at.open),
            Keeping::Summed(s) => s.take(id, points, base, at.complete, at.times),
            Keeping::Sloped(s) => s.take(id, points, base),
            Keeping::Both(b) => {
                b.0.take(band, id, points, base, at);
                b.1.take(band, id, points, base, at);
            }
        }
    }

    /// Takes a census's points, (band, value) in the order they came, all of sample
    /// `sample`, as [`Self::take`] of each one at a time would, when that can be done
    /// in one go (the first reading's totals; the second reading into a spill: the
    /// spill locked once, not at each point); returns `false`, having taken nothing,
    /// when not.
    pub(crate) fn take_census(&mut self, points: &[(u32, f64)], sample: u32) -> bool {
        match self {
            Keeping::Drawn(d) => d.take_census(points, sample),
            Keeping::Totals(t) => {
                for &(id, value) in points {
                    t.take(id, &[Point { sample, value }], 0, sample);
                }
                true
            }
            _ => false,
        }
    }

    /// Drops what is kept of census `complete` and later (an incomplete last census);
    /// returns whether any point was in it. The builder pops the bands' points itself.
    pub(crate) fn discard_from(&mut self, complete: u32) -> bool {
        match self {
            Keeping::Every => false,
            Keeping::Totals(t) => t.discard_from(complete),
            Keeping::Drawn(d) => {
                d.open.sums.truncate(complete as usize);
                d.open.heights.truncate(complete as usize);
                d.last.is_some_and(|last| last >= complete)
            }
            Keeping::Summed(s) => s.discard_from(complete),
            Keeping::Sloped(s) => s.discard_from(complete),
            Keeping::Both(b) => {
                let first = b.0.discard_from(complete);
                b.1.discard_from(complete) || first
            }
        }
    }

    /// Whether band `id` still has a point (for the bands a dropped census took away),
    /// `points` being what is kept of it.
    pub(crate) fn has_points(&self, id: usize, points: &[Point]) -> bool {
        match self {
            Keeping::Every => !points.is_empty(),
            Keeping::Totals(t) => t.has_points(id),
            // The first reading said which bands there are.
            Keeping::Drawn(d) => id < d.drawing.roles.len(),
            Keeping::Summed(s) => s.has_points(id),
            Keeping::Sloped(s) => s.has_points(id),
            Keeping::Both(b) => b.0.has_points(id, points),
        }
    }

    /// After the builder dropped bands (see [`Self::has_points`]): the same for its state.
    pub(crate) fn retain(&mut self, kept: &[bool]) {
        match self {
            Keeping::Totals(t) => t.retain(kept),
            Keeping::Summed(s) => s.retain(kept),
            Keeping::Sloped(s) => s.retain(kept),
            Keeping::Both(b) => {
                b.0.retain(kept);
                b.1.retain(kept);
            }
            Keeping::Every | Keeping::Drawn(_) => {}
        }
    }

    /// The summary's sums, once the reading is over (`times`: the complete censuses',
    /// `bands`: how many bands there are); `None` unless summing.
    pub(crate) fn sums(&mut self, times: &[f64], bands: usize) -> Option<Sums> {
        match self {
            Keeping::Summed(s) => Some(s.sums(times, bands)),
            Keeping::Both(b) => b.0.sums(times, bands).or_else(|| b.1.sums(times, bands)),
            _ => None,
        }
    }

    /// The bands' growth, once the reading is over (`bands` many); `None` unless that
    /// is what is kept.
    pub(crate) fn slopes(&mut self, bands: usize) -> Option<Vec<f64>> {
        match self {
            Keeping::Sloped(s) => Some(s.slopes(bands)),
            Keeping::Both(b) => b.0.slopes(bands).or_else(|| b.1.slopes(bands)),
            _ => None,
        }
    }

    /// The bands' sparklines, once [`Self::slopes`] ended the reading; `None` unless
    /// that is what is kept.
    pub(crate) fn sparks(&mut self) -> Option<Vec<Vec<f64>>> {
        match self {
            Keeping::Sloped(s) => Some(s.sparks()),
            Keeping::Both(b) => b.0.sparks().or_else(|| b.1.sparks()),
            _ => None,
        }
    }

    /// The times a sloping reading was given ([`Sloping::give_back_times`]), once it is
    /// over; `None` unless that is what is kept.
    pub(crate) fn sloping_times(&mut self) -> Option<Vec<f64>> {
        match self {
            Keeping::Sloped(s) => Some(s.give_back_times()),
            Keeping::Both(b) => b.0.sloping_times().or_else(|| b.1.sloping_times()),
            _ => None,
        }
    }

    /// Once the second reading is over, what a spill needs besides the points: the bands'
    /// names (`names`), and a height for each of the `censuses` complete ones.
    pub(crate) fn spilled(&mut self, names: Vec<Vec<u8>>, censuses: usize) {
        if let Keeping::Both(b) = self {
            // At most one of the two keeps points (the page's second reading: the first).
            b.0.spilled(names.clone(), censuses);
            b.1.spilled(names, censuses);
            return;
        }
        if let Keeping::Drawn(d) = self {
            if let Some(spill) = &d.drawing.spill {
                let mut spill = spill.lock();
                spill.names = names;
                let heights = &mut d.open.heights;
                heights.reach(censuses);
                heights.truncate(censuses);
                spill.put_heights(heights.hand_on_all());
            }
        }
    }

    /// The first reading's result, with the bands' names.
    pub(crate) fn band_totals(&self, names: Vec<Vec<u8>>, censuses: usize) -> Option<BandTotals> {
        match self {
            Keeping::Totals(t) => Some(t.band_totals(names, censuses)),
            Keeping::Both(b) => (b.0.band_totals(names.clone(), censuses))
                .or_else(|| b.1.band_totals(names, censuses)),
            _ => None,
        }
    }

    /// The second reading's sum of the merged bands, census by census, as the points of
    /// the first merged band (whose own points it holds none of): the band limit adds it
    /// into OTHER as it would have added every merged band.
    pub(crate) fn merged_points(&mut self) -> Option<(usize, Vec<Point>)> {
        let d = match self {
            Keeping::Drawn(d) => d,
            Keeping::Both(b) => return b.0.merged_points().or_else(|| b.1.merged_points()),
            _ => return None,
        };
        let carrier = d.open.carrier?;
        let points = d.open.sums.hand_on_all().map(census_point);
        if let Some(spill) = &d.drawing.spill {
            let mut spill = spill.lock();
            spill.put(carrier, points);
            spill.carrier = Some(carrier);
            return None;
        }
        Some((carrier as usize, points.collect()))
    }
}

impl Drawn {
    /// The bands' roles by name for the reader's workers, when the points go to a spill
    /// and every census is kept (see [`Self::take_split`]).
    pub(crate) fn roles_by_name(&self) -> Option<std::sync::Arc<crate::profile::keep::RunRoles>> {
        let d = &self.drawing;
        (d.spill.is_some() && d.at.is_none())
            .then(|| d.by_name.clone())
            .flatten()
    }

    /// Takes a run whose points came split by role (`split`, and the drawn bands' points
    /// in `by_band`, by the run's names, whose bands are `ids`), as [`Self::take`] of
    /// each band's would: the stack's heights and the merged bands' sum added census by
    /// census, exact in any order (every value whole, every census's sum below 2^52).
    pub(crate) fn take_split(
        &mut self,
        ids: &[u32],
        by_band: &[Vec<Point>],
        split: &RunSplit<'_>,
        base: u32,
    ) {
        self.runs_split += 1;
        if let Some(last) = split.last {
            let last = base + last;
            self.last = Some(self.last.map_or(last, |l| l.max(last)));
        }
        let Some(spill) = &self.drawing.spill else {
            return;
        };
        let mut spill = spill.lock();
        self.open.hand_on(&mut spill, base);
        add_census_sums(&mut self.open.heights, base, split.heights);
        add_census_sums(&mut self.open.sums, base, split.merged);
        for (&id, points) in ids.iter().zip(by_band) {
            if !points.is_empty() && self.drawing.roles.get(id as usize) == Some(&Role::Drawn) {
                spill.put(id, points.iter().map(|p| shifted(p, base)));
            }
        }
    }

    /// [`Keeping::take_census`].
    fn take_census(&mut self, points: &[(u32, f64)], sample: u32) -> bool {
        let Some(spill) = &self.drawing.spill else {
            return false;
        };
        if points.is_empty() {
            return true;
        }
        self.last = Some(self.last.map_or(sample, |l| l.max(sample)));
        let mut spill = spill.lock();
        self.open.hand_on(&mut spill, sample);
        for &(id, value) in points {
            let point = [Point { sample, value }];
            let roles = &self.drawing.roles;
            self.open.spill_points(&mut spill, roles, id, &point, 0);
        }
        true
    }

    /// [`Keeping::take`]; `open`: the first census points may still come for.
    fn take(&mut self, band: &mut Vec<Point>, id: u32, points: &[Point], base: u32, open: u32) {
        if let Some(p) = points.last() {
            let last = p.sample + base;
            self.last = Some(self.last.map_or(last, |l| l.max(last)));
        }
        if let Some(spill) = &self.drawing.spill {
            let mut spill = spill.lock();
            self.open.hand_on(&mut spill, open);
            let roles = &self.drawing.roles;
            return self.open.spill_points(&mut spill, roles, id, points, base);
        }
        let role = self.drawing.roles.get(id as usize);
        match role {
            Some(Role::Drawn) => {
                if band.capacity() == 0 {
                    // Its final size at once: no doubling, no copy.
                    let count = self.drawing.counts.get(id as usize).copied().unwrap_or(0);
                    band.reserve_exact(count as usize);
                }
                match &self.drawing.at {
                    Some(at) => band.extend(
                        (points.iter().map(|p| shifted(p, base)))
                            .filter(|p| at.get(p.sample as usize).copied().unwrap_or(false)),
                    ),
                    None => band.extend(points.iter().map(|p| shifted(p, base))),
                }
            }
            Some(Role::Merged) => {
                for p in points {
                    self.open.sums.add((p.sample + base) as usize, p.value);
                }
            }
            Some(Role::Dropped) | None => {}
        }
    }

    /// The most censuses whose heights or merged bands' sum were held at once.
    #[cfg(test)]
    pub(crate) fn most_held(&self) -> usize {
        let open = &self.open;
        open.heights.most_held().max(open.sums.most_held())
    }
}

/// What the second reading adds up census by census: the merged bands' values, in file
/// order (with a spill, each census's handed on to it as OTHER's point once the census
/// is over), and with a spill the stack's height (the drawn and merged bands' values),
/// handed on alike.
#[derive(Debug, Default)]
struct OpenSums {
    sums: Closing,
    heights: Closing,
    /// The band whose points are the merged bands' sum: the first merged one.
    carrier: Option<u32>,
}

impl OpenSums {
    fn new(roles: &[Role]) -> OpenSums {
        OpenSums {
            carrier: (roles.iter().position(|&r| r == Role::Merged)).map(|b| b as u32),
            ..OpenSums::default()
        }
    }

    /// Hands the censuses before `open` on to `spill`: they are over, so their heights
    /// and the merged bands' sums are final.
    fn hand_on(&mut self, spill: &mut Spill, open: u32) {
        let open = open as usize;
        if !self.heights.any_before(open) && !self.sums.any_before(open) {
            return;
        }
        spill.put_heights(self.heights.hand_on(open));
        match self.carrier {
            Some(carrier) => spill.put(carrier, self.sums.hand_on(open).map(census_point)),
            None => self.sums.hand_on(open).for_each(drop),
        }
    }

    /// [`Drawn::take`] into a spill: a drawn band's points written to it, a merged band's
    /// added into `sums`, and both into the stack's heights. The heights are added in
    /// file order, not band by band as `stack_heights` adds them: the same doubles,
    /// because every value is whole and every census's sum of magnitudes below 2^52 (the
    /// first reading checked, else there is no second).
    fn spill_points(
        &mut self,
        spill: &mut Spill,
        roles: &[Role],
        id: u32,
        points: &[Point],
        base: u32,
    ) {
        let merged = match roles.get(id as usize) {
            Some(Role::Drawn) => false,
            Some(Role::Merged) => true,
            Some(Role::Dropped) | None => return,
        };
        for p in points {
            let (at, value) = ((p.sample + base) as usize, p.value);
            self.heights.add(at, value);
            if merged {
                self.sums.add(at, value);
            }
        }
        if !merged {
            spill.put(id, points.iter().map(|p| shifted(p, base)));
        }
    }
}

/// A census's sum as the point of its census.
fn census_point((census, value): (usize, f64)) -> Point {
    Point {
        sample: census as u32,
        value,
    }
}

/// Adds a run's sums by census (`sums`, from census `base`) into `to`.
fn add_census_sums(to: &mut Closing, base: u32, sums: &[u64]) {
    if sums.is_empty() {
        return;
    }
    let from = base as usize;
    to.reach(from + sums.len());
    for (k, &s) in sums.iter().enumerate() {
        to.add(from + k, s as f64);
    }
}

fn shifted(p: &Point, base: u32) -> Point {
    let (sample, value) = (p.sample, p.value);
    Point {
        sample: sample + base,
        value,
    }
}
