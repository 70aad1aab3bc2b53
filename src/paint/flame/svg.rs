//! A flame graph as one SVG document: the layout's points are the `viewBox` (y turned
//! downwards: `height − y`), each frame a group holding its tooltip (`<title>`), its
//! rectangle and its label.

use std::io::{self, Write};

use crate::layout::chart::Anchor;
use crate::layout::flame::{FlameChart, Label};
use crate::paint::svg::{escape, hex, number, FONT_FAMILY};

/// Writes `chart` as an SVG document.
pub(super) fn write_svg<W: Write>(chart: &FlameChart, out: &mut W) -> io::Result<()> {
    let mut s = String::with_capacity(256 + chart.frames.len() * 160);
    let h = chart.height;
    let (w, ht) = (number(chart.width), number(h));
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}pt\" \
         height=\"{ht}pt\" viewBox=\"0 0 {w} {ht}\" font-family=\"{}\">\n",
        escape(FONT_FAMILY.as_bytes())
    ));
    s.push_str(&format!(
        "<title>{}</title>\n",
        escape(chart.name.as_bytes())
    ));
    s.push_str(&format!(
        "<rect width=\"{w}\" height=\"{ht}\" fill=\"#ffffff\" stroke=\"#000000\" \
         stroke-width=\"0.5\"/>\n"
    ));
    let t = &chart.title;
    s.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"#000000\" stroke-width=\"0.5\"/>\n",
        number(t.x),
        number(h - t.y - t.height),
        number(t.width),
        number(t.height)
    ));
    for label in t.texts.iter().chain([&chart.caption]) {
        text(&mut s, label, h);
    }
    s.push_str("<g class=\"frames\">\n");
    for f in &chart.frames {
        s.push_str("<g><title>");
        s.push_str(&escape(f.tooltip.as_bytes()));
        s.push_str(&format!(
            "</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
            number(f.x),
            number(h - f.y - f.height),
            number(f.width),
            number(f.height),
            hex(f.fill)
        ));
        if let Some(l) = &f.label {
            text(&mut s, l, h);
        }
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n</svg>\n");
    out.write_all(s.as_bytes())
}

/// A text element of `label` on a page `h` high.
fn text(s: &mut String, label: &Label, h: f64) {
    if label.text.is_empty() {
        return;
    }
    let anchor = match label.anchor {
        Anchor::Start => "",
        Anchor::Middle => " text-anchor=\"middle\"",
        Anchor::End => " text-anchor=\"end\"",
    };
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\"{anchor} xml:space=\"preserve\">{}</text>",
        number(label.x),
        number(h - label.y),
        number(label.size),
        escape(label.text.as_bytes())
    ));
    s.push('\n');
}
