//! The PostScript painter. After its header comments, its output is byte-identical to
//! hp2ps 0.25's: the same operators, the same `%f` numbers, in the same order. With an
//! EPS width it writes Encapsulated PostScript, as hp2ps's `-e` does.

mod bbox;
mod escape;
mod fill;
mod long_bands;
mod spilled_bands;
#[cfg(test)]
mod tests;
mod threads;

use std::io::{self, Write};

use super::buffer::Buffered;
use super::geometry::{band_outline, box_corners};
use super::walk::{walk, BoxKind, Line, LineKind, Painter, Rect, Text, TextRole};
use crate::layout::chart::*;
use crate::num::push_f6;

use bbox::eps_bounding_box;
use escape::one_line;
pub use escape::{escape, Escape};
use fill::{fill_and_stroke, xy};
use long_bands::long_bands;
use spilled_bands::spilled_bands;

/// PostScript output settings.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PsOptions {
    /// `%%Creator`. Default: `hp2ps (Rust) <version>`.
    pub creator: String,
    /// Escape DATE and the units when they would not be valid PostScript strings, and
    /// backslashes in the JOB (hp2ps writes them raw and can produce broken files).
    /// Default: `true`.
    pub valid_strings: bool,
    /// Write Encapsulated PostScript with the border box this many points wide (hp2ps's
    /// `-e`); otherwise a page. Default: `None`.
    pub eps_width: Option<f64>,
}

impl Default for PsOptions {
    fn default() -> Self {
        PsOptions {
            creator: format!("hp2ps (Rust) {}", env!("CARGO_PKG_VERSION")),
            valid_strings: true,
            eps_width: None,
        }
    }
}

/// Writes the chart as PostScript, or as EPS when [`PsOptions::eps_width`] is set.
pub fn write_ps<W: Write>(chart: &Chart, opts: &PsOptions, out: &mut W) -> io::Result<()> {
    let mut p = PsPainter {
        chart,
        opts,
        out: Buffered::new(out),
    };
    p.header();
    walk(chart, &mut p)?;
    if opts.eps_width.is_some() {
        p.raw("%%EOF\n");
    }
    p.out.pass_on()
}

/// How the border box is placed on a page.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Placement {
    /// Rotated to landscape on a portrait page (hp2ps's default).
    Landscape,
    /// Portrait, unscaled, offset by one inch (`-g`).
    Portrait,
    /// Encapsulated: at the origin, scaled by `width / 648` (`-e`).
    Eps { width: f64 },
}

/// Writes each item the walk hands it as hp2ps writes it.
struct PsPainter<'a, W> {
    chart: &'a Chart,
    opts: &'a PsOptions,
    out: Buffered<'a, W>,
}

impl<W: Write> PsPainter<'_, W> {
    fn raw(&mut self, s: &str) {
        self.out.buf.extend_from_slice(s.as_bytes());
    }

    fn num(&mut self, x: f64) {
        push_f6(&mut self.out.buf, x);
    }

    /// `<x> <y> <op>\n` with both numbers as `%f`.
    fn xy(&mut self, x: f64, y: f64, op: &str) {
        xy(&mut self.out.buf, x, y, op);
    }

    /// Page 1's placement: scaled for EPS. hp2ps drops the scale on later pages.
    fn first_placement(&self) -> Placement {
        match self.opts.eps_width {
            Some(width) => Placement::Eps { width },
            None => self.later_placement(),
        }
    }

    fn later_placement(&self) -> Placement {
        if self.chart.portrait {
            Placement::Portrait
        } else {
            Placement::Landscape
        }
    }

    fn header(&mut self) {
        let eps = self.opts.eps_width;
        self.raw(if eps.is_some() {
            "%!PS-Adobe-3.0 EPSF-3.0\n"
        } else {
            "%!PS-Adobe-2.0\n"
        });
        self.raw("%%Title: ");
        self.out.buf.extend_from_slice(&one_line(&self.chart.job));
        self.raw("\n%%Creator: ");
        self.out.buf.extend_from_slice(self.opts.creator.as_bytes());
        self.raw("\n%%CreationDate: ");
        self.out.buf.extend_from_slice(&one_line(&self.chart.date));
        self.out.buf.push(b'\n');
        if let Some(width) = eps {
            let [x0, y0, x1, y1] = eps_bounding_box(self.chart, width);
            self.raw(&format!(
                "%%BoundingBox: {} {} {} {}\n",
                x0.floor(),
                y0.floor(),
                x1.ceil(),
                y1.ceil()
            ));
            self.raw(&format!(
                "%%HiResBoundingBox: {x0:.6} {y0:.6} {x1:.6} {y1:.6}\n"
            ));
        }
        self.raw("%%EndComments\n");
        self.placement(self.first_placement());
        self.raw("/HE10 /Helvetica findfont 10 scalefont def\n");
        self.raw("/HE12 /Helvetica findfont 12 scalefont def\n");
    }

    fn placement(&mut self, placement: Placement) {
        match placement {
            Placement::Landscape => self.raw("-90 rotate\n-756.000000 72.000000 translate\n"),
            Placement::Portrait => self.raw("72.000000 108.000000 translate\n"),
            Placement::Eps { width } => {
                let s = width / BORDER_WIDTH;
                self.xy(s, s, "scale");
            }
        }
    }

    fn stroke_width(&mut self) {
        self.num(LINE_WIDTH);
        self.raw(" setlinewidth\nstroke\n");
    }

    /// `(<bytes>)`, escaped by `rule` (or written as they are).
    fn string(&mut self, text: &[u8], rule: Option<Escape>) {
        self.out.buf.push(b'(');
        match rule {
            Some(rule) => {
                let escaped = escape(text, rule, self.opts.valid_strings);
                self.out.buf.extend_from_slice(&escaped);
            }
            None => self.out.buf.extend_from_slice(text),
        }
        self.out.buf.push(b')');
    }

    /// hp2ps's right-alignment: `stringwidth` subtracted from the anchor's x.
    fn shown_from_the_right(&mut self, (x, y): (f64, f64)) {
        self.raw("\ndup stringwidth pop\n");
        self.num(x);
        self.raw("\nexch sub\n");
        self.num(y);
        self.raw(" moveto\nshow\n");
    }
}

