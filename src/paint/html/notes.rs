//! What a run's page left out (its size has limits: `Needs::table_rows`, and beyond two
//! runs on one page a share each, `Needs::shared_by`), a line each: the page's header
//! says them, and the command says them on stderr too.

use crate::defaults::VECTOR_MAX_POINTS;
use crate::layout::chart::Chart;
use crate::num::thousands;

/// 1234567 as "1,234,567".
fn count(n: usize) -> String {
    thousands(i64::try_from(n).unwrap_or(i64::MAX))
}

/// What a run's page left out, a line each: the table's smaller bands, and (a run of a
/// page of more than two, `runs`) samples a page of its own would have drawn.
pub(crate) fn left_out(chart: &Chart, runs: usize) -> Vec<String> {
    let Some(data) = chart.data.as_deref() else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if let Some(left) = data.left_out {
        lines.push(format!(
            "the page's table lists the {} biggest of the {} bands; the other {} ({:.2} % \
             of the area) are summed in one row (the page's size has a limit; --summary \
             lists every band)",
            count(data.table.len()),
            count(data.table.len() + left.bands),
            count(left.bands),
            left.share * 100.0
        ));
    }
    if runs > 2 && data.times.len() < data.samples.min(VECTOR_MAX_POINTS) {
        lines.push(format!(
            "{runs} runs in one page share the size of two pages: this run's chart draws \
             {} of its {} samples (a page of its own would draw up to {}), and zoomed \
             views have fewer",
            count(data.times.len()),
            count(data.samples),
            count(VECTOR_MAX_POINTS)
        ));
    }
    lines
}
