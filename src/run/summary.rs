//! `--summary` on stdout, as text or JSON.

use std::io::{self, Write};

use crate::summary::Summary;

use crate::cli::SummaryFormat;

/// Prints a summary to stdout in the requested form.
pub(crate) fn print_summary(summary: &Summary, format: SummaryFormat) -> Result<(), String> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match format {
        SummaryFormat::Json => summary
            .write_json(&mut out)
            .and_then(|()| out.write_all(b"\n")),
        SummaryFormat::Text => summary.write_text(&mut out),
    }
    .and_then(|()| out.flush())
    .map_err(|e| format!("cannot write to stdout: {e}"))
}
