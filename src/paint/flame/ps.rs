//! A flame graph as PostScript: a page of its size, or Encapsulated (a bounding box of
//! the picture). Helvetica with its StandardEncoding shows ASCII: a label's other
//! characters are written `?` (an ellipsis `...`), never raw bytes, so that what is shown
//! is as wide as the layout measured it, or narrower.

use std::io::{self, Write};

use crate::layout::chart::Anchor;
use crate::layout::flame::{FlameChart, Label};
use crate::paint::ps::{escape, Escape};
use crate::paint::svg::number;

/// Writes `chart` as PostScript (`eps`: Encapsulated).
pub(super) fn write_ps<W: Write>(chart: &FlameChart, eps: bool, out: &mut W) -> io::Result<()> {
    let (w, h) = (number(chart.width), number(chart.height));
    let (wi, hi) = (chart.width.ceil() as i64, chart.height.ceil() as i64);
    let mut s = String::with_capacity(512 + chart.frames.len() * 96);
    s.push_str(if eps {
        "%!PS-Adobe-3.0 EPSF-3.0\n"
    } else {
        "%!PS-Adobe-3.0\n"
    });
    s.push_str(&format!("%%BoundingBox: 0 0 {wi} {hi}\n"));
    s.push_str(&format!(
        "%%Title: {}\n",
        ascii(&chart.name).replace(['\n', '\r'], " ")
    ));
    s.push_str(&format!(
        "%%Creator: hp2ps (Rust) {}\n%%Pages: 1\n%%EndComments\n",
        env!("CARGO_PKG_VERSION")
    ));
    s.push_str(
        "/R { newpath 4 2 roll moveto 1 index 0 rlineto 0 exch rlineto neg 0 rlineto closepath } def\n\
         /S { /Helvetica findfont exch scalefont setfont } def\n\
         /T { moveto show } def\n\
         /C { moveto dup stringwidth pop 2 div neg 0 rmoveto show } def\n\
         /E { moveto dup stringwidth pop neg 0 rmoveto show } def\n",
    );
    if !eps {
        s.push_str(&format!(
            "%%Page: 1 1\n<< /PageSize [{w} {h}] >> setpagedevice\n"
        ));
    }
    s.push_str(&format!(
        "0.5 setlinewidth\n1 setgray 0 0 {w} {h} R fill\n0 setgray 0 0 {w} {h} R stroke\n"
    ));
    let t = &chart.title;
    s.push_str(&format!(
        "{} {} {} {} R stroke\n",
        number(t.x),
        number(t.y),
        number(t.width),
        number(t.height)
    ));
    for label in t.texts.iter().chain([&chart.caption]) {
        text(&mut s, label);
    }
    for f in &chart.frames {
        let [r, g, b] = f.fill.map(|v| number(f64::from(v) / 255.0));
        s.push_str(&format!(
            "{r} {g} {b} setrgbcolor {} {} {} {} R fill\n",
            number(f.x),
            number(f.y),
            number(f.width),
            number(f.height)
        ));
        if let Some(l) = &f.label {
            s.push_str("0 setgray\n");
            text(&mut s, l);
        }
    }
    s.push_str("showpage\n%%EOF\n");
    out.write_all(s.as_bytes())
}

/// `text` in printable ASCII: an ellipsis as `...`, other characters `?`.
fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{2026}' => String::from("..."),
            ' '..='~' => c.to_string(),
            _ => String::from("?"),
        })
        .collect()
}

/// `label` shown at its place.
fn text(s: &mut String, label: &Label) {
    if label.text.is_empty() {
        return;
    }
    let shown = escape(ascii(&label.text).as_bytes(), Escape::Key, true);
    let op = match label.anchor {
        Anchor::Start => "T",
        Anchor::Middle => "C",
        Anchor::End => "E",
    };
    s.push_str(&format!(
        "{} S ({}) {} {} {op}\n",
        number(label.size),
        String::from_utf8_lossy(&shown),
        number(label.x),
        number(label.y)
    ));
}
