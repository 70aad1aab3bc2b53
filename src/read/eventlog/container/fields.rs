//! Where the fields of the variable-size heap events end, from their layouts (spec §2.2),
//! as the table of event types gives them ([`Fields`]).
//!
//! GHC writes these events' fields and a length that should equal them, but GHC 9.10
//! declares IPE events (169) one byte longer than their six strings, and a newer GHC may
//! append fields after the known ones (ghc-events 0.21 allows that). ghc-events reads
//! these five events by their fields and goes on from where the fields end; the framer
//! uses that end when the declared one does not continue with valid events.

use crate::read::eventlog::events::{event_type, Fields};

/// Whether `id` is one of the events whose fields the framer knows (heap-profile begin,
/// cost centre, the two heap samples and IPE: [`Fields::known_end`]).
pub(crate) fn known(id: u16) -> bool {
    event_type(id).fields.known_end()
}

/// Whether the fields of an event of type `id` fill its `payload` exactly (always, for
/// the events whose fields are not known). Checked on every event: a length that lies
/// would otherwise pass whenever the byte it ends on is a NUL and an event could start
/// after it.
#[inline(always)]
pub(crate) fn fill(id: u16, payload: &[u8]) -> bool {
    match event_type(id).fields {
        // One string to the end (a heap sample's label): found a word at a time.
        Fields::Strings {
            from,
            count: 1,
            after: 0,
        } => {
            let from = usize::from(from);
            payload.len() > from && label(&payload[from..]).len() + from + 1 == payload.len()
        }
        Fields::Stack => payload.get(9).map(|&d| 10 + 4 * usize::from(d)) == Some(payload.len()),
        Fields::Strings { .. } => end(id, payload) == Some(payload.len()),
        Fields::AtLeast(_) => true,
    }
}

/// The label a 164's text starts with (up to its NUL, or all of it), found eight bytes
/// at a time: a label is a few dozen bytes, too short for `memchr`'s setup to pay.
pub(crate) fn label(text: &[u8]) -> &[u8] {
    // Bytes 0x00 are found with the classic test: (w - 0x01…01) & !w & 0x80…80 has its
    // lowest set bit in the first zero byte.
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(word) = text.get(at..at + 8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let zero = w.wrapping_sub(ONES) & !w & HIGHS;
        if zero != 0 {
            return &text[..at + zero.trailing_zeros() as usize / 8];
        }
        at += 8;
    }
    // The last few bytes, padded with zeros (a zero found in the padding means no NUL):
    // the text's last eight bytes shifted, rather than a short copy, which would stall
    // the load that follows it.
    let tail = text.len() - at;
    let end = match text.len().checked_sub(8) {
        _ if tail == 0 => 0,
        Some(last) => {
            let w = u64::from_le_bytes(text[last..].try_into().unwrap_or([0; 8]));
            let w = w >> (8 * (8 - tail));
            let zero = w.wrapping_sub(ONES) & !w & HIGHS;
            (zero.trailing_zeros() as usize / 8).min(tail)
        }
        None => text.iter().position(|&b| b == 0).unwrap_or(tail),
    };
    &text[..at + end]
}

