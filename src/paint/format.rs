//! The output formats and the one place that picks a painter for each.

use std::io::{self, Write};

use super::pdf::{write_pdf, PdfOptions};
use super::ps::{write_ps, PsOptions};
use super::svg::{write_svg, SvgOptions};
use crate::chart::{Chart, Placement, BORDER_WIDTH};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PostScript; Encapsulated when the chart was laid out with an EPS width (`-e`), as
    /// in hp2ps.
    Ps,
    /// Encapsulated PostScript.
    Eps,
    Svg,
    Pdf,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Ps, Format::Eps, Format::Svg, Format::Pdf];

    pub fn name(self) -> &'static str {
        match self {
            Format::Ps => "ps",
            Format::Eps => "eps",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.name()
    }

    /// `ps`, `eps`, `svg` or `pdf`, in any case.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// Whether the chart is a single unrotated picture (so it needs a width).
    pub fn is_picture(self) -> bool {
        self != Format::Ps
    }
}

/// The width in points of the picture formats: the `-e` width, else hp2ps's border box.
pub fn picture_width(chart: &Chart) -> f64 {
    match chart.placement {
        Placement::Eps { width } => width,
        _ => BORDER_WIDTH,
    }
}

/// Paints `chart` in `format`. For [`Format::Eps`], lay the chart out with an EPS width.
pub fn write_chart<W: Write>(chart: &Chart, format: Format, out: &mut W) -> io::Result<()> {
    let width = picture_width(chart);
    match format {
        Format::Ps | Format::Eps => write_ps(chart, &PsOptions::default(), out),
        Format::Svg => write_svg(chart, &SvgOptions { width }, out),
        Format::Pdf => write_pdf(
            chart,
            &PdfOptions {
                width,
                ..PdfOptions::default()
            },
            out,
        ),
    }
}
