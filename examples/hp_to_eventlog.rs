//! Writes the GHC eventlog that the run of a `.hp` profile would have written (no GC
//! events, so elapsed time is mutator time), for benchmarks that compare reading an
//! eventlog with reading the `.hp` of the same samples (`scripts/compare-eventlog.sh`).
//!
//! Usage: `hp_to_eventlog [--events-per-block N] IN.hp OUT.eventlog`. The conversion is
//! the tests' own (`tests/support/eventlog/writer/`), documented there; its blocks hold
//! at most 50,000 events (GHC's 2 MB buffers) unless `--events-per-block` says otherwise.

#[path = "../tests/support/eventlog/writer/mod.rs"]
mod writer;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut opts = writer::ConvertOptions::default();
    if args.first().map(String::as_str) == Some("--events-per-block") && args.len() > 1 {
        let n = args[1].parse().unwrap_or(0);
        opts.layout = opts.layout.with_max_events_per_block(n);
        args.drain(..2);
    }
    let [input, output] = args.as_slice() else {
        eprintln!("usage: hp_to_eventlog [--events-per-block N] IN.hp OUT.eventlog");
        std::process::exit(2);
    };
    let hp = std::fs::read(input).unwrap_or_else(|e| {
        eprintln!("hp_to_eventlog: cannot read {input}: {e}");
        std::process::exit(1)
    });
    let converted =
        writer::convert_hp(&hp, &writer::ConvertOptions::default()).unwrap_or_else(|e| {
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
