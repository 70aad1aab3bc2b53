//! Throughput of each stage on a generated profile (20 MB by default; set
//! `HP2PS_BENCH_MB`): reading (MB/s), aggregation, PostScript writing, and end to end.
//! Run with `cargo bench`. The side-by-side comparison with GHC's hp2ps on 10–400 MB
//! profiles is `scripts/compare-hp2ps.sh`.

use std::io::Write;
use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use hp2ps::internals::aggregate;
use hp2ps::internals::hp::read_into;
use hp2ps::internals::paint::{write_ps, PsOptions};
use hp2ps::internals::ProfileBuilder;
use hp2ps::internals::{finish, needs, Needs};
use hp2ps::profile::Profile;
use hp2ps::{load, prepare, AggregateOptions, LoadOptions, ReadOptions, RenderOptions, Source};

#[path = "../tests/support/gen/realistic/mod.rs"]
#[allow(dead_code)]
mod gen_profile;

fn main() {
    divan::main();
}

/// The generated `.hp` text, made once.
fn profile_text() -> &'static [u8] {
    static TEXT: OnceLock<Vec<u8>> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mb = std::env::var("HP2PS_BENCH_MB").unwrap_or_else(|_| "20".to_string());
        gen_profile::generated(&["--size", &format!("{mb}M"), "--bands", "200"])
    })
}

/// The text read as the command reads stdin from a pipe: a stream, on every core.
fn read_stream(mut text: &[u8]) -> Profile {
    let source = Source::Stream(&mut text);
    load(source, &LoadOptions::default())
        .expect("reads")
        .profile
}

fn profile() -> Profile {
    read_stream(profile_text())
}

fn colour() -> RenderOptions {
    let mut opts = RenderOptions::default();
    opts.layout.colour = true;
    opts
}

/// The reader as used on a stream: parsing on every core, building on the calling thread.
#[divan::bench(sample_count = 10)]
fn read(bencher: Bencher) {
    let text = profile_text();
    bencher
        .counter(BytesCount::new(text.len()))
        .bench(|| read_stream(text));
}

/// The reader on one thread, for comparison.
#[divan::bench(sample_count = 10)]
fn read_one_thread(bencher: Bencher) {
    let text = profile_text();
    bencher.counter(BytesCount::new(text.len())).bench(|| {
        let mut builder = ProfileBuilder::default();
        read_into(text, &ReadOptions::default(), &mut builder).expect("reads");
        builder.finish()
    });
}

/// Trace elimination, sorting, the band limit, ranges and area.
#[divan::bench(sample_count = 10)]
fn aggregation(bencher: Bencher) {
    let p = profile();
    bencher
        .with_inputs(|| p.clone())
        .bench_values(|p| aggregate(p, None, &AggregateOptions::default(), &Needs::default()));
}

/// Thinning (none, for PostScript), layout and PostScript of the aggregated bands.
#[divan::bench(sample_count = 10)]
fn postscript(bencher: Bencher) {
    let opts = colour();
    let agg = aggregate(profile(), None, &opts.aggregate, needs(&opts));
    bencher.with_inputs(|| agg.clone()).bench_values(|agg| {
        let (chart, _) = finish(agg, None, &opts);
        let mut out = std::io::sink();
        write_ps(&chart, &PsOptions::default(), &mut out).expect("writes");
        out.flush().expect("flush")
    });
}

/// `hp2ps -c` without the file system: text in, PostScript out.
#[divan::bench(sample_count = 10)]
fn end_to_end(bencher: Bencher) {
    let text = profile_text();
    bencher.counter(BytesCount::new(text.len())).bench(|| {
        let (chart, _) = prepare(read_stream(text), None, &colour());
        write_ps(&chart, &PsOptions::default(), &mut std::io::sink()).expect("writes");
    });
}
