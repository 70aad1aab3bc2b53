//! Writes a long `-hT` eventlog to stdout as fast as it can: a day's run of a slowly
//! leaking program, for `scripts/live-memory.sh` (what `hp2ps --serve` keeps while it
//! follows a day of censuses).
//!
//! ```text
//! cargo run --release --example live_day -- [CENSUSES] [BANDS] [INTERVAL_S]
//! ```
//!
//! Defaults: 864,000 censuses of 200 bands every 0.1 s (a day). Each census is a block
//! of the global buffer, as GHC writes one with `--eventlog-flush-interval`: its BEGIN,
//! a HEAP_PROF_SAMPLE_STRING per band and its END. A band's value is a slow leak (its
//! number of censuses), a sawtooth and a little noise, so that no two censuses are alike
//! and the levels of detail have peaks to keep. The header declares the types as GHC
//! 9.10 does.

use std::io::{self, BufWriter, Write};

/// The event types written: id, size (0xFFFF: variable), description.
const TYPES: [(u16, u16, &str); 6] = [
    (18, 14, "Block marker"),
    (43, 16, "Wall clock time"),
    (160, 0xFFFF, "Start of heap profile"),
    (162, 8, "Start of heap profile sample"),
    (164, 0xFFFF, "Heap profile string sample"),
    (165, 8, "End of heap profile sample"),
];

fn event(out: &mut Vec<u8>, id: u16, time: u64, payload: &[u8], variable: bool) {
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(&time.to_be_bytes());
    if variable {
        out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
    }
    out.extend_from_slice(payload);
}

/// A block of the global buffer holding `events`, from `start` to `end`.
fn block(out: &mut impl Write, start: u64, end: u64, events: &[u8]) -> io::Result<()> {
    let mut marker = Vec::with_capacity(24);
    let size = (24 + events.len()) as u32;
    let mut p = size.to_be_bytes().to_vec();
    p.extend_from_slice(&end.to_be_bytes());
    p.extend_from_slice(&0xFFFFu16.to_be_bytes());
    event(&mut marker, 18, start, &p, false);
    out.write_all(&marker)?;
    out.write_all(events)
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let censuses: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(864_000);
    let bands: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let interval: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0.1);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    out.write_all(b"hdrbhetb")?;
    for (id, size, desc) in TYPES {
        out.write_all(b"etb\0")?;
        out.write_all(&id.to_be_bytes())?;
        out.write_all(&size.to_be_bytes())?;
        out.write_all(&(desc.len() as u32).to_be_bytes())?;
        out.write_all(desc.as_bytes())?;
        out.write_all(&0u32.to_be_bytes())?;
        out.write_all(b"ete\0")?;
    }
    out.write_all(b"hetehdredatb")?;
    // The start: the wall clock and the heap profile's kind (-hT, every `interval`).
    let mut start = Vec::new();
    let mut wall = 0u32.to_be_bytes().to_vec();
    wall.extend_from_slice(&1_700_000_000u64.to_be_bytes());
    wall.extend_from_slice(&0u32.to_be_bytes());
    event(&mut start, 43, 1, &wall, false);
    let mut begin = vec![0u8];
    begin.extend_from_slice(&((interval * 1e9) as u64).to_be_bytes());
    begin.extend_from_slice(&7u32.to_be_bytes());
    begin.extend_from_slice(&[0; 7]);
    event(&mut start, 160, 2, &begin, true);
    block(&mut out, 1, 2, &start)?;
    let names: Vec<Vec<u8>> = (0..bands)
        .map(|b| format!("Module{}.closure_{b}", b % 17).into_bytes())
        .collect();
    let mut events = Vec::new();
    let mut noise = 0x9E37_79B9_7F4A_7C15u64;
    for c in 0..censuses {
        let t = ((c + 1) as f64 * interval * 1e9) as u64;
        events.clear();
        event(&mut events, 162, t, &c.to_be_bytes(), false);
        for (b, name) in names.iter().enumerate() {
            noise ^= noise << 13;
            noise ^= noise >> 7;
            noise ^= noise << 17;
            let b = b as u64;
            let value = 1000
                + (b * 37 % 100) * 8
                + c / (200 + b) * 16
                + (c + b * 13) % 500 * 8
                + noise % 64 * 8;
            let mut p = vec![0u8];
            p.extend_from_slice(&value.to_be_bytes());
            p.extend_from_slice(name);
            p.push(0);
            event(&mut events, 164, t, &p, true);
        }
        event(&mut events, 165, t, &c.to_be_bytes(), false);
        block(&mut out, t, t, &events)?;
    }
    out.write_all(&0xFFFFu16.to_be_bytes())?;
    out.flush()
}
