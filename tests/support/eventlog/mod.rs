//! Eventlogs for the tests: a writer that makes the eventlog a run would have written
//! ([`writer`], including layouts GHC 9.0.2 cannot write), ghc-events, GHC's reference
//! parser, as an independent oracle ([`oracle`]), and a sink that records what the
//! reader says, with the corpus pairs ([`recorder`]).

pub mod oracle;
pub mod recorder;
pub mod writer;

/// Whether `parse_hp`'s reading of a `.hp` equals the crate reader's: header strings,
/// sample times, marks, and each sample's (name, value) points as a multiset.
pub fn same_profile(a: &writer::HpProfile, b: &hp2ps::profile::Profile) -> bool {
    let times: Vec<f64> = a.samples.iter().map(|s| s.time).collect();
    if a.job != b.job
        || a.date != b.date
        || a.sample_unit != b.sample_unit
        || a.value_unit != b.value_unit
        || times != b.times
        || a.marks != b.marks
    {
        return false;
    }
    // Rebuild the crate's band-major points as sample-major (name, value) lists, in band
    // order, and compare them as multisets per sample (the crate keeps no line order).
    let mut per_sample: Vec<Vec<(Vec<u8>, u64)>> = vec![Vec::new(); b.times.len()];
    for band in &b.bands {
        for p in &band.points {
            let (s, v) = (p.sample, p.value);
            match per_sample.get_mut(s as usize) {
                Some(list) => list.push((band.name.clone(), v.to_bits())),
                None => return false,
            }
        }
    }
    a.samples.iter().zip(per_sample).all(|(s, mut theirs)| {
        let mut ours: Vec<(Vec<u8>, u64)> = s
            .bands
            .iter()
            .map(|b| (b.name.clone(), b.value.to_bits()))
            .collect();
        ours.sort();
        theirs.sort();
        ours == theirs
    })
}
