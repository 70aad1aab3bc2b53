//! A GHC eventlog *writer* for tests: builds binary `.eventlog` files in the shapes that GHC
//! 8.2 to 9.14 write (the shapes: `layout.rs`), and converts a `.hp` profile into the
//! eventlog its run would have written ([`hp_to_eventlog`]).
//!
//! Self-contained (std only) so it can be mounted from any test with
//! `support::eventlog::writer`.
//!
//! Its parts: `builder.rs` ([`EventlogWriter`]'s events), `encode.rs` (blocks and bytes),
//! `layout.rs` (the shapes), `payload.rs`, `raw.rs` ([`RawLog`]), and `.hp` → eventlog:
//! `hp.rs` (reading the `.hp`), `fields.rs` (times, DATE, JOB), `convert.rs`.
//!
//! Format reference: `/work/shared/spec/eventlog.md` §1–§2 and the corpus FINDINGS. In short:
//! big-endian; header `hdrb hetb {etb\0 id:u16 size:i16 desc_len:u32 desc extra_len:u32 extra
//! ete\0}* hete hdre`, then `datb`, events `type:u16 time:u64 [len:u16] payload`, and the
//! terminator u16 0xFFFF. Events are grouped into blocks, each opened by a BLOCK_MARKER (18).
//!
//! # What a reader must do to give back the `.hp` exactly (for differential tests)
//!
//! [`convert_profile`] writes a file that a reader following these rules turns back into
//! the `.hp`'s own profile; [`Converted::losses`] lists what does not round-trip.
//!
//! * **Samples.** Censuses are 162 … 164* … 165 in the global block, in `.hp` order, band
//!   order kept. The `.hp`'s empty first sample (at 0) and empty last sample are not
//!   written: the reader synthesises an empty sample at 0 and one at the **latest
//!   timestamp in the file** (the shutdown events carry the last sample's time, and each
//!   block's `end_time` is the latest timestamp in it, so counting block end times or not
//!   gives the same). There are no GC events, so elapsed time = mutator time.
//! * **Times.** `ns = round(t·1e9)` adjusted by ±1 so that `ns as f64 / 1e9 == t`
//!   ([`seconds_to_ns`]). Readers must convert with exactly `ns as f64 / 1e9` (float
//!   division, not `ns as f64 * 1e-9`, which differs in the last bit for some values).
//!   Exact for every time with ≤ 9 decimals below 2⁵³ ns (≈104 days), so for all that GHC
//!   writes (6 decimals).
//! * **Names / values.** Breakdown 7 (`-hT`): the 164 label is the `.hp` name byte for
//!   byte, the residency the decimal value (u64; `.hp` values that are not u64 integers
//!   are a loss). Names are raw bytes; non-UTF-8 names are written as they are (a reader
//!   must keep bytes; ghc-events stops at them).
//! * **Markers.** Each `MARK t` is a USER_MARKER (58) with empty text at `ns(t)` in
//!   capability 0's block, which precedes the global block: merge by timestamp. A reader
//!   hands marks out in time order, so MARKs out of time order are a loss.
//! * **JOB.** argv = JOB split at each single space; the reader's JOB is
//!   [`job_from_args`], the runtime's own rule: basename(argv[0]), the program's
//!   arguments, then ` +RTS` and the RTS options. The RTS identifier is `GHC-9.0.2 rts_p`
//!   (profiled: JOB keeps the arguments). A JOB that rule cannot give back (a first word
//!   containing `/`, a `-RTS` or `--RTS` word, RTS options before program arguments) is a
//!   loss.
//! * **DATE.** Wall clock (43) at timestamp 0, `sec` = the DATE's minute in UTC, `nsec`
//!   0; the reader's DATE is [`format_hp_date`]`(sec)` = `strftime("%a %b %d %H:%M %Y")`
//!   in UTC. Any other DATE (GHC < 9 wrote seconds, synthetic `"d"`, empty) is a loss:
//!   `sec` = 0 is written and the reader shows `Thu Jan 01 00:00 1970`.
//! * SAMPLE_UNIT/VALUE_UNIT other than `seconds`/`bytes` are a loss (the eventlog has
//!   neither).
#![allow(dead_code)] // Each test binary that mounts this module uses a different part of it.

/// Event type ids used by the writer (GHC's `EVENT_*` numbers; they never change meaning).
pub mod id {
    pub const GC_START: u16 = 9;
    pub const GC_END: u16 = 10;
    pub const BLOCK_MARKER: u16 = 18;
    pub const USER_MSG: u16 = 19;
    pub const CAPSET_CREATE: u16 = 25;
    pub const CAPSET_DELETE: u16 = 26;
    pub const CAPSET_ASSIGN_CAP: u16 = 27;
    pub const CAPSET_REMOVE_CAP: u16 = 28;
    pub const RTS_IDENTIFIER: u16 = 29;
    pub const PROGRAM_ARGS: u16 = 30;
    pub const PROGRAM_ENV: u16 = 31;
    pub const OSPROCESS_PID: u16 = 32;
    pub const OSPROCESS_PPID: u16 = 33;
    pub const WALL_CLOCK_TIME: u16 = 43;
    pub const CAP_CREATE: u16 = 45;
    pub const CAP_DELETE: u16 = 46;
    pub const HEAP_ALLOCATED: u16 = 49;
    pub const HEAP_SIZE: u16 = 50;
    pub const HEAP_LIVE: u16 = 51;
    pub const USER_MARKER: u16 = 58;
    pub const HEAP_PROF_BEGIN: u16 = 160;
    pub const HEAP_PROF_COST_CENTRE: u16 = 161;
    pub const HEAP_PROF_SAMPLE_BEGIN: u16 = 162;
    pub const HEAP_PROF_SAMPLE_COST_CENTRE: u16 = 163;
    pub const HEAP_PROF_SAMPLE_STRING: u16 = 164;
    pub const HEAP_PROF_SAMPLE_END: u16 = 165;
    pub const HEAP_BIO_PROF_SAMPLE_BEGIN: u16 = 166;
    pub const IPE: u16 = 169;
}

