//! Differential tests: this crate's `hp2ps` against GHC's real `/usr/bin/hp2ps`.
//!
//! Both programs run on the same input in separate fresh directories; stdout,
//! the `.aux` file and the `.ps` file after its `%%EndComments` line must be
//! byte-identical whenever hp2ps succeeds. Cases where hp2ps fails, prints
//! usage, hangs, or where our tool deliberately differs are counted as
//! skipped, with the reason, in the summary line each test prints
//! (`cargo test --test differential -- --nocapture` shows them).
//!
//! Without `/usr/bin/hp2ps` (or `gs`) the tests print `SKIPPED: …` and pass,
//! except under `CI=true`, where they fail. `HP2PS_UNDER_TEST=/path` replaces
//! the binary under test (e.g. `/usr/bin/hp2ps` itself, to test the harness).
//! `HP2PS_DIFF_CASES=N` changes the number of random cases; `HP2PS_DIFF_SEED=S`
//! reruns the single random case printed as `seed=S` in a failure (every
//! mismatching input is also saved under `<target>/tmp/differential-failures/`).
//! Runs happen in `/dev/shm` when available (`HP2PS_DIFF_TMPDIR` overrides).

mod support;

use support::case::{self as runner, Exit, Run, OURS_TIMEOUT};
use support::compare::{self, Verdict};
use support::gen::random::{self as gen, RandomCase};
use support::gen::GOLDEN_FLAG_SETS;
use support::report::Tally;
use support::tools::{self, Programs};

/// Flag sets every golden input is also rendered with in filter mode
/// (`hp2ps F < t.hp`; `-p` there must neither read nor write an aux file).
const GOLDEN_FILTER_FLAG_SETS: &[&[&str]] = &[&[], &["-c"], &["-e6in"], &["-p"], &["-M", "-g"]];

/// `-p` round trips: (first run, second run reading the first one's aux).
const ROUND_TRIPS: &[(&[&str], &[&str])] = &[
    (&[], &["-p"]),
    (&["-c"], &["-pc"]),
    (&[], &["-p", "-m5"]),
    (&["-m5"], &["-p"]),
    (&["-i"], &["-pd"]),
    (&["-d", "-m3"], &["-p", "-c"]),
    (&["-e6in"], &["-p"]),
    (&["-m0", "-t0"], &["-p", "-t5"]),
];

/// Command-line spellings of spec §1.1 (plus repeated flags and invalid
/// values); the file argument `t.hp` is appended unless the case names one.
const SPELLINGS: &[&[&str]] = &[
    &["-pc"],
    &["-cp"],
    &["-bz"],
    &["-dy"],
    &["-m3x"],
    &["-mabc"],
    &["-m"],
    &["-m-3"],
    &["-m21"],
    &["-m 7"],
    &["-t"],
    &["-tabc"],
    &["-t1e-1"],
    &["-t0.5"],
    &["-tnan"],
    &["-i+"],
    &["-ix"],
    &["-i-"],
    &["-e6IN"],
    &["-e145"],
    &["-e8in"],
    &["-e6inin"],
    &["-e1e3"],
    &["-e0x1p8"],
    &["-e6in", "-g"],
    &["-g", "-e6in"],
    &["-e6in", "-M"],
    &["-m3", "-m5"],
    // `-m` above 20 turns multi-page on for good: a later `-m5`/`-m0` keeps it.
    &["-m30", "-m5"],
    &["-m30", "-m0"],
    &["-t2", "-t0"],
    &["-c", "-c"],
    &["-b", "-s"],
    &["-s", "-b"],
    &["-py"],
    &["-pd"],
    &["-pi-"],
    &["-pm5"],
    &["-pt2"],
    &["-pp"],
    &["-p", "-p"],
    &["-"],
    &["-", "-c"],
    // hp2ps prints usage for these (skipped: ours exits 2 instead).
    &["-e144"],
    &["-e2in"],
    &["-e6mm"],
    &["-t6"],
    &["-t-1"],
    &["-pt6"],
    &["-pz"],
    &["-x"],
    &["-l"],
    &["-?"],
    &["--x"],
    &["-e"],
    // Deliberate differences (skipped with a reason).
    &["-enan"],
    &["-einf"],
];

/// Spellings with the file argument placed explicitly.
const FILE_ARG_SPELLINGS: &[&[&str]] = &[
    &["t"],
    &["./t.hp"],
    &["-c", "t"],
    &["-", "t.hp"],
    // Options after the file name: hp2ps ignores them, ours renders every
    // file argument, so these are documented skips.
    &["t.hp", "-c"],
    &["t.hp", "t.hp"],
];

/// An aux file neither program can parse.
const UNREADABLE_AUX: &[u8] = b"X_RANGE oops\n";

/// The golden inputs the spelling test renders (small key, 21 bands, 45 bands).
const SPELLING_INPUTS: &[&str] = &[
    "spec7-01-manpage.hp",
    "arrays-O1-hc.hp",
    "spec7-32-45-idents.hp",
];

