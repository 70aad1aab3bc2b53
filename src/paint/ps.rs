//! The PostScript painter. After its header comments, its output is byte-identical to
//! hp2ps 0.25's: the same operators, the same `%f` numbers, in the same order.

use std::io::{self, Write};

use crate::cfmt::push_f6;
use crate::chart::*;
use crate::shade;

/// What to write in the header comments.
#[derive(Debug, Clone, PartialEq)]
pub struct PsOptions {
    /// `%%Creator`.
    pub creator: String,
    /// Escape DATE and the units when they would not be valid PostScript strings, and
    /// backslashes in the JOB (hp2ps writes them raw and can produce broken files).
    pub valid_strings: bool,
}

impl Default for PsOptions {
    fn default() -> Self {
        PsOptions {
            creator: format!("hp2ps (Rust) {}", env!("CARGO_PKG_VERSION")),
            valid_strings: true,
        }
    }
}

/// Writes the chart as PostScript (EPS when the placement is [`Placement::Eps`]).
pub fn write_ps<W: Write>(chart: &Chart, opts: &PsOptions, out: &mut W) -> io::Result<()> {
    let mut p = Painter {
        buf: Vec::with_capacity(1 << 16),
        chart,
        opts,
    };
    p.header();
    for (i, page) in chart.pages.iter().enumerate() {
        if i > 0 {
            p.text("showpage\n");
            p.placement(chart.later_placement);
        }
        p.page(page, out)?;
    }
    p.text("showpage\n");
    if matches!(chart.placement, Placement::Eps { .. }) {
        p.text("%%EOF\n");
    }
    out.write_all(&p.buf)
}

struct Painter<'a> {
    buf: Vec<u8>,
    chart: &'a Chart,
    opts: &'a PsOptions,
}

/// Bounding box of an EPS of the given width: everything the chart draws (border stroke
/// and the real extent of every label included), scaled.
pub fn eps_bounding_box(chart: &Chart, width: f64) -> [f64; 4] {
    // Rasterisers round outward to their pixel grid; a quarter point keeps that inside.
    const PAD: f64 = 0.25;
    let r = crate::bounds::drawing_bounds(chart).scaled(width / BORDER_WIDTH);
    [r.x0 - PAD, r.y0 - PAD, r.x1 + PAD, r.y1 + PAD]
}

