//! What an HTML page left out (its size has limits: `Needs::table_rows`, and beyond two
//! runs on one page a share each, `Needs::shared_by`), said at the edge: a line for
//! stderr and the page for each thing left out.

use crate::chart::Chart;
use crate::defaults::VECTOR_MAX_POINTS;

/// 1234567 as "1,234,567".
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// What a run's page left out, a line each: the table's smaller bands, and (a run of a
/// page of more than two) samples a page of its own would have drawn.
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
            thousands(data.table.len()),
            thousands(data.table.len() + left.bands),
            thousands(left.bands),
            left.share * 100.0
        ));
    }
    if runs > 2 && data.times.len() < data.samples.min(VECTOR_MAX_POINTS) {
        lines.push(format!(
            "{runs} runs in one page share the size of two pages: this run's chart draws \
             {} of its {} samples (a page of its own would draw up to {}), and zoomed \
             views have fewer",
            thousands(data.times.len()),
            thousands(data.samples),
            thousands(VECTOR_MAX_POINTS)
        ));
    }
    lines
}
