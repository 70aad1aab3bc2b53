//! The static flame graph's painters: a [`FlameChart`] (`layout::flame`) as SVG, PDF or
//! (Encapsulated) PostScript, each writing what the layout placed, in its order: the
//! border, the title box and its texts, the caption, the frames (a filled rectangle and
//! its label). The bytes are deterministic: no dates, numbers to a thousandth of a point.

mod pdf;
mod ps;
mod svg;
#[cfg(test)]
mod tests;

use std::io::{self, Write};

use super::Format;
use crate::layout::flame::FlameChart;

/// Whether `format` draws a flame graph (SVG, PDF, PS, EPS): the page draws its own,
/// and the exports are of a heap profile's numbers.
pub(crate) fn draws_flame(format: Format) -> bool {
    matches!(format, Format::Svg | Format::Pdf | Format::Ps | Format::Eps)
}

/// Writes `chart` in `format` (one of [`draws_flame`]'s; another is refused).
pub(crate) fn write_flame<W: Write>(
    chart: &FlameChart,
    format: Format,
    out: &mut W,
) -> io::Result<()> {
    match format {
        Format::Svg => svg::write_svg(chart, out),
        Format::Pdf => pdf::write_pdf(chart, out),
        Format::Ps => ps::write_ps(chart, false, out),
        Format::Eps => ps::write_ps(chart, true, out),
        other => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a flame graph is drawn as SVG, PDF, PS or EPS, not {}",
                other.name()
            ),
        )),
    }
}
