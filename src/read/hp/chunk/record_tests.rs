//! A chunk's scan read back from its record (`record.rs`) is the scan of the same lines:
//! for chunks of every shape of line near GHC's (long names, names like the markers,
//! huge values, `\r\n`, times that go back, lines the scan stops at), recorded in each
//! form and read back in each, against a scan of the text the record covers.

use super::{ChunkScan, Form};
use crate::profile::keep::{Role, RunRoles};

const FORMS: [Form; 4] = [Form::Entries, Form::ByBand, Form::Sums, Form::Split];

/// Names of every kind the window and the general scan meet.
fn names() -> Vec<String> {
    let mut names: Vec<String> = (0..12).map(|k| format!("(b{k})Main.f/{}", k * 7)).collect();
    names.push("x".repeat(70));
    names.push("BEGIN_SAMPLEx".into());
    names.push("END".into());
    names.push("MARKS".into());
    names.push("with space".into());
    names.push("y".repeat(200));
    names
}

fn roles(names: &[String]) -> RunRoles {
    let role = |k: usize| [Role::Drawn, Role::Merged, Role::Dropped][k % 3];
    let roles = names.iter().enumerate();
    RunRoles((roles.map(|(k, n)| (n.as_bytes().into(), role(k)))).collect())
}

/// A chunk of `lines` lines, mostly what GHC writes, some odd.
fn chunk(next: &mut impl FnMut() -> u64, names: &[String], lines: usize) -> Vec<u8> {
    let mut text = String::new();
    let mut time = 0u64;
    let mut inside = next() % 2 == 0;
    for _ in 0..lines {
        let eol = if next() % 40 == 0 { "\r\n" } else { "\n" };
        match next() % 30 {
            0 | 1 if !inside => {
                time += next() % 3;
                text += &format!("BEGIN_SAMPLE {}.{}{eol}", time / 10, time % 10);
                inside = true;
            }
            2 | 3 if inside => {
                text += &format!("END_SAMPLE {}.{}{eol}", time / 10, time % 10);
                inside = false;
            }
            4 if !inside => text += &format!("MARK {}.5{eol}", time / 10),
            // Rare: a time that goes back, a header, a line without a TAB.
            5 if next() % 8 == 0 => text += &format!("BEGIN_SAMPLE 0.0{eol}"),
            6 if next() % 8 == 0 => text += "JOB \"again\"\n",
            7 if next() % 8 == 0 => text += "name 12\n",
            _ => {
                let name = &names[next() as usize % names.len()];
                let value = match next() % 50 {
                    0 => 9_007_199_254_740_993,
                    1 => 123_456_789_012_345,
                    2 => 0,
                    _ => next() % 100_000,
                };
                text += &format!("{name}\t{value}{eol}");
            }
        }
    }
    text.into_bytes()
}

/// What a scan found, as text.
fn seen(s: &ChunkScan) -> String {
    let n = s.names.len();
    let by_band = match s.form {
        Form::ByBand | Form::Split => format!("{:?}", &s.by_band[..n]),
        _ => String::new(),
    };
    let sums = match s.form {
        Form::Sums => format!("{:?} {:?}", &s.sums[..n], s.census_sums),
        _ => String::new(),
    };
    format!(
        "{:?} {:?} {:?}\n{by_band}\n{sums}\n{:?} {:?} {:?} {:?}\n{} {} {} {:?} {:?} {:?} {:?}",
        s.names,
        s.full_hashes,
        s.entries,
        s.roles,
        s.split.heights,
        s.split.merged,
        s.split.last,
        s.fast_len,
        s.lines,
        s.ends,
        s.needs_inside,
        s.first_begin,
        s.last_begin,
        s.end_in_sample,
    )
}