/// Heap-profile breakdown codes of HEAP_PROF_BEGIN (spec §2.2).
pub mod breakdown {
    pub const COST_CENTRE: u32 = 1; // -hc
    pub const MODULE: u32 = 2; // -hm
    pub const CLOSURE_DESCR: u32 = 3; // -hd
    pub const TYPE_DESCR: u32 = 4; // -hy
    pub const RETAINER: u32 = 5; // -hr
    pub const BIOGRAPHY: u32 = 6; // -hb
    pub const CLOSURE_TYPE: u32 = 7; // -hT
    pub const INFO_TABLE: u32 = 8; // -hi (9.2+)
    pub const ERA: u32 = 9; // -he (9.10+)
}

/// The capability a per-capability event belongs to; heap-profile and metadata events go
/// to the global buffer (cap 0xFFFF in its block markers), exactly as the RTS does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stream {
    Cap(u16),
    Global,
}

impl Stream {
    fn block_cap(self) -> u16 {
        match self {
            Stream::Cap(c) => c,
            Stream::Global => 0xFFFF,
        }
    }
}

// The parts, all mounted from here, so that the writer stays one module to mount
// (`#[path]` from the benches and examples too: a `#[path]` file's modules are looked
// up beside it, as a `mod.rs`'s are).
mod builder;
mod convert;
mod encode;
mod fields;
mod hp;
mod layout;
pub mod payload;
mod raw;

// Each test binary that mounts the writer uses a different part of what it exports.
pub use builder::EventlogWriter;
#[allow(unused_imports)]
pub use convert::{
    convert_hp, convert_profile, hp_to_eventlog, ConvertOptions, Converted, Loss,
    KNOWN_PARSE_DIFFERENCES,
};
#[allow(unused_imports)]
pub use encode::header_bytes;
#[allow(unused_imports)]
pub use fields::{format_hp_date, job_from_args, ns_to_seconds, parse_hp_date, seconds_to_ns};
#[allow(unused_imports)]
pub use hp::{parse_hp, HpBand, HpParseError, HpProfile, HpSample};
#[allow(unused_imports)]
pub use layout::{GhcVersion, Layout, TypeDecl};
#[allow(unused_imports)]
pub use raw::RawLog;

/// The HEAP_PROF_BEGIN (160) payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapProfBegin {
    /// The `-i` interval in nanoseconds (GHC's default is 100 ms).
    pub sampling_period_ns: u64,
    pub breakdown: u32,
    /// Filters in GHC's order: module, closure descr, type descr, cost centre, CCS,
    /// retainer, biography (`-hm… -hd… -hy… -hc… -hC… -hr… -hb…`).
    pub filters: [Vec<u8>; 7],
}

impl HeapProfBegin {
    pub fn new(breakdown: u32, sampling_period_ns: u64) -> Self {
        HeapProfBegin {
            sampling_period_ns,
            breakdown,
            filters: Default::default(),
        }
    }
}

/// An IPE (169) entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoTable {
    pub info: u64,
    pub table_name: Vec<u8>,
    /// The closure type as a decimal number (ghc-events insists on that).
    pub closure_desc: u32,
    pub ty_desc: Vec<u8>,
    pub label: Vec<u8>,
    pub module: Vec<u8>,
    pub srcloc: Vec<u8>,
}

#[derive(Debug, Clone)]
enum Item {
    Event {
        id: u16,
        ts: u64,
        payload: Vec<u8>,
        /// Bytes its length declares beyond `payload` (GHC 9.10's IPE events: 1).
        overstate: u16,
    },
    /// Raw bytes placed as they are (to build corrupt files).
    Bytes(Vec<u8>),
}

fn push_cstr(p: &mut Vec<u8>, s: &[u8]) {
    p.extend_from_slice(s);
    p.push(0);
}

fn capset_type(capset: u32, kind: u16) -> Vec<u8> {
    let mut p = capset.to_be_bytes().to_vec();
    p.extend_from_slice(&kind.to_be_bytes());
    p
}

fn capset_cap(capset: u32, cap: u16) -> Vec<u8> {
    capset_type(capset, cap)
}

fn capset_u64(capset: u32, v: u64) -> Vec<u8> {
    let mut p = capset.to_be_bytes().to_vec();
    p.extend_from_slice(&v.to_be_bytes());
    p
}
