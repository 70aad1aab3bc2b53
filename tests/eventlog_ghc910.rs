//! The 14 real GHC 9.10.3 eventlog/.hp pairs in `tests/data/ghc-9.10/` (one run wrote
//! both files): every log is read, `-hi` ones included (their IPE events declare one byte
//! more than their fields), and gives the `.hp`'s censuses: their number, and in each the
//! same bands first appearing in the same order with the same values. Names are compared
//! too, except for `-hi`, whose bands may be named by their IPE entries rather than by
//! the `.hp`'s address. (Times are not compared here: the `.hp` measures CPU time.)

mod support;

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use hp2ps::internals::eventlog::{read_eventlog, read_eventlog_slice_chunked};
use hp2ps::internals::hp::read_into;
use hp2ps::{EventlogOptions, EventlogWarning, ReadOptions};
use support::eventlog::recorder::{by_first_appearance, names_in, Recorder};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ghc-9.10")
}

/// `(295)Main.CAF` → `Main.CAF` (the .hp's cost-centre-stack id).
fn strip_id(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == b')') {
        Some(i) if name[0] == b'(' && name[1..i].iter().all(u8::is_ascii_digit) => &name[i + 1..],
        _ => name,
    }
}

/// `name #2` → `name` (the reader's mark on stacks the -L cut made equal).
fn strip_suffix(name: &[u8]) -> &[u8] {
    match name.windows(2).rposition(|w| w == b" #") {
        Some(i) if name.len() > i + 2 && name[i + 2..].iter().all(u8::is_ascii_digit) => &name[..i],
        _ => name,
    }
}

#[test]
fn every_ghc_9_10_pair_gives_the_censuses_of_its_hp() {
    let all = names_in(&dir());
    assert_eq!(all.len(), 14, "{all:?}");
    let mut censuses = 0;
    for name in &all {
        let bytes = std::fs::read(dir().join(format!("{name}.eventlog"))).unwrap();
        let mut ev = Recorder::default();
        let report = read_eventlog(&bytes[..], &EventlogOptions::default(), &mut ev)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // The one framing rule these logs need: IPE events read by their fields, every
        // one of them (GHC 9.10.3 declares each a byte too long), counted in the report
        // without a warning: GHC's runtime writes every such log so.
        let ipe = report.ipe.len() as u64;
        match name.ends_with("-hi") {
            true => assert_eq!((ipe > 0, report.ipe_one_byte_long), (true, ipe), "{name}"),
            false => assert_eq!((ipe, report.ipe_one_byte_long), (0, 0), "{name}"),
        }
        for w in &report.warnings {
            match w {
                EventlogWarning::NoManyBand => assert!(name.contains("-hr"), "{name}"),
                _ => panic!("{name}: unexpected warning on a clean log: {w}"),
            }
        }
        // The reader on every core agrees.
        let mut runs = Recorder::default();
        let in_runs =
            read_eventlog_slice_chunked(&bytes, &EventlogOptions::default(), &mut runs, 4096);
        assert_eq!(
            format!("{report:?} {ev:?}"),
            format!("{:?} {runs:?}", in_runs.unwrap()),
            "{name}: in runs"
        );

        let mut hp = Recorder::default();
        let f = File::open(dir().join(format!("{name}.hp"))).unwrap();
        read_into(BufReader::new(f), &ReadOptions::default(), &mut hp).unwrap();
        assert_eq!(ev.samples.len(), hp.samples.len(), "{name}: sample count");
        let points = |r: &Recorder| r.samples.iter().map(|s| s.1.clone()).collect::<Vec<_>>();
        let (ev_bands, ev_samples) = by_first_appearance(&points(&ev));
        let (hp_bands, hp_samples) = by_first_appearance(&points(&hp));
        assert_eq!(ev_bands.len(), hp_bands.len(), "{name}: band count");
        if !name.ends_with("-hi") {
            for (e, h) in ev_bands.iter().zip(&hp_bands) {
                let h = if name.contains("-hc") { strip_id(h) } else { h };
                assert_eq!(
                    String::from_utf8_lossy(strip_suffix(e)),
                    String::from_utf8_lossy(h),
                    "{name}: band name"
                );
            }
        }
        for (i, (e, h)) in ev_samples.iter().zip(&hp_samples).enumerate() {
            assert_eq!(e, h, "{name}: sample {i}: (band, value) points");
        }
        censuses += hp.samples.len() - 2;
    }
    eprintln!("GHC 9.10.3 pairs: 14 logs, {censuses} censuses equal to their .hp's");
}