const DEFAULT_RANDOM_CASES: u64 = 1000;
const RANDOM_ROUND_TRIPS: u64 = 200;
/// Fixed seeds of the random series (change only deliberately).
const RANDOM_SERIES: u64 = 0x68_70_32_70_73; // "hp2ps"
const ROUND_TRIP_SERIES: u64 = 0x2d_70;
/// Every how many-th case the ghostscript test renders.
const GS_SAMPLE_EVERY: usize = 20;

fn golden_label(name: &str, run: &Run) -> String {
    format!("{name}: {}", run.describe())
}

#[test]
fn differential_golden_inputs_all_flag_sets() {
    if !tools::require_reference() {
        return;
    }
    let progs = Programs::new();
    let inputs = support::golden_inputs();
    let mut cases = Vec::new();
    for (name, input) in &inputs {
        for flags in GOLDEN_FLAG_SETS {
            cases.push((name, input, Run::file(flags)));
        }
        for flags in GOLDEN_FILTER_FLAG_SETS {
            cases.push((name, input, Run::filter(flags)));
        }
    }
    let verdicts = compare::par_map(&cases, |(_, input, run)| {
        compare::single(&progs, input, None, run)
    });
    let mut tally = Tally::new("golden");
    for ((name, input, run), verdict) in cases.iter().zip(verdicts) {
        tally.record(&golden_label(name, run), input, verdict);
    }
    // Most golden inputs render; a few exist to exercise the skip paths.
    let min = cases.len() * 8 / 10;
    tally.finish(min);
}

/// The random cases of this run: `HP2PS_DIFF_SEED` selects one seed,
/// `HP2PS_DIFF_CASES` the count.
fn random_cases() -> Vec<RandomCase> {
    if let Ok(seed) = std::env::var("HP2PS_DIFF_SEED") {
        let seed = seed.trim();
        let parsed = match seed.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => seed.parse(),
        };
        return vec![gen::random_case(
            parsed.expect("HP2PS_DIFF_SEED must be a number"),
        )];
    }
    let count = std::env::var("HP2PS_DIFF_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_RANDOM_CASES);
    (0..count)
        .map(|i| gen::random_case(gen::case_seed(RANDOM_SERIES, i)))
        .collect()
}

fn run_random_case(progs: &Programs, case: &RandomCase) -> Verdict {
    match &case.first {
        Some(first) => compare::round_trip(progs, &case.input, first, &case.run),
        None => compare::single(progs, &case.input, None, &case.run),
    }
}

#[test]
fn differential_random_profiles() {
    if !tools::require_reference() {
        return;
    }
    let progs = Programs::new();
    let cases = random_cases();
    let verdicts = compare::par_map(&cases, |case| run_random_case(&progs, case));
    let mut tally = Tally::new("random");
    for (case, verdict) in cases.iter().zip(verdicts) {
        tally.record(&case.label(), &case.input, verdict);
    }
    // About a quarter of the random command lines or inputs are not
    // comparable by design (usage errors, -p where hp2ps cannot read its own
    // aux back, ...); far fewer comparable cases means a broken generator.
    let min = cases.len() * 6 / 10;
    tally.finish(min);
}

/// One `-p` round trip: `first` runs on `aux_source` and writes `t.aux`;
/// `second` renders `input` reading it.
struct RoundTrip<'a> {
    label: String,
    aux_source: &'a [u8],
    input: &'a [u8],
    first: Run,
    second: Run,
}

#[test]
fn differential_previous_parameters_round_trips() {
    if !tools::require_reference() {
        return;
    }
    let progs = Programs::new();
    let inputs = support::golden_inputs();
    let mut cases: Vec<RoundTrip> = Vec::new();
    for (name, input) in &inputs {
        for (first, second) in ROUND_TRIPS {
            let (first, second) = (Run::file(first), Run::file(second));
            cases.push(RoundTrip {
                label: format!("{name}: {} then {}", first.describe(), second.describe()),
                aux_source: input,
                input,
                first,
                second,
            });
        }
    }
    // The presentation use of -p: the aux of one profile reused for the next.
    for pair in inputs.windows(2) {
        let ((a_name, a), (b_name, b)) = (&pair[0], &pair[1]);
        cases.push(RoundTrip {
            label: format!("aux of {a_name} reused for {b_name}: hp2ps -p t.hp"),
            aux_source: a,
            input: b,
            first: Run::file::<&str>(&[]),
            second: Run::file(&["-p"]),
        });
    }
    let golden_count = cases.len();
    let random: Vec<RandomCase> = (0..RANDOM_ROUND_TRIPS)
        .map(|i| gen::random_case(gen::case_seed(ROUND_TRIP_SERIES, i)))
        .collect();
    let mut flag_rng = support::rng::Rng::new(ROUND_TRIP_SERIES);
    for case in &random {
        let first = Run::file(&gen::random_flags(&mut flag_rng, false));
        let mut flags = gen::random_flags(&mut flag_rng, false);
        let at = flag_rng.below(flags.len() as u64 + 1) as usize;
        flags.insert(at, "-p".into());
        let second = Run::file(&flags);
        cases.push(RoundTrip {
            label: format!(
                "seed={:#018x} (profile): {} then {}",
                case.seed,
                first.describe(),
                second.describe()
            ),
            aux_source: &case.input,
            input: &case.input,
            first,
            second,
        });
    }
    let verdicts = compare::par_map(&cases, |c| {
        compare::round_trip_between(&progs, c.aux_source, c.input, &c.first, &c.second)
    });
    let mut tally = Tally::new("round-trips");
    for (case, verdict) in cases.iter().zip(verdicts) {
        tally.record(&case.label, case.input, verdict);
    }
    tally.finish(golden_count * 7 / 10);
}

