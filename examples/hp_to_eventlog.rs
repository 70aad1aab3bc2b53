//! Writes the GHC eventlog that the run of a `.hp` profile would have written (no GC
//! events, so elapsed time is mutator time), for benchmarks that compare reading an
//! eventlog with reading the `.hp` of the same samples (`scripts/compare-eventlog.sh`).
//!
//! Usage: `hp_to_eventlog IN.hp OUT.eventlog`. The conversion is the tests' own
//! (`tests/support/eventlog/writer.rs`), documented there.

#[path = "../tests/support/eventlog/writer.rs"]
mod writer;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: hp_to_eventlog IN.hp OUT.eventlog");
        std::process::exit(2);
    };
    let hp = std::fs::read(input).unwrap_or_else(|e| {
        eprintln!("hp_to_eventlog: cannot read {input}: {e}");
        std::process::exit(1)
    });
    // GHC flushes its event buffers every 2 MB, so a real log is a series of blocks of at
    // most that size (a heap-sample event is about 40 bytes).
    let opts = writer::ConvertOptions {
        layout: writer::Layout::ghc_9_0().with_max_events_per_block(50_000),
        ..writer::ConvertOptions::default()
    };
    let converted = writer::convert_hp(&hp, &opts).unwrap_or_else(|e| {
        eprintln!("hp_to_eventlog: {input}: {e:?}");
        std::process::exit(1)
    });
    for loss in &converted.losses {
        eprintln!("hp_to_eventlog: {input}: does not round-trip: {loss:?}");
    }
    if let Err(e) = std::fs::write(output, &converted.eventlog) {
        eprintln!("hp_to_eventlog: cannot write {output}: {e}");
        std::process::exit(1);
    }
}
