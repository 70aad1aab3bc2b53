//! [`EventlogWriter`]: a run's events, kept per stream (capability or global buffer) in
//! call order, added one call at a time.

use super::{
    capset_cap, capset_type, capset_u64, id, payload, push_cstr, GhcVersion, HeapProfBegin,
    InfoTable, Item, Layout, Stream, TypeDecl,
};

/// Builds one eventlog. Events are kept per stream (capability or global buffer) in call
/// order; [`EventlogWriter::finish`] lays the streams out as blocks the way the RTS does:
/// capability blocks first (interleaved when a stream spans several blocks), the global
/// block last, as GHC ≤ 9.0 flushes the global buffer at exit.
#[derive(Debug, Clone)]
pub struct EventlogWriter {
    pub(super) layout: Layout,
    pub(super) decls: Vec<TypeDecl>,
    pub(super) streams: Vec<(Stream, Vec<Item>)>,
}

impl EventlogWriter {
    pub fn new(layout: Layout) -> Self {
        let decls = layout.declarations();
        let mut w = EventlogWriter {
            layout,
            decls,
            streams: Vec::new(),
        };
        // Every run has a capability-0 block, even an empty one (`-l-au` logs do).
        w.stream_mut(Stream::Cap(0));
        w
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    fn stream_mut(&mut self, stream: Stream) -> &mut Vec<Item> {
        let pos = match self.streams.iter().position(|(s, _)| *s == stream) {
            Some(p) => p,
            None => {
                self.streams.push((stream, Vec::new()));
                self.streams.len() - 1
            }
        };
        &mut self.streams[pos].1
    }

    /// Declares a type after construction (replaces an earlier declaration of that id).
    pub fn declare_type(&mut self, decl: TypeDecl) -> &mut Self {
        match self.decls.iter_mut().find(|d| d.id == decl.id) {
            Some(d) => *d = decl,
            None => self.decls.push(decl),
        }
        self
    }

    /// Appends an event with a raw payload (without the length field of variable-size
    /// types; the writer adds it). A type that is not declared yet is declared: from the
    /// GHC 9.10 table when it is a known id, otherwise as variable-size "Unknown <id>".
    pub fn raw_event(&mut self, stream: Stream, id: u16, ts: u64, payload: &[u8]) -> &mut Self {
        if !self.decls.iter().any(|d| d.id == id) {
            let known = GhcVersion::V9_10
                .declarations()
                .into_iter()
                .find(|d| d.id == id);
            let decl =
                known.unwrap_or_else(|| TypeDecl::new(id, None, &format!("Unknown event {id}")));
            self.decls.push(decl);
        }
        let mut payload = payload.to_vec();
        let variable = self.decls.iter().any(|d| d.id == id && d.size.is_none());
        for (_, more) in self
            .layout
            .appended
            .iter()
            .filter(|a| a.0 == id && variable)
        {
            payload.extend_from_slice(more);
        }
        self.stream_mut(stream).push(Item::Event {
            id,
            ts,
            payload,
            overstate: 0,
        });
        self
    }

    /// Appends bytes verbatim to a stream's blocks (no header, no declaration): for
    /// corrupt files such as an undeclared event id.
    pub fn raw_bytes(&mut self, stream: Stream, bytes: &[u8]) -> &mut Self {
        self.stream_mut(stream).push(Item::Bytes(bytes.to_vec()));
        self
    }

    // ----- metadata (global buffer) -----

    /// PROGRAM_ARGS (30): argv as typed, each NUL-terminated.
    pub fn program_args<A: AsRef<[u8]>>(&mut self, ts: u64, args: &[A]) -> &mut Self {
        let mut p = 0u32.to_be_bytes().to_vec();
        for a in args {
            p.extend_from_slice(a.as_ref());
            p.push(0);
        }
        self.raw_event(Stream::Global, id::PROGRAM_ARGS, ts, &p)
    }

    /// RTS_IDENTIFIER (29): capset 0, then the text with no NUL.
    pub fn rts_identifier(&mut self, ts: u64, text: &str) -> &mut Self {
        let mut p = 0u32.to_be_bytes().to_vec();
        p.extend_from_slice(text.as_bytes());
        self.raw_event(Stream::Global, id::RTS_IDENTIFIER, ts, &p)
    }

    /// WALL_CLOCK_TIME (43): the Unix time (`sec`, `nsec`) at the instant `ts`. The RTS
    /// posts it with the clock-domain capset 1.
    pub fn wall_clock(&mut self, ts: u64, sec: u64, nsec: u32) -> &mut Self {
        let mut p = 1u32.to_be_bytes().to_vec();
        p.extend_from_slice(&sec.to_be_bytes());
        p.extend_from_slice(&nsec.to_be_bytes());
        self.raw_event(Stream::Global, id::WALL_CLOCK_TIME, ts, &p)
    }

    /// OSPROCESS_PID (32).
    pub fn pid(&mut self, ts: u64, pid: u32) -> &mut Self {
        let mut p = 0u32.to_be_bytes().to_vec();
        p.extend_from_slice(&pid.to_be_bytes());
        self.raw_event(Stream::Global, id::OSPROCESS_PID, ts, &p)
    }

    /// The capset/capability start-up events of a run with `caps` capabilities (25, 45, 27)
    /// as 9.0.2 writes them at the head of the global block.
    pub fn startup(&mut self, ts: u64, caps: u16) -> &mut Self {
        self.raw_event(Stream::Global, id::CAPSET_CREATE, ts, &capset_type(0, 2));
        self.raw_event(Stream::Global, id::CAPSET_CREATE, ts, &capset_type(1, 3));
        for cap in 0..caps {
            self.raw_event(Stream::Global, id::CAP_CREATE, ts, &cap.to_be_bytes());
            self.raw_event(
                Stream::Global,
                id::CAPSET_ASSIGN_CAP,
                ts,
                &capset_cap(0, cap),
            );
            self.raw_event(
                Stream::Global,
                id::CAPSET_ASSIGN_CAP,
                ts,
                &capset_cap(1, cap),
            );
        }
        self
    }

    /// The shutdown events (28, 46, 26) that end a 9.0.2 global block.
    pub fn shutdown(&mut self, ts: u64, caps: u16) -> &mut Self {
        for cap in 0..caps {
            self.raw_event(
                Stream::Global,
                id::CAPSET_REMOVE_CAP,
                ts,
                &capset_cap(0, cap),
            );
            self.raw_event(
                Stream::Global,
                id::CAPSET_REMOVE_CAP,
                ts,
                &capset_cap(1, cap),
            );
            self.raw_event(Stream::Global, id::CAP_DELETE, ts, &cap.to_be_bytes());
        }
        self.raw_event(Stream::Global, id::CAPSET_DELETE, ts, &0u32.to_be_bytes());
        self.raw_event(Stream::Global, id::CAPSET_DELETE, ts, &1u32.to_be_bytes())
    }

    // ----- heap profile (global buffer) -----

    /// HEAP_PROF_BEGIN (160).
    pub fn heap_prof_begin(&mut self, ts: u64, begin: &HeapProfBegin) -> &mut Self {
        let p = payload::heap_prof_begin(begin);
        self.raw_event(Stream::Global, id::HEAP_PROF_BEGIN, ts, &p)
    }

    /// HEAP_PROF_COST_CENTRE (161). CAF cost centres carry flags 0x63 ('c') in real files.
    pub fn cost_centre(
        &mut self,
        ts: u64,
        ccid: u32,
        label: &[u8],
        module: &[u8],
        srcloc: &[u8],
        is_caf: bool,
    ) -> &mut Self {
        let p = payload::cost_centre(ccid, label, module, srcloc, is_caf);
        self.raw_event(Stream::Global, id::HEAP_PROF_COST_CENTRE, ts, &p)
    }

    /// HEAP_PROF_SAMPLE_BEGIN (162).
    pub fn sample_begin(&mut self, ts: u64, era: u64) -> &mut Self {
        self.raw_event(
            Stream::Global,
            id::HEAP_PROF_SAMPLE_BEGIN,
            ts,
            &era.to_be_bytes(),
        )
    }

    /// HEAP_BIO_PROF_SAMPLE_BEGIN (166): `ts` is when it was written (program exit for
    /// `-hb`), `census_time` the census's own clock.
    pub fn bio_sample_begin(&mut self, ts: u64, era: u64, census_time: u64) -> &mut Self {
        let mut p = era.to_be_bytes().to_vec();
        p.extend_from_slice(&census_time.to_be_bytes());
        self.raw_event(Stream::Global, id::HEAP_BIO_PROF_SAMPLE_BEGIN, ts, &p)
    }

    /// HEAP_PROF_SAMPLE_END (165). Written even for 8.2 layouts if called (it is then
    /// declared on the fly); the census helpers leave it out there.
    pub fn sample_end(&mut self, ts: u64, era: u64) -> &mut Self {
        self.raw_event(
            Stream::Global,
            id::HEAP_PROF_SAMPLE_END,
            ts,
            &era.to_be_bytes(),
        )
    }

    /// HEAP_PROF_SAMPLE_COST_CENTRE (163); `stack` innermost first, empty = MAIN. Stacks
    /// deeper than 255 keep the innermost 255, as the RTS does.
    pub fn cost_centre_sample(&mut self, ts: u64, residency: u64, stack: &[u32]) -> &mut Self {
        let p = payload::cost_centre_sample(residency, stack);
        self.raw_event(Stream::Global, id::HEAP_PROF_SAMPLE_COST_CENTRE, ts, &p)
    }

    /// HEAP_PROF_SAMPLE_STRING (164). The label is raw bytes (not necessarily UTF-8).
    pub fn string_sample(&mut self, ts: u64, residency: u64, label: &[u8]) -> &mut Self {
        let p = payload::string_sample(residency, label);
        self.raw_event(Stream::Global, id::HEAP_PROF_SAMPLE_STRING, ts, &p)
    }

    /// A whole census of string bands: 162, the 164s, and 165 when the version has it,
    /// all at `ts` (real ENDs come 2–63 µs later; using `ts` keeps the latest timestamp
    /// of the file under the caller's control).
    pub fn string_census<L: AsRef<[u8]>>(&mut self, ts: u64, bands: &[(L, u64)]) -> &mut Self {
        self.sample_begin(ts, 0);
        for (label, value) in bands {
            self.string_sample(ts, *value, label.as_ref());
        }
        if self.layout.version.has_sample_end() {
            self.sample_end(ts, 0);
        }
        self
    }

    /// A whole census of cost-centre-stack bands (163).
    pub fn cost_centre_census(&mut self, ts: u64, bands: &[(&[u32], u64)]) -> &mut Self {
        self.sample_begin(ts, 0);
        for (stack, value) in bands {
            self.cost_centre_sample(ts, *value, stack);
        }
        if self.layout.version.has_sample_end() {
            self.sample_end(ts, 0);
        }
        self
    }

    /// A `-hb` census: 166 with `census_time`, written at `written_at` (program exit).
    pub fn bio_census<L: AsRef<[u8]>>(
        &mut self,
        written_at: u64,
        era: u64,
        census_time: u64,
        bands: &[(L, u64)],
    ) -> &mut Self {
        self.bio_sample_begin(written_at, era, census_time);
        for (label, value) in bands {
            self.string_sample(written_at, *value, label.as_ref());
        }
        self.sample_end(written_at, era)
    }

    /// IPE (169).
    pub fn info_table(&mut self, ts: u64, it: &InfoTable) -> &mut Self {
        let mut p = it.info.to_be_bytes().to_vec();
        push_cstr(&mut p, &it.table_name);
        push_cstr(&mut p, it.closure_desc.to_string().as_bytes());
        push_cstr(&mut p, &it.ty_desc);
        push_cstr(&mut p, &it.label);
        push_cstr(&mut p, &it.module);
        push_cstr(&mut p, &it.srcloc);
        self.ipe_event(ts, &p)
    }

    /// An IPE event of `payload`, declared as the runtime declares it (GHC 9.10 on: a
    /// byte more than it writes).
    fn ipe_event(&mut self, ts: u64, payload: &[u8]) -> &mut Self {
        let extra = self.layout.ipe_declared_extra;
        self.raw_event(Stream::Global, id::IPE, ts, payload);
        if let Some(Item::Event { overstate, .. }) = self.stream_mut(Stream::Global).last_mut() {
            *overstate = extra;
        }
        self
    }

    /// NONMOVING_HEAP_CENSUS (207) as GHC 9.10 on post it to the global buffer: the block
    /// size (u16; a log2 u8 before 9.8), then the active and filled segments and the live
    /// blocks (u32 each).
    pub fn nonmoving_census(&mut self, ts: u64, block_size: u16, counts: [u32; 3]) -> &mut Self {
        let mut p = block_size.to_be_bytes().to_vec();
        for c in counts {
            p.extend_from_slice(&c.to_be_bytes());
        }
        self.raw_event(Stream::Global, 207, ts, &p)
    }

    /// The runtime's "init events" again, at `ts`: what GHC (9.4 on) posts whenever an
    /// eventlog writer is (re)started, as for a socket client that connects late. The
    /// RTS keeps them as a list it prepends to as each is registered (wall clock, process
    /// ids, RTS identifier and arguments, heap parameters, cost centres, IPE entries, the
    /// heap profile's start) and reposts them from its head: HEAP_PROF_BEGIN first, then
    /// the IPE entries, the cost centres, HEAP_INFO, the process ids, RTS identifier and
    /// arguments, and the wall clock. Each is the same as first posted.
    pub fn repost_init_events(&mut self, ts: u64) -> &mut Self {
        let mut posted: Vec<(u16, Vec<u8>)> = Vec::new();
        for item in self.stream_mut(Stream::Global).iter() {
            if let Item::Event { id, payload, .. } = item {
                // One of each, but every cost centre and IPE entry (once each).
                let again = posted.iter().any(|(i, p)| {
                    i == id && (p == payload || !matches!(*id, id::HEAP_PROF_COST_CENTRE | id::IPE))
                });
                if !again {
                    posted.push((*id, payload.clone()));
                }
            }
        }
        for group in [&[160][..], &[169], &[161], &[52], &[32, 33, 29, 30], &[43]] {
            for (id, payload) in posted.iter().filter(|(id, _)| group.contains(id)) {
                match *id {
                    id::IPE => self.ipe_event(ts, payload),
                    _ => self.raw_event(Stream::Global, *id, ts, payload),
                };
            }
        }
        self
    }

    // ----- per-capability events -----

    /// USER_MARKER (58): raw text, no NUL, no capset.
    pub fn marker(&mut self, cap: u16, ts: u64, text: &[u8]) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::USER_MARKER, ts, text)
    }

    /// USER_MSG (19).
    pub fn user_message(&mut self, cap: u16, ts: u64, text: &[u8]) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::USER_MSG, ts, text)
    }

    pub fn gc_start(&mut self, cap: u16, ts: u64) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::GC_START, ts, &[])
    }

    pub fn gc_end(&mut self, cap: u16, ts: u64) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::GC_END, ts, &[])
    }

    /// HEAP_SIZE (50), capset 0.
    pub fn heap_size(&mut self, cap: u16, ts: u64, bytes: u64) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::HEAP_SIZE, ts, &capset_u64(0, bytes))
    }

    /// HEAP_LIVE (51), capset 0.
    pub fn heap_live(&mut self, cap: u16, ts: u64, bytes: u64) -> &mut Self {
        self.raw_event(Stream::Cap(cap), id::HEAP_LIVE, ts, &capset_u64(0, bytes))
    }

    /// HEAP_ALLOCATED (49), capset 0.
    pub fn heap_allocated(&mut self, cap: u16, ts: u64, bytes: u64) -> &mut Self {
        self.raw_event(
            Stream::Cap(cap),
            id::HEAP_ALLOCATED,
            ts,
            &capset_u64(0, bytes),
        )
    }
}
