//! Event payloads that matter for heap profiles, decoded without copying.
//!
//! Fields are read by id, never by description, for the types that [`super::events`]'
//! table says change the samples. A payload longer than the known layout is read by its
//! prefix (fields are only ever appended); one shorter than the table's minimum is
//! [`Event::Short`]. No decoder reads past its payload: strings without a NUL run to the
//! payload's end.

use super::container::{u64_at, RawEvent};
use super::events::*;

/// A decoded event. Everything else is [`Event::Other`].
#[derive(Debug, PartialEq)]
pub(crate) enum Event<'a> {
    /// 18: the start of a block of one buffer. `cap` 0xFFFF is the global buffer.
    BlockMarker { size: u32, cap: u16 },
    /// 1: the capability starts running a Haskell thread.
    RunThread,
    /// 2: the capability stops running it.
    StopThread,
    /// 9
    GcStart,
    /// 10
    GcEnd,
    /// 22: this capability finished its share of the GC's copying work.
    GcDone,
    /// A point of line `LINES[line]` over the bands (50, 51, 91, …): bytes.
    Line { line: usize, bytes: u64 },
    /// 29: `GHC-9.0.2 rts_p`.
    RtsId(&'a [u8]),
    /// 30: NUL-separated argv.
    ProgramArgs(&'a [u8]),
    /// 43: Unix time when this event was posted.
    WallClock { sec: u64, nsec: u32 },
    /// 58
    UserMarker(&'a [u8]),
    /// 160
    HeapProfBegin {
        period: u64,
        breakdown: u32,
        /// The 7th filter string (biography, `-hb…`): non-empty means LDV-filtered.
        bio_filter: &'a [u8],
    },
    /// 161
    CostCentre {
        ccid: u32,
        label: &'a [u8],
        module: &'a [u8],
        srcloc: &'a [u8],
        flags: u8,
    },
    /// 162
    SampleBegin,
    /// 166
    BioSampleBegin { census_time: u64 },
    /// 165
    SampleEnd,
    /// 163: `stack` is the raw big-endian ccids, innermost first.
    CcsSample { residency: u64, stack: &'a [u8] },
    /// 164: `text` is the label up to its NUL and whatever follows in the payload, so
    /// that the model can recognise a label it knows without looking for the NUL first
    /// ([`label_is`]); the label itself is `cstr(text).0`.
    StringSample { residency: u64, text: &'a [u8] },
    /// 169: the info table's address and six strings (see [`crate::profile::IpeEntry`]).
    Ipe {
        info: u64,
        /// `table_name`, `closure_desc`, `ty_desc`, `label`, `module`, `srcloc`; a
        /// string missing at the payload's end is empty.
        fields: [&'a [u8]; 6],
    },
    /// 167: a time profile's sample (`+RTS -p` with `-l`): the capability, the tick
    /// count, and `stack`, the raw big-endian ccids, innermost first.
    ProfSample {
        cap: u32,
        tick: u64,
        stack: &'a [u8],
    },
    /// 168: a time profile begins, ticking every `interval` nanoseconds.
    ProfBegin { interval: u64 },
    /// 210 or 212: a ticky-ticky counter's definition or the start of a sample of them
    /// (`+RTS -lT`), counted likewise.
    Ticky { definition: bool },
    /// A known event too short for its layout.
    Short,
    /// Anything else.
    Other,
}

/// The bytes up to the first NUL (or the end), and the rest after the NUL.
pub(crate) fn cstr(b: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memchr(0, b) {
        Some(i) => (&b[..i], &b[i + 1..]),
        None => (b, &[]),
    }
}

/// Whether the label of a 164's `text` (see [`Event::StringSample`]) is `label`, which
/// holds no NUL: checked without looking for the NUL first.
pub(crate) fn label_is(text: &[u8], label: &[u8]) -> bool {
    text.get(..label.len()) == Some(label) && text.get(label.len()).map_or(true, |&c| c == 0)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// A heap sample, the bulk of a heap profile's eventlog: (whether it is a 163, its
/// residency, the 163's stack of ccids or the 164's text), as [`decode`] reads it; `None`
/// for any other event, or one too short. Readers that meet millions of them call this
/// first, without building an [`Event`].
#[inline(always)]
pub(crate) fn heap_sample(id: u16, p: &[u8]) -> Option<(bool, u64, &[u8])> {
    match id {
        HEAP_PROF_SAMPLE_STRING if p.len() >= 9 => Some((false, u64_at(p, 1), &p[9..])),
        HEAP_PROF_SAMPLE_COST_CENTRE if p.len() >= 10 => {
            let depth = usize::from(p[9]);
            let stack = p.get(10..10 + 4 * depth)?;
            Some((true, u64_at(p, 1), stack))
        }
        _ => None,
    }
}

/// A block marker's block size and capability (0xFFFF: the global buffer), as
/// [`decode`] reads them; `None` when the payload is short.
pub(crate) fn block_marker(p: &[u8]) -> Option<(u32, u16)> {
    let need = event_type(BLOCK_MARKER).fields.minimum();
    (p.len() >= need).then(|| (u32_at(p, 0), u16::from_be_bytes([p[12], p[13]])))
}

/// Decodes `raw`'s payload: the types that change the samples ([`Reading`]), each read
/// as far as its [`Fields`] say; [`Event::Other`] for the rest.
pub(crate) fn decode<'a>(raw: &RawEvent<'a>) -> Event<'a> {
    let p = raw.payload;
    let kind = event_type(raw.id);
    if !kind.reading.changes_samples() {
        return Event::Other;
    }
    if p.len() < kind.fields.minimum() {
        return Event::Short;
    }
    if kind.reading == Reading::Line {
        if let Some(line) = line_of(raw.id) {
            return Event::Line {
                line,
                bytes: u64_at(p, 4),
            };
        }
    }
    match raw.id {
        BLOCK_MARKER => match block_marker(p) {
            Some((size, cap)) => Event::BlockMarker { size, cap },
            None => Event::Short,
        },
        // Only the time and the capability count: the thread id and status are not read.
        RUN_THREAD => Event::RunThread,
        STOP_THREAD => Event::StopThread,
        GC_START => Event::GcStart,
        GC_END => Event::GcEnd,
        GC_DONE => Event::GcDone,
        RTS_IDENTIFIER => Event::RtsId(cstr(&p[4..]).0),
        PROGRAM_ARGS => Event::ProgramArgs(&p[4..]),
        WALL_CLOCK_TIME => Event::WallClock {
            sec: u64_at(p, 4),
            nsec: u32_at(p, 12),
        },
        USER_MARKER => Event::UserMarker(p),
        HEAP_PROF_BEGIN => {
            let mut rest = &p[13..];
            let mut bio_filter: &[u8] = &[];
            for _ in 0..7 {
                let (s, r) = cstr(rest);
                bio_filter = s;
                rest = r;
            }
            Event::HeapProfBegin {
                period: u64_at(p, 1),
                breakdown: u32_at(p, 9),
                bio_filter,
            }
        }
        HEAP_PROF_COST_CENTRE => {
            let (label, rest) = cstr(&p[4..]);
            let (module, rest) = cstr(rest);
            let (srcloc, rest) = cstr(rest);
            Event::CostCentre {
                ccid: u32_at(p, 0),
                label,
                module,
                srcloc,
                flags: rest.first().copied().unwrap_or(0),
            }
        }
        HEAP_PROF_SAMPLE_BEGIN => Event::SampleBegin,
        HEAP_PROF_SAMPLE_END => Event::SampleEnd,
        PROF_SAMPLE_COST_CENTRE => {
            let depth = usize::from(p[12]);
            match p.get(13..13 + 4 * depth) {
                Some(stack) => Event::ProfSample {
                    cap: u32_at(p, 0),
                    tick: u64_at(p, 4),
                    stack,
                },
                None => Event::Short,
            }
        }
        PROF_BEGIN => Event::ProfBegin {
            interval: u64_at(p, 0),
        },
        TICKY_COUNTER_DEF | TICKY_BEGIN_SAMPLE => Event::Ticky {
            definition: raw.id == TICKY_COUNTER_DEF,
        },
        HEAP_BIO_PROF_SAMPLE_BEGIN => Event::BioSampleBegin {
            census_time: u64_at(p, 8),
        },
        HEAP_PROF_SAMPLE_COST_CENTRE | HEAP_PROF_SAMPLE_STRING => match heap_sample(raw.id, p) {
            Some((true, residency, stack)) => Event::CcsSample { residency, stack },
            Some((false, residency, text)) => Event::StringSample { residency, text },
            None => Event::Short,
        },
        IPE => {
            let mut rest = &p[8..];
            let fields = [(); 6].map(|()| {
                let (field, after) = cstr(rest);
                rest = after;
                field
            });
            Event::Ipe {
                info: u64_at(p, 0),
                fields,
            }
        }
        _ => Event::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(id: u16, payload: &[u8]) -> Event<'_> {
        decode(&RawEvent {
            id,
            time: 0,
            offset: 0,
            payload,
        })
    }

    #[test]
    fn heap_events() {
        let mut p = vec![0u8];
        p.extend_from_slice(&20_000_000u64.to_be_bytes());
        p.extend_from_slice(&1u32.to_be_bytes());
        p.extend_from_slice(b"\0\0\0\0\0\0drag\0");
        assert_eq!(
            ev(160, &p),
            Event::HeapProfBegin {
                period: 20_000_000,
                breakdown: 1,
                bio_filter: b"drag"
            }
        );
        let mut p = vec![0u8];
        p.extend_from_slice(&56u64.to_be_bytes());
        p.push(2);
        p.extend_from_slice(&[0, 0, 0, 2, 0, 0, 0, 6]);
        assert_eq!(
            ev(163, &p),
            Event::CcsSample {
                residency: 56,
                stack: &[0, 0, 0, 2, 0, 0, 0, 6]
            }
        );
        // Depth larger than the payload: short, never read past the end.
        assert_eq!(ev(163, &p[..14]), Event::Short);
        let mut p = vec![0u8];
        p.extend_from_slice(&7u64.to_be_bytes());
        p.extend_from_slice(b"ARR_WORDS");
        assert_eq!(
            ev(164, &p),
            Event::StringSample {
                residency: 7,
                text: b"ARR_WORDS"
            }
        );
        let mut p = 3u32.to_be_bytes().to_vec();
        p.extend_from_slice(b"CAF\0Main\0<entire-module>\0c");
        assert_eq!(
            ev(161, &p),
            Event::CostCentre {
                ccid: 3,
                label: b"CAF",
                module: b"Main",
                srcloc: b"<entire-module>",
                flags: b'c'
            }
        );
    }

    #[test]
    fn time_profile_events() {
        let mut p = 1u32.to_be_bytes().to_vec();
        p.extend_from_slice(&77u64.to_be_bytes());
        p.push(2);
        p.extend_from_slice(&[0, 0, 0, 9, 0, 0, 0, 4]);
        assert_eq!(
            ev(167, &p),
            Event::ProfSample {
                cap: 1,
                tick: 77,
                stack: &[0, 0, 0, 9, 0, 0, 0, 4]
            }
        );
        // A depth beyond the payload: short, never read past its end.
        assert_eq!(ev(167, &p[..20]), Event::Short);
        assert_eq!(ev(167, &p[..12]), Event::Short);
        assert_eq!(
            ev(168, &1_000_000u64.to_be_bytes()),
            Event::ProfBegin {
                interval: 1_000_000
            }
        );
        assert_eq!(ev(168, &[0; 7]), Event::Short);
    }

    #[test]
    fn ipe_entries_have_six_fields() {
        let mut p = 0x40b010u64.to_be_bytes().to_vec();
        p.extend_from_slice(b"sat_s1Ky_info\x0021\0IO ()\0main\0Main\0L.hs:29:1\0");
        let fields: [&[u8]; 6] = [
            b"sat_s1Ky_info",
            b"21",
            b"IO ()",
            b"main",
            b"Main",
            b"L.hs:29:1",
        ];
        assert_eq!(
            ev(169, &p),
            Event::Ipe {
                info: 0x40b010,
                fields
            }
        );
        // Cut inside the label: the rest are empty, nothing is read past the end.
        let cut = 8 + b"sat_s1Ky_info\x0021\0IO ()\0ma".len();
        let fields: [&[u8]; 6] = [b"sat_s1Ky_info", b"21", b"IO ()", b"ma", b"", b""];
        assert_eq!(
            ev(169, &p[..cut]),
            Event::Ipe {
                info: 0x40b010,
                fields
            }
        );
        assert_eq!(ev(169, &p[..7]), Event::Short);
    }

    #[test]
    fn longer_and_shorter_layouts() {
        let mut p = vec![0u8; 16];
        p[15] = 9;
        p.extend_from_slice(b"future");
        assert_eq!(ev(166, &p), Event::BioSampleBegin { census_time: 9 });
        assert_eq!(ev(166, &p[..15]), Event::Short);
        assert_eq!(ev(50, &[0; 11]), Event::Short);
        assert_eq!(ev(1234, &[]), Event::Other);
        // Scheduler events need none of their fields.
        assert_eq!(ev(1, &[0, 0, 0, 7]), Event::RunThread);
        assert_eq!(ev(2, &[]), Event::StopThread);
    }

    /// Every type the table says changes the samples is decoded (none falls through to
    /// `Other`), and short below the table's minimum; every other type is `Other`.
    #[test]
    fn decode_follows_the_table() {
        use crate::read::eventlog::events::EVENTS;
        for e in EVENTS {
            // Long enough for any layout, with a stack of depth 0 for a 163.
            let long = [0u8; 64];
            let p = match e.fields {
                crate::read::eventlog::events::Fields::Stack => &long[..10],
                _ => &long[..],
            };
            let decoded = ev(e.id, p);
            assert_eq!(
                decoded == Event::Other,
                !e.reading.changes_samples(),
                "{}",
                e.name
            );
            if e.reading.changes_samples() {
                assert_ne!(decoded, Event::Short, "{}", e.name);
                if let Some(short) = e.fields.minimum().checked_sub(1) {
                    assert_eq!(ev(e.id, &long[..short]), Event::Short, "{}", e.name);
                }
            }
        }
    }

    /// The heap-sample fast path, and `decode`, read every 163 and 164 as their layouts
    /// say, short and odd payloads included, and no other event as a sample.
    #[test]
    fn heap_sample_agrees_with_decode() {
        let mut next = crate::test_rng::xorshift(7);
        for _ in 0..20_000 {
            let id = [163, 164, 162, 165, 50][(next() % 5) as usize];
            let len = (next() % 40) as usize;
            let mut p: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            if len > 9 {
                // Stack depths that fit the payload, and ones that do not.
                p[9] = (next() % 9) as u8;
            }
            // From the event layouts: heap_prof_id (1 byte), residency (8, big-endian),
            // then a 164's label or a 163's depth (1 byte) and that many 4-byte ccids.
            let residency = |p: &[u8]| u64::from_be_bytes(p[1..9].try_into().unwrap());
            let expected = match id {
                164 if len >= 9 => Some((false, residency(&p), &p[9..])),
                163 if len >= 10 && len >= 10 + 4 * usize::from(p[9]) => {
                    Some((true, residency(&p), &p[10..10 + 4 * usize::from(p[9])]))
                }
                _ => None,
            };
            assert_eq!(heap_sample(id, &p), expected, "id {id}, payload {p:?}");
            let decoded = match ev(id, &p) {
                Event::CcsSample { residency, stack } => Some((true, residency, stack)),
                Event::StringSample { residency, text } => Some((false, residency, text)),
                _ => None,
            };
            assert_eq!(decoded, expected, "id {id}, payload {p:?}");
        }
    }
}
