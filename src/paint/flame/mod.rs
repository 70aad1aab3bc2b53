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

impl Format {
    /// Whether the format draws a time profile's flame graph
    /// ([`crate::TimeProfile::write_flame`]): SVG, PDF, PS and EPS (the page draws its
    /// own, and the exports are of a heap profile's numbers).
    pub fn draws_flame(self) -> bool {
        matches!(self, Format::Svg | Format::Pdf | Format::Ps | Format::Eps)
    }
}

/// Writes `chart` in `format` (one that [`Format::draws_flame`]; another is refused).
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
