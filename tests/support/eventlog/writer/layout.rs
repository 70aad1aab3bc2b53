//! The shapes of the files the test writer makes: each GHC release's event-type
//! declarations and container details ([`GhcVersion`]), and the variations a robust reader
//! must accept ([`Layout`]).

/// One event-type declaration of the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDecl {
    pub id: u16,
    /// Payload size in bytes; `None` = variable size (declared as 0xFFFF).
    pub size: Option<u16>,
    pub desc: Vec<u8>,
    /// The `extra` bytes after the description (always empty in real files).
    pub extra: Vec<u8>,
}

impl TypeDecl {
    pub fn new(id: u16, size: Option<u16>, desc: &str) -> Self {
        TypeDecl {
            id,
            size,
            desc: desc.as_bytes().to_vec(),
            extra: Vec::new(),
        }
    }
}

const VAR: Option<u16> = None;

/// The 69 types GHC 9.0.2 declares, in its order (copied from the corpus files).
const GHC_9_0_TYPES: &[(u16, Option<u16>, &str)] = &[
    (0, Some(4), "Create thread"),
    (1, Some(4), "Run thread"),
    (2, Some(10), "Stop thread"),
    (3, Some(4), "Thread runnable"),
    (4, Some(6), "Migrate thread"),
    (8, Some(6), "Wakeup thread"),
    (9, Some(0), "Starting GC"),
    (10, Some(0), "Finished GC"),
    (11, Some(0), "Request sequential GC"),
    (12, Some(0), "Request parallel GC"),
    (15, Some(4), "Create spark thread"),
    (16, VAR, "Log message"),
    (18, Some(14), "Block marker"),
    (19, VAR, "User message"),
    (20, Some(0), "GC idle"),
    (21, Some(0), "GC working"),
    (22, Some(0), "GC done"),
    (25, Some(6), "Create capability set"),
    (26, Some(4), "Delete capability set"),
    (27, Some(6), "Add capability to capability set"),
    (28, Some(6), "Remove capability from capability set"),
    (29, VAR, "RTS name and version"),
    (30, VAR, "Program arguments"),
    (31, VAR, "Program environment variables"),
    (32, Some(8), "Process ID"),
    (33, Some(8), "Parent process ID"),
    (34, Some(56), "Spark counters"),
    (35, Some(0), "Spark create"),
    (36, Some(0), "Spark dud"),
    (37, Some(0), "Spark overflow"),
    (38, Some(0), "Spark run"),
    (39, Some(2), "Spark steal"),
    (40, Some(0), "Spark fizzle"),
    (41, Some(0), "Spark GC"),
    (43, Some(16), "Wall clock time"),
    (44, VAR, "Thread label"),
    (45, Some(2), "Create capability"),
    (46, Some(2), "Delete capability"),
    (47, Some(2), "Disable capability"),
    (48, Some(2), "Enable capability"),
    (49, Some(12), "Total heap mem ever allocated"),
    (50, Some(12), "Current heap size"),
    (51, Some(12), "Current heap live data"),
    (52, Some(38), "Heap static parameters"),
    (53, Some(58), "GC statistics"),
    (54, Some(0), "Synchronise stop-the-world GC"),
    (55, Some(18), "Task create"),
    (56, Some(12), "Task migrate"),
    (57, Some(8), "Task delete"),
    (58, VAR, "User marker"),
    (59, Some(0), "Empty event for bug #9003"),
    (160, VAR, "Start of heap profile"),
    (161, VAR, "Cost center definition"),
    (162, Some(8), "Start of heap profile sample"),
    (163, VAR, "Heap profile cost-centre sample"),
    (164, VAR, "Heap profile string sample"),
    (165, Some(8), "End of heap profile sample"),
    (166, Some(16), "Start of heap profile (biographical) sample"),
    (167, VAR, "Time profile cost-centre stack"),
    (168, Some(8), "Start of a time profile"),
    (181, VAR, "User binary message"),
    (200, Some(0), "Begin concurrent mark phase"),
    (201, Some(4), "End concurrent mark phase"),
    (202, Some(0), "Begin concurrent GC synchronisation"),
    (203, Some(0), "End concurrent GC synchronisation"),
    (204, Some(0), "Begin concurrent sweep"),
    (205, Some(0), "End concurrent sweep"),
    (206, Some(2), "Update remembered set flushed"),
    (207, Some(13), "Nonmoving heap census"),
];

/// Types that appeared after 9.0 (spec §2.1); declared by the 9.2 and later layouts.
const GHC_9_2_EXTRA_TYPES: &[(u16, Option<u16>, &str)] = &[
    (90, Some(16), "Memory return statistics"),
    (91, Some(12), "Current heap size (size of allocated blocks)"),
    (169, VAR, "Info Table Source Position"),
];

