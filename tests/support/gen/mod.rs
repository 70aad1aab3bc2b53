//! The profile generators of the tests, one module:
//!
//! - [`random`]: small random profiles from the whole `.hp` language (odd names,
//!   whitespace, marks, ties, skip cases) with random command lines, for the
//!   differential and property tests; reproducible from one seed.
//! - [`realistic`]: large, realistic GHC profiles (cost-centre stacks, closure
//!   descriptions, band shapes) of a given size. `examples/gen_profile.rs` is its
//!   command line (used by `scripts/compare-hp2ps.sh`) and `benches/pipeline.rs`
//!   includes it too, both with `#[path]`; so it depends on `std` only.
//! - here: [`synthetic_hp`], a GHC-shaped `.hp` from a seed (for `eventlog_writer.rs`'s
//!   round trips), and the flag sets of the differential tests.

pub mod random;
#[allow(dead_code)]
pub mod realistic;

/// Flag sets every golden input is rendered with (file mode) by `differential.rs`, and
/// every converted eventlog by `eventlog_differential.rs`.
pub const GOLDEN_FLAG_SETS: &[&[&str]] = &[
    &[],
    &["-c"],
    &["-b"],
    &["-s"],
    &["-g"],
    &["-y"],
    &["-d"],
    &["-i"],
    &["-i-"],
    &["-m5"],
    &["-m0"],
    &["-m30"],
    &["-M"],
    &["-t0"],
    &["-t5"],
    &["-e6in"],
    &["-e150mm"],
    &["-e400"],
    &["-c", "-m0", "-t0"],
    &["-g", "-M", "-c"],
    &["-d", "-m3", "-c"],
    &["-e6in", "-M"],
    &["-m-3"],
    &["-i", "-m5", "-b"],
];

/// A GHC-shaped `.hp` from a seed: odd names (blanks, TABs, keywords, punctuation,
/// UTF-8), values up to 2^64-1, 6-decimal times, marks between samples.
pub fn synthetic_hp(seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*: deterministic, no crate needed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    const NAMES: &[&str] = &[
        "ARR_WORDS",
        "MAIN",
        "(12)main/Main.CAF",
        "JOB",
        "MARK",
        "a b",
        "tab\there",
        "Straße",
        "größe/…",
        "<x.sat_s1>",
        "->>Map",
        "*",
        "%s%n",
        "\"quoted\"",
        "(1)CAF,SYSTEM",
    ];
    let mut hp = format!(
        "JOB \"prog{seed} +RTS -hT -i0.0{}\"\nDATE \"Sat Nov 21 05:17 2026\"\n\
         SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
         BEGIN_SAMPLE 0.000000\nEND_SAMPLE 0.000000\n",
        1 + seed % 9
    );
    let mut micros = 0u64;
    for _ in 0..(1 + next() % 12) {
        micros += 1 + next() % 3_000_000;
        if next() % 4 == 0 {
            hp += &format!("MARK {}.{:06}\n", micros / 1_000_000, micros % 1_000_000);
            micros += 1 + next() % 1000;
        }
        let t = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
        hp += &format!("BEGIN_SAMPLE {t}\n");
        for _ in 0..next() % 8 {
            let name = NAMES[(next() % NAMES.len() as u64) as usize];
            let value = match next() % 4 {
                0 => u64::MAX - next() % 3,
                1 => 0,
                _ => next() % 100_000_000,
            };
            hp += &format!("{name}\t{value}\n");
        }
        hp += &format!("END_SAMPLE {t}\n");
    }
    micros += 1 + next() % 1000;
    let t = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
    hp += &format!("BEGIN_SAMPLE {t}\nEND_SAMPLE {t}\n");
    hp.into_bytes()
}
