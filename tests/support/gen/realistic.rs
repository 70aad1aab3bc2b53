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

use std::collections::HashSet;
use std::io::{self, Write};

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

// ---------------------------------------------------------------------------
// Names

const LIB_MODULES: &[&str] = &[
    "Data.Map.Internal",
    "Data.Map.Strict.Internal",
    "Data.IntMap.Internal",
    "Data.Set.Internal",
    "Data.Sequence.Internal",
    "Data.Text.Internal",
    "Data.Text.Lazy",
    "Data.ByteString.Internal",
    "Data.ByteString.Lazy",
    "Data.HashMap.Internal",
    "Data.Vector.Mutable",
    "Data.Aeson.Types.Internal",
    "Data.OldList",
    "GHC.IO.Handle.Text",
    "GHC.IO.Handle.FD",
    "GHC.IO.Encoding",
    "GHC.IO.Encoding.Iconv",
    "GHC.Conc.Signal",
    "GHC.Base",
    "GHC.List",
    "GHC.Show",
    "GHC.Read",
    "GHC.Real",
    "GHC.Float",
    "GHC.Arr",
    "Control.Monad.State.Strict",
    "Control.Concurrent.MVar",
    "Text.Parsec.Prim",
    "Text.Printf",
    "System.IO",
];

const APP_MODULES: &[&str] = &[
    "Main",
    "Parser",
    "Lexer",
    "Config",
    "Render",
    "Store.Index",
    "Store.Cache",
    "Engine.Step",
    "Engine.Queue",
    "Report",
    "Util",
];

/// Library functions: may appear qualified at the top of a stack.
const LIB_FUNCTIONS: &[&str] = &[
    "insert",
    "insertWith",
    "lookup",
    "delete",
    "union",
    "unionWith",
    "fromList",
    "toList",
    "foldr",
    "foldl'",
    "foldlWithKey",
    "alter",
    "adjust",
    "map",
    "filter",
    "concatMap",
    "mapM_",
    "replicateM",
    "decode",
    "encode",
    "hGetLine",
    "hPutStr",
    "showsPrec",
    "readFile",
    "sortOn",
    "groupBy",
];

/// The program's own functions.
const APP_FUNCTIONS: &[&str] = &[
    "parse",
    "parseLine",
    "parseExpr",
    "tokenize",
    "lexToken",
    "render",
    "renderRow",
    "step",
    "simulate",
    "buildIndex",
    "mergeRuns",
    "readConfig",
    "loop",
    "worker",
    "process",
    "compute",
    "normalise",
    "emit",
    "flush",
    "update",
    "collect",
    "scan",
    "accumulate",
    "runRound",
    "cycleOnce",
    "queueSim",
    "lazyBuild",
];

/// Haskell allows Unicode identifiers; GHC writes them as UTF-8 and cuts
/// stacks by bytes, so a cut may even split a character (as GHC does).
const UNICODE_FUNCTIONS: &[&str] = &[
    "größeBerechnen",
    "tamaño",
    "データ処理",
    "λάμβδα",
    "ñandú",
    "café",
    "naïveSum",
    "π",
    "résumé",
    "ölçüm",
    "数据流",
    "überprüfen",
    "задача",
    "cœur",
];

/// Local bindings as GHC names them in stacks (`f.go`, `f.\` for lambdas).
const LOCAL_SUFFIXES: &[&str] = &[".go", ".\\", ".loop", ".xs", ".acc", ".step", "'", ".go.\\"];

/// What `-hy`/`-hT` show: types and RTS closure types.
const TYPES: &[&str] = &[
    "[]",
    "(,)",
    "(,,)",
    "ARR_WORDS",
    "Int",
    "Integer",
    "Char",
    "Double",
    "Text",
    "ByteString",
    "Map",
    "IntMap",
    "Set",
    "Seq",
    "HashMap",
    "Vector",
    "MVar",
    "IORef",
    "MUT_VAR_CLEAN",
    "MUT_VAR_DIRTY",
    "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY",
    "BLACKHOLE",
    "TSO",
    "STACK",
    "WEAK",
    "Maybe",
    "Either",
    "->IO",
    "->[]",
    "->>Bool",
    "Handle__",
    "Buffer",
    "*",
    "(#,#)",
];