/// Types a GHC 9.10.3 log declares beyond the 9.10 layout's (copied from
/// `tests/data/ghc-9.10`), which the RTS sources after 9.10 declare too; declared by the
/// 9.12 and 9.14 layouts.
const GHC_9_12_EXTRA_TYPES: &[(u16, Option<u16>, &str)] = &[
    (42, VAR, "Intern string"),
    (
        208,
        Some(8),
        "Report the amount of segments pruned and remaining on the free list.",
    ),
    (210, VAR, "Ticky-ticky entry counter definition"),
    (211, Some(32), "Ticky-ticky entry counter sample"),
    (212, Some(0), "Ticky-ticky entry counter begin sample"),
];

/// Which GHC release's file shape to imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GhcVersion {
    /// 8.2–8.8: heap events 160–164 only; no 165 (a census ends at the next BEGIN), no
    /// 166–168; GC_STATS is 50 bytes. The census helpers omit 165 for this version.
    V8_2,
    /// 9.0 (the corpus): 160–168 declared, the terminator stands outside every block.
    V9_0,
    /// 9.2: adds 90, 91 and 169 (IPE, `-hi`); the terminator lies inside the last block.
    V9_2,
    /// 9.10: as 9.2 with the 9.4+ descriptions, NONMOVING_HEAP_CENSUS of 14 bytes and the
    /// `-he` breakdown (9), which adds no event type.
    V9_10,
    /// 9.12: as 9.10, declaring what a 9.10.3 log declares besides (208, ticky 210–212,
    /// 42). The RTS sources read for it post the same heap events; see `docs/eventlog.md`
    /// (GHC 9.12 and 9.14).
    V9_12,
    /// 9.14: as 9.12 (the sources read show no change to the events a heap profile uses).
    V9_14,
}

impl GhcVersion {
    /// The RTS identifier string (event 29) of a profiled run of this version.
    pub fn rts_identifier(self) -> &'static str {
        match self {
            GhcVersion::V8_2 => "GHC-8.2.2 rts_p",
            GhcVersion::V9_0 => "GHC-9.0.2 rts_p",
            GhcVersion::V9_2 => "GHC-9.2.8 rts_p",
            GhcVersion::V9_10 => "GHC-9.10.1 rts_p",
            GhcVersion::V9_12 => "GHC-9.12.2 rts_p",
            GhcVersion::V9_14 => "GHC-9.14.1 rts_p",
        }
    }

    /// Whether this version writes HEAP_PROF_SAMPLE_END (165).
    pub fn has_sample_end(self) -> bool {
        self != GhcVersion::V8_2
    }

    pub fn declarations(self) -> Vec<TypeDecl> {
        let mut out: Vec<TypeDecl> = GHC_9_0_TYPES
            .iter()
            .map(|&(id, size, desc)| TypeDecl::new(id, size, desc))
            .collect();
        match self {
            GhcVersion::V8_2 => {
                out.retain(|t| !matches!(t.id, 165..=168 | 181 | 200..=207));
                if let Some(t) = out.iter_mut().find(|t| t.id == 53) {
                    t.size = Some(50);
                }
            }
            GhcVersion::V9_0 => {}
            GhcVersion::V9_2 | GhcVersion::V9_10 | GhcVersion::V9_12 | GhcVersion::V9_14 => {
                for &(id, size, desc) in GHC_9_2_EXTRA_TYPES {
                    out.push(TypeDecl::new(id, size, desc));
                }
                if matches!(self, GhcVersion::V9_12 | GhcVersion::V9_14) {
                    for &(id, size, desc) in GHC_9_12_EXTRA_TYPES {
                        out.push(TypeDecl::new(id, size, desc));
                    }
                }
                out.sort_by_key(|t| t.id);
                if self != GhcVersion::V9_2 {
                    for t in &mut out {
                        let desc: Option<&str> = match t.id {
                            49 => Some("Total heap memory ever allocated"),
                            50 => Some("Current heap size (number of allocated mblocks)"),
                            90 => Some("The RTS attempted to return heap memory to the OS"),
                            91 => Some("Report the size of the heap in blocks"),
                            161 => Some("Cost-centre definition"),
                            169 => Some("An IPE entry"),
                            _ => None,
                        };
                        if let Some(d) = desc {
                            t.desc = d.as_bytes().to_vec();
                        }
                        if t.id == 207 {
                            t.size = Some(14);
                        }
                    }
                }
            }
        }
        out
    }
}