impl Painter<'_> {
    fn text(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn num(&mut self, x: f64) {
        push_f6(&mut self.buf, x);
    }

    /// `<x> <y> <op>\n` with both numbers as `%f`.
    fn xy(&mut self, x: f64, y: f64, op: &str) {
        self.num(x);
        self.buf.push(b' ');
        self.num(y);
        self.buf.push(b' ');
        self.text(op);
        self.buf.push(b'\n');
    }

    fn flush_if_large<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        if self.buf.len() >= 1 << 16 {
            out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn header(&mut self) {
        let eps = match self.chart.placement {
            Placement::Eps { width } => Some(width),
            _ => None,
        };
        self.text(if eps.is_some() {
            "%!PS-Adobe-3.0 EPSF-3.0\n"
        } else {
            "%!PS-Adobe-2.0\n"
        });
        self.text("%%Title: ");
        let job = one_line(&self.chart.job);
        self.buf.extend_from_slice(&job);
        self.text("\n%%Creator: ");
        let creator = self.opts.creator.clone();
        self.text(&creator);
        self.text("\n%%CreationDate: ");
        let date = one_line(&self.chart.date);
        self.buf.extend_from_slice(&date);
        self.buf.push(b'\n');
        if let Some(width) = eps {
            let [x0, y0, x1, y1] = eps_bounding_box(self.chart, width);
            self.text(&format!(
                "%%BoundingBox: {} {} {} {}\n",
                x0.floor(),
                y0.floor(),
                x1.ceil(),
                y1.ceil()
            ));
            self.text(&format!(
                "%%HiResBoundingBox: {x0:.6} {y0:.6} {x1:.6} {y1:.6}\n"
            ));
        }
        self.text("%%EndComments\n");
        self.placement(self.chart.placement);
        self.text("/HE10 /Helvetica findfont 10 scalefont def\n");
        self.text("/HE12 /Helvetica findfont 12 scalefont def\n");
    }

    fn placement(&mut self, placement: Placement) {
        match placement {
            Placement::Landscape => self.text("-90 rotate\n-756.000000 72.000000 translate\n"),
            Placement::Portrait => self.text("72.000000 108.000000 translate\n"),
            Placement::Eps { width } => {
                let s = width / BORDER_WIDTH;
                self.xy(s, s, "scale");
            }
        }
    }

    fn page<W: Write>(&mut self, page: &Page, out: &mut W) -> io::Result<()> {
        self.border();
        self.title();
        if let Some(axes) = &page.axes {
            self.x_axis(axes);
            self.y_axis(axes);
        }
        for entry in &page.key {
            self.key_entry(entry);
        }
        if let Some(graph) = &page.graph {
            self.bands(graph, out)?;
            for &x in &graph.marks {
                self.mark(x, graph.y0);
                self.flush_if_large(out)?;
            }
        }
        Ok(())
    }

    fn border(&mut self) {
        self.text("newpath\n0 0 moveto\n0 ");
        self.num(BORDER_HEIGHT);
        self.text(" rlineto\n");
        self.num(BORDER_WIDTH);
        self.text(" 0 rlineto\n0 ");
        self.num(-BORDER_HEIGHT);
        self.text(" rlineto\nclosepath\n");
        self.stroke_width();
    }

    fn stroke_width(&mut self) {
        self.num(LINE_WIDTH);
        self.text(" setlinewidth\nstroke\n");
    }

    fn title(&mut self) {
        let t = self.chart.title.clone();
        self.text("newpath\n");
        self.xy(t.x, t.y, "moveto");
        self.text("0 ");
        self.num(t.height);
        self.text(" rlineto\n");
        self.num(t.width);
        self.text(" 0 rlineto\n0 ");
        self.num(-t.height);
        self.text(" rlineto\nclosepath\n");
        self.stroke_width();
        if t.big {
            let divider = t.y + t.height / 2.0;
            self.xy(t.x, divider, "moveto");
            self.num(t.width);
            self.text(" 0 rlineto\nstroke\n");
        }

        self.text("HE12 setfont\n");
        self.xy(t.job_at.0, t.job_at.1, "moveto");
        let job = escape(&t.job, Escape::Job, self.opts.valid_strings);
        self.string(&job);
        self.text(" show\n");

        let area = escape(&t.area_text, Escape::Raw, self.opts.valid_strings);
        self.text("HE12 setfont\n");
        match t.area_anchor {
            Anchor::Middle => {
                self.string(&area);
                self.text("\ndup stringwidth pop\n2 div\n");
                self.num(t.area_at.0);
                self.text("\nexch sub\n");
                self.num(t.area_at.1);
                self.text(" moveto\nshow\n");
            }
            _ => {
                self.xy(t.area_at.0, t.area_at.1, "moveto");
                self.string(&area);
                self.text("\nshow\n");
            }
        }

        let date = escape(&t.date, Escape::Raw, self.opts.valid_strings);
        self.text("HE12 setfont\n");
        self.string(&date);
        self.text("\ndup stringwidth pop\n");
        self.num(t.date_at.0);
        self.text("\nexch sub\n");
        self.num(t.date_at.1);
        self.text(" moveto\nshow\n");
    }

    /// `(<bytes>)`; the bytes are already escaped.
    fn string(&mut self, escaped: &[u8]) {
        self.buf.push(b'(');
        self.buf.extend_from_slice(escaped);
        self.buf.push(b')');
    }

    fn x_axis(&mut self, a: &Axes) {
        self.xy(a.x0, a.y0, "moveto");
        self.num(a.width);
        self.text(" 0 rlineto\n");
        self.stroke_width();
        let legend = escape(&a.x_legend, Escape::Raw, self.opts.valid_strings);
        self.text("HE10 setfont\n");
        self.string(&legend);
        self.text("\ndup stringwidth pop\n");
        self.num(a.x0 + a.width);
        self.text("\nexch sub\n");
        self.num(a.x_legend_y);
        self.text(" moveto\nshow\n");
        for tick in &a.x_ticks {
            self.xy(tick.at, a.y0, "moveto");
            self.text("0 -4 rlineto\nstroke\nHE10 setfont\n");
            self.string(&tick.label);
            self.text("\ndup stringwidth pop\n2 div\n");
            self.num(tick.at);
            self.text(" exch sub\n");
            self.num(a.x_legend_y);
            self.text(" moveto\nshow\n");
        }
    }

    fn y_axis(&mut self, a: &Axes) {
        self.xy(a.x0, a.y0, "moveto");
        self.text("0 ");
        self.num(a.height);
        self.text(" rlineto\n");
        self.stroke_width();
        let legend = escape(&a.y_legend, Escape::Raw, self.opts.valid_strings);
        self.text("gsave\nHE10 setfont\n");
        self.string(&legend);
        self.text("\ndup stringwidth pop\n");
        self.num(a.y0 + a.height);
        self.text("\nexch sub\n");
        self.num(a.y_label_x);
        self.text(" exch\ntranslate\n90 rotate\n0 0 moveto\nshow\ngrestore\n");
        for tick in &a.y_ticks {
            self.xy(a.x0, tick.at, "moveto");
            self.text("-4 0 rlineto\nstroke\nHE10 setfont\n");
            self.string(&tick.label);
            self.text("\ndup stringwidth\n2 div\n");
            self.num(tick.at);
            self.text(" exch sub\nexch\n");
            self.num(a.y_label_x);
            self.text(" exch sub\nexch\nmoveto\nshow\n");
        }
    }

    fn colour(&mut self, shade: f64) {
        if self.chart.colour {
            let [r, g, b] = shade::rgb(shade);
            self.num(r);
            self.buf.push(b' ');
            self.num(g);
            self.buf.push(b' ');
            self.num(b);
            self.text(" setrgbcolor\n");
        } else {
            self.num(shade);
            self.text(" setgray\n");
        }
    }

    fn fill_and_stroke(&mut self, shade: f64) {
        self.text("closepath\ngsave\n");
        self.colour(shade);
        self.text("fill\ngrestore\nstroke\n");
    }

    fn key_entry(&mut self, e: &KeyEntry) {
        self.xy(e.box_x, e.box_y, "moveto");
        self.text("0 14 rlineto\n14 0 rlineto\n0 -14 rlineto\n");
        self.fill_and_stroke(e.shade);
        self.text("HE10 setfont\n");
        self.xy(e.label_x, e.label_y, "moveto");
        let label = escape(&e.label, Escape::Key, self.opts.valid_strings);
        self.string(&label);
        self.text(" show\n");
    }

    /// Writes every band. Large graphs format two bands at a time on two threads: the
    /// numbers of the band polygons are nearly all of a big profile's output.
    fn bands<W: Write>(&mut self, g: &Graph, out: &mut W) -> io::Result<()> {
        // A thread per pair of bands only pays when each band is long; many short bands
        // (a profile with few samples and `-m0`) stay on this thread.
        const PARALLEL_SAMPLES: usize = 2_000;
        let n = g.bands.len();
        if g.xs.len() < PARALLEL_SAMPLES || n < 2 {
            for i in 0..n {
                self.band(g, i);
                self.flush_if_large(out)?;
            }
            return Ok(());
        }
        out.write_all(&self.buf)?;
        self.buf.clear();
        let (chart, opts) = (self.chart, self.opts);
        std::thread::scope(|scope| {
            for i in (0..n).step_by(2) {
                let next = (i + 1 < n).then(|| {
                    scope.spawn(move || {
                        let mut p = Painter {
                            buf: Vec::new(),
                            chart,
                            opts,
                        };
                        p.band(g, i + 1);
                        p.buf
                    })
                });
                self.band(g, i);
                out.write_all(&self.buf)?;
                self.buf.clear();
                if let Some(handle) = next {
                    let text = handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                    out.write_all(&text)?;
                }
            }
            Ok(())
        })
    }

    fn band(&mut self, g: &Graph, i: usize) {
        let n = g.xs.len();
        if n == 0 {
            return;
        }
        let bottom = g.bottom_of(i);
        let top = &g.bands[i].top;
        self.xy(g.xs[0], bottom.at(0), "moveto");
        for (k, &x) in g.xs.iter().enumerate() {
            self.xy(x, bottom.at(k), "lineto");
        }
        self.xy(g.xs[n - 1], top[n - 1], "lineto");
        for k in (0..n).rev() {
            self.xy(g.xs[k], top[k], "lineto");
        }
        self.fill_and_stroke(g.bands[i].shade);
    }

    fn mark(&mut self, x: f64, y0: f64) {
        self.xy(x - MARK_HALF_WIDTH, y0, "moveto");
        self.text("4.000000 -4.000000 rlineto\n4.000000 4.000000 rlineto\nclosepath\ngsave\n1.0 setgray\nfill\ngrestore\nstroke\n");
    }
}

/// Which of hp2ps's escaping rules a string gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// The JOB in the title: hp2ps escapes `(` and `)` only.
    Job,
    /// Key labels: `(`, `)` and `\`.
    Key,
    /// DATE, units and the area text: hp2ps writes them raw.
    Raw,
}