const CONSTRUCTORS: &[&str] = &[
    "Bin",
    "Tip",
    "Nil",
    "Deep",
    "Node3",
    "Four",
    "Text",
    "BS",
    "Chunk",
    ":",
    "I#",
    "C#",
    "D#",
    "Just",
    "Left",
    "Right",
    "Leaf",
    "Collision",
];

/// A cost-centre stack, innermost label first, printed like GHC's
/// `fprint_ccs`: `(ccid)top/…/bottom`, cut to `limit` bytes.
fn ccs_name(rng: &mut Rng, ccid: u64, limit: usize) -> Vec<u8> {
    let mut labels: Vec<String> = Vec::new();
    if rng.chance(0.12) {
        // A library CAF on its own, e.g. `(243)GHC.IO.Handle.Text.CAF`.
        labels.push(format!("{}.CAF", rng.pick(LIB_MODULES)));
    } else {
        let depth = 1 + rng.below(8);
        for d in 0..depth {
            let label = if d == 0 && rng.chance(0.3) {
                // Library code at the top of the stack, qualified
                // (`Data.Map.Internal.insert`), as with explicit SCCs.
                format!("{}.{}", rng.pick(LIB_MODULES), rng.pick(LIB_FUNCTIONS))
            } else {
                let mut label = if rng.chance(0.04) {
                    rng.pick(UNICODE_FUNCTIONS).to_string()
                } else if rng.chance(0.6) {
                    rng.pick(APP_FUNCTIONS).to_string()
                } else {
                    rng.pick(LIB_FUNCTIONS).to_string()
                };
                if rng.chance(0.3) {
                    label.push_str(rng.pick(LOCAL_SUFFIXES));
                }
                label
            };
            labels.push(label);
        }
        // GHC stacks end at `main`, at a CAF, or at `main` under Main.CAF.
        match rng.below(3) {
            0 => labels.push("main".into()),
            1 => labels.push(format!("{}.CAF", rng.pick(APP_MODULES))),
            _ => {
                labels.push("main".into());
                labels.push("Main.CAF".into());
            }
        }
    }
    let stack = labels.join("/").into_bytes();
    let mut name = format!("({ccid})").into_bytes();
    // GHC: a buffer of limit+1 bytes; on overflow the text from byte
    // limit-4 on is replaced by "...". Byte-wise, like GHC.
    if stack.len() > limit {
        name.extend_from_slice(&stack[..limit - 4]);
        name.extend_from_slice(b"...");
    } else {
        name.extend_from_slice(&stack);
    }
    name
}

/// A closure description as in `-hd`: `<Data.Map.Internal.Bin>`,
/// `<Main.sat_s2Dq>`. Never cut (GHC only cuts stacks).
fn closure_name(rng: &mut Rng) -> Vec<u8> {
    let library = rng.chance(0.6);
    let module = rng.pick(if library { LIB_MODULES } else { APP_MODULES });
    let binder = match rng.below(3) {
        0 => rng.pick(CONSTRUCTORS).to_string(),
        1 => format!("sat_s{}", unique_suffix(rng)),
        _ => {
            let f = if library {
                rng.pick(LIB_FUNCTIONS)
            } else if rng.chance(0.05) {
                rng.pick(UNICODE_FUNCTIONS)
            } else {
                rng.pick(APP_FUNCTIONS)
            };
            format!("{f}_s{}", unique_suffix(rng))
        }
    };
    format!("<{module}.{binder}>").into_bytes()
}

/// GHC's unique suffixes look like `sDEH`, `s2Dq`: a few base-62 digits.
fn unique_suffix(rng: &mut Rng) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..3 + rng.below(2))
        .map(|_| DIGITS[rng.below(DIGITS.len())] as char)
        .collect()
}

// ---------------------------------------------------------------------------
// Bands

#[derive(Clone, Copy)]
enum Shape {
    /// CAF-like: the same value every sample, no noise.
    Constant,
    /// A leak: grows linearly over the band's lifetime.
    Leak,
    /// Build-up and collection: ramps, drops to `floor`, ramps again.
    Sawtooth { cycles: f64, phase: f64, floor: f64 },
    /// Mostly absent, with a few short bursts.
    Burst { bumps: [(f64, f64); 4], n: usize },
    /// Large at first, then decays away (and disappears when it rounds to 0).
    Decay { rate: f64 },
    /// Oscillates around a mean.
    Wave { cycles: f64, phase: f64 },
}