/// The shape of the file: version-dependent declarations and container details, plus the
/// variations a robust reader must accept.
#[derive(Debug, Clone)]
pub struct Layout {
    pub version: GhcVersion,
    /// Put the 0xFFFF terminator inside the last block (its `size` covers the 2 bytes), as
    /// GHC ≥ 9.2 does. Set by [`Layout::ghc_9_2`] and the later layouts.
    pub end_marker_in_block: bool,
    /// Most events per block. Real buffers hold 2 MB; a small value makes a stream span
    /// several blocks, so that capability blocks interleave.
    pub max_events_per_block: usize,
    /// Declarations added after the version's own (unknown ids, or replacements of known
    /// ids: a later declaration of the same id replaces the earlier one).
    pub extra_types: Vec<TypeDecl>,
    /// Known fixed-size ids declared this many bytes larger than their layout; the writer
    /// pads those events with zero bytes (spec §1.4 rule 2: readers take the known prefix).
    pub oversized: Vec<(u16, u16)>,
    /// Bytes the length of each IPE event (169) declares beyond its fields: 1 from GHC
    /// 9.10 on (the RTS counts a NUL after the source file that it does not write; the
    /// next event starts where the fields end), 0 before.
    pub ipe_declared_extra: u16,
    /// Bytes appended to every event of a variable-size type, after its known fields and
    /// counted in its length, as a newer GHC may append fields (ghc-events 0.21 reads
    /// such events; 0.17 does not).
    pub appended: Vec<(u16, Vec<u8>)>,
}

/// Events per block by default: GHC flushes its buffers every 2 MB, so a real log is a
/// series of blocks of at most that size, and a heap-sample event is about 40 bytes.
pub const GHC_BLOCK_EVENTS: usize = 50_000;

impl Default for Layout {
    fn default() -> Self {
        Layout::ghc_9_0()
    }
}

impl Layout {
    pub fn ghc_9_0() -> Self {
        Layout {
            version: GhcVersion::V9_0,
            end_marker_in_block: false,
            max_events_per_block: GHC_BLOCK_EVENTS,
            extra_types: Vec::new(),
            oversized: Vec::new(),
            ipe_declared_extra: 0,
            appended: Vec::new(),
        }
    }

    pub fn ghc_8_2() -> Self {
        Layout {
            version: GhcVersion::V8_2,
            ..Layout::ghc_9_0()
        }
    }

    pub fn ghc_9_2() -> Self {
        Layout {
            version: GhcVersion::V9_2,
            end_marker_in_block: true,
            ..Layout::ghc_9_0()
        }
    }

    pub fn ghc_9_10() -> Self {
        Layout {
            version: GhcVersion::V9_10,
            end_marker_in_block: true,
            ipe_declared_extra: 1,
            ..Layout::ghc_9_0()
        }
    }

    pub fn ghc_9_12() -> Self {
        Layout {
            version: GhcVersion::V9_12,
            ..Layout::ghc_9_10()
        }
    }

    pub fn ghc_9_14() -> Self {
        Layout {
            version: GhcVersion::V9_14,
            ..Layout::ghc_9_10()
        }
    }

    /// IPE events whose lengths declare `extra` bytes beyond their fields.
    pub fn with_ipe_declared_extra(mut self, extra: u16) -> Self {
        self.ipe_declared_extra = extra;
        self
    }

    /// Every event of variable-size type `id` with `bytes` after its known fields.
    pub fn with_appended(mut self, id: u16, bytes: &[u8]) -> Self {
        self.appended.push((id, bytes.to_vec()));
        self
    }

    /// Declares an extra type (typically an id no reader knows).
    pub fn with_type(mut self, decl: TypeDecl) -> Self {
        self.extra_types.push(decl);
        self
    }

    /// Declares known fixed-size type `id` with `extra` more bytes than its layout.
    pub fn with_oversized(mut self, id: u16, extra: u16) -> Self {
        self.oversized.push((id, extra));
        self
    }

    pub fn with_max_events_per_block(mut self, n: usize) -> Self {
        self.max_events_per_block = n.max(1);
        self
    }

    /// The declarations the header of this layout holds.
    pub fn declarations(&self) -> Vec<TypeDecl> {
        let mut decls = self.version.declarations();
        for extra in &self.extra_types {
            match decls.iter_mut().find(|d| d.id == extra.id) {
                Some(d) => *d = extra.clone(),
                None => decls.push(extra.clone()),
            }
        }
        for &(id, more) in &self.oversized {
            if let Some(d) = decls.iter_mut().find(|d| d.id == id) {
                if let Some(s) = d.size {
                    d.size = Some(s.saturating_add(more));
                }
            }
        }
        decls
    }
}