/// Escapes text for a PostScript string literal as hp2ps does. With `valid`, the result
/// always shows exactly the bytes given: the JOB gets its backslashes escaped too, a CR
/// becomes `\r` (a raw CR in a string reads as LF), and raw strings are escaped fully
/// when they are not already valid (unbalanced parentheses, a backslash or a CR). Strings
/// that hp2ps writes correctly come out unchanged.
pub fn escape(text: &[u8], rule: Escape, valid: bool) -> Vec<u8> {
    let escaped = |specials: &[u8]| {
        let mut out = Vec::with_capacity(text.len() + 8);
        for &b in text {
            if b == b'\r' && valid {
                out.extend_from_slice(b"\\r");
                continue;
            }
            if specials.contains(&b) {
                out.push(b'\\');
            }
            out.push(b);
        }
        out
    };
    match rule {
        Escape::Key => escaped(b"()\\"),
        Escape::Job if valid => escaped(b"()\\"),
        Escape::Job => escaped(b"()"),
        Escape::Raw if valid && !is_valid_ps_string(text) => escaped(b"()\\"),
        Escape::Raw => text.to_vec(),
    }
}

/// Whether bytes can sit between `(` and `)` as they are and show as themselves:
/// parentheses balanced, no backslash and no CR.
pub fn is_valid_ps_string(text: &[u8]) -> bool {
    let mut depth = 0i64;
    for &b in text {
        match b {
            b'\\' | b'\r' => return false,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Header comments must stay on one line: LF, CR and FF all end a PostScript comment.
fn one_line(text: &[u8]) -> Vec<u8> {
    text.iter()
        .map(|&b| {
            if matches!(b, b'\n' | b'\r' | 0x0c) {
                b' '
            } else {
                b
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_rules() {
        assert_eq!(escape(b"a(b)\\c", Escape::Key, true), b"a\\(b\\)\\\\c");
        assert_eq!(escape(b"j(ob)\\x", Escape::Job, false), b"j\\(ob\\)\\x");
        assert_eq!(escape(b"j(ob)\\x", Escape::Job, true), b"j\\(ob\\)\\\\x");
        assert_eq!(escape(b"(balanced)", Escape::Raw, true), b"(balanced)");
        assert_eq!(escape(b"(", Escape::Raw, true), b"\\(");
        assert_eq!(escape(b"(", Escape::Raw, false), b"(");
        assert_eq!(escape(b")(", Escape::Raw, true), b"\\)\\(");
        assert_eq!(escape(b"a\\b", Escape::Raw, true), b"a\\\\b");
        assert_eq!(escape(b"a\rb", Escape::Key, true), b"a\\rb");
        assert_eq!(escape(b"a\rb", Escape::Raw, true), b"a\\rb");
        assert_eq!(escape(b"a\rb", Escape::Raw, false), b"a\rb");
    }
}