struct Band {
    /// The identifier followed by a TAB, ready to copy into the output.
    prefix: Vec<u8>,
    shape: Shape,
    /// Peak size in bytes.
    amp: f64,
    /// Lifetime as fractions of the run; outside it the band is absent.
    start: f64,
    end: f64,
    /// Chance of being absent from a sample inside its lifetime (small
    /// bands flicker in and out of GHC's censuses).
    flicker: f64,
    /// Relative multiplicative noise.
    noise: f64,
    /// Values are multiples of this (heap objects are whole words).
    quantum: f64,
}

impl Band {
    /// The value at run fraction `t`, or 0 when absent. Draws from `rng`
    /// only while alive, keeping a sample a pure function of its seed.
    #[inline]
    fn value(&self, t: f64, rng: &mut Rng) -> u64 {
        if t < self.start || t >= self.end {
            return 0;
        }
        let r = rng.next_u64();
        // Two uniform numbers from one draw: cheap, and plenty of precision.
        let u1 = (r >> 40) as f64 * (1.0 / (1u64 << 24) as f64);
        let u2 = (r & 0xff_ffff) as f64 * (1.0 / (1u64 << 24) as f64);
        if u1 < self.flicker {
            return 0;
        }
        // Position inside the band's lifetime (may exceed 1 when a --size
        // run goes past its estimated length; all shapes extend smoothly).
        let u = (t - self.start) / (self.end.min(1.0) - self.start).max(1e-9);
        let level = match self.shape {
            Shape::Constant => 1.0,
            Shape::Leak => 0.03 + 0.97 * u,
            Shape::Sawtooth {
                cycles,
                phase,
                floor,
            } => {
                let x = u * cycles + phase;
                floor + (1.0 - floor) * (x - x.floor())
            }
            Shape::Burst { bumps, n } => {
                let mut m: f64 = 0.0;
                for &(c, w) in &bumps[..n] {
                    let d = (u - c) / w;
                    if d.abs() < 3.0 {
                        m = m.max((-d * d).exp());
                    }
                }
                if m < 0.02 {
                    return 0;
                }
                m
            }
            Shape::Decay { rate } => {
                let v = (-rate * u).exp();
                if v < 0.005 {
                    return 0;
                }
                v
            }
            Shape::Wave { cycles, phase } => {
                0.55 + 0.45 * (std::f64::consts::TAU * (u * cycles + phase)).sin()
            }
        };
        let v = self.amp * level * (1.0 + self.noise * (2.0 * u2 - 1.0));
        ((v / self.quantum).round() * self.quantum).max(0.0) as u64
    }
}

