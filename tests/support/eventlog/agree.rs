//! Whether our eventlog reader (`src/read/eventlog/`) agrees with ghc-events on one
//! file: what ghc-events says the reader must give ([`Expected`]) and the comparison
//! ([`check`]), counted in [`Counts`]. The suite is `eventlog_oracle.rs`.
//!
//! Documented differences, allowed for here:
//!
//! * our reader adds an empty first sample (at 0) and an empty last one (the end);
//! * ghc-events gives timestamps in ns; our reader runs with `TimeAxis::Elapsed` and
//!   `full_names: true` (whole `-hc` stacks, no `-L` cut, no limit on names), so a
//!   census at `t` ns is at `t as f64 / 1e9` seconds (never before the previous census:
//!   the `.hp` reader's rule), and for `-hb` at the 166 event's census time;
//!   LDV-filtered logs, whose times our reader estimates, are compared without times;
//! * a census counts when it is complete: closed by its END (165), or, in a log without
//!   165 (GHC < 8.10), by the next census, the last one only when the file is whole;
//! * line breaks in labels become spaces in our names;
//! * ghc-events stops silently on some inputs (a label that is not UTF-8): there only
//!   the censuses it decoded are compared;
//! * ghc-events 0.17 knows no breakdown after `-hi` (8): it is given a `-he` log (9) as
//!   a `-hT` one (7), which changes nothing else.

use std::collections::HashMap;
use std::path::Path;

use hp2ps::internals::eventlog::read_eventlog;
use hp2ps::{EventlogOptions, TimeAxis};

use super::oracle::{self, Band, Dump, Kind, Outcome};
use super::recorder::{by_first_appearance, Recorder};

/// How one file was compared.
#[derive(Default)]
pub struct Counts {
    pub files: usize,
    /// Both sides refuse the file (no census, or a header ghc-events rejects).
    pub both_refuse: usize,
    pub censuses: usize,
    pub bands: usize,
    pub markers: usize,
    pub ipe: usize,
    /// Files whose census times were not compared (our reader estimates them).
    pub estimated_times: usize,
    /// Files where ghc-events stopped before the end (a non-UTF-8 label).
    pub oracle_stopped: usize,
}

impl Counts {
    pub fn print(&self, what: &str) {
        eprintln!(
            "eventlog oracle {what}: {} files compared ({} refused by both), {} censuses, \
             {} bands, {} markers, {} IPE entries identical; {} files without time \
             comparison (estimated times), {} where ghc-events stopped early",
            self.files,
            self.both_refuse,
            self.censuses,
            self.bands,
            self.markers,
            self.ipe,
            self.estimated_times,
            self.oracle_stopped
        );
    }
}

/// `log` as ghc-events 0.17 can decode it: it refuses a heap profile of a breakdown it
/// does not know, and knows none after 8 (`-hi`): a `-he` log (9) is given to it as a
/// `-hT` one (7), which changes nothing else (its bands are string samples either way,
/// their labels the eras).
fn for_ghc_events(log: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    // HEAP_PROF_BEGIN: type 160, 8-byte time, 2-byte length, profile id, 8-byte period,
    // then the 4-byte breakdown.
    let begin = log.windows(2).enumerate().find_map(|(at, w)| {
        let code = log.get(at + 21..at + 25)?;
        (w == [0, 160] && code == [0, 0, 0, 9]).then_some(at + 21)
    });
    match begin {
        Some(at) => {
            let mut copy = log.to_vec();
            copy[at + 3] = 7;
            copy.into()
        }
        None => log.into(),
    }
}

/// `\n`/`\r` → space, as the reader does to every name.
fn one_line(mut v: Vec<u8>) -> Vec<u8> {
    for b in &mut v {
        if *b == b'\n' || *b == b'\r' {
            *b = b' ';
        }
    }
    v
}

/// A census as ghc-events decodes it: (time ns, [(name, residency)]).
/// (time ns, [(name, residency, the band's key: its label or stack bytes)]).
type WantCensus = (u64, Vec<(Vec<u8>, u64, Vec<u8>)>);

/// What ghc-events says the reader must give: complete censuses as
/// (time ns, [(name, residency)]), markers as (time ns, text).
struct Expected {
    censuses: Vec<WantCensus>,
    markers: Vec<(u64, Vec<u8>)>,
    /// The IPE entries: address, the six strings (the closure type as ghc-events reads
    /// its number).
    ipe: Vec<(u64, [String; 6])>,
    /// Some band names collide (after `one_line`): the reader numbers those, so only the
    /// values are compared.
    ambiguous_names: bool,
}

