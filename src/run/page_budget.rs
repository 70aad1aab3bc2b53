//! The HTML page's size, at the edge: what a page of several runs lets each run carry
//! (together what two pages of their own would), and the warnings that say what a page
//! left out (a table's smaller bands, a run's samples), which the page also shows.

use hp2ps::aggregate::{PAGE_TABLE_ROWS, PAGE_VALUES, VECTOR_MAX_POINTS};
use hp2ps::layout::chart::Chart;
use hp2ps::pipeline::RenderOptions;

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

/// The fewest samples a run of a page of many runs draws.
const FEWEST_SAMPLES: usize = 200;
/// The fewest table rows a run of a page of many runs lists.
const FEWEST_ROWS: usize = 200;
/// The fewest band values a run of a page of many runs carries for zooming.
const FEWEST_VALUES: usize = 20_000;

/// Each run's share of a page of `runs` runs: up to two, what a page of its own has;
/// beyond, two pages' worth shared: fewer samples drawn (unless `--max-points` set
/// them), fewer carried for zooming, fewer bands listed.
pub(crate) fn shared(render: &RenderOptions, runs: usize) -> RenderOptions {
    let mut r = render.clone();
    if runs <= 2 {
        return r;
    }
    let share = |whole: usize, least: usize| (2 * whole / runs).max(least);
    if r.max_points == 0 && r.max_band_points != 0 {
        r.max_points = share(VECTOR_MAX_POINTS, FEWEST_SAMPLES);
    }
    r.page_values = share(PAGE_VALUES, FEWEST_VALUES);
    r.layout.table_rows = share(PAGE_TABLE_ROWS, FEWEST_ROWS);
    r
}

/// What a run's page left out, each a line for stderr and the page: the table's smaller
/// bands, and (a run of a page of many) samples a page of its own would have drawn.
/// `page` is the page's name, `input` the run's.
pub(crate) fn left_out(chart: &Chart, render: &RenderOptions, runs: usize) -> Vec<String> {
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
    if runs > 2 && render.max_points != 0 && data.times.len() < data.samples.min(VECTOR_MAX_POINTS)
    {
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
