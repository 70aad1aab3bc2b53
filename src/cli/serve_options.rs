//! The options of the live page (`--serve` and the options that go with it: `--bind`,
//! `--port`, `--spool`, `--spool-max`, and the hidden ones of the child that writes the
//! whole run's page): their definitions for clap, with the parser of `--spool-max`'s
//! size. Apart from [`super::definition`] because they are one mode's, as the CI gate's
//! are (`gate.rs`); they take their place among the other options in `--help`.

use clap::{value_parser, Arg, ArgAction, ValueHint};

const LIVE: &str = "Live (--serve)";

/// The definitions, in their order in `--help`.
pub(super) fn args() -> [Arg; 9] {
    [
        Arg::new("serve")
            .long("serve")
            .action(ArgAction::SetTrue)
            .help(
                "Serve a page that follows the run live, in the browser: the FILE as it\n\
                 grows (a .hp or eventlog, replaced files too), a FIFO (+RTS -olFIFO),\n\
                 stdin (- or no FILE), unix:PATH or tcp:[HOST:]PORT (an eventlog-socket\n\
                 socket; tcp:PORT is this machine's); prints the page's address; -o FILE\n\
                 writes the whole run's page at the end",
            )
            .help_heading(LIVE),
        Arg::new("bind")
            .long("bind")
            .value_name("ADDR")
            .value_parser(value_parser!(std::net::IpAddr))
            .help(
                "Listen on ADDR (default 127.0.0.1: this machine only; any other\n\
                 address lets others reach the page, with its address's token)",
            )
            .help_heading(LIVE),
        Arg::new("port")
            .long("port")
            .value_name("N")
            .value_parser(value_parser!(u16))
            .help("Listen on port N (default: a free port)")
            .help_heading(LIVE),
        Arg::new("spool")
            .long("spool")
            .value_name("DIR")
            .value_parser(value_parser!(std::path::PathBuf))
            .value_hint(ValueHint::DirPath)
            .help(
                "Keep a run read from a stream (a FIFO, stdin, a socket) for -o and the\n\
                 page's save in a spool file in DIR (default: the temporary directory,\n\
                 TMPDIR); its name and size are said, and it is removed when hp2ps ends",
            )
            .help_heading(LIVE),
        Arg::new("spool-max")
            .long("spool-max")
            .value_name("SIZE")
            .value_parser(byte_size)
            .help(
                "Keep at most SIZE of it (bytes, or 500M, 2G, 1GiB): past it -o and the\n\
                 save cover the run up to there, and say so; the live page goes on",
            )
            .help_heading(LIVE),
        Arg::new("serve-whole-run-capped")
            .long("serve-whole-run-capped")
            .action(ArgAction::SetTrue)
            .hide(true)
            .help("The run given to --serve-whole-run stops at --spool-max"),
        Arg::new("serve-whole-run-bytes")
            .long("serve-whole-run-bytes")
            .value_name("N")
            .value_parser(value_parser!(u64))
            .hide(true)
            .help(
                "The run is the first N bytes of the regular file on stdin, which grows\n\
                 on after them (--serve-whole-run maps it where it can)",
            ),
        Arg::new("serve-whole-run")
            .long("serve-whole-run")
            .action(ArgAction::SetTrue)
            .hide(true)
            .help("Write the whole run's page to stdout (what --serve runs for -o and save)"),
        Arg::new("serve-detail")
            .long("serve-detail")
            .value_name("N")
            .value_parser(value_parser!(usize))
            .hide(true)
            .help("Censuses kept per level of detail of the live page"),
    ]
}

/// A number of bytes: `1000000`, `500M`, `2G`, `1.5GB`, `1GiB` (k, M, G, T are powers of
/// 1000; Ki, Mi, Gi, Ti of 1024), at least 1.
fn byte_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: f64 = match unit.strip_suffix(['B', 'b']).unwrap_or(unit) {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0_f64.powi(4),
        _ => {
            return Err(format!(
                "unknown unit {unit:?} (k, M, G, T, Ki, Mi, Gi, Ti)"
            ))
        }
    };
    match number.trim().parse::<f64>() {
        Ok(n) if (n * scale).is_finite() && n * scale >= 1.0 && n * scale < 1.8e19 => {
            Ok((n * scale) as u64)
        }
        _ => Err(String::from("a size of at least one byte, as 500M or 2G")),
    }
}