#[test]
fn a_chunk_read_back_is_the_scan_of_its_lines() {
    let mut next = crate::test_rng::xorshift(2039);
    let names = names();
    let roles = roles(&names);
    let (mut recorded, mut whole) = (0, 0);
    for round in 0..600 {
        let bytes = chunk(&mut next, &names, 1 + round % 300);
        let max_name_len = if round % 5 == 0 { 100 } else { 1 << 16 };
        for recorded_in in FORMS {
            let mut scan = ChunkScan::default();
            scan.scan(&bytes, max_name_len, recorded_in, Some(&roles), true);
            let mut head = Vec::new();
            if !scan.recorded(&mut head) {
                continue;
            }
            recorded += 1;
            head.extend_from_slice(scan.record_body());
            let prefix = &bytes[..scan.fast_len];
            for form in FORMS {
                let mut back = ChunkScan::default();
                assert!(
                    back.replay(&bytes, &head, form, Some(&roles)),
                    "round {round}"
                );
                let mut want = ChunkScan::default();
                want.scan(prefix, max_name_len, form, Some(&roles), false);
                assert_eq!(
                    seen(&back),
                    seen(&want),
                    "round {round}, {recorded_in:?} → {form:?}"
                );
                if form == recorded_in {
                    // The record covers all the scan read.
                    let mut all = ChunkScan::default();
                    all.scan(&bytes, max_name_len, form, Some(&roles), false);
                    assert_eq!(back.fast_len, all.fast_len, "round {round}");
                    whole += 1;
                }
            }
        }
    }
    assert!(
        recorded > 1000 && whole > 1000,
        "{recorded} recorded, {whole} whole"
    );
}

/// A record cut short, or of another chunk, is refused whole: nothing of it is taken.
#[test]
fn a_record_that_does_not_read_back_is_refused() {
    let mut next = crate::test_rng::xorshift(7);
    let names = names();
    let (mut scan, mut record) = (ChunkScan::default(), Vec::new());
    // A chunk whose scan reads a good part of it.
    let bytes = loop {
        let bytes = chunk(&mut next, &names, 200);
        scan.scan(&bytes, 1 << 16, Form::Sums, None, true);
        if scan.recorded(&mut record) && scan.lines > 20 {
            break bytes;
        }
    };
    record.extend_from_slice(scan.record_body());
    let mut back = ChunkScan::default();
    for cut in [1, record.len() / 2, record.len() - 1] {
        assert!(!back.replay(&bytes, &record[..cut], Form::ByBand, None));
        assert_eq!((back.fast_len, back.lines, back.names.len()), (0, 0, 0));
    }
    // A chunk shorter than what the record read.
    assert!(!back.replay(&bytes[..scan.fast_len - 1], &record, Form::ByBand, None));
    assert!(back.replay(&bytes, &record, Form::ByBand, None));
    // A point of a band the chunk does not name (and of one it does, to keep the count
    // of lines as a longer record's), in every form, by role too.
    let roles = roles(&names);
    let past = u16::try_from(scan.names.len()).expect("few names") + 4;
    for code in [past, past + 1000, u16::MAX] {
        let mut more = record.clone();
        for line in [code, 4] {
            more.extend_from_slice(&line.to_le_bytes());
            more.extend_from_slice(&7u32.to_le_bytes());
        }
        for (form, roles) in FORMS
            .map(|f| (f, None))
            .into_iter()
            .chain([(Form::Split, Some(&roles))])
        {
            assert!(!back.replay(&bytes, &more, form, roles), "{code} {form:?}");
            assert_eq!((back.fast_len, back.lines, back.names.len()), (0, 0, 0));
        }
    }
}

/// A chunk of more bands than a short code holds, and values of 2^32 and more: written
/// down the long way, and read back as the scan reads them.
#[test]
fn bands_and_values_past_a_short_code_read_back() {
    let mut text = String::from("BEGIN_SAMPLE 1.0\n");
    for k in 0..70_000u64 {
        text += &format!("n{k}\t{}\n", k * 65_537);
    }
    text += "n3\t7\nn69999\t5000000000\nEND_SAMPLE 1.0\n";
    let bytes = text.into_bytes();
    let mut scan = ChunkScan::default();
    scan.scan(&bytes, 1 << 16, Form::Sums, None, true);
    let mut record = Vec::new();
    assert!(scan.recorded(&mut record));
    assert_eq!(scan.fast_len, bytes.len());
    record.extend_from_slice(scan.record_body());
    // By role too: the split of bands past the short codes.
    let role = |k: usize| [Role::Drawn, Role::Merged, Role::Dropped][k % 3];
    let named = (0..70_000).map(|k| (format!("n{k}").into_bytes().into(), role(k)));
    let roles = RunRoles(named.collect());
    for (form, roles) in FORMS
        .map(|f| (f, None))
        .into_iter()
        .chain([(Form::Split, Some(&roles))])
    {
        let mut back = ChunkScan::default();
        assert!(back.replay(&bytes, &record, form, roles), "{form:?}");
        let mut want = ChunkScan::default();
        want.scan(&bytes, 1 << 16, form, roles, false);
        assert_eq!(seen(&back), seen(&want), "{form:?}");
    }
}
