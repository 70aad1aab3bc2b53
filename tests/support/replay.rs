//! Replaying a real eventlog as its program wrote it: the header at once, then each
//! block of events when the program wrote it (at its block marker's end time, in file
//! order), faster or slower than real time by a factor; or, for a log written without
//! `--eventlog-flush-interval` (whose few blocks came when buffers filled), as if it
//! were flushed all the time: each stretch of events when the program posted its last
//! event ([`Pace::Events`]). For `--serve`'s tests (a growing file, a
//! FIFO, a Unix socket that behaves as eventlog-socket does) and
//! `examples/live_replay.rs`.
//!
//! The framing here is the eventlog format's own, written from the format's description
//! (`docs/reference/eventlog.md`), not the crate's: the header's event types give each
//! event's size, and GHC puts every event in a block whose marker (event 18) gives the
//! block's size and end time.

use std::time::{Duration, Instant};

/// A log cut where its writer wrote: the header, then each piece with its time.
#[derive(Debug, Clone)]
pub struct Pieces {
    /// The bytes of the header (up to the data's first event).
    pub header: usize,
    /// Each piece: where it ends in the file, and when it was written (ns since the
    /// start).
    pub blocks: Vec<(usize, u64)>,
    /// The file's length (the end marker included).
    pub len: usize,
}

/// How a log is cut into what its program wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// Block by block, at each block's end time (what the program wrote).
    Blocks,
    /// Stretches of events, each at its last event's time, one at least every this
    /// many ns of the run (as if the log were flushed all the time).
    Events(u64),
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The pieces of a whole, undamaged eventlog.
pub fn pieces(log: &[u8], pace: Pace) -> Pieces {
    try_pieces(log, pace).expect("a whole eventlog written by GHC")
}

fn try_pieces(b: &[u8], pace: Pace) -> Option<Pieces> {
    if !b.starts_with(b"hdrbhetb") {
        return None;
    }
    let mut at = 8;
    let mut sizes = vec![None::<u16>; 1 << 16];
    // Each declaration: "etb\0", id (2), size (2, 0xFFFF: variable), its description's
    // length and bytes, its extra's length and bytes, "ete\0".
    while b.get(at..at + 4)? == b"etb\0" {
        sizes[usize::from(u16_at(b, at + 4)?)] = Some(u16_at(b, at + 6)?);
        let desc = u32_at(b, at + 8)? as usize;
        let extra = u32_at(b, at + 12 + desc)? as usize;
        at += 12 + desc + 4 + extra;
        if b.get(at..at + 4)? != b"ete\0" {
            return None;
        }
        at += 4;
    }
    if b.get(at..at + 12)? != b"hetehdredatb" {
        return None;
    }
    let header = at + 12;
    let mut at = header;
    let mut blocks = Vec::new();
    let mut last = 0u64;
    let mut opened = 0u64;
    // GHC ≥ 9.2 puts the end marker inside the last block.
    while at < b.len() {
        let id = u16_at(b, at)?;
        if id == 0xFFFF {
            break;
        }
        let time = u64_at(b, at + 2)?;
        match pace {
            Pace::Blocks => {
                // Every event of a GHC log lies in a block: a block marker comes here.
                if id != 18 {
                    return None;
                }
                let size = u32_at(b, at + 10)? as usize;
                let end_time = u64_at(b, at + 14)?;
                at += size;
                blocks.push((at.min(b.len()), end_time));
            }
            Pace::Events(every) => {
                at += match sizes[usize::from(id)]? {
                    0xFFFF => 12 + usize::from(u16_at(b, at + 10)?),
                    n => 10 + usize::from(n),
                };
                // A piece is written when its last event was posted.
                last = last.max(time);
                match blocks.last_mut() {
                    Some(piece) if last < opened + every => *piece = (at, last),
                    _ => {
                        blocks.push((at, last));
                        opened = last;
                    }
                }
            }
        }
    }
    Some(Pieces {
        header,
        blocks,
        len: b.len(),
    })
}

/// Writes `log` to `out` piece by piece at its own pace divided by `speed` (the header
/// at once, the last piece with the end marker), calling `flush` after each piece.
pub fn replay(
    log: &[u8],
    pace: Pace,
    speed: f64,
    out: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let p = pieces(log, pace);
    let start = Instant::now();
    out(&log[..p.header])?;
    let first = p.blocks.first().map_or(0, |b| b.1);
    let mut from = p.header;
    let mut when = Duration::ZERO;
    for (i, &(to, t)) in p.blocks.iter().enumerate() {
        let at = Duration::from_secs_f64(t.saturating_sub(first) as f64 / 1e9 / speed);
        when = when.max(at);
        if let Some(wait) = when.checked_sub(start.elapsed()) {
            std::thread::sleep(wait);
        }
        let to = if i + 1 == p.blocks.len() { p.len } else { to };
        out(&log[from..to])?;
        from = to;
    }
    if from < p.len {
        out(&log[from..])?;
    }
    Ok(())
}

/// The WALL_CLOCK_TIME event (43) of a log: its timestamp (ns on the log's clock) and
/// the wall-clock time it stands for (ns since the Unix epoch): where the log's clock
/// meets the wall's.
pub fn wall_clock(log: &[u8]) -> Option<(u64, u128)> {
    let p = pieces(log, Pace::Events(0));
    let mut at = p.header;
    let sizes = declared(log)?;
    while at + 10 <= p.len {
        let id = u16_at(log, at)?;
        let time = u64_at(log, at + 2)?;
        let (head, len) = match sizes[usize::from(id)]? {
            0xFFFF => (12, usize::from(u16_at(log, at + 10)?)),
            n => (10, usize::from(n)),
        };
        if id == 43 {
            let sec = u64_at(log, at + head + 4)?;
            let nsec = u32_at(log, at + head + 12)?;
            return Some((time, u128::from(sec) * 1_000_000_000 + u128::from(nsec)));
        }
        at += head + len;
    }
    None
}

/// Each declared event type's size (0xFFFF: variable).
fn declared(b: &[u8]) -> Option<Vec<Option<u16>>> {
    let mut sizes = vec![None; 1 << 16];
    let mut at = 8;
    while b.get(at..at + 4)? == b"etb\0" {
        sizes[usize::from(u16_at(b, at + 4)?)] = Some(u16_at(b, at + 6)?);
        let desc = u32_at(b, at + 8)? as usize;
        let extra = u32_at(b, at + 12 + desc)? as usize;
        at += 12 + desc + 4 + extra + 4;
    }
    Some(sizes)
}
