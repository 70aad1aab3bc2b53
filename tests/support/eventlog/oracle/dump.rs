//! What ghc-events decoded from one file: declared types, events, how decoding ended,
//! and the censuses read off the events.

/// One declared event type as ghc-events read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredType {
    pub id: u16,
    /// `None` = variable size.
    pub size: Option<u16>,
    pub desc: Vec<u8>,
}

/// One decoded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub time: u64,
    /// The capability ghc-events assigned from the enclosing block; `None` for the global
    /// buffer (and events outside blocks).
    pub cap: Option<u16>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Block {
        end_time: u64,
        cap: i64,
        size: u32,
    },
    Begin {
        era: u64,
    },
    BioBegin {
        era: u64,
        census_time: u64,
    },
    End {
        era: u64,
    },
    CcSample {
        prof_id: u8,
        residency: u64,
        depth: u8,
        stack: Vec<u32>,
    },
    StrSample {
        prof_id: u8,
        residency: u64,
        label: Vec<u8>,
    },
    CostCentre {
        id: u32,
        label: Vec<u8>,
        module: Vec<u8>,
        srcloc: Vec<u8>,
        flags: u8,
    },
    HeapProfBegin {
        prof_id: u8,
        period: u64,
        breakdown: u32,
        filters: Vec<Vec<u8>>,
    },
    Ipe {
        info: u64,
        table_name: Vec<u8>,
        closure_desc: i64,
        ty_desc: Vec<u8>,
        label: Vec<u8>,
        module: Vec<u8>,
        srcloc: Vec<u8>,
    },
    Marker(Vec<u8>),
    Message(Vec<u8>),
    Args {
        capset: u32,
        args: Vec<Vec<u8>>,
    },
    Env {
        capset: u32,
        vars: Vec<Vec<u8>>,
    },
    RtsId {
        capset: u32,
        text: Vec<u8>,
    },
    WallClock {
        capset: u32,
        sec: u64,
        nsec: u32,
    },
    Pid {
        capset: u32,
        pid: u32,
    },
    GcStart,
    GcEnd,
    HeapSize {
        capset: u32,
        bytes: u64,
    },
    HeapLive {
        capset: u32,
        bytes: u64,
    },
    HeapAllocated {
        capset: u32,
        bytes: u64,
    },
    Unknown(u16),
    /// Any other constructor, by name.
    Other(String),
}

/// How decoding ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// All events decoded (ghc-events also says this for a truncated file).
    Done(usize),
    /// `readEventLogFromFile` returned an error (e.g. a bad header).
    Error(String),
    /// Decoding threw (e.g. an undeclared event id).
    Exception(String),
}

/// Everything ghc-events decoded from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    pub types: Vec<DeclaredType>,
    pub events: Vec<Event>,
    pub outcome: Outcome,
}

/// A band of a decoded census.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Band {
    Str { label: Vec<u8>, residency: u64 },
    Ccs { stack: Vec<u32>, residency: u64 },
}

/// A census: HEAP_PROF_SAMPLE_BEGIN (or the bio BEGIN) up to its END.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Census {
    /// Timestamp of the BEGIN event.
    pub time: u64,
    pub era: u64,
    /// `census_time` of a bio BEGIN (166).
    pub bio_time: Option<u64>,
    pub bands: Vec<Band>,
    /// Closed by an END (165), not by the next BEGIN or the end of the events.
    pub ended: bool,
}

impl Dump {
    /// Censuses in file order. As in GHC < 8.10 files, a census without END closes at the
    /// next BEGIN or at the end; band events outside a census are ignored.
    pub fn censuses(&self) -> Vec<Census> {
        let mut out: Vec<Census> = Vec::new();
        let mut open: Option<Census> = None;
        for e in &self.events {
            match &e.kind {
                Kind::Begin { era } | Kind::BioBegin { era, .. } => {
                    out.extend(open.take());
                    let bio_time = match e.kind {
                        Kind::BioBegin { census_time, .. } => Some(census_time),
                        _ => None,
                    };
                    open = Some(Census {
                        time: e.time,
                        era: *era,
                        bio_time,
                        bands: Vec::new(),
                        ended: false,
                    });
                }
                Kind::End { .. } => {
                    if let Some(mut c) = open.take() {
                        c.ended = true;
                        out.push(c);
                    }
                }
                Kind::StrSample {
                    residency, label, ..
                } => {
                    if let Some(c) = &mut open {
                        c.bands.push(Band::Str {
                            label: label.clone(),
                            residency: *residency,
                        });
                    }
                }
                Kind::CcSample {
                    residency, stack, ..
                } => {
                    if let Some(c) = &mut open {
                        c.bands.push(Band::Ccs {
                            stack: stack.clone(),
                            residency: *residency,
                        });
                    }
                }
                _ => {}
            }
        }
        out.extend(open);
        out
    }

    /// USER_MARKER events: (timestamp, capability, text), file order.
    pub fn markers(&self) -> Vec<(u64, Option<u16>, Vec<u8>)> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                Kind::Marker(t) => Some((e.time, e.cap, t.clone())),
                _ => None,
            })
            .collect()
    }

    /// The first PROGRAM_ARGS event's argv.
    pub fn args(&self) -> Option<Vec<Vec<u8>>> {
        self.events.iter().find_map(|e| match &e.kind {
            Kind::Args { args, .. } => Some(args.clone()),
            _ => None,
        })
    }

    /// The first WALL_CLOCK_TIME event: (timestamp, sec, nsec).
    pub fn wall_clock(&self) -> Option<(u64, u64, u32)> {
        self.events.iter().find_map(|e| match e.kind {
            Kind::WallClock { sec, nsec, .. } => Some((e.time, sec, nsec)),
            _ => None,
        })
    }

    /// The first HEAP_PROF_BEGIN: (sampling period ns, breakdown code, filters).
    pub fn heap_prof_begin(&self) -> Option<(u64, u32, Vec<Vec<u8>>)> {
        self.events.iter().find_map(|e| match &e.kind {
            Kind::HeapProfBegin {
                period,
                breakdown,
                filters,
                ..
            } => Some((*period, *breakdown, filters.clone())),
            _ => None,
        })
    }

    /// Number of events matching `pred`.
    pub fn count(&self, pred: impl Fn(&Kind) -> bool) -> usize {
        self.events.iter().filter(|e| pred(&e.kind)).count()
    }

    /// The latest timestamp of any event.
    pub fn max_time(&self) -> Option<u64> {
        self.events.iter().map(|e| e.time).max()
    }
}

/// A census's bands as (label, residency), for censuses of string bands only.
pub fn string_bands(c: &Census) -> Vec<(&[u8], u64)> {
    c.bands
        .iter()
        .map(|b| match b {
            Band::Str { label, residency } => (&label[..], *residency),
            Band::Ccs { .. } => panic!("unexpected cost-centre band"),
        })
        .collect()
}
