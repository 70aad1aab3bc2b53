//! Memory and time of the eventlog reader on large and lying inputs, measured with a
//! counting allocator. One test function, so nothing else allocates while it measures.

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hp2ps::{EventlogOptions, EventlogWarning};
use support::eventlog::writer::{RawLog, TypeDecl};
use support::read_eventlog_profile;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only the byte
// counts are recorded.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            let now = CURRENT.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        CURRENT.fetch_sub(l.size(), Ordering::Relaxed);
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            CURRENT.fetch_sub(l.size(), Ordering::Relaxed);
            let now = CURRENT.fetch_add(new, Ordering::Relaxed) + new;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Peak bytes allocated (above the level at the start) while `f` runs.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

/// An eventlog made on the fly: a prefix, `n` generated events, a suffix. Only one
/// batch of events is ever in memory, like a pipe.
struct Generated {
    prefix: Vec<u8>,
    n: u64,
    i: u64,
    event: fn(u64, &mut Vec<u8>),
    suffix: Vec<u8>,
    buf: Vec<u8>,
    at: usize,
    stage: u8,
}

impl Generated {
    fn new(prefix: Vec<u8>, n: u64, event: fn(u64, &mut Vec<u8>), suffix: Vec<u8>) -> Self {
        Generated {
            prefix,
            n,
            i: 0,
            event,
            suffix,
            buf: Vec::new(),
            at: 0,
            stage: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buf.len() {
            self.buf.clear();
            self.at = 0;
            match self.stage {
                0 => {
                    self.buf.append(&mut self.prefix);
                    self.stage = 1;
                }
                1 if self.i < self.n => {
                    let stop = (self.i + 4096).min(self.n);
                    while self.i < stop {
                        (self.event)(self.i, &mut self.buf);
                        self.i += 1;
                    }
                }
                1 => {
                    self.buf.append(&mut self.suffix);
                    self.stage = 2;
                }
                _ => return Ok(0),
            }
        }
        let k = out.len().min(self.buf.len() - self.at);
        out[..k].copy_from_slice(&self.buf[self.at..self.at + k]);
        self.at += k;
        Ok(k)
    }
}

fn head() -> RawLog {
    let mut w = RawLog::ghc_9_2();
    w.heap_prof_begin(1, 1, 20_000_000);
    w
}

fn marker(i: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(&58u16.to_be_bytes());
    out.extend_from_slice(&(i + 10).to_be_bytes());
    out.extend_from_slice(&6u16.to_be_bytes());
    out.extend_from_slice(b"marker");
}

fn cost_centre(i: u64, out: &mut Vec<u8>) {
    let label = format!("cc{i}");
    let len = 4 + label.len() + 1 + 5 + 11 + 1;
    out.extend_from_slice(&161u16.to_be_bytes());
    out.extend_from_slice(&0u64.to_be_bytes());
    out.extend_from_slice(&(len as u16).to_be_bytes());
    out.extend_from_slice(&(i as u32).to_be_bytes());
    out.extend_from_slice(label.as_bytes());
    out.extend_from_slice(b"\0Main\0src.hs:1:1\0\0");
}

fn census_suffix(t: u64, stacks: u32) -> Vec<u8> {
    let mut w = RawLog::body();
    w.event(162, t, &0u64.to_be_bytes());
    for s in 0..stacks {
        w.cost_centre_sample(t, 8 * u64::from(s + 1), &[s, (s + 1) % stacks]);
    }
    w.event(165, t + 1, &0u64.to_be_bytes()).end();
    w.bytes
}

#[test]
fn large_and_lying_inputs_use_bounded_memory() {
    let opts = EventlogOptions::default();

    // 10^7 markers: linear time; memory bounded by the kept-marks limit, not the count.
    let t0 = Instant::now();
    let input = Generated::new(
        head().bytes,
        10_000_000,
        marker,
        census_suffix(20_000_000, 3),
    );
    let (r, peak) = peak_during(|| read_eventlog_profile(input, &opts));
    let (profile, report) = r.unwrap();
    assert_eq!(profile.marks.len(), 1 << 20);
    assert!(report
        .warnings
        .iter()
        .any(|w| matches!(w, EventlogWarning::MarkerTextsDropped { .. })));
    eprintln!("10^7 markers: {:?}, peak {} MB", t0.elapsed(), peak >> 20);
    assert!(peak < 160 << 20, "10^7 markers: peak {peak} bytes");
    drop((profile, report));

    // 10^6 cost centres, 10^5 stacks of two levels in one census.
    let t0 = Instant::now();
    let input = Generated::new(
        head().bytes,
        1_000_000,
        cost_centre,
        census_suffix(20_000_000, 100_000),
    );
    let (r, peak) = peak_during(|| read_eventlog_profile(input, &opts));
    let (profile, _) = r.unwrap();
    assert_eq!(profile.bands.len(), 100_000);
    assert_eq!(profile.bands[1].name, b"cc1/cc2");
    eprintln!(
        "10^6 cost centres: {:?}, peak {} MB",
        t0.elapsed(),
        peak >> 20
    );
    assert!(peak < 400 << 20, "10^6 cost centres: peak {peak} bytes");
    drop(profile);

    // Lengths that lie: a 4 GiB description, a 4 GiB extra field, an event type declared
    // 65 534 bytes long, a variable length beyond the data, a block of 4 GiB.
    let mut lies: Vec<Vec<u8>> = Vec::new();
    let mut v = b"hdrbhetbetb\0\0\x09\0\0\xFF\xFF\xFF\xFF".to_vec();
    v.extend_from_slice(&[b'x'; 1000]);
    lies.push(v);
    let mut v = b"hdrbhetbetb\0\0\x09\0\0\0\0\0\0\xFF\xFF\xFF\xF0".to_vec();
    v.extend_from_slice(&[b'x'; 1000]);
    lies.push(v);
    let mut w = RawLog::new(vec![TypeDecl::new(9, Some(0xFFFE), "desc")]);
    // The event's header, then only 100 of its 65 534 bytes.
    w.raw(&9u16.to_be_bytes())
        .raw(&0u64.to_be_bytes())
        .raw(&[0; 100]);
    lies.push(w.bytes);
    let mut w = head();
    w.bytes
        .extend_from_slice(&[0, 164, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0]);
    lies.push(w.bytes);
    let mut w = head();
    w.event(
        18,
        0,
        &[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    );
    w.event(162, 5, &[0; 8])
        .string_sample(5, 8, b"A")
        .event(165, 6, &[0; 8])
        .end();
    lies.push(w.bytes);
    for (i, bytes) in lies.iter().enumerate() {
        let (_, peak) = peak_during(|| read_eventlog_profile(&bytes[..], &opts).map(|_| ()));
        assert!(peak < 2 << 20, "lie {i}: peak {peak} bytes");
    }
}
