//! Command line of the profile generator: writes a deterministic, realistic GHC heap
//! profile (`.hp`) to stdout. The generator itself is `tests/support/gen/realistic/`,
//! shared with the tests and `benches/pipeline.rs`; this file only adds `main`.
//!
//! ```text
//! cargo run --release --example gen_profile -- --size 100M --bands 200 > big.hp
//! cargo run --release --example gen_profile -- --bands 2000 --samples 5000 > wide.hp
//! ```
//!
//! It needs only `std`: `scripts/compare-hp2ps.sh` builds it with plain `rustc`.

use std::io::{self, Write};
use std::process::ExitCode;

#[path = "../tests/support/gen/realistic/mod.rs"]
mod realistic;

use realistic::{generate, parse_args};

const USAGE: &str = "\
gen_profile: write a deterministic, realistic GHC heap profile (.hp) to stdout

usage: gen_profile [options] > big.hp

options:
  --size SIZE        target file size in bytes; suffixes K, M, G (powers of 1000)
                     or Ki, Mi, Gi (powers of 1024); default 100M. The sample
                     count is estimated from the average sample size and
                     generation stops after the first sample that reaches SIZE,
                     so the file is at most one sample larger than SIZE.
  --samples N        generate exactly N samples (including GHC's empty first
                     sample at time 0); overrides --size
  --bands N          number of distinct identifiers (bands); default 200
  --seed N           random seed; default 1
  --interval SECS    sampling interval; default 0.01
  --marks K          write K MARK lines spread evenly between samples; default 0
  --name-limit L     GHC's -L: cost-centre stacks longer than L bytes are cut to
                     L-4 bytes plus \"...\" (GHC's rule); minimum 4; default 39
                     (GHC's default is 25; 39 gives the ~42-byte average line
                     of the reference profiles below)
  -h, --help         print this help

Reference shapes (seed 1): --size 400M gives 88,988 samples and 9.7 M lines
(100M: 22,251 samples, 2.4 M lines; 10M: 2,227 samples, 242 k lines);
--bands 2000 --samples 5000 gives 4.8 M lines, 211 MB.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("gen_profile: {msg}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    // A large buffer: the hot loop hands over one sample (a few KB) at a time.
    let mut out = io::BufWriter::with_capacity(4 << 20, stdout.lock());
    match generate(&opts, &mut out).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // `gen_profile | head` is a legitimate use: stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_profile: write error: {e}");
            ExitCode::FAILURE
        }
    }
}
