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

/// Prints what a render summarised (a heap profile's summary or a time profile's), when
/// `--summary` asked (`format`).
pub(crate) fn print_summaries(
    done: &super::render::Done,
    format: Option<SummaryFormat>,
) -> Result<(), String> {
    let Some(format) = format else {
        return Ok(());
    };
    if let Some(summary) = &done.summary {
        print_summary(summary, format)?;
    }
    if let Some(time) = &done.time_summary {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        match format {
            SummaryFormat::Json => time
                .write_json(&mut out)
                .and_then(|()| out.write_all(b"\n")),
            SummaryFormat::Text => time.write_text(&mut out),
        }
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))?;
    }
    Ok(())
}
