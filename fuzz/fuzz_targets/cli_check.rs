//! The `cli` target's body, shared with `tests/fuzz_regressions.rs`: NUL-separated
//! arguments go through the command's own parser (`src/cli/`, `hp2ps::internals::cli`), and
//! every accepted command line runs the library the way `src/run/render.rs` does on a fixed
//! profile: loading it with the command line's window, names, heap-size lines and band
//! filter, the summary, and the chart in its format with its flags (with `-p`, against a
//! fixed `.aux`). Files are never touched: the binary's
//! file handling is tested through the binary in `tests/atomic.rs`, `tests/disk_failures.rs`
//! and `tests/hostile.rs`.

use hp2ps::internals::cli;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;

use hp2ps::summary::Summary;
use hp2ps::{load, prepare, Aux, Format, Source};

use super::{assert_one_line, pslex, EXAMPLE};

const AUX: &[u8] = b"X_RANGE 5.00\nY_RANGE 400.00\nORDER main 1\nORDER elim 2\nSHADE elim 0.90\n";

pub fn check(data: &[u8]) {
    let args: Vec<OsString> = data
        .split(|&b| b == 0)
        .take(32)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect();
    // A usage error echoes its argument as given; src/main.rs escapes control bytes
    // when it prints the message (tests/fuzz_regressions.rs checks the binary's line), so
    // the message itself is one line only when the arguments are.
    let plain = !args.iter().any(|a| {
        a.as_encoded_bytes()
            .iter()
            .any(|&b| b == b'\n' || b == b'\r')
    });
    let command = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => {
            if plain {
                assert_one_line(&e.to_string());
            }
            return;
        }
    };
    let cli::Command::Render(inv) = command else {
        return;
    };
    let loaded = match load(Source::Bytes(EXAMPLE), &inv.load_options()) {
        Ok(loaded) => loaded,
        Err(e) => {
            assert_one_line(&e.to_string());
            return;
        }
    };
    if inv.summary.is_some() {
        let summary = Summary::of(&loaded, None, &inv.summary_options);
        let mut out = Vec::new();
        summary.write_json(&mut out).expect("JSON to memory");
        summary.write_text(&mut out).expect("text to memory");
    }
    let aux = inv.use_aux.then(|| Aux::read(AUX).expect("fixed aux"));
    let format = inv.format();
    let (chart, _) = prepare(loaded.profile, aux.as_ref(), &inv.render);
    let mut out = Vec::new();
    chart
        .write(format, &inv.paint, &mut out)
        .expect("render to memory");
    if matches!(format, Format::Ps | Format::Eps) {
        if let Err(e) = pslex::check_postscript(&out, &chart) {
            panic!("PostScript: {e}");
        }
    }
}
