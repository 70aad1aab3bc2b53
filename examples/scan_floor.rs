//! The least work a chart of a `.hp` needs, as fast as this machine does it: the floor
//! under hp2ps's reading (issue 39), timed beside `wc -l` and hp2ps by
//! `scripts/measure-memory.sh`.
//!
//! ```text
//! cargo run --release --example scan_floor -- big.hp [THREADS]
//! ```
//!
//! Every data line's value is added to its band's total, the band found by its name in a
//! hash table: what any chart needs (band order by area, the scale). Nothing else of a
//! real reader is done: no check that a value is made of digits or that a name is
//! well formed, no sample times, no error positions, no point kept for drawing, nothing
//! written. The lines are found as simdjson finds its structure: each 64 bytes give one
//! bit mask of their line ends and one of their tabs (AVX2 where the CPU has it), and the
//! set bits are walked, on every core, in chunks cut after a line end, each with a table of
//! its own (as hp2ps's workers have). The file is read into memory before the clock
//! starts, and only the scan is timed: reading the input is not in the floor at all.
//! Prints the lines, the bands, the sum of every value (so that the work cannot be left
//! out) and the scan's wall time.
//!
//! A floor, not a reader: on input GHC did not write it gives wrong sums, silently. It
//! needs only `std`, so the script builds it with plain `rustc`.

use std::collections::HashMap;
use std::time::Instant;

/// A band's total and its name's place in the input (names are not copied).
#[derive(Default)]
struct Table {
    /// Open addressing: the name's hash and its index in `bands` + 1 (0: empty).
    slots: Vec<(u64, u32)>,
    /// Each band's name `(start, len)` in the chunk and its total.
    bands: Vec<(usize, usize, u64)>,
}

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![(0, 0); 1 << 12],
            bands: Vec::new(),
        }
    }

    /// Adds the data line `name<TAB>digits` at `start..end` (`tab` its tab) of `b`.
    #[inline(always)]
    fn add(&mut self, b: &[u8], start: usize, tab: usize, end: usize) {
        let name = &b[start..tab];
        let hash = name_hash(b, start, tab);
        let value = digits(b, tab + 1, end);
        let mask = self.slots.len() - 1;
        let mut i = (hash >> 40) as usize & mask;
        loop {
            let (h, id) = self.slots[i];
            if id == 0 {
                // A table one in 16 full at most on GHC's profiles; a bigger one grows.
                if self.bands.len() * 2 >= self.slots.len() {
                    self.grow(b);
                    return self.add(b, start, tab, end);
                }
                self.bands.push((start, name.len(), value));
                self.slots[i] = (hash, self.bands.len() as u32);
                return;
            }
            let band = &mut self.bands[id as usize - 1];
            if h == hash && &b[band.0..band.0 + band.1] == name {
                band.2 = band.2.wrapping_add(value);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self, b: &[u8]) {
        let mut slots = vec![(0u64, 0u32); self.slots.len() * 2];
        let mask = slots.len() - 1;
        for (id, &(start, len, _)) in self.bands.iter().enumerate() {
            let hash = name_hash(b, start, start + len);
            let mut i = (hash >> 40) as usize & mask;
            while slots[i].1 != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = (hash, id as u32 + 1);
        }
        self.slots = slots;
    }
}

/// Eight bytes of `b` from `at`, zeros past its end.
#[inline(always)]
fn word(b: &[u8], at: usize) -> u64 {
    match b.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().unwrap_or_default()),
        None => {
            let mut w = [0u8; 8];
            let tail = b.get(at..).unwrap_or_default();
            w[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(w)
        }
    }
}

/// The name `b[start..end]`'s hash from its length and its first and last eight bytes.
#[inline(always)]
fn name_hash(b: &[u8], start: usize, end: usize) -> u64 {
    let len = end - start;
    let (first, last) = match len >= 8 {
        true => (word(b, start), word(b, end - 8)),
        false => (word(b, start) & (u64::MAX >> (64 - 8 * len)), 0),
    };
    (first ^ last.rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The decimal digits `b[start..end]`: eight at a time from the right (SWAR), the rare
/// longer or line-start-close numbers byte by byte.
#[inline(always)]
fn digits(b: &[u8], start: usize, end: usize) -> u64 {
    let n = end - start;
    if n == 0 || n > 8 || end < 8 {
        return b[start..end].iter().fold(0u64, |v, &d| {
            v.wrapping_mul(10)
                .wrapping_add(u64::from(d.wrapping_sub(b'0')))
        });
    }
    // The last n bytes of the word are the digits; the bytes before them are cleared
    // first, so that no borrow of the subtraction reaches the first digit.
    let keep = u64::MAX << (8 * (8 - n));
    let w = (word(b, end - 8) & keep) - (0x3030_3030_3030_3030 & keep);
    let w = (w.wrapping_mul(10) + (w >> 8)) & 0x00FF_00FF_00FF_00FF;
    let w = (w.wrapping_mul(100) + (w >> 16)) & 0x0000_FFFF_0000_FFFF;
    (w.wrapping_mul(10_000) + (w >> 32)) & 0xFFFF_FFFF
}

/// The line-end and tab masks of 64 bytes, a byte at a time.
#[inline(always)]
fn masks_scalar(block: &[u8; 64]) -> (u64, u64) {
    let (mut ends, mut tabs) = (0u64, 0u64);
    for (i, &c) in block.iter().enumerate() {
        ends |= u64::from(c == b'\n') << i;
        tabs |= u64::from(c == b'\t') << i;
    }
    (ends, tabs)
}

/// The line-end and tab masks of 64 bytes, with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn masks_avx2(block: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::*;
    // SAFETY: `block` holds 64 bytes, the two unaligned loads read 32 each.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(block.as_ptr() as *const __m256i),
            _mm256_loadu_si256(block.as_ptr().add(32) as *const __m256i),
        )
    };
    let bits = |v: __m256i, c: u8| {
        let m = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c as i8)));
        u64::from(m as u32)
    };
    (
        bits(lo, b'\n') | bits(hi, b'\n') << 32,
        bits(lo, b'\t') | bits(hi, b'\t') << 32,
    )
}