fn expected(d: &Dump, whole: bool) -> Expected {
    let has_end = d.types.iter().any(|t| t.id == 165);
    let mut censuses = d.censuses();
    if has_end {
        censuses.retain(|c| c.ended);
    } else if !whole {
        // Without 165 the last census is complete only if the file is.
        censuses.pop();
    }
    // The cost centres and IPE entries ghc-events decoded.
    let mut ccs: HashMap<u32, (Vec<u8>, Vec<u8>, u8)> = HashMap::new();
    let mut ipe: Vec<(u64, [String; 6])> = Vec::new();
    for e in &d.events {
        match &e.kind {
            Kind::CostCentre {
                id,
                label,
                module,
                flags,
                ..
            } => {
                ccs.insert(*id, (label.clone(), module.clone(), *flags));
            }
            Kind::Ipe {
                info,
                table_name,
                closure_desc,
                ty_desc,
                label,
                module,
                srcloc,
            } => {
                let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let fields = [
                    text(table_name),
                    closure_desc.to_string(),
                    text(ty_desc),
                    text(label),
                    text(module),
                    text(srcloc),
                ];
                match ipe.iter_mut().find(|(a, _)| a == info) {
                    Some(known) => known.1 = fields,
                    None => ipe.push((*info, fields)),
                }
            }
            _ => {}
        }
    }
    let name = |b: &Band| -> Vec<u8> {
        match b {
            Band::Str { label, .. } => label.clone(),
            Band::Ccs { stack, .. } if stack.is_empty() => b"MAIN".to_vec(),
            Band::Ccs { stack, .. } => {
                let levels: Vec<Vec<u8>> = stack
                    .iter()
                    .map(|id| match ccs.get(id) {
                        Some((label, module, flags)) if flags & 1 != 0 || label == b"CAF" => {
                            [&module[..], b".CAF"].concat()
                        }
                        Some((label, _, _)) => label.clone(),
                        None => format!("?{id}").into_bytes(),
                    })
                    .collect();
                levels.join(&b'/')
            }
        }
    };
    let mut distinct: HashMap<Vec<u8>, Vec<u8>> = HashMap::new();
    let censuses: Vec<WantCensus> = censuses
        .iter()
        .map(|c| {
            let bands = c
                .bands
                .iter()
                .map(|b| {
                    let (key, residency) = match b {
                        Band::Str { label, residency } => (label.clone(), *residency),
                        Band::Ccs { stack, residency } => (
                            stack.iter().flat_map(|i| i.to_be_bytes()).collect(),
                            *residency,
                        ),
                    };
                    let n = one_line(name(b));
                    distinct.insert(key.clone(), n.clone());
                    (n, residency, key)
                })
                .collect();
            (c.bio_time.unwrap_or(c.time), bands)
        })
        .collect();
    let mut names: Vec<&Vec<u8>> = distinct.values().collect();
    names.sort();
    let ambiguous_names = names.windows(2).any(|w| w[0] == w[1]);
    let mut markers: Vec<(u64, Vec<u8>)> = d
        .markers()
        .into_iter()
        .map(|(t, _, text)| (t, text))
        .collect();
    markers.sort_by_key(|m| m.0);
    Expected {
        censuses,
        markers,
        ipe,
        ambiguous_names,
    }
}

