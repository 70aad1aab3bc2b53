//! The chart's picture on the page: the SVG painter's picture of its graph page alone,
//! with its elements tagged for the page's script (classes on the ticks, bands and
//! marks), without the key (the legend is the page's), the lines over the bands (they
//! have a panel of their own) or the title box (the page's header shows its JOB and
//! DATE).

use std::io;

use super::super::svg::{number as svg_number, write_svg_with_tags, SvgOptions};
use crate::layout::chart::{Chart, Graph, Page, BORDER_HEIGHT, BORDER_WIDTH};

/// The index of the chart's graph page (its last page with a graph; its last page).
pub(crate) fn graph_page(chart: &Chart) -> usize {
    (chart.pages.iter())
        .rposition(|p| p.graph.is_some())
        .unwrap_or(chart.pages.len().saturating_sub(1))
}

/// The picture of a chart as SVG, without its XML declaration, which has no place
/// inside HTML.
pub(crate) fn picture_of(chart: &Chart) -> io::Result<String> {
    // Field by field: the data (every band's numbers, the levels of detail), the other
    // pages and the key are not the picture's, and the data can be large. The lines
    // over the bands have a panel of their own under the chart (the script's, on a
    // scale of their own: `Needs::lines_apart`): the picture leaves them out.
    let drawn = Chart {
        portrait: chart.portrait,
        job: chart.job.clone(),
        date: chart.date.clone(),
        title: chart.title.clone(),
        pages: (chart.pages.get(graph_page(chart)).into_iter())
            .map(|page| Page {
                axes: page.axes.clone(),
                key: Vec::new(),
                graph: page.graph.as_ref().map(|graph| Graph {
                    lines: Vec::new(),
                    ..graph.clone()
                }),
            })
            .collect(),
        data: None,
    };
    let mut svg = Vec::new();
    write_svg_with_tags(&drawn, &SvgOptions::default(), true, &mut svg)?;
    let svg = String::from_utf8_lossy(&svg);
    let svg = match svg.strip_prefix("<?xml") {
        Some(rest) => rest.split_once('\n').map_or("", |(_, svg)| svg).to_string(),
        None => svg.into_owned(),
    };
    Ok(below_title(&svg, chart.title.y))
}

/// The picture without the title box, whose JOB and DATE the page's header shows: its
/// view from the box's bottom edge (`bottom`, in chart points) down, and no size of its
/// own (the page's style gives it the width it has).
fn below_title(svg: &str, bottom: f64) -> String {
    const WHOLE: &str = "viewBox=\"0 0 648 432\">";
    let Some(at) = svg
        .find(WHOLE)
        .filter(|_| bottom.is_finite() && bottom > 0.0)
    else {
        return svg.to_string();
    };
    let start = svg[..at].rfind(" width=").unwrap_or(at);
    let top = (BORDER_HEIGHT - bottom).clamp(0.0, BORDER_HEIGHT);
    format!(
        "{} viewBox=\"0 {} {} {}\">{}",
        &svg[..start],
        svg_number(top),
        svg_number(BORDER_WIDTH),
        svg_number(BORDER_HEIGHT - top),
        &svg[at + WHOLE.len()..]
    )
}
