//! [`RawLog`]: events written one after another, byte by byte.

use super::encode::encode_event;
use super::{header_bytes, id, payload, GhcVersion, HeapProfBegin, TypeDecl};

/// Events written one after another as they come, with no blocks and no terminator
/// unless asked: for logs built byte by byte (damaged, huge, streamed in pieces). The
/// header, event encoding and payloads are [`EventlogWriter`]'s.
#[derive(Debug, Clone)]
pub struct RawLog {
    decls: Vec<TypeDecl>,
    pub bytes: Vec<u8>,
}

impl RawLog {
    /// A header declaring `decls`, up to and including `datb`.
    pub fn new(decls: Vec<TypeDecl>) -> RawLog {
        let bytes = header_bytes(&decls);
        RawLog { decls, bytes }
    }

    /// The GHC 9.2 declarations (every heap-profile event, IPE included).
    pub fn ghc_9_2() -> RawLog {
        RawLog::new(GhcVersion::V9_2.declarations())
    }

    /// The GHC 9.2 declarations, without the header written: for pieces to append to
    /// another log.
    pub fn body() -> RawLog {
        RawLog {
            decls: GhcVersion::V9_2.declarations(),
            bytes: Vec::new(),
        }
    }

    /// One event, encoded as the header declares its type (an undeclared id: the
    /// payload with no length field).
    pub fn event(&mut self, id: u16, ts: u64, payload: &[u8]) -> &mut Self {
        encode_event(&self.decls, &mut self.bytes, (id, ts), payload, 0);
        self
    }

    /// Bytes, verbatim.
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(bytes);
        self
    }

    /// HEAP_PROF_BEGIN (160) with no filters.
    pub fn heap_prof_begin(&mut self, ts: u64, breakdown: u32, period_ns: u64) -> &mut Self {
        let p = payload::heap_prof_begin(&HeapProfBegin::new(breakdown, period_ns));
        self.event(id::HEAP_PROF_BEGIN, ts, &p)
    }

    /// HEAP_PROF_COST_CENTRE (161) at time 0, source location `src.hs:1:1`.
    pub fn cost_centre(&mut self, ccid: u32, label: &[u8], module: &[u8], caf: bool) -> &mut Self {
        let p = payload::cost_centre(ccid, label, module, b"src.hs:1:1", caf);
        self.event(id::HEAP_PROF_COST_CENTRE, 0, &p)
    }

    /// HEAP_PROF_SAMPLE_STRING (164).
    pub fn string_sample(&mut self, ts: u64, residency: u64, label: &[u8]) -> &mut Self {
        let p = payload::string_sample(residency, label);
        self.event(id::HEAP_PROF_SAMPLE_STRING, ts, &p)
    }

    /// HEAP_PROF_SAMPLE_COST_CENTRE (163), `stack` innermost first.
    pub fn cost_centre_sample(&mut self, ts: u64, residency: u64, stack: &[u32]) -> &mut Self {
        let p = payload::cost_centre_sample(residency, stack);
        self.event(id::HEAP_PROF_SAMPLE_COST_CENTRE, ts, &p)
    }

    /// The terminator 0xFFFF.
    pub fn end(&mut self) -> &mut Self {
        self.raw(&[0xFF, 0xFF])
    }
}
