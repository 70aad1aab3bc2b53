//! The HTML painter: one self-contained, interactive page per chart.
//!
//! The page is the SVG painter's picture of the graph page, with its elements tagged for
//! the page's script (classes on the ticks, bands, lines and marks), the chart's numbers
//! as JSON (`data.rs`; the format is in `docs/formats.md`), and a hand-written script and
//! style (`assets/`, built in with `include_str!`). The picture shows before any script runs and is the SVG's; the script
//! redraws it, from the data and by the layout's rules
//! ([`crate::layout::chart::DataScale`]), only when the
//! reader hides a band, zooms or changes the view. It needs nothing else: every script,
//! style and font is inline, and a Content-Security-Policy forbids any request (the
//! script and style are allowed by their hashes, see `digest.rs`).
//!
//! The key is the page's legend, not part of the picture: the chart should be laid out
//! with its key on pages of its own ([`crate::layout::LayoutOptions::multipage`], as
//! `-M`), so that the graph takes the page's whole width, as the command line does for
//! `--format html`. (A key on the graph page is left out of the picture, and its space
//! stays empty.) The page needs the chart's data ([`crate::layout::LayoutOptions::data`]);
//! without it the page shows the picture alone.

mod data;
mod digest;
mod live;
mod minify;

use std::io::{self, Write};

pub(crate) use super::svg::escape;
use super::svg::{
    helvetica_advance, number as svg_number, write_svg_with_tags, SvgOptions, FONT_FAMILY,
};
use crate::layout::chart::{Chart, Graph, Page, BORDER_HEIGHT, BORDER_WIDTH};
use data::{document, Font, Run};
pub(crate) use live::{live_parts, page_title, write_live_page};

/// The page around the chart, with `{{name}}` holes.
const TEMPLATE: &str = include_str!("assets/page.html");
/// One run's part of the page (a chart, its legend, readout and table).
const RUN_TEMPLATE: &str = include_str!("assets/run.html");
/// The page's style, as written.
const STYLE: &str = include_str!("assets/page.css");
/// The page's script as written: its parts one after the other (see `assets/base.js`),
/// then `$more` (the live page's update path). The page carries both without comments
/// and needless spaces (`minify.rs`).
macro_rules! page_script {
    ($($more:expr),*) => {
        concat!(
            include_str!("assets/base.js"),
            include_str!("assets/run.js"),
            include_str!("assets/detail.js"),
            include_str!("assets/draw.js"),
            include_str!("assets/heap.js"),
            include_str!("assets/pointer.js"),
            include_str!("assets/controls.js"),
            include_str!("assets/legend.js"),
            include_str!("assets/marks.js"),
            include_str!("assets/overview.js"),
            include_str!("assets/table.js"),
            include_str!("assets/icicle.js"),
            include_str!("assets/compare.js"),
            include_str!("assets/share.js"),
            include_str!("assets/access.js"),
            include_str!("assets/start.js"),
            $($more),*
        )
    };
}
pub(crate) use page_script;

/// The page's script, as written.
const SCRIPT: &str = page_script!();

/// HTML output settings.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct HtmlOptions {
    /// The name of the profile, shown in the page's heading and as its chart's
    /// `data-run`: its file name, without the directory (which the page never holds, so
    /// that it can be sent on). Default: `None`.
    pub file: Option<String>,
    /// What the page's header says about the profile besides its JOB. Default: nothing.
    pub facts: ProfileFacts,
    /// What the page left out (its size has a limit), a line each, which its header
    /// shows. Default: none.
    pub notes: Vec<String>,
}

/// What the page's header says about a profile that its JOB may not: how it was made,
/// when the input (an eventlog) told. The page also reads the JOB's RTS options.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ProfileFacts {
    /// The RTS flag of the heap profile's breakdown: `-hc`, `-hT`, `-hi`, …. Default:
    /// `None`.
    pub breakdown: Option<String>,
    /// The sampling interval (`-i`), in seconds. Default: `None`.
    pub interval: Option<f64>,
    /// The runtime that wrote the profile, as it names itself (`GHC-9.10.3 rts_thr`).
    /// Default: `None`.
    pub runtime: Option<String>,
}

/// The last part of a path as the command line gave it (after any `/`, or `\\` as
/// Windows writes them): what the page holds of it.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Writes the chart as one HTML page.
pub fn write_html<W: Write>(chart: &Chart, opts: &HtmlOptions, out: &mut W) -> io::Result<()> {
    write_html_page(&[(chart, opts)], out)
}

/// Writes one HTML page of several charts, one after the other with the same controls
/// each, and a view of their differences (the charts of several runs to compare: see
/// `docs/guide.md`); with one chart, [`write_html`]'s page.
pub fn write_html_page<W: Write>(charts: &[(&Chart, &HtmlOptions)], out: &mut W) -> io::Result<()> {
    let (sections, json) = sections_and_data(charts)?;
    let page = page(&sections, &json, &title(charts), SCRIPT, STYLE, "");
    out.write_all(page.as_bytes())
}

