//! The eventlog reader against the `.hp` reader on the same samples: a generated profile
//! (20 MB of `.hp` by default; set `HP2PS_BENCH_MB`) and the eventlog its run would have
//! written (the tests' converter). Run with `cargo bench --bench eventlog`; the whole-process
//! comparison on 10–400 MB is `scripts/compare-eventlog.sh`.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use hp2ps::{load, LoadOptions, Source, TimeAxis};

#[path = "../tests/support/gen/realistic/mod.rs"]
#[allow(dead_code)]
mod gen_profile;

#[path = "../tests/support/eventlog/writer/mod.rs"]
mod writer;

fn main() {
    divan::main();
}

/// The generated `.hp` and its eventlog, made once.
fn inputs() -> &'static (Vec<u8>, Vec<u8>) {
    static INPUTS: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let mb = std::env::var("HP2PS_BENCH_MB").unwrap_or_else(|_| "20".to_string());
        let hp = gen_profile::generated(&["--size", &format!("{mb}M"), "--bands", "200"]);
        let eventlog = writer::hp_to_eventlog(&hp).expect("converts");
        (hp, eventlog)
    })
}

/// The `.hp` reader on a file in memory, as the command reads a mapped file.
#[divan::bench(sample_count = 10)]
fn hp(bencher: Bencher) {
    let (hp, _) = inputs();
    let opts = LoadOptions::default();
    bencher
        .counter(BytesCount::new(hp.len()))
        .bench(|| load(Source::Bytes(hp), &opts).expect("reads"));
}

/// The eventlog reader on the same samples in memory, as the command reads a mapped file
/// (elapsed time: the log has no GC events).
#[divan::bench(sample_count = 10)]
fn eventlog(bencher: Bencher) {
    let (_, log) = inputs();
    let opts = elapsed();
    bencher
        .counter(BytesCount::new(log.len()))
        .bench(|| load(Source::Bytes(log), &opts).expect("reads"));
}

/// The eventlog reader on a stream (stdin from a pipe, `--watch`): one pass, one thread.
#[divan::bench(sample_count = 10)]
fn eventlog_stream(bencher: Bencher) {
    let (_, log) = inputs();
    let opts = elapsed();
    bencher.counter(BytesCount::new(log.len())).bench(|| {
        let mut stream = &log[..];
        load(Source::Stream(&mut stream), &opts).expect("reads")
    });
}

fn elapsed() -> LoadOptions {
    let mut opts = LoadOptions::default();
    opts.eventlog.time = TimeAxis::Elapsed;
    opts
}
