//! What the live stage keeps of a run: the header, the bands' names, the censuses and
//! the lines over the bands as levels of detail ([`Pyramid`], aggregation's thinning of
//! a run as it comes), the marks, and what the page is to say (lost censuses). It is the
//! sink the reader tells ([`Sink`]: an eventlog's censuses by band number, a `.hp`'s
//! samples statement by statement) and what a page is made from
//! ([`Store::sample_block`]); its size does not grow with the run but for the names and
//! the marks.

use std::collections::HashMap;

use crate::aggregate::pyramid::{Item, Pyramid};
use crate::profile::Point;
use crate::read::eventlog::events::LINES;
use crate::seam::{HeaderField, SampleBlock, Sink};

/// Most marks kept (later ones are left out).
const MAX_MARKS: usize = 1 << 16;
/// Most announcements kept (the newest; the rest are counted).
const MAX_NOTICES: usize = 20;

/// One census: its number, time and points (band numbers and values apart: 12 bytes a
/// point).
#[derive(Debug)]
pub(crate) struct Census {
    /// Its time on the reader's axis.
    pub(crate) time: f64,
    /// The sum of its values.
    total: f64,
    bands: Box<[u32]>,
    values: Box<[f64]>,
}

impl Item for Census {
    fn time(&self) -> f64 {
        self.time
    }
    fn weight(&self) -> f64 {
        self.total
    }
}

/// A point of a line over the bands.
#[derive(Debug)]
pub(crate) struct LinePoint(f64, f64);

impl Item for LinePoint {
    fn time(&self) -> f64 {
        self.0
    }
    fn weight(&self) -> f64 {
        self.1
    }
}

/// A run as far as it has been read.
#[derive(Debug)]
pub(crate) struct Store {
    pub(crate) header: Vec<(HeaderField, Vec<u8>)>,
    /// Every band's name, by number.
    pub(crate) names: Vec<Vec<u8>>,
    /// The number of each band named in a `.hp`'s samples.
    numbers: HashMap<Vec<u8>, u32>,
    /// The sample being read (a `.hp`'s): its time, and its points.
    sample: Option<(f64, Vec<(u32, f64)>)>,
    pub(crate) censuses: Pyramid<Census>,
    /// Each line over the bands ([`LINES`]).
    pub(crate) lines: Vec<Pyramid<LinePoint>>,
    pub(crate) marks: Vec<(f64, Vec<u8>)>,
    /// What the page and stderr are to say, newest last, each with its number.
    pub(crate) notices: Vec<(u64, String)>,
    pub(crate) notices_told: u64,
    /// The newest census's time.
    pub(crate) newest: Option<f64>,
    /// Bumped by every change: a page is made again only when it moved.
    pub(crate) version: u64,
}

impl Store {
    /// An empty run keeping `cap` items per level of detail.
    pub(crate) fn new(cap: usize) -> Store {
        Store {
            header: Vec::new(),
            names: Vec::new(),
            numbers: HashMap::new(),
            sample: None,
            censuses: Pyramid::new(cap),
            lines: LINES.iter().map(|_| Pyramid::new(cap)).collect(),
            marks: Vec::new(),
            notices: Vec::new(),
            notices_told: 0,
            newest: None,
            version: 0,
        }
    }

    /// Censuses read.
    pub(crate) fn censuses(&self) -> u64 {
        self.censuses.count()
    }

    /// Says `what` on the page (and, through the caller, on stderr).
    pub(crate) fn notice(&mut self, what: String) {
        self.notices_told += 1;
        self.notices.push((self.notices_told, what));
        if self.notices.len() > MAX_NOTICES {
            self.notices.remove(0);
        }
        self.version += 1;
    }

    /// The samples kept, as a reader hands them to the profile builder: the empty
    /// sample at 0 first when `empty_first` (an eventlog's profile has it), then the
    /// finest census known for every stretch of the run, with each time through `clock`;
    /// the marks in time order where they stand ([`SampleBlock::placed`]).
    pub(crate) fn sample_block(
        &self,
        empty_first: bool,
        clock: &dyn Fn(f64) -> f64,
    ) -> SampleBlock {
        let kept = self.censuses.union();
        let first = usize::from(empty_first);
        let mut times = Vec::with_capacity(kept.len() + first);
        if empty_first {
            times.push(0.0);
        }
        times.extend(kept.iter().map(|c| clock(c.time)));
        let mut points: Vec<Vec<Point>> = vec![Vec::new(); self.names.len()];
        for (s, c) in kept.iter().enumerate() {
            let sample = (s + first) as u32;
            for (&band, &value) in c.bands.iter().zip(c.values.iter()) {
                if let Some(list) = points.get_mut(band as usize) {
                    list.push(Point { sample, value });
                }
            }
        }
        let marks = (self.marks.iter()).map(|(t, text)| (clock(*t), text.clone()));
        SampleBlock::placed(
            times,
            first..first + kept.len(),
            self.names.clone(),
            points,
            marks,
        )
    }

