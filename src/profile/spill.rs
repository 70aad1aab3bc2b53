//! The drawn bands' points of a long `.hp` kept in a file rather than in memory (issue
//! 39, `-c` as PostScript): the second reading hands each drawn band's points here,
//! which writes them in blocks of a band each, and the painter reads a band back block
//! by block when it draws it. The stack's height at each census and the merged bands'
//! sum (OTHER's points) come as each census is complete, and are written alike. What
//! stays in memory is a block per band being filled and where each band's blocks are.
//!
//! The file is the caller's (the command makes it, nameless, in TMPDIR): anything that
//! reads, writes and seeks. A write that fails is kept and said once the reading is
//! over ([`Spill::finish`]); the reading goes on meanwhile, keeping nothing.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex, MutexGuard};

use super::Point;

/// Where a spill is written: a file, or anything that reads, writes and seeks like one.
pub(crate) trait SpillFile: Read + Write + Seek + Send {}

impl<T: Read + Write + Seek + Send> SpillFile for T {}

/// Reads from `file` at `at` into `buf` without moving a position that another thread
/// may be using (`pread`; on Windows a read at a place): how much was read.
#[cfg(unix)]
pub(crate) fn read_at(file: &std::fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
pub(crate) fn read_at(file: &std::fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn read_at(_: &std::fs::File, _: &mut [u8], _: u64) -> io::Result<usize> {
    Err(io::Error::other("no positioned reads on this platform"))
}

/// [`read_at`] until `buf` is full.
pub(crate) fn read_exact_at(
    file: &std::fs::File,
    mut buf: &mut [u8],
    mut at: u64,
) -> io::Result<()> {
    while !buf.is_empty() {
        match read_at(file, buf, at) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// How many points a block holds (12 bytes each): large enough for few system calls,
/// small enough that a block per drawn band costs little.
const BLOCK: usize = 8192;

/// The bytes of a point in the file: its sample, then its value's bits.
const POINT_BYTES: usize = 12;

/// Where a block of a band's points is in the file, how many there are, and the samples
/// of its first and last (a band's points are in sample order: a reading of some
/// samples skips the blocks before them and stops after).
#[derive(Debug, Clone, Copy)]
struct Block {
    at: u64,
    count: u32,
    first: u32,
    last: u32,
}

/// One series of points in the file: a band's, or the stack's heights.
#[derive(Debug, Default)]
struct Series {
    /// Points not written yet.
    pending: Vec<Point>,
    /// The blocks in the file, in order.
    blocks: Vec<Block>,
}

/// The drawn bands' points, in a file.
pub(crate) struct Spill {
    file: Box<dyn SpillFile>,
    /// Where the next block goes.
    end: u64,
    /// Each band's points, by band number.
    bands: Vec<Series>,
    /// The stack's height at every census (the drawn bands and those merged into
    /// OTHER), as points: a census's once it is complete (`crate::seam`'s closing sums).
    heights: Series,
    /// The first failure to write, said by [`Spill::finish`].
    failed: Option<io::Error>,
    /// The first failure to read back, said by [`Spill::read_failure`].
    read_failed: Option<io::Error>,
    /// The band whose points are the merged bands' sum (OTHER's).
    pub(crate) carrier: Option<u32>,
    /// Every band's name, by number, once the reading is over.
    pub(crate) names: Vec<Vec<u8>>,
    /// Scratch for a block's bytes.
    bytes: Vec<u8>,
}

impl std::fmt::Debug for Spill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spill")
            .field("end", &self.end)
            .field("bands", &self.bands.len())
            .finish_non_exhaustive()
    }
}

/// Which series of a spill.
#[derive(Clone, Copy)]
enum Which {
    Band(usize),
    Heights,
}

impl Spill {
    /// A spill into `file`, written from where it is (its start, for a new file).
    pub(crate) fn new(file: Box<dyn SpillFile>) -> Spill {
        Spill {
            file,
            end: 0,
            bands: Vec::new(),
            heights: Series::default(),
            failed: None,
            read_failed: None,
            carrier: None,
            names: Vec::new(),
            bytes: Vec::new(),
        }
    }

    /// Adds `points` to band `band`'s, after those given before.
    pub(crate) fn put(&mut self, band: u32, points: impl Iterator<Item = Point>) {
        let b = band as usize;
        if self.bands.len() <= b {
            self.bands.resize_with(b + 1, Series::default);
        }
        self.put_in(Which::Band(b), points);
    }

    /// Adds the stack's heights of some censuses, `(census, height)` in census order,
    /// after those given before.
    pub(crate) fn put_heights(&mut self, heights: impl Iterator<Item = (usize, f64)>) {
        let points = heights.map(|(census, value)| Point {
            sample: census as u32,
            value,
        });
        self.put_in(Which::Heights, points);
    }

    fn series(&mut self, which: Which) -> &mut Series {
        match which {
            Which::Band(b) => &mut self.bands[b],
            Which::Heights => &mut self.heights,
        }
    }

    fn put_in(&mut self, which: Which, points: impl Iterator<Item = Point>) {
        for p in points {
            let series = self.series(which);
            series.pending.push(p);
            if series.pending.len() == BLOCK {
                self.write_block(which);
            }
        }
    }

    /// Writes a series' pending points as a block (or drops them after a failure).
    fn write_block(&mut self, which: Which) {
        let points = std::mem::take(&mut self.series(which).pending);
        if points.is_empty() || self.failed.is_some() {
            return;
        }
        self.bytes.clear();
        for p in &points {
            let (sample, value) = (p.sample, p.value);
            self.bytes.extend_from_slice(&sample.to_le_bytes());
            self.bytes.extend_from_slice(&value.to_bits().to_le_bytes());
        }
        let written = (self.file.seek(SeekFrom::Start(self.end)))
            .and_then(|_| self.file.write_all(&self.bytes));
        match written {
            Ok(()) => {
                let block = Block {
                    at: self.end,
                    count: points.len() as u32,
                    first: points[0].sample,
                    last: points[points.len() - 1].sample,
                };
                self.end += self.bytes.len() as u64;
                self.series(which).blocks.push(block);
            }
            Err(e) => self.failed = Some(e),
        }
        // The buffer is reused for the series' next block.
        let series = self.series(which);
        series.pending = points;
        series.pending.clear();
    }

    /// Writes every pending point; the first failure to write, if any.
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        let every = (0..self.bands.len()).map(Which::Band);
        for which in every.chain([Which::Heights]) {
            self.write_block(which);
            self.series(which).pending = Vec::new();
        }
        if self.failed.is_none() {
            if let Err(e) = self.file.flush() {
                self.failed = Some(e);
            }
        }
        match self.failed.take() {
            Some(e) => {
                let again = io::Error::new(e.kind(), e.to_string());
                self.failed = Some(e);
                Err(again)
            }
            None => Ok(()),
        }
    }

    /// Hands band `band`'s points to `each`, a block at a time, in the order given.
    pub(crate) fn read_band(
        &mut self,
        band: u32,
        each: &mut dyn FnMut(&[Point]),
    ) -> io::Result<()> {
        self.read_band_in(band, 0..usize::MAX, each)
    }

    /// Hands the stack's heights to `each`, a block at a time, as points of their
    /// censuses, in census order.
    pub(crate) fn read_heights(&mut self, each: &mut dyn FnMut(&[Point])) -> io::Result<()> {
        let (file, bytes) = (&mut self.file, &mut self.bytes);
        read_blocks(file, bytes, &self.heights.blocks, 0..usize::MAX, each)
    }

    /// [`Self::read_band`] of the blocks that hold points of the samples `samples`: those
    /// before and after are not read (the blocks read may hold points of other samples
    /// too, at their ends).
    pub(crate) fn read_band_in(
        &mut self,
        band: u32,
        samples: std::ops::Range<usize>,
        each: &mut dyn FnMut(&[Point]),
    ) -> io::Result<()> {
        let Some(series) = self.bands.get(band as usize) else {
            return Ok(());
        };
        read_blocks(
            &mut self.file,
            &mut self.bytes,
            &series.blocks,
            samples,
            each,
        )
    }

    /// Keeps `e`, a failure to read the file back (thinning's), to be said by
    /// [`Self::read_failure`] (the first failure only).
    pub(crate) fn failed_to_read(&mut self, e: io::Error) {
        self.read_failed.get_or_insert(e);
    }

    /// The first failure to read the file back ([`Self::failed_to_read`]), if any.
    pub(crate) fn read_failure(&self) -> Option<io::Error> {
        (self.read_failed.as_ref()).map(|e| io::Error::new(e.kind(), e.to_string()))
    }

    /// The band whose points a drawn band named `name` reads (`other`: it is the OTHER
    /// band the band limit made, whose points are the merged bands' sum).
    pub(crate) fn band_of(&self, name: &[u8], other: bool) -> Option<u32> {
        match other {
            true => self.carrier,
            false => (self.names.iter().position(|n| n == name)).map(|b| b as u32),
        }
    }
}

/// Hands the points of `blocks` of `file` that hold samples `samples` to `each`, a
/// block at a time, read through `bytes`. (Of the spill's fields, not a method: the
/// blocks are read where they are, so a panic in `each` leaves the spill whole.)
fn read_blocks(
    file: &mut Box<dyn SpillFile>,
    bytes: &mut Vec<u8>,
    blocks: &[Block],
    samples: std::ops::Range<usize>,
    each: &mut dyn FnMut(&[Point]),
) -> io::Result<()> {
    let mut points = Vec::with_capacity(BLOCK);
    for block in blocks {
        if (block.last as usize) < samples.start {
            continue;
        }
        if block.first as usize >= samples.end {
            break;
        }
        bytes.resize(block.count as usize * POINT_BYTES, 0);
        file.seek(SeekFrom::Start(block.at))?;
        file.read_exact(bytes)?;
        points.clear();
        points.extend(bytes.chunks_exact(POINT_BYTES).map(|c| {
            let mut sample = [0; 4];
            let mut bits = [0; 8];
            sample.copy_from_slice(&c[..4]);
            bits.copy_from_slice(&c[4..]);
            Point {
                sample: u32::from_le_bytes(sample),
                value: f64::from_bits(u64::from_le_bytes(bits)),
            }
        }));
        each(&points);
    }
    Ok(())
}

/// A [`Spill`] shared by the reading that fills it, the command that made it and the
/// painter that reads it. Two are equal when they are the same spill.
#[derive(Debug, Clone)]
pub(crate) struct SpillHandle(Arc<Mutex<Spill>>);

impl SpillHandle {
    pub(crate) fn new(spill: Spill) -> SpillHandle {
        SpillHandle(Arc::new(Mutex::new(spill)))
    }

    /// The spill, to use alone for a while (a panic while it was held leaves it usable:
    /// every step of it leaves it whole).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Spill> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl PartialEq for SpillHandle {
    fn eq(&self, other: &SpillHandle) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(band: u32, n: u32) -> Vec<Point> {
        (0..n)
            .map(|k| Point {
                sample: k,
                value: f64::from(band * 1000 + k) + 0.25,
            })
            .collect()
    }

    /// Bands put in pieces, interleaved, come back whole and in order.
    #[test]
    fn bands_come_back_as_they_were_put() {
        let mut spill = Spill::new(Box::new(io::Cursor::new(Vec::new())));
        let (a, b) = (points(0, 20_000), points(1, 9_000));
        for (pa, pb) in a.chunks(777).zip(b.chunks(333)) {
            spill.put(0, pa.iter().copied());
            spill.put(1, pb.iter().copied());
        }
        spill.put(1, b[(a.len() / 777 + 1) * 333..].iter().copied());
        spill.finish().unwrap();
        for (band, want) in [(0, &a), (1, &b)] {
            let mut got = Vec::new();
            spill
                .read_band(band, &mut |ps| got.extend_from_slice(ps))
                .unwrap();
            assert!(&got == want, "band {band}");
        }
        let mut none = 0;
        spill.read_band(7, &mut |ps| none += ps.len()).unwrap();
        assert_eq!(none, 0);
    }

    /// A band read over some samples gives the blocks that hold them: every point of
    /// those samples, in order, and of the others only those sharing their blocks.
    #[test]
    fn a_band_read_over_some_samples_gives_every_point_of_them() {
        let mut spill = Spill::new(Box::new(io::Cursor::new(Vec::new())));
        // Two points in some samples, none in others: 3 samples in 4 have points.
        let band: Vec<Point> = (0..40_000u32)
            .filter(|k| k % 4 != 3)
            .flat_map(|k| {
                let twice = k % 7 == 0;
                (0..1 + u32::from(twice)).map(move |j| Point {
                    sample: k,
                    value: f64::from(k * 2 + j),
                })
            })
            .collect();
        spill.put(0, band.iter().copied());
        spill.finish().unwrap();
        for samples in [
            0..1,
            0..40_000,
            5..9,
            8191..8193,
            12_000..30_001,
            39_999..50_000,
            50_000..60_000,
        ] {
            let mut got = Vec::new();
            let mut read = 0;
            spill
                .read_band_in(0, samples.clone(), &mut |ps| {
                    read += ps.len();
                    got.extend(
                        ps.iter()
                            .filter(|p| samples.contains(&(p.sample as usize)))
                            .copied(),
                    );
                })
                .unwrap();
            let want: Vec<Point> = (band.iter())
                .filter(|p| samples.contains(&(p.sample as usize)))
                .copied()
                .collect();
            assert!(got == want, "{samples:?}");
            // Not the whole band, for a few samples.
            let blocks = want.len().div_ceil(BLOCK) + 1;
            assert!(read <= blocks * BLOCK, "{samples:?}: {read} read");
        }
    }

    struct Refusing;

    impl Read for Refusing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Ok(0)
        }
    }

    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("no space left"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seek for Refusing {
        fn seek(&mut self, _: SeekFrom) -> io::Result<u64> {
            Ok(0)
        }
    }

    /// A file that takes the points but gives nothing back: the failure to read is kept
    /// for [`Spill::read_failure`] (the first), not taken for a failure to write.
    #[test]
    fn a_failed_read_back_is_kept_and_said() {
        let mut spill = Spill::new(Box::new(Forgetful));
        spill.put(0, points(0, 20_000).into_iter());
        spill.finish().unwrap();
        assert!(spill.read_failure().is_none());
        let e = spill.read_band_in(0, 0..10, &mut |_| {}).unwrap_err();
        spill.failed_to_read(e);
        spill.failed_to_read(io::Error::other("second"));
        let said = spill.read_failure().expect("kept").to_string();
        assert!(!said.contains("second"), "{said}");
        assert!(spill.finish().is_ok(), "no failure to write");
    }

    /// Takes every write, reads nothing back.
    struct Forgetful;

    impl Read for Forgetful {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Ok(0)
        }
    }

    impl Write for Forgetful {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seek for Forgetful {
        fn seek(&mut self, _: SeekFrom) -> io::Result<u64> {
            Ok(0)
        }
    }

    /// A write that fails is said at the end, whatever was put after it.
    #[test]
    fn a_failed_write_is_said_at_the_end() {
        let mut spill = Spill::new(Box::new(Refusing));
        spill.put(0, points(0, 20_000).into_iter());
        spill.put(1, points(1, 5).into_iter());
        let e = spill.finish().unwrap_err();
        assert!(e.to_string().contains("no space left"), "{e}");
        assert!(spill.finish().is_err(), "said again");
    }
}
