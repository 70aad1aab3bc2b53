//! Deterministic generator of large, realistic GHC time profiles (`.prof` reports as
//! `+RTS -p` or `-P` writes them, in GHC 9's layout): a tree of cost-centre stacks
//! (`--stacks`, default a million, about 100 MB without `--counts`), a few thousand
//! cost centres in a few dozen modules, the numbers consistent (a stack's inherited
//! numbers are its own and its children's, shares of the header's totals), the columns
//! padded as GHC pads them.
//!
//! Same arguments, same bytes (a seeded SplitMix64). It needs `std` only:
//! `examples/gen_prof.rs` (its command line), `benches/calltree.rs` and the tests include
//! this file with `#[path]`.
//!
//! ```text
//! cargo run --release --example gen_prof -- --stacks 1000000 > big.prof
//! ```

use std::io::{self, Write};

/// The generator's options.
#[derive(Debug, Clone)]
pub struct Options {
    /// The number of stacks (rows of the tree).
    pub stacks: usize,
    /// The number of distinct cost centres.
    pub cost_centres: usize,
    /// The deepest stack.
    pub max_depth: usize,
    /// Whether the `ticks` and `bytes` columns are written (`-P`).
    pub counts: bool,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            stacks: 1_000_000,
            cost_centres: 4000,
            max_depth: 14,
            counts: false,
            seed: 1,
        }
    }
}

/// The usage of `examples/gen_prof.rs`.
pub const USAGE: &str = "\
gen_prof: write a deterministic, realistic GHC time profile (.prof) to stdout

usage: gen_prof [options] > big.prof

options:
  --stacks N         rows of the cost-centre tree; default 1000000 (about 100 MB)
  --cost-centres N   distinct cost centres; default 4000
  --max-depth N      the deepest stack; default 14
  --counts           the ticks and bytes columns (+RTS -P); about 20 % larger
  --seed N           random seed; default 1
  -h, --help         print this help";

