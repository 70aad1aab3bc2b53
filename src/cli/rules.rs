//! The combinations of options that cannot work, refused before anything is read.

use hp2ps::IpeNames;

use super::{Invocation, UsageError};

/// Combinations that cannot work.
pub(super) fn check(inv: &Invocation) -> Result<(), UsageError> {
    // One HTML page holds several runs; any other output is one chart.
    if inv.output.is_some() && inv.files.len() > 1 && !inv.one_page() {
        return Err(UsageError::OutputForManyFiles(inv.files.len()));
    }
    if inv.one_page() && inv.use_aux {
        return Err(UsageError::Conflict(
            "-p reads the .aux of one chart; a page of several runs reads and writes none",
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
