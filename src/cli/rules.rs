//! The combinations of options that cannot work, refused before anything is read.

use crate::IpeNames;

use super::{Invocation, UsageError};

/// Combinations that cannot work.
pub(super) fn check(inv: &Invocation) -> Result<(), UsageError> {
    super::gate::check(inv)?;
    // One HTML page holds several runs; any other output is one chart.
    if inv.output.is_some() && inv.files.len() > 1 && !inv.one_page() {
        return Err(UsageError::OutputForManyFiles(inv.files.len()));
    }
    if inv.one_page() && inv.use_aux {
        return Err(UsageError::Conflict(
            "-p reads the .aux of one chart; a page of several runs reads and writes none",
        ));
    }
    if inv.output.as_ref().is_some_and(|o| o.is_empty()) {
        return Err(UsageError::Conflict(
            "-o/--output was given an empty file name: name a file, or - for stdout",
        ));
    }
    if inv.output_dir.as_ref().is_some_and(|d| d.is_empty()) {
        return Err(UsageError::Conflict(
            "--output-dir was given an empty name: name a directory (. for the current one)",
        ));
    }
    if inv.output.is_some() && inv.output_dir.is_some() {
        return Err(UsageError::Conflict(
            "-o/--output and --output-dir cannot be used together",
        ));
    }
    if inv.files.is_empty() && inv.output_dir.is_some() {
        return Err(UsageError::Conflict(
            "--output-dir names where files go, but no input file was given (filter mode)",
        ));
    }
    if inv.watch.is_some() && inv.files.len() != 1 {
        return Err(UsageError::Conflict("--watch needs exactly one input file"));
    }
    if inv.watch.is_some() && inv.chart_on_stdout() {
        return Err(UsageError::Conflict(
            "--watch writes the chart again and again: name a file, not stdout",
        ));
    }
    if inv.serve.is_some() {
        serve_rules(inv)?;
    }
    if let (Some(from), Some(to)) = (inv.window.from, inv.window.to) {
        if from > to {
            return Err(UsageError::Conflict(
                "the time window is empty: --from is after --to",
            ));
        }
    }
    if inv.summary.is_some() && inv.chart_on_stdout() {
        return Err(UsageError::Conflict(
            "--summary and the chart cannot both go to stdout: name an output file with -o",
        ));
    }
    if inv.binary.is_some() && inv.symbolize.names == IpeNames::Address {
        return Err(UsageError::Conflict(
            "--binary names -hi bands by symbols, --ipe-names address keeps their addresses: give one",
        ));
    }
    Ok(())
}

/// `--serve` follows one input and serves its page; it writes no other output.
fn serve_rules(inv: &Invocation) -> Result<(), UsageError> {
    let conflict = |why| Err(UsageError::Conflict(why));
    if inv.files.len() > 1 {
        return conflict(
            "--serve follows one input: a file, a FIFO, - (stdin), unix:PATH or tcp:[HOST:]PORT",
        );
    }
    if inv.watch.is_some() {
        return conflict("--serve and --watch both follow a file: give one (--serve serves a page that follows it)");
    }
    if inv.summary.is_some()
        || inv.output_dir.is_some()
        || inv.uniform_scale.is_some()
        || inv.use_aux
    {
        return conflict("--serve draws one page: --summary, --output-dir, --uniform-scale and -p do not go with it");
    }
    if inv.output.as_deref().is_some_and(|o| o == "-") {
        return conflict("--serve writes the whole run's page to a file (-o FILE), not stdout");
    }
    Ok(())
}