impl<W: Write> Painter for PsPainter<'_, W> {
    fn begin_page(&mut self, index: usize) {
        if index > 0 {
            self.placement(self.later_placement());
        }
    }

    fn end_page(&mut self, _index: usize) {
        self.raw("showpage\n");
    }

    fn stroke_box(&mut self, kind: BoxKind, r: Rect) {
        match kind {
            BoxKind::Border => self.raw("newpath\n0 0 moveto\n"),
            BoxKind::Title => {
                self.raw("newpath\n");
                self.xy(r.x, r.y, "moveto");
            }
        }
        self.raw("0 ");
        self.num(r.height);
        self.raw(" rlineto\n");
        self.num(r.width);
        self.raw(" 0 rlineto\n0 ");
        self.num(-r.height);
        self.raw(" rlineto\nclosepath\n");
        self.stroke_width();
    }

    fn stroke_line(&mut self, kind: LineKind, line: Line) {
        let (x, y) = line.from;
        self.xy(x, y, "moveto");
        match kind {
            LineKind::Divider => {
                self.num(line.by.0);
                self.raw(" 0 rlineto\nstroke\n");
            }
            LineKind::XAxis => {
                self.num(line.by.0);
                self.raw(" 0 rlineto\n");
                self.stroke_width();
            }
            LineKind::YAxis => {
                self.raw("0 ");
                self.num(line.by.1);
                self.raw(" rlineto\n");
                self.stroke_width();
            }
            LineKind::XTick => self.raw("0 -4 rlineto\nstroke\n"),
            LineKind::YTick => self.raw("-4 0 rlineto\nstroke\n"),
        }
    }

    fn fill_box(&mut self, r: Rect, fill: &Fill) {
        self.xy(r.x, r.y, "moveto");
        self.raw("0 14 rlineto\n14 0 rlineto\n0 -14 rlineto\n");
        let corners = || box_corners(r).to_vec();
        fill_and_stroke(&mut self.out.buf, fill, corners);
    }

    fn text(&mut self, t: &Text<'_>) {
        let (x, y) = t.at;
        match t.role {
            TextRole::Job | TextRole::Key => {
                let (font, rule) = match t.role {
                    TextRole::Job => ("HE12 setfont\n", Escape::Job),
                    _ => ("HE10 setfont\n", Escape::Key),
                };
                self.raw(font);
                self.xy(x, y, "moveto");
                self.string(t.bytes, Some(rule));
                self.raw(" show\n");
            }
            TextRole::Area => {
                self.raw("HE12 setfont\n");
                if t.anchor == Anchor::Middle {
                    self.string(t.bytes, Some(Escape::Raw));
                    self.raw("\ndup stringwidth pop\n2 div\n");
                    self.num(x);
                    self.raw("\nexch sub\n");
                    self.num(y);
                    self.raw(" moveto\nshow\n");
                } else {
                    self.xy(x, y, "moveto");
                    self.string(t.bytes, Some(Escape::Raw));
                    self.raw("\nshow\n");
                }
            }
            TextRole::Date | TextRole::XLegend => {
                let font = if t.role == TextRole::Date {
                    "HE12"
                } else {
                    "HE10"
                };
                self.raw(font);
                self.raw(" setfont\n");
                self.string(t.bytes, Some(Escape::Raw));
                self.shown_from_the_right(t.at);
            }
            TextRole::XTick => {
                self.raw("HE10 setfont\n");
                self.string(t.bytes, None);
                self.raw("\ndup stringwidth pop\n2 div\n");
                self.num(x);
                self.raw(" exch sub\n");
                self.num(y);
                self.raw(" moveto\nshow\n");
            }
            TextRole::YLegend => {
                self.raw("gsave\nHE10 setfont\n");
                self.string(t.bytes, Some(Escape::Raw));
                self.raw("\ndup stringwidth pop\n");
                // Right-aligned to the top of the axis in the turned frame.
                self.num(y);
                self.raw("\nexch sub\n");
                self.num(x);
                self.raw(" exch\ntranslate\n90 rotate\n0 0 moveto\nshow\ngrestore\n");
            }
            TextRole::YTick => {
                // hp2ps subtracts half the string's height (0 for `show`) from y.
                self.raw("HE10 setfont\n");
                self.string(t.bytes, None);
                self.raw("\ndup stringwidth\n2 div\n");
                self.num(y);
                self.raw(" exch sub\nexch\n");
                self.num(x);
                self.raw(" exch sub\nexch\nmoveto\nshow\n");
            }
        }
    }

    /// Large graphs format each x and each band edge once, on two threads
    /// ([`long_bands`]): the numbers of the band polygons are nearly all of a big
    /// profile's output.
    fn bands(&mut self, g: &Graph) -> io::Result<()> {
        // A thread per pair of bands only pays when each band is long; many short bands
        // (a profile with few samples and `-m0`) stay on this thread.
        const PARALLEL_SAMPLES: usize = 2_000;
        if let Some(spilled) = &g.spilled {
            return spilled_bands(&mut self.out, g, spilled);
        }
        let n = g.bands.len();
        if g.xs.len() < PARALLEL_SAMPLES || n < 2 {
            for i in 0..n {
                band(&mut self.out.buf, g, i);
                self.out.flush_if_large()?;
            }
            return Ok(());
        }
        long_bands(&mut self.out, g)
    }

    /// In a `gsave`: hp2ps's pictures set no state a later item relies on, and these
    /// lines must not change any.
    fn series_line(&mut self, style: LineStyle, points: &[(f64, f64)], _tooltip: Option<&[u8]>) {
        let Some((&(x0, y0), rest)) = points.split_first() else {
            return;
        };
        if rest.is_empty() || points.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())) {
            return;
        }
        self.raw("gsave\n");
        let [r, g, b] = style.rgb;
        self.num(r);
        self.raw(" ");
        self.num(g);
        self.raw(" ");
        self.num(b);
        self.raw(" setrgbcolor\n");
        self.num(style.width);
        self.raw(" setlinewidth\n1 setlinejoin\n");
        if let Some((on, off)) = style.dash {
            self.raw("[");
            self.num(on);
            self.raw(" ");
            self.num(off);
            self.raw("] 0 setdash\n");
        }
        self.xy(x0, y0, "moveto");
        for &(x, y) in rest {
            self.xy(x, y, "lineto");
        }
        self.raw("stroke\ngrestore\n");
    }

    fn mark(&mut self, x: f64, y0: f64, _text: Option<&[u8]>) {
        self.xy(x - MARK_HALF_WIDTH, y0, "moveto");
        self.raw("4.000000 -4.000000 rlineto\n4.000000 4.000000 rlineto\nclosepath\ngsave\n1.0 setgray\nfill\ngrestore\nstroke\n");
    }

    fn checkpoint(&mut self) -> io::Result<()> {
        self.out.flush_if_large()
    }
}

/// Band `i`'s outline as `moveto` and `lineto`s, filled and stroked.
fn band(buf: &mut Vec<u8>, g: &Graph, i: usize) {
    let Some(mut outline) = band_outline(g, i) else {
        return;
    };
    if let Some((x, y)) = outline.next() {
        xy(buf, x, y, "moveto");
    }
    for (x, y) in outline {
        xy(buf, x, y, "lineto");
    }
    let area = || band_outline(g, i).into_iter().flatten().collect();
    fill_and_stroke(buf, &g.bands[i].fill, area);
}