/// The options of a command line; `Ok(None)` for `--help`.
pub fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a number"))?;
            v.parse().map_err(|_| format!("{name}: not a number: {v}"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--stacks" => o.stacks = number("--stacks")? as usize,
            "--cost-centres" => o.cost_centres = (number("--cost-centres")? as usize).max(1),
            "--max-depth" => o.max_depth = (number("--max-depth")? as usize).max(1),
            "--seed" => o.seed = number("--seed")?,
            "--counts" => o.counts = true,
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(Some(o))
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A cost centre: label, module, source location.
struct CostCentre {
    label: String,
    module: String,
    src: String,
}

const WORDS: [&str; 16] = [
    "go", "loop", "step", "parse", "render", "fold", "insert", "lookup", "merge", "split",
    "encode", "decode", "walk", "scan", "emit", "check",
];

fn cost_centres(o: &Options, rng: &mut Rng) -> Vec<CostCentre> {
    let modules: Vec<String> = (0..48).map(|m| format!("Lib.M{m}")).collect();
    let mut ccs = vec![
        CostCentre {
            label: "MAIN".into(),
            module: "MAIN".into(),
            src: "<built-in>".into(),
        },
        CostCentre {
            label: "CAF".into(),
            module: "Main".into(),
            src: "<entire-module>".into(),
        },
    ];
    for i in ccs.len()..o.cost_centres.max(3) {
        let w = WORDS[rng.below(WORDS.len() as u64) as usize];
        let m = &modules[rng.below(modules.len() as u64) as usize];
        let line = 1 + rng.below(900);
        ccs.push(CostCentre {
            label: format!("{w}{}", i % 1000),
            module: m.clone(),
            src: format!("src/M.hs:{line}:{}-{}", 1 + line % 9, 10 + line % 80),
        });
    }
    ccs
}

/// One stack: its cost centre and depth, its own ticks, bytes and entries.
struct Node {
    cc: u32,
    depth: u16,
    ticks: u64,
    bytes: u64,
    entries: u64,
}

fn tree(o: &Options, ccs: usize, rng: &mut Rng) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(o.stacks);
    let mut depth = 0usize;
    for i in 0..o.stacks {
        let cc = match i {
            0 => 0,
            _ => 2 + rng.below(ccs as u64 - 2) as u32,
        };
        // A few stacks take most of the time (a skewed draw).
        let r = rng.next();
        let ticks = if r % 100 < 3 {
            (r >> 8) % 5000
        } else {
            (r >> 8) % 3
        };
        let bytes = ticks * 1000 + (r >> 24) % 100_000;
        nodes.push(Node {
            cc,
            depth: depth as u16,
            ticks,
            bytes,
            entries: (r >> 40) % 100_000,
        });
        // The next stack: a child, a sibling, or back up some levels.
        depth = match rng.below(10) {
            0..=4 if depth < o.max_depth => depth + 1,
            5..=7 => depth.max(1),
            _ => 1 + rng.below(depth.max(1) as u64) as usize,
        };
    }
    nodes
}

/// Writes the profile.
pub fn generate<W: Write>(o: &Options, out: &mut W) -> io::Result<()> {
    let mut rng = Rng(o.seed);
    let ccs = cost_centres(o, &mut rng);
    let nodes = tree(o, ccs.len(), &mut rng);
    // Inherited counts: each stack's and its descendants' (the stacks are in pre-order).
    let mut inherited: Vec<(u64, u64)> = nodes.iter().map(|n| (n.ticks, n.bytes)).collect();
    let mut open: Vec<usize> = Vec::new();
    let mut parents = vec![usize::MAX; nodes.len()];
    for i in 0..nodes.len() {
        while open
            .last()
            .is_some_and(|&p| nodes[p].depth >= nodes[i].depth)
        {
            open.pop();
        }
        if let Some(&p) = open.last() {
            parents[i] = p;
        }
        open.push(i);
    }
    for i in (1..nodes.len()).rev() {
        if parents[i] != usize::MAX {
            let (t, b) = inherited[i];
            inherited[parents[i]].0 += t;
            inherited[parents[i]].1 += b;
        }
    }
    let (ticks, bytes) = inherited.first().copied().unwrap_or((0, 0));
    let pct = |v: u64, total: u64| {
        if total == 0 {
            0.0
        } else {
            100.0 * v as f64 / total as f64
        }
    };
    let label_w = (nodes.iter())
        .map(|n| n.depth as usize + ccs[n.cc as usize].label.len())
        .max()
        .unwrap_or(11)
        .max(11);
    let module_w = ccs.iter().map(|c| c.module.len()).max().unwrap_or(6);
    let src_w = ccs.iter().map(|c| c.src.len()).max().unwrap_or(3);
    writeln!(
        out,
        "\tSat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)\n"
    )?;
    writeln!(
        out,
        "\t   generated +RTS {} -RTS --stacks {}\n",
        if o.counts { "-P" } else { "-p" },
        o.stacks
    )?;
    writeln!(
        out,
        "\ttotal time  = {:>12.2} secs   ({ticks} ticks @ 1000 us, 1 processor)",
        ticks as f64 / 1000.0
    )?;
    writeln!(
        out,
        "\ttotal alloc = {} bytes  (excludes profiling overheads)\n",
        thousands(bytes)
    )?;
    let counts_head = if o.counts { "  ticks     bytes" } else { "" };
    writeln!(
        out,
        "{:label_w$} {:module_w$} {:src_w$} {:>7} {:>11}  %time %alloc   %time %alloc{counts_head}\n",
        "COST CENTRE", "MODULE", "SRC", "no.", "entries"
    )?;
    let mut line = String::with_capacity(256);
    for (i, n) in nodes.iter().enumerate() {
        let c = &ccs[n.cc as usize];
        let d = n.depth as usize;
        line.clear();
        use std::fmt::Write as _;
        let _ = write!(
            line,
            "{:d$}{:lw$} {:module_w$} {:src_w$} {:>7} {:>11} {:>6.1} {:>6.1}  {:>6.1} {:>6.1}",
            "",
            c.label,
            c.module,
            c.src,
            i + 1,
            n.entries,
            pct(n.ticks, ticks),
            pct(n.bytes, bytes),
            pct(inherited[i].0, ticks),
            pct(inherited[i].1, bytes),
            lw = label_w - d,
        );
        if o.counts {
            let _ = write!(line, " {:>6} {:>9}", n.ticks, n.bytes);
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The profile of `o` in memory.
#[allow(dead_code)]
pub fn generated(o: &Options) -> Vec<u8> {
    let mut v = Vec::new();
    generate(o, &mut v).expect("to memory");
    v
}