/// Where the fields of an event of type `id` end in `bytes` (its payload, and whatever
/// follows it): `None` if they do not end within `bytes`, or `id` is not [`known`].
pub(crate) fn end(id: u16, bytes: &[u8]) -> Option<usize> {
    // `n` NUL-terminated strings from `from` on: where the last one ends.
    let strings = |from: usize, n: usize| -> Option<usize> {
        let mut at = from;
        for _ in 0..n {
            at += memchr::memchr(0, bytes.get(at..)?)? + 1;
        }
        Some(at)
    };
    let end = match event_type(id).fields {
        Fields::Strings { from, count, after } => {
            strings(usize::from(from), usize::from(count))? + usize::from(after)
        }
        // profile id, residency, depth, then `depth` ccids.
        Fields::Stack => 10 + 4 * usize::from(*bytes.get(9)?),
        Fields::AtLeast(_) => return None,
    };
    (end <= bytes.len()).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::eventlog::payload::cstr;

    /// The word-at-a-time label finder agrees with looking for the NUL, for every length
    /// and NUL position, whatever follows the NUL.
    #[test]
    fn labels_end_at_their_nul() {
        for len in 0..40 {
            let mut text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(label(&text), cstr(&text).0, "no NUL, {len} bytes");
            for nul in 0..len {
                text[nul] = 0;
                assert_eq!(label(&text), cstr(&text).0, "NUL at {nul} of {len}");
                text[nul] = b'z';
            }
        }
        // Bytes with the high bit set are not taken for a NUL.
        let text = b"\x80\x81\xff\x01caf\xc3\xa9\0rest";
        assert_eq!(label(text), cstr(text).0);
    }

    /// Names that the quick hash cannot tell apart (they differ only in the middle) still
    /// get a band each: the run's index switches to hashing every byte.

    #[test]
    fn ends_of_each_layout() {
        // 9.10.3's IPE: 76 bytes of fields, declared 77 (the next event's first byte).
        let mut ipe = 0x4c8b10u64.to_be_bytes().to_vec();
        ipe.extend_from_slice(b"sat_s1Ky_info\x0021\0IO ()\0main\0Main\0");
        ipe.extend_from_slice(b"programs/LeakMap.hs:(29,1)-(37,31)\0");
        assert_eq!(ipe.len(), 76);
        let mut declared = ipe.clone();
        declared.push(0);
        assert_eq!(end(169, &declared), Some(76));
        assert!(!fill(169, &declared) && fill(169, &ipe));
        // An IPE location of ":" (no file, no span).
        let mut empty = 1u64.to_be_bytes().to_vec();
        empty.extend_from_slice(b"t\x0021\0\0\0M\0:\0");
        assert_eq!(end(169, &empty), Some(empty.len()));

        let mut cc = 7u32.to_be_bytes().to_vec();
        cc.extend_from_slice(b"main\0Main\0M.hs:1:1\0\x01");
        assert_eq!(end(161, &cc), Some(cc.len()));
        assert_eq!(end(161, &cc[..cc.len() - 1]), None);

        let mut begin = vec![0u8; 13];
        begin.extend_from_slice(b"\0\0\0\0\0\0drag\0");
        assert_eq!(end(160, &begin), Some(begin.len()));
        begin.extend_from_slice(b"more");
        assert_eq!(end(160, &begin), Some(begin.len() - 4));
        assert!(!fill(160, &begin));

        let mut ccs = vec![0u8; 9];
        ccs.push(2);
        ccs.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 2]);
        assert_eq!(end(163, &ccs), Some(18));
        assert!(fill(163, &ccs) && !fill(163, &ccs[..17]));
        assert_eq!(end(163, &ccs[..17]), None);

        let mut s = vec![0u8; 9];
        s.extend_from_slice(b"ARR_WORDS\0");
        assert_eq!(end(164, &s), Some(19));
        assert!(fill(164, &s));
        s.extend_from_slice(b"\x07");
        assert!(!fill(164, &s));
        // A NUL at the end does not make a label: its own NUL comes first.
        s.push(0);
        assert!(!fill(164, &s));
        assert_eq!(end(164, &s), Some(19));

        // Labels of every length, with and without a NUL inside.
        for len in 0..40 {
            let mut s = vec![1u8; 9];
            s.extend((0..len).map(|i| b'a' + (i % 26) as u8));
            s.push(0);
            assert!(fill(164, &s), "{len}");
            for nul in 9..9 + len {
                let mut t = s.clone();
                t[nul] = 0;
                assert!(!fill(164, &t), "{len} {nul}");
            }
        }

        assert_eq!(end(30, b"a\0b\0"), None);
        assert!(fill(30, b"anything") && !known(30) && known(169));
    }
}
