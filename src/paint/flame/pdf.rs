//! A flame graph as a PDF document of one page, as large as the picture: the
//! layout's points are the page's. Text is the base-14 Helvetica with WinAnsiEncoding,
//! as the heap chart's PDF writes it (a character WinAnsi lacks shows as `?`).

use std::io::{self, Write};

use pdf_writer::{Content, Finish, Pdf, Ref, Str, TextStr};

use crate::fonts::{to_winansi, winansi_text_width};
use crate::layout::chart::Anchor;
use crate::layout::flame::{FlameChart, Label};
use crate::paint::pdf::{write_font, FONT};

const CATALOG: Ref = Ref::new(1);
const PAGE_TREE: Ref = Ref::new(2);
const FONT_DICT: Ref = Ref::new(3);
const INFO: Ref = Ref::new(4);
const PAGE: Ref = Ref::new(5);
const CONTENT: Ref = Ref::new(6);

/// Writes `chart` as a PDF document.
pub(super) fn write_pdf<W: Write>(chart: &FlameChart, out: &mut W) -> io::Result<()> {
    let mut pdf = Pdf::new();
    pdf.catalog(CATALOG).pages(PAGE_TREE);
    pdf.pages(PAGE_TREE).kids([PAGE]).count(1);
    write_font(&mut pdf, FONT_DICT);
    pdf.document_info(INFO)
        .title(TextStr(&chart.name))
        .creator(TextStr(&format!("hp2ps {}", env!("CARGO_PKG_VERSION"))));
    let mut page = pdf.page(PAGE);
    let media = pdf_writer::Rect::new(0.0, 0.0, chart.width as f32, chart.height as f32);
    page.parent(PAGE_TREE).media_box(media).contents(CONTENT);
    page.resources().fonts().pair(FONT, FONT_DICT);
    page.finish();
    pdf.stream(CONTENT, &content(chart));
    out.write_all(&pdf.finish())
}

/// The page's drawing.
fn content(chart: &FlameChart) -> Vec<u8> {
    let mut c = Content::new();
    c.set_line_width(0.5);
    c.set_fill_rgb(1.0, 1.0, 1.0);
    c.rect(0.0, 0.0, chart.width as f32, chart.height as f32);
    c.fill_nonzero_and_stroke();
    let t = &chart.title;
    c.rect(t.x as f32, t.y as f32, t.width as f32, t.height as f32);
    c.stroke();
    c.set_fill_rgb(0.0, 0.0, 0.0);
    for label in t.texts.iter().chain([&chart.caption]) {
        text(&mut c, label);
    }
    for f in &chart.frames {
        let [r, g, b] = f.fill.map(|v| f32::from(v) / 255.0);
        c.set_fill_rgb(r, g, b);
        c.rect(f.x as f32, f.y as f32, f.width as f32, f.height as f32);
        c.fill_nonzero();
        if let Some(l) = &f.label {
            c.set_fill_rgb(0.0, 0.0, 0.0);
            text(&mut c, l);
        }
    }
    c.finish().into_vec()
}

/// `label`, aligned as it says with the widths the viewer uses.
fn text(c: &mut Content, label: &Label) {
    if label.text.is_empty() {
        return;
    }
    let bytes = to_winansi(label.text.as_bytes());
    let width = winansi_text_width(&bytes, label.size);
    let x = match label.anchor {
        Anchor::Start => label.x,
        Anchor::Middle => label.x - width / 2.0,
        Anchor::End => label.x - width,
    };
    c.begin_text();
    c.set_font(FONT, label.size as f32);
    c.next_line(x as f32, label.y as f32);
    c.show(Str(&bytes));
    c.end_text();
}
