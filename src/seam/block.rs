//! [`SampleBlock`]: whole samples handed to a [`super::Sink`] in one go, their points already
//! grouped by band.
//!
//! An eventlog reader knows its census times only at the end of the file (they need the
//! GC intervals, which may come later), so it keeps every band's points as it reads and
//! hands them over at the end. Passing them by band lets the profile builder move each
//! band's points into the profile instead of naming every point again (a fifth of the
//! eventlog's reading time) and holding two copies of them (the memory limit).

use std::ops::Range;

use crate::profile::Point;

/// Samples whose data points come grouped by band.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SampleBlock {
    /// The time of every sample, in order (never decreasing).
    pub times: Vec<f64>,
    /// One name per band, all different, in order of first appearance.
    pub names: Vec<Vec<u8>>,
    /// Each band's points, by [`Self::names`] order, in sample order; a point's `sample`
    /// indexes [`Self::times`].
    pub points: Vec<Vec<Point>>,
    /// The marks, in the order they are to be given.
    pub marks: Vec<BlockMark>,
}

/// A mark of a [`SampleBlock`].
#[derive(Debug, Clone, PartialEq)]
pub struct BlockMark {
    /// The sample the mark stands before, as a `MARK` line stands between two samples of
    /// a `.hp` file (a time window keeps or drops it by where it stands); `times.len()`
    /// or more: after the last sample.
    pub before: usize,
    /// Its time.
    pub time: f64,
    /// Its text; empty for a plain mark ([`super::Sink::mark`]).
    pub text: Vec<u8>,
}

impl SampleBlock {
    /// The block of samples at `times`, of which `times[censuses]` are the censuses
    /// (the rest: the empty samples a reader puts around them), with `marks` (time,
    /// text) in any order: the times made never to decrease, the marks sorted by time
    /// (stably: marks of one time keep their order) and each placed before the first
    /// census after its time, as GHC writes a `MARK` into the `.hp`, so that a time
    /// window keeps or drops it the same way.
    ///
    /// Every reader that hands over a block makes it here: an eventlog's marks come in
    /// the order the capabilities flushed their buffers, not in time order, and
    /// [`Self::replay`] gives a mark only once the samples before it have gone.
    pub fn placed(
        mut times: Vec<f64>,
        censuses: Range<usize>,
        names: Vec<Vec<u8>>,
        points: Vec<Vec<Point>>,
        marks: impl IntoIterator<Item = (f64, Vec<u8>)>,
    ) -> SampleBlock {
        for i in 1..times.len() {
            times[i] = times[i].max(times[i - 1]);
        }
        let mut marks: Vec<(f64, Vec<u8>)> = marks.into_iter().collect();
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        let placed = times.get(censuses.clone()).unwrap_or_default();
        let marks = (marks.into_iter())
            .map(|(time, text)| BlockMark {
                before: censuses.start + placed.partition_point(|&c| c <= time),
                time,
                text,
            })
            .collect();
        SampleBlock {
            times,
            names,
            points,
            marks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seam::ProfileBuilder;
    use crate::seam::Sink;

    fn point(sample: u32, value: f64) -> Point {
        Point { sample, value }
    }

    fn block() -> SampleBlock {
        SampleBlock {
            times: vec![0.0, 1.0, 2.0, 3.0],
            names: vec![b"a".to_vec(), b"b".to_vec()],
            points: vec![
                vec![point(1, 10.0), point(2, 20.0)],
                vec![point(1, 5.0), point(3, 7.0)],
            ],
            marks: vec![
                BlockMark {
                    before: 2,
                    time: 1.5,
                    text: b"half".to_vec(),
                },
                BlockMark {
                    before: 4,
                    time: 3.5,
                    text: Vec::new(),
                },
            ],
        }
    }

    /// The builder's own handling of a block (moving the bands in) gives the profile that
    /// statement-by-statement replay gives.
    #[test]
    fn builder_takes_a_block_as_its_statements() {
        let mut moved = ProfileBuilder::default();
        moved.samples(block());
        let mut replayed = ProfileBuilder::default();
        block().replay(&mut replayed);
        let (moved, replayed) = (moved.finish(), replayed.finish());
        assert_eq!(moved, replayed);
        assert_eq!(moved.times, [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(moved.marks, [1.5, 3.5]);
        assert_eq!(moved.mark_texts, [b"half".to_vec(), Vec::new()]);
        assert_eq!(moved.bands[1].points, [point(1, 5.0), point(3, 7.0)]);
    }

    /// After other samples, the block's sample numbers move up, and a name already
    /// known joins its band.
    #[test]
    fn a_block_after_other_samples() {
        let run = |b: &mut ProfileBuilder| {
            b.begin_sample(0.5);
            b.data(b"b", 1.0);
            b.end_sample();
        };
        let mut moved = ProfileBuilder::default();
        run(&mut moved);
        moved.samples(block());
        let mut replayed = ProfileBuilder::default();
        run(&mut replayed);
        block().replay(&mut replayed);
        let (moved, replayed) = (moved.finish(), replayed.finish());
        assert_eq!(moved, replayed);
        assert_eq!(moved.bands[0].name, b"b");
        assert_eq!(moved.bands[0].points[1], point(2, 5.0));
    }

    /// Times never go back; marks are sorted by time and stand before the first census
    /// after them (a mark at a census's time after it); the empty samples around the
    /// censuses place none.
    #[test]
    fn placed_orders_times_and_marks() {
        let marks = [
            (9.0, b"end".to_vec()),
            (1.0, Vec::new()),
            (-1.0, Vec::new()),
        ];
        let b = SampleBlock::placed(vec![0.0, 1.0, 0.5, 2.0, 0.0], 1..4, vec![], vec![], marks);
        assert_eq!(b.times, [0.0, 1.0, 1.0, 2.0, 2.0]);
        let placed: Vec<(f64, usize)> = b.marks.iter().map(|m| (m.time, m.before)).collect();
        assert_eq!(placed, [(-1.0, 1), (1.0, 3), (9.0, 4)]);
    }

    #[test]
    fn replay_puts_marks_between_samples() {
        #[derive(Default)]
        struct Log(Vec<String>);
        impl Sink for Log {
            fn header(&mut self, _: crate::seam::HeaderField, _: &[u8]) {}
            fn mark(&mut self, t: f64) {
                self.0.push(format!("mark {t}"));
            }
            fn begin_sample(&mut self, t: f64) {
                self.0.push(format!("begin {t}"));
            }
            fn end_sample(&mut self) {
                self.0.push("end".into());
            }
            fn data(&mut self, name: &[u8], v: f64) {
                self.0.push(format!("{} {v}", name.escape_ascii()));
            }
            fn discard_incomplete_sample(&mut self) -> bool {
                false
            }
        }
        let mut log = Log::default();
        block().replay(&mut log);
        assert_eq!(
            log.0.join(", "),
            "begin 0, end, begin 1, a 10, b 5, end, mark 1.5, begin 2, a 20, end, \
             begin 3, b 7, end, mark 3.5"
        );
    }
}
