//! Filled areas that are not plain shades: palette colours and print patterns.
//!
//! A patterned area is written as a clip path of its outline, the outline filled with
//! the background grey, the pattern's ink in a group clipped to the outline, and the
//! outline stroked black on top, as the PostScript and PDF draw it.

use std::io::Write;

use super::painter::{hex, number, SvgPainter};
use crate::layout::chart::{Fill, BORDER_HEIGHT};
use crate::paint::hatch::{pattern_ink, PatternInk};

impl<W: Write> SvgPainter<'_, W> {
    /// A closed area filled as `fill` says, and stroked.
    pub(super) fn filled(&mut self, points: &[(f64, f64)], fill: &Fill, title: Option<&[u8]>) {
        if let Fill::Pattern(pattern) = fill {
            let Some(outline) = Self::points(points) else {
                return;
            };
            let ink = pattern_ink(pattern, points.iter().copied());
            self.pattern_in(&[outline], &ink, false);
            // The stroked outline on top is what the pointer is over: it carries the
            // tooltip.
            return self.titled_polygon(points, None, title, "");
        }
        self.titled_polygon(points, Some(&hex(fill.srgb())), title, "");
    }

    /// A pattern's background grey over `areas` (each a `points` value) and its ink,
    /// clipped to them. `pieces`: the areas are the pieces of one long band (see
    /// `pieces.rs`), each stroked in the grey so that no seam shows between them.
    pub(super) fn pattern_in(&mut self, areas: &[String], ink: &PatternInk, pieces: bool) {
        let id = format!("hp2ps-clip-{}", self.clips);
        self.clips += 1;
        let grey = hex(Fill::Grey(ink.background).srgb());
        self.raw(&format!("<clipPath id=\"{id}\">"));
        for area in areas {
            self.raw(&format!("<polygon points=\"{area}\"/>"));
        }
        self.raw("</clipPath>\n");
        if pieces {
            self.raw(&format!(
                "<g fill=\"{grey}\" stroke=\"{grey}\" stroke-linejoin=\"bevel\">\n"
            ));
            for area in areas {
                self.raw(&format!("<polygon points=\"{area}\"/>\n"));
            }
            self.raw("</g>\n");
        } else {
            for area in areas {
                self.raw(&format!(
                    "<polygon points=\"{area}\" fill=\"{grey}\" stroke=\"none\"/>\n"
                ));
            }
        }
        self.raw(&format!("<g clip-path=\"url(#{id})\">\n"));
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
    }
}

/// A chart point as `x,y` in SVG's downward y, or `None` when not finite.
fn point((x, y): (f64, f64)) -> Option<String> {
    let y = BORDER_HEIGHT - y;
    (x.is_finite() && y.is_finite()).then(|| format!("{},{}", number(x), number(y)))
}
