//! Command line of the time profile generator: writes a deterministic, realistic GHC
//! time profile (`.prof` report) to stdout. The generator itself is
//! `tests/support/gen/prof/`, shared with the tests and `benches/calltree.rs`.
//!
//! ```text
//! cargo run --release --example gen_prof -- --stacks 1000000 > big.prof
//! ```
//!
//! It needs only `std`: `scripts/compare-prof.sh` builds it with plain `rustc`.

use std::io::{self, Write};
use std::process::ExitCode;

#[path = "../tests/support/gen/prof/mod.rs"]
mod prof;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match prof::parse_args(&args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{}", prof::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("gen_prof: {msg}\n\n{}", prof::USAGE);
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    match prof::generate(&opts, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_prof: {e}");
            ExitCode::FAILURE
        }
    }
}