    /// A line's points kept (the finest known for every stretch), through `clock`.
    pub(crate) fn line(&self, line: usize, clock: &dyn Fn(f64) -> f64) -> Vec<(f64, u64)> {
        // Each capability flushes its own buffer: points may come a little out of order.
        let mut points: Vec<(f64, u64)> = (self.lines[line].union().iter())
            .map(|p| (clock(p.0), p.1 as u64))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        points
    }
}

impl Sink for Store {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.header.retain(|(f, _)| *f != field);
        self.header.push((field, text.to_vec()));
        self.version += 1;
    }

    fn mark(&mut self, time: f64) {
        self.labelled_mark(time, b"");
    }

    fn labelled_mark(&mut self, time: f64, text: &[u8]) {
        if self.marks.len() < MAX_MARKS {
            self.marks.push((time, text.to_vec()));
        }
        self.version += 1;
    }

    fn begin_sample(&mut self, time: f64) {
        self.sample = Some((time, Vec::new()));
    }

    fn data(&mut self, name: &[u8], value: f64) {
        let next = self.names.len() as u32;
        let band = *self.numbers.entry(name.to_vec()).or_insert(next);
        if band == next {
            self.names.push(name.to_vec());
        }
        if let Some((_, points)) = &mut self.sample {
            points.push((band, value));
        }
    }

    fn end_sample(&mut self) {
        if let Some((time, points)) = self.sample.take() {
            self.census(time, &points, &[]);
        }
    }

    fn discard_incomplete_sample(&mut self) -> bool {
        self.sample.take().is_some()
    }

    fn band_name(&mut self, band: u32, name: &[u8]) {
        let band = band as usize;
        if self.names.len() <= band {
            self.names.resize(band + 1, Vec::new());
        }
        self.names[band] = name.to_vec();
        self.version += 1;
    }

    fn census(&mut self, time: f64, points: &[(u32, f64)], _: &[Vec<u8>]) {
        // A band named twice in one sample (a `.hp` may) counts once, added up.
        let mut sorted: Vec<(u32, f64)> = points.to_vec();
        sorted.sort_by_key(|p| p.0);
        let mut bands = Vec::with_capacity(sorted.len());
        let mut values: Vec<f64> = Vec::with_capacity(sorted.len());
        for (band, value) in sorted {
            match bands.last() {
                Some(&b) if b == band => {
                    if let Some(v) = values.last_mut() {
                        *v += value;
                    }
                }
                _ => {
                    bands.push(band);
                    values.push(value);
                }
            }
        }
        let total = values.iter().sum();
        self.censuses.push(Census {
            time,
            total,
            bands: bands.into(),
            values: values.into(),
        });
        self.newest = Some(self.newest.map_or(time, |n| n.max(time)));
        self.version += 1;
    }

    fn line_point(&mut self, line: usize, time: f64, value: f64) {
        if let Some(levels) = self.lines.get_mut(line) {
            levels.push(LinePoint(time, value));
        }
        self.version += 1;
    }

    fn lost(&mut self, what: String) {
        self.notice(what);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seam::ProfileBuilder;

    /// Marks told out of time order (with `-N2` each capability flushes its own buffer
    /// of events) come out in time order, each before the first census after it, and
    /// a replay gives each where it stands.
    #[test]
    fn marks_told_out_of_order_come_out_in_time_order() {
        let mut store = Store::new(16);
        store.band_name(0, b"a");
        for t in [1.0, 2.0, 3.0] {
            store.census(t, &[(0, t * 10.0)], &[]);
        }
        store.labelled_mark(2.5, b"late");
        store.labelled_mark(0.5, b"early");
        store.mark(1.5);
        let block = store.sample_block(true, &|t| t);
        let placed: Vec<(f64, usize, &[u8])> = (block.marks.iter())
            .map(|m| (m.time, m.before, &m.text[..]))
            .collect();
        assert_eq!(
            placed,
            [
                (0.5, 1, &b"early"[..]),
                (1.5, 2, &b""[..]),
                (2.5, 3, &b"late"[..])
            ]
        );
        let mut replayed = ProfileBuilder::default();
        block.replay(&mut replayed);
        let profile = replayed.finish();
        assert_eq!(profile.marks, [0.5, 1.5, 2.5]);
        assert_eq!(profile.times, [0.0, 1.0, 2.0, 3.0]);
    }
}