/// Compares one file; `whole` is false for a cut file.
pub fn check(exe: &Path, what: &str, bytes: &[u8], whole: bool, counts: &mut Counts) {
    let d = oracle::dump_bytes(exe, &for_ghc_events(bytes));
    let mut opts = EventlogOptions::default();
    opts.time = TimeAxis::Elapsed;
    opts.full_names = true;
    // Whole names, however long: their limits are a policy, not the reading compared.
    opts.max_name_len = usize::MAX;
    opts.max_names_bytes = usize::MAX;
    let mut rec = Recorder::default();
    let ours = read_eventlog(bytes, &opts, &mut rec);
    let want = expected(&d, whole);
    counts.files += 1;
    let report = match ours {
        Err(e) => {
            assert!(
                want.censuses.is_empty(),
                "{what}: our reader refuses it ({e}) but ghc-events decodes {} censuses ({:?})",
                want.censuses.len(),
                d.outcome
            );
            counts.both_refuse += 1;
            if std::env::var_os("ORACLE_VERBOSE").is_some() {
                eprintln!("refused by both: {what}: {e}");
            }
            return;
        }
        Ok(r) => r,
    };
    if let Outcome::Error(e) = &d.outcome {
        panic!("{what}: ghc-events rejects the file ({e}), our reader reads it");
    }
    // Our samples: the synthetic first and last ones around the censuses.
    let samples = &rec.samples;
    assert!(samples.len() >= 2, "{what}: {} samples", samples.len());
    assert!(
        samples[0].1.is_empty() && samples[0].0 == 0.0,
        "{what}: first sample"
    );
    assert!(samples.last().unwrap().1.is_empty(), "{what}: last sample");
    let ours_censuses = &samples[1..samples.len() - 1];
    assert_eq!(
        ours_censuses.len(),
        report.censuses,
        "{what}: report.censuses"
    );
    let mut n = want.censuses.len();
    let oracle_stopped = ours_censuses.len() != n;
    if oracle_stopped {
        // ghc-events stops silently at a label that is not UTF-8 (and the census it was
        // reading then looks complete in a log without 165): compare what it decoded.
        let has_end = d.types.iter().any(|t| t.id == 165);
        let decoded = if has_end { n } else { n.saturating_sub(1) };
        let stopped = ours_censuses.len() > decoded
            && d.censuses().len() <= n + 1
            && ours_censuses[decoded..]
                .iter()
                .flat_map(|c| &c.1)
                .any(|(name, _)| std::str::from_utf8(name).is_err());
        assert!(
            stopped,
            "{what}: {} censuses, ghc-events decodes {n} ({:?})",
            ours_censuses.len(),
            d.outcome
        );
        n = decoded;
        counts.oracle_stopped += 1;
    }
    // Within a census our reader gives the points in band order, not the file's: compare
    // bands by order of first appearance (by key on ghc-events' side, where names may
    // collide), and each census's (band, value) points.
    let want_points: Vec<Vec<(Vec<u8>, f64)>> = (want.censuses[..n].iter())
        .map(|(_, bands)| {
            bands
                .iter()
                .map(|(_, v, key)| (key.clone(), *v as f64))
                .collect()
        })
        .collect();
    let our_points: Vec<Vec<(Vec<u8>, f64)>> =
        ours_censuses[..n].iter().map(|c| c.1.clone()).collect();
    let (want_keys, want_samples) = by_first_appearance(&want_points);
    let (our_names, our_samples) = by_first_appearance(&our_points);
    assert_eq!(want_keys.len(), our_names.len(), "{what}: band count");
    if !want.ambiguous_names {
        let want_names: Vec<&Vec<u8>> = (want_keys.iter())
            .map(|k| {
                let (name, _, _) = (want.censuses.iter())
                    .flat_map(|c| &c.1)
                    .find(|b| &b.2 == k)
                    .expect("a key's band");
                name
            })
            .collect();
        for (w, o) in want_names.iter().zip(&our_names) {
            assert_eq!(
                String::from_utf8_lossy(w),
                String::from_utf8_lossy(o),
                "{what}: band name"
            );
        }
    }
    let mut last = 0.0f64;
    for (i, ((t_ns, bands), (t, _))) in want.censuses[..n].iter().zip(ours_censuses).enumerate() {
        if !report.estimated_times {
            let expect = (*t_ns as f64 / 1e9).max(last);
            last = expect;
            assert_eq!(*t, expect, "{what}: census {i}'s time");
        }
        assert_eq!(
            want_samples[i], our_samples[i],
            "{what}: census {i}'s (band, value) points"
        );
        counts.censuses += 1;
        counts.bands += bands.len();
    }
    if report.estimated_times {
        counts.estimated_times += 1;
    }
    // Markers: time and text, in time order.
    let a: Vec<(f64, String)> = want
        .markers
        .iter()
        .map(|(t, text)| (*t as f64 / 1e9, String::from_utf8_lossy(text).into_owned()))
        .collect();
    let b: Vec<(f64, String)> = report
        .markers
        .iter()
        .map(|m| (m.time, m.text.clone()))
        .collect();
    assert_eq!(a, b, "{what}: markers");
    assert_eq!(rec.marks.len(), a.len(), "{what}: marks handed to the sink");
    counts.markers += a.len();
    // IPE entries: every field (where ghc-events read the whole log).
    if !oracle_stopped {
        let ours: Vec<(u64, [String; 6])> = (report.ipe.iter())
            .map(|e| {
                let closure = e.closure_desc.parse::<i64>().map_or_else(
                    |_| format!("not a number: {:?}", e.closure_desc),
                    |n| n.to_string(),
                );
                let fields = [
                    &e.table_name,
                    &closure,
                    &e.type_desc,
                    &e.label,
                    &e.module,
                    &e.src_loc,
                ];
                (e.address, fields.map(String::clone))
            })
            .collect();
        assert_eq!(ours, want.ipe, "{what}: IPE entries");
        counts.ipe += ours.len();
    }
}

pub fn ends_whole(bytes: &[u8]) -> bool {
    bytes.ends_with(&[0xFF, 0xFF])
}