fn make_bands(n: usize, seed: u64, name_limit: usize) -> Vec<Band> {
    // A separate stream from the per-sample ones.
    let mut rng = Rng::new(mix(seed ^ 0x05ee_d0fb_a4d5));
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut types: Vec<&str> = TYPES.to_vec();
    // Cost-centre ids increase with small gaps, starting where a real
    // program's would (the RTS and base libraries use the first hundred).
    let mut ccid: u64 = 1100 + rng.below(600) as u64;
    // Magnitude ranks in random order, so that size is unrelated to name.
    let mut ranks: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        ranks.swap(i, rng.below(i + 1));
    }
    let mut bands = Vec::with_capacity(n);
    for (i, &rank) in ranks.iter().enumerate() {
        let name = loop {
            let name = if i == 0 {
                b"MAIN".to_vec()
            } else if i == 1 {
                ccid += 1;
                format!("({ccid})PINNED").into_bytes()
            } else {
                match rng.below(100) {
                    0..=11 => closure_name(&mut rng),
                    12..=17 if !types.is_empty() => types
                        .swap_remove(rng.below(types.len()))
                        .as_bytes()
                        .to_vec(),
                    _ => {
                        ccid += 1 + rng.below(12) as u64;
                        ccs_name(&mut rng, ccid, name_limit)
                    }
                }
            };
            if seen.insert(name.clone()) {
                break name;
            }
        };
        let mut prefix = name;
        prefix.push(b'\t');

        // A few big bands and a long tail of small ones: log10(peak) runs
        // from ~8 (100 MB) for rank 0 down to ~1.3 (20 bytes).
        let r = rank as f64 / n.max(1) as f64;
        let amp = 10f64.powf(2.7 + 5.6 * (1.0 - r).powi(2) + rng.range(-0.3, 0.3));

        let shape = match rng.below(100) {
            0..=17 => Shape::Constant,
            18..=35 => Shape::Leak,
            36..=53 => Shape::Sawtooth {
                cycles: rng.range(2.0, 40.0),
                phase: rng.f64(),
                floor: rng.range(0.05, 0.5),
            },
            54..=67 => {
                let mut bumps = [(0.0, 0.0); 4];
                for b in bumps.iter_mut() {
                    *b = (rng.f64(), rng.range(0.01, 0.08));
                }
                Shape::Burst {
                    bumps,
                    n: 1 + rng.below(4),
                }
            }
            68..=81 => Shape::Decay {
                rate: rng.range(1.0, 8.0),
            },
            _ => Shape::Wave {
                cycles: rng.range(0.5, 12.0),
                phase: rng.f64(),
            },
        };
        let (start, end) = match rng.below(100) {
            // Present from (nearly) the start to the end.
            0..=49 => (rng.range(0.0, 0.02), f64::INFINITY),
            // Appears late.
            50..=69 => (rng.range(0.1, 0.8), f64::INFINITY),
            // Disappears early.
            70..=85 => (0.0, rng.range(0.1, 0.9)),
            // Lives only in the middle.
            _ => {
                let s = rng.range(0.0, 0.8);
                (s, s + rng.range(0.05, 0.5))
            }
        };
        let constant = matches!(shape, Shape::Constant);
        bands.push(Band {
            prefix,
            shape,
            amp,
            start,
            end,
            // Only small bands flicker: a big structure does not vanish
            // between two censuses.
            flicker: if !constant && r > 0.3 && rng.chance(0.8) {
                rng.range(0.2, 0.9)
            } else {
                0.0
            },
            noise: if constant { 0.0 } else { rng.range(0.0, 0.15) },
            quantum: 8.0 * [1.0, 1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0][rng.below(8)],
        });
    }
    bands
}

// ---------------------------------------------------------------------------
// Output

/// Appends the decimal digits of `v` without going through `fmt`.
#[inline]
fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a time given in microseconds as C's `%f` would print it.
fn push_time(out: &mut Vec<u8>, us: u64) {
    push_u64(out, us / 1_000_000);
    out.push(b'.');
    let frac = us % 1_000_000;
    let mut div = 100_000;
    while div > 0 {
        out.push(b'0' + (frac / div % 10) as u8);
        div /= 10;
    }
}

struct Generator<'a> {
    opts: &'a Options,
    bands: Vec<Band>,
    /// Reused between samples to avoid allocation in the hot loop.
    live: Vec<(u32, u64)>,
}

impl Generator<'_> {
    /// Time of sample `i`: GHC's first (empty) sample is at exactly 0, later
    /// ones drift around i·interval by up to ±20 % (never out of order).
    fn time_us(&self, i: u64) -> u64 {
        if i == 0 {
            return 0;
        }
        let iv = self.opts.interval_us;
        let jitter = mix(self.opts.seed ^ mix(i ^ 0x7173)) % (2 * (iv / 5) + 1);
        i * iv + jitter - iv / 5
    }

    /// Appends the data lines of a sample at run fraction `t`; `key`
    /// selects its random stream.
    fn data_lines(&mut self, t: f64, key: u64, out: &mut Vec<u8>) {
        let mut rng = Rng::new(mix(
            self.opts.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ mix(key)
        ));
        self.live.clear();
        for (b, band) in self.bands.iter().enumerate() {
            let v = band.value(t, &mut rng);
            if v != 0 {
                self.live.push((b as u32, v));
            }
        }
        // GHC writes a census in hash-table order, which changes as the
        // table changes; a per-sample shuffle stands in for that.
        for i in (1..self.live.len()).rev() {
            self.live.swap(i, rng.below(i + 1));
        }
        for &(b, v) in &self.live {
            out.extend_from_slice(&self.bands[b as usize].prefix);
            push_u64(out, v);
            out.push(b'\n');
        }
    }

    /// Average bytes of a sample's data lines over the run, from evenly
    /// spaced probes (with their own random streams).
    fn mean_data_bytes(&mut self) -> f64 {
        const PROBES: u64 = 4096;
        let mut scratch = Vec::new();
        let mut total = 0usize;
        for k in 0..PROBES {
            scratch.clear();
            self.data_lines((k as f64 + 0.5) / PROBES as f64, !k, &mut scratch);
            total += scratch.len();
        }
        total as f64 / PROBES as f64
    }
}