/// The runs' sections (each chart's picture in [`RUN_TEMPLATE`]) and the page's data
/// (`null` unless every chart carries its data).
fn sections_and_data(charts: &[(&Chart, &HtmlOptions)]) -> io::Result<(String, String)> {
    let mut sections = String::new();
    let mut runs = Vec::new();
    let mut pictures = Vec::new();
    for (chart, opts) in charts {
        let (picture, svg) = picture_of(chart)?;
        let file = opts.file.as_deref().map_or("", file_name);
        sections.push_str(&fill(
            RUN_TEMPLATE,
            &[("run", &escape(file.as_bytes())), ("svg", svg.trim_end())],
        ));
        pictures.push((picture, *chart, *opts));
    }
    for (picture, chart, opts) in &pictures {
        if let (
            Some(data),
            Some(Page {
                graph: Some(graph),
                axes,
                ..
            }),
        ) = (chart.data.as_deref(), picture.pages.first())
        {
            let keys = chart.pages.iter().flat_map(|p| &p.key);
            runs.push(Run {
                file: opts.file.as_deref().map(file_name),
                facts: &opts.facts,
                notes: &opts.notes,
                chart,
                graph,
                axes: axes.as_ref(),
                line_keys: keys.filter(|k| k.line.is_some()).collect(),
                data,
            });
        }
    }
    // Every chart carries its data, or the page is pictures alone.
    let json = match runs.len() == charts.len() && !runs.is_empty() {
        true => document(&runs, &font()).into_script_text(),
        false => String::from("null"),
    };
    Ok((sections, json))
}

/// The page around `sections` and their `data`, with `script` and `style` (as written)
/// and the Content-Security-Policy's `extra` sources.
fn page(sections: &str, data: &str, title: &str, script: &str, style: &str, extra: &str) -> String {
    let (script, style) = (minify::script(script), minify::style(style));
    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; {extra}\
         base-uri 'none'; form-action 'none'",
        digest::csp_hash(&script),
        digest::csp_hash(&style)
    );
    fill(
        TEMPLATE,
        &[
            ("csp", &csp),
            ("title", title),
            ("style", &style),
            ("runs", sections),
            ("data", data),
            ("script", &script),
        ],
    )
}

/// The picture of a chart (its graph page alone, without a key: the legend is the
/// page's), and that picture as SVG without its XML declaration, which has no place
/// inside HTML.
fn picture_of(chart: &Chart) -> io::Result<(Chart, String)> {
    let graph_page = chart
        .pages
        .iter()
        .rposition(|p| p.graph.is_some())
        .unwrap_or(chart.pages.len().saturating_sub(1));
    // Field by field: the data (every band's numbers, the levels of detail), the other
    // pages and the key are not the picture's, and the data can be large.
    let picture = Chart {
        portrait: chart.portrait,
        job: chart.job.clone(),
        date: chart.date.clone(),
        title: chart.title.clone(),
        pages: (chart.pages.get(graph_page).into_iter())
            .map(|page| Page {
                axes: page.axes.clone(),
                key: Vec::new(),
                graph: page.graph.clone(),
            })
            .collect(),
        data: None,
    };
    // The lines over the bands have a panel of their own under the chart (the script's,
    // on a scale of their own: `Needs::lines_apart`): the picture leaves them out, the
    // data keeps them.
    let drawn = Chart {
        portrait: picture.portrait,
        job: picture.job.clone(),
        date: picture.date.clone(),
        title: picture.title.clone(),
        pages: (picture.pages.iter())
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
    Ok((picture, below_title(&svg, chart.title.y)))
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

/// The page's title: the JOB of one chart (else its file), or the files of several.
fn title(charts: &[(&Chart, &HtmlOptions)]) -> String {
    if let [(chart, opts)] = charts {
        let file = opts.file.as_deref().map_or("", file_name);
        return match (chart.job.is_empty(), file) {
            (false, _) => escape(&chart.job),
            (true, "") => String::from("hp2ps"),
            (true, file) => escape(file.as_bytes()),
        };
    }
    let files: Vec<&str> = (charts.iter())
        .map(|(_, o)| o.file.as_deref().map_or("stdin", file_name))
        .collect();
    escape(files.join(" · ").as_bytes())
}

/// `template` with every `{{name}}` replaced by its value; a hole without a value stays
/// as it is (the assets' tests catch one).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let size = values.iter().map(|(_, v)| v.len()).sum::<usize>() + template.len();
    let mut out = String::with_capacity(size);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let hole = after.find("}}").map(|end| &after[..end]);
        match hole.and_then(|name| values.iter().find(|(n, _)| *n == name)) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &after[name.len() + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The SVG's font family and the Helvetica advances of printable ASCII, with which the
/// script places tick labels as the SVG painter does.
fn font() -> Font {
    const FIRST: u8 = b' ';
    Font {
        family: FONT_FAMILY,
        first: FIRST,
        widths: (FIRST..=b'~')
            .map(|b| helvetica_advance(char::from(b)).unwrap_or(0))
            .collect(),
    }
}

#[cfg(test)]
mod tests;
