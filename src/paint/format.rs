//! The output formats, their options, and the one place that picks a painter for each.

use std::io::{self, Write};

use super::html::{write_html, HtmlOptions};
use super::pdf::{write_pdf, PdfOptions};
use super::ps::{write_ps, PsOptions};
use super::svg::{write_svg, SvgOptions};
use crate::layout::chart::{Chart, BORDER_WIDTH};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PostScript, as hp2ps writes it: a landscape page (portrait with `-g`), or
    /// Encapsulated when [`PaintOptions::eps_width`] is set (hp2ps's `-e`).
    Ps,
    /// Encapsulated PostScript, always: [`PaintOptions::eps_width`] wide, else at the
    /// border box's own width.
    Eps,
    /// One standalone SVG picture, pages stacked top to bottom.
    Svg,
    /// A PDF document, one page per chart page.
    Pdf,
    /// One self-contained interactive HTML page (see [`super::html`]).
    Html,
}

impl Format {
    /// Every format, in the order the help lists them.
    pub const ALL: [Format; 5] = [
        Format::Ps,
        Format::Eps,
        Format::Svg,
        Format::Pdf,
        Format::Html,
    ];

    /// The name: `ps`, `eps`, `svg`, `pdf` or `html`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ps => "ps",
            Format::Eps => "eps",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Html => "html",
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.name()
    }

    /// `ps`, `eps`, `svg`, `pdf` or `html`, in any case.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

/// How a chart is painted, whatever the format.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct PaintOptions {
    /// The width in points that the 648 pt border box is scaled to (hp2ps's `-e`): of
    /// the EPS, SVG and PDF pictures, which are otherwise 648 pt wide. With
    /// [`Format::Ps`] it also makes the output Encapsulated, as `-e` does in hp2ps.
    /// Default: `None`.
    pub eps_width: Option<f64>,
    /// The name of the profile the chart is drawn from, for a format that shows it (the
    /// HTML page's heading and its chart's `data-run`). Default: `None`.
    pub source: Option<String>,
    /// What the HTML page's header says about the profile. Default: nothing.
    pub facts: super::html::ProfileFacts,
    /// What the HTML page says it left out, a line each. Default: none.
    pub notes: Vec<String>,
}

/// Paints `chart` in `format` with the default [`PaintOptions`].
pub fn write_chart<W: Write>(chart: &Chart, format: Format, out: &mut W) -> io::Result<()> {
    write_chart_with(chart, format, &PaintOptions::default(), out)
}

/// Paints `chart` in `format`.
pub fn write_chart_with<W: Write>(
    chart: &Chart,
    format: Format,
    opts: &PaintOptions,
    out: &mut W,
) -> io::Result<()> {
    let width = opts.eps_width.unwrap_or(BORDER_WIDTH);
    match format {
        Format::Ps | Format::Eps => {
            let eps_width = match format {
                Format::Eps => Some(width),
                _ => opts.eps_width,
            };
            let ps = PsOptions {
                eps_width,
                ..PsOptions::default()
            };
            write_ps(chart, &ps, out)
        }
        Format::Svg => write_svg(chart, &SvgOptions { width }, out),
        Format::Pdf => {
            let pdf = PdfOptions {
                width,
                ..PdfOptions::default()
            };
            write_pdf(chart, &pdf, out)
        }
        Format::Html => {
            let html = HtmlOptions {
                file: opts.source.clone(),
                facts: opts.facts.clone(),
                notes: opts.notes.clone(),
            };
            write_html(chart, &html, out)
        }
    }
}