#[test]
fn differential_flag_spellings() {
    if !tools::require_reference() {
        return;
    }
    let progs = Programs::new();
    let inputs = support::golden_inputs();
    let mut cases: Vec<(String, &[u8], Run)> = Vec::new();
    for wanted in SPELLING_INPUTS {
        let (name, input) = inputs
            .iter()
            .find(|(n, _)| n == wanted)
            .unwrap_or_else(|| panic!("golden input {wanted} is missing"));
        for flags in SPELLINGS {
            for run in [Run::file(flags), Run::filter(flags)] {
                cases.push((golden_label(name, &run), input, run));
            }
        }
        for args in FILE_ARG_SPELLINGS {
            let run = Run::raw(args);
            cases.push((golden_label(name, &run), input, run));
        }
    }
    let verdicts = compare::par_map(&cases, |(_, input, run)| {
        if run.stdin {
            // Filter mode never reads or writes an aux file: an unreadable
            // one lying in the directory must not matter (nor change).
            compare::single(&progs, input, Some(UNREADABLE_AUX), run)
        } else if support::scan::has_previous_flag(&run.args) {
            compare::round_trip(&progs, input, &Run::file::<&str>(&[]), run)
        } else {
            compare::single(&progs, input, None, run)
        }
    });
    let mut tally = Tally::new("flag-spellings");
    for ((label, input, _), verdict) in cases.iter().zip(verdicts) {
        tally.record(label, input, verdict);
    }
    // Each invalid spelling must be recognised as an hp2ps usage error, and
    // the documented deliberate differences must be skipped, not compared.
    assert!(tally.skipped_for("hp2ps usage") >= 12 * SPELLING_INPUTS.len() * 2);
    assert!(tally.skipped_for("arguments after the file name") >= 2 * SPELLING_INPUTS.len());
    assert!(tally.skipped_for("-e width nan/inf") >= 2 * SPELLING_INPUTS.len() * 2);
    tally.finish(cases.len() / 2);
}

/// A case for the ghostscript check: our binary alone, one run.
struct GsCase {
    label: String,
    input: Vec<u8>,
    run: Run,
}

/// Every 20th golden case and every 20th single-run random case.
fn gs_cases() -> Vec<GsCase> {
    let mut all = Vec::new();
    for (name, input) in support::golden_inputs() {
        for flags in GOLDEN_FLAG_SETS {
            let run = Run::file(flags);
            all.push(GsCase {
                label: golden_label(&name, &run),
                input: input.clone(),
                run,
            });
        }
        for flags in GOLDEN_FILTER_FLAG_SETS {
            let run = Run::filter(flags);
            all.push(GsCase {
                label: golden_label(&name, &run),
                input: input.clone(),
                run,
            });
        }
    }
    let golden: Vec<GsCase> = all.into_iter().step_by(GS_SAMPLE_EVERY).collect();
    let random = (0..DEFAULT_RANDOM_CASES)
        .map(|i| gen::random_case(gen::case_seed(RANDOM_SERIES, i)))
        .filter(|case| case.first.is_none())
        .step_by(GS_SAMPLE_EVERY)
        .map(|case| GsCase {
            label: case.label(),
            input: case.input,
            run: case.run,
        });
    golden.into_iter().chain(random).collect()
}

#[test]
fn ghostscript_accepts_our_postscript() {
    if !tools::require_ghostscript() {
        return;
    }
    let ours = tools::under_test();
    let cases = gs_cases();
    let results = compare::par_map(&cases, |case| {
        let outcome = runner::run_program(&ours, &case.input, None, &case.run, OURS_TIMEOUT);
        match (outcome.exit, outcome.postscript(&case.run)) {
            (Exit::Code(0), Some(ps)) if !ps.is_empty() => Some(tools::ghostscript_accepts(ps)),
            _ => None, // not rendered (e.g. an option our tool rejects)
        }
    });
    let mut checked = 0;
    let mut failures = Vec::new();
    for (case, result) in cases.iter().zip(results) {
        match result {
            Some(Ok(())) => checked += 1,
            Some(Err(e)) => failures.push(format!("- {}\n    {e}", case.label)),
            None => {}
        }
    }
    let summary = format!(
        "ghostscript: {} cases, {checked} accepted, {} rejected, {} not rendered by ours",
        cases.len(),
        failures.len(),
        cases.len() - checked - failures.len()
    );
    eprintln!("{summary}");
    assert!(failures.is_empty(), "{summary}\n{}", failures.join("\n"));
    assert!(
        checked >= cases.len() / 2,
        "{summary}: too few of our outputs could be checked"
    );
}