/// The profile written for the command-line arguments `args`, in memory: how the tests
/// and benchmarks make their inputs.
///
/// # Panics
///
/// If `args` are not the generator's.
#[allow(dead_code)] // not used by the example
pub fn generated<S: AsRef<str>>(args: &[S]) -> Vec<u8> {
    let args: Vec<String> = args.iter().map(|s| s.as_ref().to_string()).collect();
    let opts = parse_args(&args)
        .expect("generator arguments")
        .expect("not --help");
    let mut text = Vec::new();
    generate(&opts, &mut text).expect("generate");
    text
}

pub fn generate(opts: &Options, out: &mut impl Write) -> io::Result<()> {
    let mut g = Generator {
        opts,
        bands: make_bands(opts.bands, opts.seed, opts.name_limit),
        live: Vec::new(),
    };

    let mut job = String::from("gen_profile");
    match opts.samples {
        Some(n) => job.push_str(&format!(" --samples {n}")),
        None => job.push_str(&format!(" --size {}", opts.size_text)),
    }
    job.push_str(&format!(
        " --bands {} --seed {} --interval {} --marks {} --name-limit {} +RTS -hc -L{} -i{}",
        opts.bands,
        opts.seed,
        opts.interval_text,
        opts.marks,
        opts.name_limit,
        opts.name_limit,
        opts.interval_text
    ));
    let header = format!(
        "JOB \"{job}\"\nDATE \"Sat Nov 21 05:19 2026\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    );
    out.write_all(header.as_bytes())?;
    let mut written = header.len() as u64;

    // How many samples the run is planned for: shapes are laid out over
    // this many. With --size it is an estimate and the loop below stops on
    // the byte count instead.
    let planned = match opts.samples {
        Some(n) => n,
        None => {
            let data = g.mean_data_bytes();
            // BEGIN_SAMPLE/END_SAMPLE lines: 13 + 11 bytes of keyword and
            // space, twice the time text, two newlines.
            let time_len = |n: u64| {
                let secs = n * opts.interval_us / 1_000_000;
                let mut digits = 1;
                let mut s = secs;
                while s >= 10 {
                    digits += 1;
                    s /= 10;
                }
                (digits + 7) as f64
            };
            let body = opts.size.saturating_sub(written) as f64;
            let mut n = (body / (data + 26.0 + 2.0 * time_len(1))).max(1.0);
            // Times get longer as the run goes on; one refinement with the
            // average time length is enough.
            let avg_time = (time_len(1) + time_len(n as u64)) / 2.0;
            n = (body / (data + 26.0 + 2.0 * avg_time)).max(1.0);
            n.round() as u64
        }
    };

    let mut next_mark = 1u64;
    let mut sample = Vec::with_capacity(1 << 16);
    let mut i = 0u64;
    loop {
        let done = match opts.samples {
            Some(n) => i >= n,
            None => written >= opts.size,
        };
        if done {
            break;
        }
        sample.clear();
        let us = g.time_us(i);
        sample.extend_from_slice(b"BEGIN_SAMPLE ");
        push_time(&mut sample, us);
        sample.push(b'\n');
        if i > 0 {
            g.data_lines(i as f64 / planned as f64, i, &mut sample);
        }
        sample.extend_from_slice(b"END_SAMPLE ");
        push_time(&mut sample, us);
        sample.push(b'\n');
        // Marks go between samples (hp2ps rejects them inside one), at the
        // midpoint to the next sample, evenly spread over the planned run.
        if next_mark <= opts.marks && i + 1 >= next_mark * planned / (opts.marks + 1) {
            sample.extend_from_slice(b"MARK ");
            push_time(&mut sample, us + opts.interval_us / 2);
            sample.push(b'\n');
            next_mark += 1;
        }
        out.write_all(&sample)?;
        written += sample.len() as u64;
        i += 1;
    }
    Ok(())
}
