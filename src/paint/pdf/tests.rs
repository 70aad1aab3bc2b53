//! Tests of the PDF painter.

use super::*;
use crate::layout::LayoutOptions;
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::Profile;
use crate::read::hp::ReadOptions;

const PROFILE: &str = "JOB \"prog +RTS -hT\"\nDATE \"Thu Jan  1 00:00 1970\"\n\
    SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
    BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
    BEGIN_SAMPLE 1.0\nMAIN\t1000\ncaf\u{e9}\t500\nfoo\u{2192}bar\t300\nEND_SAMPLE 1.0\n\
    MARK 1.5\n\
    BEGIN_SAMPLE 2.0\nMAIN\t2000\ncaf\u{e9}\t800\nfoo\u{2192}bar\t100\nEND_SAMPLE 2.0\n";

fn chart_of(hp: &[u8], layout: LayoutOptions) -> Chart {
    let (profile, _) = Profile::read(hp, &ReadOptions::default()).expect("profile reads");
    let opts = RenderOptions {
        layout,
        ..RenderOptions::default()
    };
    prepare(profile, None, &opts).0
}

fn pdf_of(chart: &Chart, opts: &PdfOptions) -> Vec<u8> {
    let mut out = Vec::new();
    write_pdf(chart, opts, &mut out).expect("writes to a Vec");
    out
}

#[test]
fn output_is_deterministic() {
    let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    let a = pdf_of(&chart, &PdfOptions::default());
    let b = pdf_of(&chart, &PdfOptions::default());
    assert_eq!(a, b);
    let text = String::from_utf8_lossy(&a);
    assert!(!text.contains("/ID") && !text.contains("CreationDate"));
    assert!(text.contains("/Title (prog +RTS -hT)"));
    assert!(text.contains(&format!("/Creator (hp2ps {})", env!("CARGO_PKG_VERSION"))));
}

#[test]
fn one_pdf_page_per_chart_page() {
    let layout = LayoutOptions {
        multipage: true,
        ..LayoutOptions::default()
    };
    let chart = chart_of(PROFILE.as_bytes(), layout);
    assert_eq!(chart.pages.len(), 2);
    let pdf = pdf_of(&chart, &PdfOptions::default());
    let text = String::from_utf8_lossy(&pdf);
    assert_eq!(
        text.matches("/Type /Page\n").count() + text.matches("/Type /Page ").count(),
        2
    );
    assert!(text.contains("/Count 2"));
}

#[test]
fn page_is_the_scaled_border_box_plus_half_a_line() {
    let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    let opts = PdfOptions {
        width: 324.0,
        ..PdfOptions::default()
    };
    let text = String::from_utf8_lossy(&pdf_of(&chart, &opts)).into_owned();
    assert!(text.contains("/MediaBox [0 0 324.25 216.25]"), "{text}");
    assert!(text.contains("0.5 0 0 0.5 0.125 0.125 cm"));
}

#[test]
fn the_page_grows_to_show_a_label_wider_than_estimated() {
    // hp2ps estimates 5.1 pt for `a`; Helvetica's is 5.56 pt, so this label ends
    // past the border.
    let name = "a".repeat(100);
    let hp = PROFILE.replace("MAIN", &name);
    let chart = chart_of(hp.as_bytes(), LayoutOptions::default());
    let key = chart.pages[0]
        .key
        .iter()
        .find(|k| k.label == name.as_bytes());
    let key = key.expect("the long name is in the key");
    let right = key.label_x + winansi_text_width(name.as_bytes(), SMALL_FONT);
    assert!(right > BORDER_WIDTH + 20.0, "{right}");
    let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
    let media = format!("/MediaBox [0 0 {} 432.5]", (right + 0.25) as f32);
    assert!(text.contains(&media), "{media} not in {text}");
}

#[test]
fn the_page_grows_by_at_most_one_box_size_per_side() {
    let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    chart.pages[0].graph.as_mut().expect("graph").marks[0] = -1e300;
    let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
    assert!(text.contains("/MediaBox [0 0 1296.25 432.5]"), "{text}");
    assert!(text.contains("1 0 0 1 648 0.25 cm"), "{text}");
}

#[test]
fn names_outside_winansi_show_as_question_marks() {
    let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    let pdf = pdf_of(&chart, &PdfOptions::default());
    let has = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
    assert!(has(b"(foo?bar) Tj"));
    // é is WinAnsi 0xE9 (pdf-writer writes non-ASCII strings in hex).
    assert!(has(b"<636166E9> Tj"));
}

#[test]
fn a_cut_multibyte_character_is_left_out_of_the_title() {
    let full = "aé".as_bytes();
    assert_eq!(shown_job(&full[..2], full), b"a");
    assert_eq!(shown_job(b"caf\xe9", b"caf\xe9 au lait"), b"caf\xe9");
    assert_eq!(shown_job(full, full), full);
}

#[test]
fn non_finite_coordinates_leave_the_element_out() {
    let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    let normal = pdf_of(&chart, &PdfOptions::default());
    let page = &mut chart.pages[0];
    let graph = page.graph.as_mut().expect("graph");
    graph.bands[0].top[0] = f64::NAN;
    graph.marks[0] = f64::INFINITY;
    page.key[0].label_x = f64::NEG_INFINITY;
    let pdf = pdf_of(&chart, &PdfOptions::default());
    let text = String::from_utf8_lossy(&pdf);
    let bad = ["NaN", "nan", "inf", "-inf"];
    assert!(!text.split_whitespace().any(|w| bad.contains(&w)), "{text}");
    let count = |pdf: &[u8], op: &str| String::from_utf8_lossy(pdf).matches(op).count();
    // The broken band and the one above it (whose bottom is the broken top) are
    // gone, and so are the mark and the key label.
    assert_eq!(count(&pdf, "\nb\n"), count(&normal, "\nb\n") - 3);
    assert_eq!(count(&pdf, " Tj"), count(&normal, " Tj") - 1);
}

#[test]
fn huge_coordinates_are_clamped_to_valid_numbers() {
    let mut chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    chart.pages[0].graph.as_mut().expect("graph").marks[0] = 1e300;
    let text = String::from_utf8_lossy(&pdf_of(&chart, &PdfOptions::default())).into_owned();
    assert!(text.contains("1000000 20 l"), "{text}");
}

#[test]
fn bad_widths_fall_back_to_648() {
    let chart = chart_of(PROFILE.as_bytes(), LayoutOptions::default());
    for width in [0.0, -5.0, f64::NAN, f64::INFINITY] {
        let opts = PdfOptions {
            width,
            ..PdfOptions::default()
        };
        let text = String::from_utf8_lossy(&pdf_of(&chart, &opts)).into_owned();
        assert!(text.contains("/MediaBox [0 0 648.5 432.5]"), "{width}");
    }
}
