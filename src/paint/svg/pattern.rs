//! Filled areas that are not plain shades: palette colours and print patterns.
//!
//! A patterned area is written as a clip path of its outline, the outline filled with
//! the background grey, the pattern's ink in a group clipped to the outline, and the
//! outline stroked black on top, as the PostScript and PDF draw it.

use std::io::Write;

use super::{hex, number, SvgPainter};
use crate::layout::chart::{Fill, BORDER_HEIGHT};
use crate::paint::hatch::{pattern_ink, PatternInk};

impl<W: Write> SvgPainter<'_, W> {
    /// A closed area filled as `fill` says, and stroked.
    pub(super) fn filled(&mut self, points: &[(f64, f64)], fill: &Fill, title: Option<&[u8]>) {
        if let Fill::Pattern(pattern) = fill {
            let ink = pattern_ink(pattern, points.iter().copied());
            return self.patterned(points, &ink, title);
        }
        self.titled_polygon(points, Some(&hex(fill.srgb())), title, "");
    }

    fn patterned(&mut self, points: &[(f64, f64)], ink: &PatternInk, title: Option<&[u8]>) {
        let Some(outline) = Self::points(points) else {
            return;
        };
        let id = format!("hp2ps-clip-{}", self.clips);
        self.clips += 1;
        let grey = hex(Fill::Grey(ink.background).srgb());
        self.raw(&format!(
            "<clipPath id=\"{id}\"><polygon points=\"{outline}\"/></clipPath>\n\
             <polygon points=\"{outline}\" fill=\"{grey}\" stroke=\"none\"/>\n\
             <g clip-path=\"url(#{id})\">\n"
        ));
        for lines in &ink.lines {
            let d: Vec<String> = lines
                .segments
                .iter()
                .filter_map(|&[a, b]| Some(format!("M{}L{}", point(a)?, point(b)?)))
                .collect();
            self.raw(&format!(
                "<path d=\"{}\" stroke-width=\"{}\"/>\n",
                d.join(""),
                number(lines.width)
            ));
        }
        if !ink.dots.is_empty() {
            let d: Vec<String> = ink
                .dots
                .iter()
                .filter_map(|dot| {
                    let corners: Option<Vec<String>> = dot.iter().map(|&p| point(p)).collect();
                    Some(format!("M{}Z", corners?.join("L")))
                })
                .collect();
            self.raw(&format!(
                "<path d=\"{}\" fill=\"#000\" stroke=\"none\"/>\n",
                d.join("")
            ));
        }
        self.raw("</g>\n");
        // The stroked outline on top is what the pointer is over: it carries the tooltip.
        self.titled_polygon(points, None, title, "");
    }
}

/// A chart point as `x,y` in SVG's downward y, or `None` when not finite.
fn point((x, y): (f64, f64)) -> Option<String> {
    let y = BORDER_HEIGHT - y;
    (x.is_finite() && y.is_finite()).then(|| format!("{},{}", number(x), number(y)))
}
