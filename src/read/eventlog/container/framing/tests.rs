use super::{Framer, Notes};
use crate::read::eventlog::container::header::tests::header;
use crate::read::eventlog::container::{next_event, read_header, Input, Next};

/// Events of a small test vocabulary: 9 (fixed, empty) and 7 (fixed, 3 bytes), which a
/// capability's buffer holds; 18 (block marker); 30 and 169 (variable); 162 and 165
/// (fixed, an era), which the global buffer holds.
const TYPES: &[(u16, u16)] = &[
    (9, 0),
    (18, 14),
    (30, 0xFFFF),
    (162, 8),
    (165, 8),
    (169, 0xFFFF),
    (7, 3),
];

fn fixed(v: &mut Vec<u8>, id: u16, t: u64, payload: &[u8]) {
    v.extend_from_slice(&id.to_be_bytes());
    v.extend_from_slice(&t.to_be_bytes());
    v.extend_from_slice(payload);
}

fn variable(v: &mut Vec<u8>, id: u16, t: u64, declared: u16, payload: &[u8]) {
    v.extend_from_slice(&id.to_be_bytes());
    v.extend_from_slice(&t.to_be_bytes());
    v.extend_from_slice(&declared.to_be_bytes());
    v.extend_from_slice(payload);
}

/// A block marker of capability 0 at the end of `v` for a block of `size` bytes, open
/// from `from` to `to`.
fn marker(v: &mut Vec<u8>, size: u32, from: u64, to: u64) {
    marker_of(v, 0, size, from, to);
}

/// A block marker of capability `cap` (0xFFFF: the global buffer).
fn marker_of(v: &mut Vec<u8>, cap: u16, size: u32, from: u64, to: u64) {
    let mut p = size.to_be_bytes().to_vec();
    p.extend_from_slice(&to.to_be_bytes());
    p.extend_from_slice(&cap.to_be_bytes());
    fixed(v, 18, from, &p);
}

/// Sets the size of the block whose marker is at `start` to reach the end of `v`.
fn close_block(v: &mut [u8], start: usize) {
    let size = (v.len() - start) as u32;
    v[start + 10..start + 14].copy_from_slice(&size.to_be_bytes());
}

/// An IPE payload whose six strings end where the payload does.
fn ipe(name: &[u8]) -> Vec<u8> {
    let mut p = 0x4c8b10u64.to_be_bytes().to_vec();
    for s in [name, b"21", b"IO ()", b"main", b"Main", b"M.hs:1:1-5"] {
        p.extend_from_slice(s);
        p.push(0);
    }
    p
}

/// What a reader makes of `v`: (id, time, payload) per event, `D(from,to)` per damaged
/// stretch, `E` at the end, `T` at a cut; read through `chunk`-byte reads.
fn read(v: &[u8], chunk: usize) -> (Vec<String>, Notes) {
    struct Trickle<'a>(&'a [u8], usize);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let mut input = Input::new(Trickle(v, chunk));
    let types = read_header(&mut input).unwrap();
    let mut framer = Framer::new(&types);
    let mut seen = Vec::new();
    loop {
        match next_event(&mut input, &mut framer).unwrap() {
            Next::Event(e) => seen.push(format!("{}@{}:{:?}", e.id, e.time, e.payload.len())),
            Next::Damaged { from, to } => seen.push(format!("D({from},{to})")),
            Next::End => {
                seen.push("E".into());
                break;
            }
            Next::Truncated { offset } => {
                seen.push(format!("T({offset})"));
                break;
            }
        }
    }
    (seen, framer.notes)
}

/// `read` through a whole buffer and through one-byte reads, which must agree.
fn both(v: &[u8]) -> (Vec<String>, Notes) {
    let whole = read(v, usize::MAX);
    assert_eq!(read(v, 1), whole, "one-byte reads differ");
    assert_eq!(read(v, 4093), whole, "4093-byte reads differ");
    whole
}

#[test]
fn frames_fixed_variable_and_end() {
    let mut v = header(TYPES);
    fixed(&mut v, 9, 5, &[]);
    variable(&mut v, 30, 6, 2, b"xy");
    fixed(&mut v, 7, 8, b"abc");
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, notes) = both(&v);
    assert_eq!(seen, ["9@5:0", "30@6:2", "7@8:3", "E"]);
    assert_eq!(notes, Notes::default());
    // Cut anywhere: the events before the cut, then the cut.
    let data = header(TYPES).len();
    for cut in data..v.len() - 2 {
        let (seen, _) = both(&v[..cut]);
        assert!(
            seen.last().unwrap().starts_with("T("),
            "cut {cut}: {seen:?}"
        );
    }
}