/// Adds up the data lines of `chunk` (whole lines) into `table`: how many lines.
#[inline(always)]
fn scan_with(chunk: &[u8], table: &mut Table, masks: impl Fn(&[u8; 64]) -> (u64, u64)) -> u64 {
    let (mut lines, mut start, mut tab) = (0u64, 0usize, None);
    // The whole blocks, then the last few bytes padded with zeros (no line end, no tab).
    let whole = chunk.len() / 64 * 64;
    let mut padded = [0u8; 64];
    padded[..chunk.len() - whole].copy_from_slice(&chunk[whole..]);
    let blocks = chunk[..whole]
        .chunks_exact(64)
        .map(|b| b.try_into().unwrap_or(&padded));
    for (k, block) in blocks.chain(std::iter::once(&padded)).enumerate() {
        let base = k * 64;
        let (ends, tabs) = masks(block);
        let mut events = ends | tabs;
        while events != 0 {
            let at = events.trailing_zeros();
            events &= events - 1;
            let pos = base + at as usize;
            if tabs >> at & 1 == 1 {
                tab.get_or_insert(pos);
                continue;
            }
            lines += 1;
            // A line without a tab is a marker (`BEGIN_SAMPLE t`...) or the header.
            if let Some(tab) = tab.filter(|&tab| tab > start) {
                table.add(chunk, start, tab, pos);
            }
            tab = None;
            start = pos + 1;
        }
    }
    lines
}

/// [`scan_with`] and AVX2's masks, compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn scan_avx2(chunk: &[u8], table: &mut Table) -> u64 {
    // SAFETY: this function runs only where AVX2 is (the caller's promise).
    scan_with(chunk, table, |block| unsafe { masks_avx2(block) })
}

fn scan(chunk: &[u8], table: &mut Table) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, as just checked.
        return unsafe { scan_avx2(chunk, table) };
    }
    scan_with(chunk, table, masks_scalar)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: scan_floor FILE.hp [THREADS]");
        std::process::exit(2);
    };
    let threads = args
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("scan_floor: {path}: {e}");
            std::process::exit(1);
        }
    };
    let started = Instant::now();
    // 64 chunks a thread, each cut after a line end; thread w takes chunks w, w + threads...
    let pieces = threads * 64;
    let mut cuts = vec![0];
    for k in 1..pieces {
        let at = (bytes.len() * k / pieces).max(*cuts.last().unwrap_or(&0));
        let end = bytes[at..].iter().position(|&c| c == b'\n');
        cuts.push(end.map_or(bytes.len(), |e| at + e + 1));
    }
    cuts.push(bytes.len());
    let (bytes, cuts) = (&bytes, &cuts);
    let results: Vec<(u64, HashMap<&[u8], u64>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                s.spawn(move || {
                    let (mut lines, mut totals) = (0, HashMap::new());
                    for piece in (w..pieces).step_by(threads) {
                        let chunk = &bytes[cuts[piece]..cuts[piece + 1]];
                        let mut table = Table::new();
                        lines += scan(chunk, &mut table);
                        for (start, len, total) in table.bands {
                            *totals.entry(&chunk[start..start + len]).or_insert(0u64) += total;
                        }
                    }
                    (lines, totals)
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().ok()).collect()
    });
    let mut totals: HashMap<&[u8], u64> = HashMap::new();
    let mut lines = 0;
    for (l, t) in results {
        lines += l;
        for (name, total) in t {
            *totals.entry(name).or_insert(0) += total;
        }
    }
    let elapsed = started.elapsed();
    let sum = totals.values().fold(0u64, |a, &t| a.wrapping_add(t));
    println!(
        "{lines} lines, {} bands, sum {sum}, {threads} threads: {:.3} s",
        totals.len(),
        elapsed.as_secs_f64()
    );
}
