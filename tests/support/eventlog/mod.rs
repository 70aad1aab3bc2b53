//! Eventlogs for the tests: a writer that makes the eventlog a run would have written
//! ([`writer`], including layouts GHC 9.0.2 cannot write), ghc-events, GHC's reference
//! parser, as an independent oracle ([`oracle`]), and a sink that records what the
//! reader says, with the corpus pairs ([`recorder`]); whether the reader agrees with
//! ghc-events on a file ([`agree`]).

pub mod agree;
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

/// An IPE entry of `main`'s code in module `Main` (closure type 21, type
/// `Integer -> IO ()`): the info table at `info` named `table_name`, from `srcloc`.
pub fn main_info_table(info: u64, table_name: &[u8], srcloc: &[u8]) -> writer::InfoTable {
    writer::InfoTable {
        info,
        table_name: table_name.to_vec(),
        closure_desc: 21,
        ty_desc: b"Integer -> IO ()".to_vec(),
        label: b"main".to_vec(),
        module: b"Main".to_vec(),
        srcloc: srcloc.to_vec(),
    }
}

/// A `-hi` run as GHC 9.10 on write it, in `layout`: the start-up events, cost centres,
/// three IPE entries (one with the location `:`, an entry without file or span), heap
/// parameters and the heap profile's start in the global buffer; GC events on capability
/// 0; four censuses of info-table addresses, a nonmoving census among them; and, when
/// `restarted`, the runtime's init events posted again between the second and the third
/// census, as when an eventlog writer restarts for a socket client that connects late.
pub fn late_client_run(layout: writer::Layout, restarted: bool) -> Vec<u8> {
    use writer::{breakdown, EventlogWriter, HeapProfBegin, Stream};
    const MS: u64 = 1_000_000;
    let mut w = EventlogWriter::new(layout);
    let version = w.layout().version;
    w.startup(0, 1)
        .wall_clock(1, 1_795_242_269, 0)
        .pid(1, 4242)
        .rts_identifier(1, version.rts_identifier())
        .program_args(1, &["./prog", "+RTS", "-hi", "-l", "-RTS"])
        .raw_event(Stream::Global, 52, 2, &[0; 38])
        .cost_centre(3, 1, b"main", b"Main", b"Main.hs:3:1-9", false)
        .info_table(
            3,
            &main_info_table(0x409f78, b"sat_s154_info", b"Main.hs:5:1-30"),
        )
        .info_table(
            3,
            &main_info_table(0x4c8b10, b"Main.go_info", b"Main.hs:(7,1)-(9,20)"),
        )
        .info_table(3, &main_info_table(0x4bc458, b"nowhere_info", b":"))
        .heap_prof_begin(4, &HeapProfBegin::new(breakdown::INFO_TABLE, 20 * MS));
    let census = |w: &mut EventlogWriter, k: u64| {
        let t = (k + 1) * 20 * MS;
        w.gc_start(0, t - MS).gc_end(0, t - MS / 2);
        w.string_census(
            t,
            &[
                ("0x409f78", 64 * k),
                ("0x4c8b10", 32 + k),
                ("0x4bc458", 16),
                ("0x4a0000", 8),
            ],
        );
    };
    census(&mut w, 0);
    census(&mut w, 1);
    w.nonmoving_census(45 * MS, 32, [3, 2, 100]);
    if restarted {
        w.repost_init_events(50 * MS);
    }
    census(&mut w, 2);
    census(&mut w, 3);
    w.shutdown(100 * MS, 1);
    w.finish()
}

/// Two capabilities whose blocks interleave (GHC 9.0's layout, three events a block):
/// start-up for two capabilities, then five rounds `k` at `t = 1000 (k + 1)` ns, each a
/// collection on capability 0 (`t..t+100`, then a heap size) and one on capability 1
/// (`t+10..t+90`), a marker `m{k}` on capability `k % 2` at `t+200`, and whatever
/// `round_end(w, k, t)` adds. The writer is returned unfinished, for the caller's last
/// events.
pub fn two_capability_rounds(
    mut round_end: impl FnMut(&mut writer::EventlogWriter, u64, u64),
) -> writer::EventlogWriter {
    use writer::{EventlogWriter, Layout};
    let mut w = EventlogWriter::new(Layout::ghc_9_0().with_max_events_per_block(3));
    w.startup(0, 2);
    for k in 0..5u64 {
        let t = 1_000 * (k + 1);
        w.gc_start(0, t)
            .gc_end(0, t + 100)
            .heap_size(0, t + 101, 1 << 20);
        w.gc_start(1, t + 10).gc_end(1, t + 90);
        w.marker(k as u16 % 2, t + 200, format!("m{k}").as_bytes());
        round_end(&mut w, k, t);
    }
    w
}
