//! What a run must keep and must not leave on disk, for `atomic.rs` and
//! `disk_failures.rs`: the earlier output a failed run keeps ([`OLD`]), our temporary
//! files ([`temporaries`]), and the one line a refused run prints ([`one_error_line`]).

use std::path::Path;

use super::run;

/// An earlier output, which a failed run must leave as it was.
pub const OLD: &[u8] = b"an earlier output that must survive a failed run\n";

/// Names in `dir` that look like our temporary files (`.NAME.PID.N.tmp`).
pub fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") || n.starts_with('.'))
        .collect()
}

/// The one line `hp2ps: …` on a failed run's stderr (asserted).
pub fn one_error_line(ran: &run::Ran) -> String {
    let text = ran.stderr_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {text:?}");
    assert!(lines[0].starts_with("hp2ps: "), "{text:?}");
    lines[0].to_string()
}
