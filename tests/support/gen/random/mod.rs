//! Random `.hp` profiles and random hp2ps command lines, for differential and
//! property tests. Everything derives from one seed, so a failing case is
//! reproduced by its seed alone.

use super::super::case::Run;
use super::super::hp_quoted as quoted;
use super::super::rng::Rng;
use super::super::scan::has_previous_flag;

// The parts: the profile, and the band names in it.
mod names;
mod profile;

// No test crate calls `random_name` itself (`profile.rs` does); public, as it was.
#[allow(unused_imports)]
pub use names::random_name;
pub use profile::random_profile;

/// Identifiers that are keywords of the `.hp` language: never generated as
/// band names (they would change the statement structure); `properties.rs` leaves
/// them out of its names too.
pub const HP_KEYWORDS: &[&[u8]] = &[
    b"BEGIN_SAMPLE",
    b"END_SAMPLE",
    b"JOB",
    b"DATE",
    b"SAMPLE_UNIT",
    b"VALUE_UNIT",
    b"MARK",
];

/// One random differential case.
#[derive(Clone, Debug)]
pub struct RandomCase {
    pub seed: u64,
    pub input: Vec<u8>,
    /// File-mode `-p` cases first run this (without `-p`) to write `t.aux`.
    pub first: Option<Run>,
    pub run: Run,
}

impl RandomCase {
    /// Everything needed to reproduce the case by hand.
    pub fn label(&self) -> String {
        match &self.first {
            Some(first) => format!(
                "seed={:#018x}: {} then {}",
                self.seed,
                first.describe(),
                self.run.describe()
            ),
            None => format!("seed={:#018x}: {}", self.seed, self.run.describe()),
        }
    }
}

/// The seed of the `i`-th case of a named series (fixed, so tests are deterministic).
pub fn case_seed(series: u64, i: u64) -> u64 {
    series
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(i.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// A random profile with a random command line; 15 % filter mode; file-mode
/// cases with `-p` get a first run that writes the aux file.
pub fn random_case(seed: u64) -> RandomCase {
    let mut rng = Rng::new(seed);
    let input = random_profile(&mut rng);
    let flags = random_flags(&mut rng, true);
    if rng.chance(15, 100) {
        return RandomCase {
            seed,
            input,
            first: None,
            run: Run::filter(&flags),
        };
    }
    let first = has_previous_flag(&flags).then(|| Run::file(&random_flags(&mut rng, false)));
    RandomCase {
        seed,
        input,
        first,
        run: Run::file(&flags),
    }
}

// ---------------------------------------------------------------- flags --

/// 0–4 options drawn from spec §1.2, with glued `-p` spellings (`-pc`,
/// `-pm5`), ignored trailing letters (`-bz`) and, rarely, invalid values
/// (those make hp2ps print usage, which the comparison skips).
pub fn random_flags(rng: &mut Rng, allow_p: bool) -> Vec<String> {
    let count = *rng.pick(&[0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4]);
    let mut flags = Vec::new();
    for _ in 0..count {
        let mut flag = random_option(rng, allow_p);
        if allow_p && rng.chance(1, 6) {
            // `-p` continues scanning the same argument: `-pc`, `-pm5`, `-pp`.
            flag = format!("-p{}", &flag[1..]);
        }
        flags.push(flag);
    }
    flags
}

fn random_option(rng: &mut Rng, allow_p: bool) -> String {
    let letters: &[&str] = if allow_p {
        &[
            "b", "s", "c", "d", "g", "y", "i", "M", "m", "m", "t", "t", "e", "p", "p",
        ]
    } else {
        &[
            "b", "s", "c", "d", "g", "y", "i", "M", "m", "m", "t", "t", "e",
        ]
    };
    match *rng.pick(letters) {
        "i" => rng
            .pick(&["-i", "-i", "-i-", "-i-", "-i+", "-ix"])
            .to_string(),
        "m" => format!(
            "-m{}",
            rng.pick(&[
                "0", "1", "2", "3", "5", "10", "19", "20", "21", "25", "30", "45", "-3", "", "7x",
                "abc"
            ])
        ),
        "t" => format!(
            "-t{}",
            rng.pick(&[
                "0", "0", "0.5", "1", "2.5", "5", "0.1", "1e-1", "", "3", "4.99", "abc", "6"
            ])
        ),
        "e" => format!(
            "-e{}",
            rng.pick(&[
                "6in", "150mm", "400", "145", "500pt", "8.5in", "2.5in", "1e3", "300mm", "10in",
                "7IN", "2in"
            ])
        ),
        letter @ ("b" | "s" | "c" | "d" | "g" | "y" | "M") if rng.chance(1, 12) => {
            // Every letter but `p` takes the rest of the argument: ignored here.
            format!("-{letter}{}", rng.pick(&["z", "p", "c", "x1"]))
        }
        letter => format!("-{letter}"),
    }
}
