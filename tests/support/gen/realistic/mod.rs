//! Deterministic generator of large, realistic GHC heap profiles (`.hp` files).
//!
//! Used to benchmark `hp2ps` against GHC's own: the output looks like what the
//! GHC RTS writes for `+RTS -hc -L<n> -i<interval>` (cost-centre stacks with
//! `(ccid)` prefixes cut like GHC's `fprint_ccs`), mixed with some closure
//! descriptions and type names so every kind of identifier shows up.
//!
//! Same arguments → same bytes: all randomness comes from a seeded SplitMix64,
//! and sample `i` depends only on the arguments and `i`.
//!
//! The options are the command line of `examples/gen_profile.rs` (which includes this
//! file with `#[path]`, as does `benches/pipeline.rs`; it is `support::gen::realistic`
//! in the tests), so it depends on `std` only:
//!
//! ```text
//! cargo run --release --example gen_profile -- --size 100M --bands 200 > big.hp
//! cargo run --release --example gen_profile -- --bands 2000 --samples 5000 > wide.hp
//! ```

// The parts: the names of cost centres and closures, the bands' shapes, and the
// `.hp` text; all mounted from here (a `#[path]` file's modules are looked up beside it).
mod bands;
mod names;
mod output;

#[allow(unused_imports)]
pub use output::{generate, generated};

/// Parsed command line (`--help` in `examples/gen_profile.rs`). Strings of the original size argument are kept so
/// that the JOB line can echo exactly what was asked for.
pub struct Options {
    size: u64,
    size_text: String,
    samples: Option<u64>,
    bands: usize,
    seed: u64,
    interval_us: u64,
    interval_text: String,
    marks: u64,
    name_limit: usize,
}

pub fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        size: 100_000_000,
        size_text: "100M".to_string(),
        samples: None,
        bands: 200,
        seed: 1,
        interval_us: 10_000,
        interval_text: "0.01".to_string(),
        marks: 0,
        name_limit: 39,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if arg == "-h" || arg == "--help" {
            return Ok(None);
        }
        // Accept both `--key value` and `--key=value`.
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (arg, None),
        };
        let value = match inline {
            Some(v) => v,
            None => {
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("{key} needs a value"))?
            }
        };
        let int = |v: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .map_err(|_| format!("{key}: not a non-negative integer: {v}"))
        };
        match key {
            "--size" => {
                o.size = parse_size(&value)?;
                o.size_text = value;
            }
            "--samples" => o.samples = Some(int(&value)?.max(1)),
            "--bands" => o.bands = int(&value)? as usize,
            "--seed" => o.seed = int(&value)?,
            "--marks" => o.marks = int(&value)?,
            "--name-limit" => {
                o.name_limit = int(&value)? as usize;
                if o.name_limit < 4 {
                    return Err("--name-limit must be at least 4".into());
                }
            }
            "--interval" => {
                let secs: f64 = value
                    .parse()
                    .map_err(|_| format!("--interval: not a number: {value}"))?;
                // Times are kept in integer microseconds so that `%f`
                // formatting is exact and cheap.
                let us = (secs * 1e6).round();
                if !(1.0..1e12).contains(&us) {
                    return Err(format!("--interval out of range: {value}"));
                }
                o.interval_us = us as u64;
                o.interval_text = value;
            }
            _ => return Err(format!("unknown option: {arg}")),
        }
        i += 1;
    }
    Ok(Some(o))
}

/// `100M`, `1.5G`, `64Ki`, `12345`: K/M/G are decimal, Ki/Mi/Gi binary;
/// an optional trailing `B` is ignored.
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, suffix) = t.split_at(split);
    let num: f64 = num.parse().map_err(|_| format!("bad size: {s}"))?;
    let suffix = suffix.to_ascii_lowercase();
    let suffix = suffix.strip_suffix('b').unwrap_or(&suffix);
    let mult: f64 = match suffix {
        "" => 1.0,
        "k" => 1e3,
        "m" => 1e6,
        "g" => 1e9,
        "ki" => 1024.0,
        "mi" => 1024.0 * 1024.0,
        "gi" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("bad size suffix: {s}")),
    };
    Ok((num * mult).round() as u64)
}

// ---------------------------------------------------------------------------
// Randomness

/// SplitMix64: tiny, fast, and good enough for test data. Used both as a
/// stream and as a hash to derive independent per-sample streams.
#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }
    /// Uniform in [0, 1).
    fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }
    /// Uniform in 0..n (n > 0); the modulo bias is irrelevant here.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f64() < p
    }
    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