#[test]
fn an_undeclared_id_is_skipped_to_where_events_go_on() {
    let mut v = header(TYPES);
    let data = v.len() as u64;
    fixed(&mut v, 9, 5, &[]);
    fixed(&mut v, 4, 6, b"???"); // undeclared, 13 bytes
    fixed(&mut v, 9, 7, &[]);
    fixed(&mut v, 7, 8, b"abc");
    fixed(&mut v, 9, 9, &[]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, _) = both(&v);
    let damaged = format!("D({},{})", data + 10, data + 23);
    assert_eq!(seen, ["9@5:0", &damaged, "9@7:0", "7@8:3", "9@9:0", "E"]);
}

#[test]
fn ipe_events_one_byte_too_long_are_read_by_their_fields() {
    // As GHC 9.10.3 writes them: each declares one byte more than its six strings.
    let mut v = header(TYPES);
    let first = v.len() as u64;
    for name in [&b"a_info"[..], b"bb_info", b"ccc_info"] {
        let p = ipe(name);
        variable(&mut v, 169, 5, p.len() as u16 + 1, &p);
    }
    fixed(&mut v, 9, 6, &[]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, notes) = both(&v);
    assert_eq!(seen, ["169@5:45", "169@5:46", "169@5:47", "9@6:0", "E"]);
    assert_eq!(notes.ipe_one_byte_long.first, Some((first, 169)));
    assert_eq!(notes.ipe_one_byte_long.count, 3);
    assert_eq!(notes.by_fields.count, 0);
    assert_eq!(notes.extra_bytes.count, 0);

    // Two bytes more than its fields: not GHC's layout, read by its fields all the same.
    let mut v = header(TYPES);
    let first = v.len() as u64;
    let p = ipe(b"a_info");
    variable(&mut v, 169, 5, p.len() as u16 + 2, &p);
    fixed(&mut v, 9, 6, &[]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, notes) = both(&v);
    assert_eq!(seen, ["169@5:45", "9@6:0", "E"]);
    assert_eq!(notes.by_fields.first, Some((first, 169)));
    assert_eq!(notes.ipe_one_byte_long.count, 0);

    // Bytes after the fields that the next event follows: skipped with the event.
    let mut v = header(TYPES);
    let first = v.len() as u64;
    let mut p = ipe(b"a_info");
    p.extend_from_slice(b"new field");
    variable(&mut v, 169, 5, p.len() as u16, &p);
    fixed(&mut v, 9, 6, &[]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, notes) = both(&v);
    assert_eq!(seen, ["169@5:54", "9@6:0", "E"]);
    assert_eq!(notes.extra_bytes.first, Some((first, 169)));
    assert_eq!(notes.by_fields.count, 0);
}

