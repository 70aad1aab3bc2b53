//! The time profile's reader and views on a generated report (a million stacks, about
//! 99 MB, as `--summary` of a large `.prof` sees it; set `HP2PS_BENCH_STACKS` for
//! another size): reading it, the summary's flat table and top, folded stacks, a
//! sandwich and a diff. Run with `cargo bench --bench calltree`; the whole-process
//! comparison with `wc -l` and the peak memory are `scripts/compare-prof.sh`'s.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use hp2ps::internals::calltree::{CallTree, Measure, TreeDiff};
use hp2ps::internals::prof::tree;
use hp2ps::summary::TimeSummary;
use hp2ps::{Source, TimeProfile, TimeProfileOptions};

#[path = "../tests/support/gen/prof/mod.rs"]
#[allow(dead_code)]
mod gen_prof;

fn main() {
    divan::main();
}

/// The generated report, made once.
fn report() -> &'static [u8] {
    static REPORT: OnceLock<Vec<u8>> = OnceLock::new();
    REPORT.get_or_init(|| {
        let mut o = gen_prof::Options::default();
        if let Some(n) = std::env::var("HP2PS_BENCH_STACKS")
            .ok()
            .and_then(|n| n.parse().ok())
        {
            o.stacks = n;
        }
        gen_prof::generated(&o)
    })
}

fn read() -> TimeProfile {
    TimeProfile::read(Source::Bytes(report()), &TimeProfileOptions::default()).expect("reads")
}

/// The report read, once.
fn profile() -> &'static TimeProfile {
    static PROFILE: OnceLock<TimeProfile> = OnceLock::new();
    PROFILE.get_or_init(read)
}

fn the_tree() -> &'static CallTree {
    tree(profile())
}

/// Reading the report from memory, as the command reads a mapped file.
#[divan::bench(sample_count = 10)]
fn read_report(bencher: Bencher) {
    let bytes = report();
    bencher.counter(BytesCount::new(bytes.len())).bench(read);
}

/// `--summary`'s numbers of what was read (the flat table, the top ten).
#[divan::bench(sample_count = 10)]
fn summary(bencher: Bencher) {
    let p = profile();
    bencher.bench(|| TimeSummary::of(p, Some("big.prof"), &Default::default()));
}

/// Folded stacks of the ticks' shares (a static flame graph's input).
#[divan::bench(sample_count = 5)]
fn folded(bencher: Bencher) {
    let t = the_tree();
    bencher.bench(|| t.folded(Measure::Time).expect("shares"));
}

/// The sandwich of the first cost centre below `MAIN`.
#[divan::bench(sample_count = 10)]
fn sandwich(bencher: Bencher) {
    let t = the_tree();
    let cc = t.cost_centres().nth(1).expect("cost centres");
    bencher.bench(|| t.sandwich(cc));
}

/// The tree compared with itself.
#[divan::bench(sample_count = 5)]
fn diff(bencher: Bencher) {
    let t = the_tree();
    bencher.bench(|| TreeDiff::of(t, t));
}
