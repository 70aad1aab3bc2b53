//! Writes the hostile inputs of issue 27 into a directory, for measuring what a run does
//! with them (`docs/robustness.md`'s "Hostile files at the new edges"); the tests build
//! the same files from the same functions (`tests/support/hostile.rs`).
//!
//! Usage: `hostile_inputs DIR`. Writes:
//! - `long-names.eventlog`: a `-hc` log of four cost centres whose labels are 60,000
//!   bytes, its stacks 255 deep (with `--full-names`, names of 15 MB each);
//! - `many-long-names.eventlog`: the same with 2,000 stacks (30 GB of names in full);
//! - `terminal.hp`, `terminal.eventlog`: JOB, DATE, units, band and marker names that
//!   hold terminal escapes (OSC 52, a title, clear screen, a forged summary line, NUL);
//! - `huge-date.hp`: a DATE of 1 MiB less a byte, and long units and key names.

#[path = "../tests/support/eventlog/writer/mod.rs"]
mod writer;

/// Where the tests have the writer, so that `hostile.rs` finds it as `super::eventlog`.
mod eventlog {
    pub(crate) use crate::writer;
}

#[path = "../tests/support/hostile.rs"]
#[allow(dead_code)]
mod hostile;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: hostile_inputs DIR");
        std::process::exit(2);
    };
    let dir = std::path::Path::new(dir);
    if std::env::var_os("HOSTILE_FUZZ_SEEDS").is_some() {
        return fuzz_seeds(dir);
    }
    let files: [(&str, Vec<u8>); 5] = [
        (
            "long-names.eventlog",
            hostile::long_names_eventlog(4, 8, 60_000),
        ),
        (
            "many-long-names.eventlog",
            hostile::long_names_eventlog(2000, 2, 60_000),
        ),
        ("terminal.hp", hostile::terminal_hp()),
        ("terminal.eventlog", hostile::terminal_eventlog()),
        ("huge-date.hp", hostile::huge_text_hp((1 << 20) - 1)),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, bytes) {
            eprintln!("hostile_inputs: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}

/// With `HOSTILE_FUZZ_SEEDS` set: the seeds of `fuzz/seeds/eventlog_reader/` made from
/// these files, each its flags byte first (0x10: `--full-names`), small enough for
/// `-max_len=20000`.
fn fuzz_seeds(dir: &std::path::Path) {
    let seeds: [(&str, u8, Vec<u8>); 2] = [
        (
            "long-names-full",
            0x10,
            hostile::long_names_eventlog(4, 2, 2_400),
        ),
        ("terminal-escapes", 0x01, hostile::terminal_eventlog()),
    ];
    for (name, flags, log) in seeds {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, [&[flags][..], &log].concat()) {
            eprintln!("hostile_inputs: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