#[test]
fn an_event_out_of_its_blocks_order_is_read_with_the_time_before_it() {
    // Later than its block was written, in a capability's block; earlier than the event
    // before it, in the global block (a capability's may step back a little: GC_END).
    for (cap, id, time) in [(0, 7, 1 << 40), (0xFFFF, 165, 105)] {
        let mut v = header(TYPES);
        let start = v.len();
        marker_of(&mut v, cap, 0, 100, 200);
        fixed(&mut v, id, 110, &[0; 8][..if id == 7 { 3 } else { 8 }]);
        let bad = v.len() as u64;
        fixed(&mut v, id, time, &[0; 8][..if id == 7 { 3 } else { 8 }]);
        fixed(&mut v, id, 120, &[0; 8][..if id == 7 { 3 } else { 8 }]);
        fixed(&mut v, id, 130, &[0; 8][..if id == 7 { 3 } else { 8 }]);
        v.extend_from_slice(&[0xFF, 0xFF]);
        close_block(&mut v, start);
        let (seen, notes) = both(&v);
        let len = if id == 7 { 3 } else { 8 };
        let ev = |t: u64| format!("{id}@{t}:{len}");
        assert_eq!(
            seen,
            ["18@100:14", &ev(110), &ev(110), &ev(120), &ev(130), "E"]
        );
        assert_eq!(notes.retimed.first, Some((bad, id)));
        assert_eq!(notes.retimed.count, 1);
    }
    // A census's BEGIN out of order is skipped: its time is the census's.
    let mut v = header(TYPES);
    let start = v.len();
    marker_of(&mut v, 0xFFFF, 0, 100, 200);
    fixed(&mut v, 162, 110, &[0; 8]);
    let bad = v.len() as u64;
    fixed(&mut v, 162, 105, &[0; 8]);
    fixed(&mut v, 162, 120, &[0; 8]);
    fixed(&mut v, 162, 130, &[0; 8]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    close_block(&mut v, start);
    let (seen, notes) = both(&v);
    let damaged = format!("D({bad},{})", bad + 18);
    assert_eq!(
        seen,
        [
            "18@100:14",
            "162@110:8",
            &damaged,
            "162@120:8",
            "162@130:8",
            "E"
        ]
    );
    assert_eq!(notes, Notes::default());
}

#[test]
fn a_marker_that_lies_about_its_span_loses_nothing() {
    let mut v = header(TYPES);
    let start = v.len() as u64;
    marker(&mut v, 1 << 20, 0, 0); // every event is later than the span it claims
    for t in [10, 20, 30, 40] {
        fixed(&mut v, 9, t, &[]);
    }
    fixed(&mut v, 7, 50, b"abc");
    v.extend_from_slice(&[0xFF, 0xFF]);
    let (seen, notes) = both(&v);
    let expect = [
        "18@0:14", "9@10:0", "9@20:0", "9@30:0", "9@40:0", "7@50:3", "E",
    ];
    assert_eq!(seen, expect);
    assert_eq!(notes.marker_lies.first, Some((start, 18)));
    assert_eq!(notes.marker_lies.count, 1);
}

#[test]
fn after_damage_events_of_the_other_buffer_are_not_where_reading_goes_on() {
    // In the global block, after an undeclared event: three events of a type only a
    // capability's buffer holds (9, GC start), well framed and in order, then the
    // census's END. GHC never writes them there: they are read as damage, skipped to
    // the END.
    let mut v = header(TYPES);
    let start = v.len();
    marker_of(&mut v, 0xFFFF, 0, 100, 200);
    fixed(&mut v, 162, 110, &[0; 8]);
    let bad = v.len() as u64;
    fixed(&mut v, 4, 111, b"???"); // undeclared
    for t in [112, 113, 114] {
        fixed(&mut v, 9, t, &[]);
    }
    let end = v.len() as u64;
    fixed(&mut v, 165, 120, &[0; 8]);
    v.extend_from_slice(&[0xFF, 0xFF]);
    close_block(&mut v, start);
    let (seen, _) = both(&v);
    let damaged = format!("D({bad},{end})");
    assert_eq!(seen, ["18@100:14", "162@110:8", &damaged, "165@120:8", "E"]);
}

#[test]
fn after_damage_a_marker_inside_a_block_is_not_where_reading_goes_on() {
    // GHC's blocks tile the data: a block marker where the block around it has not
    // ended is damage too, however sane its fields.
    let mut v = header(TYPES);
    let start = v.len();
    marker(&mut v, 0, 100, 200);
    fixed(&mut v, 9, 110, &[]);
    let bad = v.len() as u64;
    fixed(&mut v, 4, 111, b"???"); // undeclared
    marker(&mut v, 1000, 112, 300);
    let on = v.len() as u64;
    for t in [113, 114, 115] {
        fixed(&mut v, 9, t, &[]);
    }
    v.extend_from_slice(&[0xFF, 0xFF]);
    close_block(&mut v, start);
    let (seen, _) = both(&v);
    let damaged = format!("D({bad},{on})");
    assert_eq!(
        seen,
        [
            "18@100:14",
            "9@110:0",
            &damaged,
            "9@113:0",
            "9@114:0",
            "9@115:0",
            "E"
        ]
    );
}

#[test]
fn damage_to_the_end_of_the_input() {
    let mut v = header(TYPES);
    fixed(&mut v, 9, 5, &[]);
    let bad = v.len() as u64;
    v.extend_from_slice(&[0xAB; 300_000]);
    let (seen, _) = both(&v);
    // One stretch, skipped in steps of at most SCAN bytes, to the end.
    assert_eq!(seen[0], "9@5:0");
    assert!(seen[1].starts_with(&format!("D({bad},")));
    assert!(seen.len() >= 4, "{seen:?}");
    let mut at = bad;
    for d in &seen[1..seen.len() - 1] {
        let (from, to) = d[2..d.len() - 1].split_once(',').unwrap();
        assert_eq!(from.parse::<u64>().unwrap(), at);
        at = to.parse().unwrap();
    }
    assert_eq!(seen.last().unwrap(), &format!("T({at})"));
    assert_eq!(at, v.len() as u64);
}
