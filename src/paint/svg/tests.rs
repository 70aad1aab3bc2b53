//! Tests of the SVG painter.

use super::*;
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::Profile;

fn chart_of(hp: &[u8], opts: &RenderOptions) -> Chart {
    let (profile, _) = Profile::read(hp, &Default::default()).expect("test profile");
    prepare(profile, None, opts).0
}

fn svg_of(chart: &Chart) -> String {
    let mut out = Vec::new();
    write_svg(chart, &SvgOptions::default(), &mut out).expect("write to a Vec");
    String::from_utf8(out).expect("SVG is UTF-8")
}

const MANPAGE: &[u8] = include_bytes!("../../../golden/inputs/spec7-01-manpage.hp");

#[test]
fn escapes_the_five_xml_specials() {
    assert_eq!(escape(b"a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&apos;f");
    assert_eq!(escape(b"&amp;"), "&amp;amp;");
}

#[test]
fn escapes_controls() {
    assert_eq!(escape(b"a\tb\nc\rd"), "a&#9;b&#10;c&#13;d");
    assert_eq!(
        escape(b"\x00\x01\x1b\x1f \x7f"),
        "\u{fffd}\u{fffd}\u{fffd}\u{fffd} \x7f"
    );
    assert_eq!(
        escape("x\u{fffe}\u{ffff}y".as_bytes()),
        "x\u{fffd}\u{fffd}y"
    );
}

#[test]
fn keeps_valid_utf8_and_marks_invalid_bytes() {
    assert_eq!(escape("λx → café 🙂".as_bytes()), "λx → café 🙂");
    // Latin-1 "café" (GHC's -hd/-hy names): the lone 0xE9 is one bad sequence.
    assert_eq!(escape(b"caf\xe9"), "caf\u{fffd}");
    // Latin-1 letters in a row stay one replacement each.
    assert_eq!(escape(b"\xe0\xe9\xfc"), "\u{fffd}\u{fffd}\u{fffd}");
    // A UTF-8 character cut by -L: one replacement for the incomplete sequence.
    assert_eq!(escape(b"ab\xe2\x86"), "ab\u{fffd}");
    assert_eq!(escape(b"\xff<"), "\u{fffd}&lt;");
}

#[test]
fn numbers_are_short_and_deterministic() {
    assert_eq!(number(0.0), "0");
    assert_eq!(number(-0.0), "0");
    assert_eq!(number(-0.0001), "0");
    assert_eq!(number(412.0), "412");
    assert_eq!(number(512.976372), "512.976");
    assert_eq!(number(67.75), "67.75");
    assert_eq!(number(-4.5), "-4.5");
    assert_eq!(number(1e20), "100000000000000000000");
}

#[test]
fn colours_are_clamped() {
    use crate::layout::chart::Fill::{Grey, Shade};
    let colour_of = |fill: Fill| hex(fill.srgb());
    assert_eq!(colour_of(Grey(0.2)), "#333333");
    assert_eq!(colour_of(Grey(1.0)), "#ffffff");
    assert_eq!(colour_of(Grey(1.5)), "#ffffff");
    assert_eq!(colour_of(Grey(-1.0)), "#000000");
    assert_eq!(colour_of(Shade(0.100005)), "#ff0080");
    // A mono shade read back under -c: red 2.0 clamps to 1.
    assert_eq!(colour_of(Shade(0.2)), "#ff0000");
    assert_eq!(colour_of(Grey(f64::NAN)), "#000000");
}

#[test]
fn draws_what_the_postscript_draws() {
    let chart = chart_of(MANPAGE, &RenderOptions::default());
    let svg = svg_of(&chart);
    let count = |needle: &str| svg.matches(needle).count();
    let page = &chart.pages[0];
    let axes = page.axes.as_ref().expect("axes");
    let graph = page.graph.as_ref().expect("graph");
    // Border, title box, key boxes, bands, marks.
    let polygons = 2 + page.key.len() + graph.bands.len() + graph.marks.len();
    assert_eq!(count("<polygon "), polygons);
    // Two axes and the ticks.
    assert_eq!(
        count("<polyline "),
        2 + axes.x_ticks.len() + axes.y_ticks.len()
    );
    let texts = 3 + 2 + axes.x_ticks.len() + axes.y_ticks.len() + page.key.len();
    assert_eq!(count("<text "), texts);
    assert!(svg.contains("width=\"648pt\" height=\"432pt\" viewBox=\"0 0 648 432\""));
    // The y legend "bytes" (2390 units wide) reads upwards and ends at the top of the
    // y axis (y = 432 − 402 = 30): in its rotated frame it starts at −23.9.
    assert!(svg.contains(
        " transform=\"translate(40 30) rotate(-90)\" x=\"-23.9\">b<tspan x=\"-18.34\">y\
         </tspan><tspan x=\"-13.34\">t</tspan><tspan x=\"-10.56\">e</tspan>\
         <tspan x=\"-5\">s</tspan></text>"
    ));
    // The y tick label "50": right-aligned to 40 (digits are 556 wide), its baseline on
    // the tick.
    let tick = &axes.y_ticks[1];
    assert_eq!(tick.label, b"50");
    let y = number(432.0 - tick.at);
    let want = format!("x=\"28.88\" y=\"{y}\">5<tspan x=\"34.44\">0</tspan></text>");
    assert!(svg.contains(&want), "{want}");
    // The area text "648 bytes x seconds" (9116 units at 12 pt) is centred on 319.
    assert!(svg.contains(" x=\"264.304\" y=\"19\">6<tspan x=\"270.976\">4</tspan>"));
    assert!(
        !svg.contains("text-anchor"),
        "every text here has Helvetica widths"
    );
}

/// The whole baseline: every glyph shows.
const ALL: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

fn xs(glyphs: Option<Vec<(f64, char)>>) -> Option<Vec<f64>> {
    glyphs.map(|g| g.iter().map(|&(x, _)| x).collect())
}

#[test]
fn glyph_positions_follow_helvetica_widths() {
    let close = |got: Option<Vec<f64>>, want: &[f64]| {
        let got = got.expect("positions");
        got.len() == want.len() && got.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9)
    };
    // "AV": 667 + 667, no kerning.
    let at = |anchor| xs(glyph_positions(b"AV", 10.0, 10.0, anchor, ALL));
    assert!(close(at(Anchor::Start), &[10.0, 16.67]));
    assert!(close(at(Anchor::End), &[-3.34, 3.33]));
    assert!(close(at(Anchor::Middle), &[3.33, 10.0]));
    // Latin-1 and WinAnsi's extras have widths; a space too; so has a real `?`.
    let latin = xs(glyph_positions(
        "é €?".as_bytes(),
        0.0,
        10.0,
        Anchor::Start,
        ALL,
    ));
    assert!(close(latin, &[0.0, 5.56, 8.34, 13.9]));
    // Characters outside Helvetica, controls and bad UTF-8 leave it to the viewer.
    assert_eq!(
        glyph_positions("a→b".as_bytes(), 0.0, 10.0, Anchor::Start, ALL),
        None
    );
    assert_eq!(
        glyph_positions(b"a\tb", 0.0, 10.0, Anchor::Start, ALL),
        None
    );
    assert_eq!(
        glyph_positions(b"a\x7f", 0.0, 10.0, Anchor::Start, ALL),
        None
    );
    assert_eq!(
        glyph_positions(b"caf\xe9", 0.0, 10.0, Anchor::Start, ALL),
        None
    );
}

#[test]
fn glyphs_are_escaped_one_by_one() {
    let mut chart = chart_of(MANPAGE, &RenderOptions::default());
    chart.pages[0].key[0].label = b"a<&".to_vec();
    let svg = svg_of(&chart);
    // The key label starts at 45 + 512.976 + 24; `a` is 556 wide, `<` 584.
    let want = "x=\"581.976\" y=\"369.25\">a<tspan x=\"587.536\">&lt;</tspan>\
                <tspan x=\"593.376\">&amp;</tspan></text>";
    assert!(svg.contains(want), "{want}");
}

#[test]
fn text_without_helvetica_widths_is_aligned_by_the_viewer() {
    let mut chart = chart_of(MANPAGE, &RenderOptions::default());
    chart.title.date = "1992 → now".as_bytes().to_vec();
    let svg = svg_of(&chart);
    assert!(svg.contains("text-anchor=\"end\" x=\"637\" y=\"19\">1992 → now</text>"));
}

#[test]
fn band_polygons_follow_the_postscript_vertex_sequence() {
    let chart = chart_of(MANPAGE, &RenderOptions::default());
    let graph = chart.pages[0].graph.as_ref().expect("graph");
    let n = graph.xs.len();
    let svg = svg_of(&chart);
    let polygons: Vec<&str> = svg
        .lines()
        .filter(|l| l.starts_with("<polygon") && l.contains("fill=\"#"))
        .collect();
    let key = chart.pages[0].key.len();
    // After the key boxes come the bands, each with 2n + 2 vertices.
    let first_band = polygons[key];
    let points = first_band.split('"').nth(1).expect("points attribute");
    assert_eq!(points.split(' ').count(), 2 * n + 2);
    let first = format!("{},{}", number(graph.xs[0]), number(432.0 - graph.y0));
    assert!(points.starts_with(&format!("{first} {first} ")), "{points}");
}

#[test]
fn output_is_deterministic() {
    let opts = RenderOptions {
        layout: crate::layout::LayoutOptions {
            colour: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let a = svg_of(&chart_of(MANPAGE, &opts));
    let b = svg_of(&chart_of(MANPAGE, &opts));
    assert_eq!(a, b);
    assert!(a.contains("fill=\"#0000ff\""), "colour shades are used");
}

#[test]
fn pages_are_stacked_vertically() {
    let opts = RenderOptions {
        layout: crate::layout::LayoutOptions {
            multipage: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let chart = chart_of(MANPAGE, &opts);
    assert_eq!(chart.pages.len(), 2, "-M: key page, then graph page");
    let svg = svg_of(&chart);
    assert!(svg.contains("width=\"648pt\" height=\"864pt\" viewBox=\"0 0 648 864\""));
    assert!(svg.contains("<g transform=\"translate(0 432)\">"));
    // Each page has its border, and the graph (with its axes) is on page 2 only.
    let (page1, page2) = svg.split_at(svg.find("translate(0 432)").expect("page 2"));
    assert_eq!(
        page1.matches("points=\"0,432 0,0 648,0 648,432\"").count(),
        1
    );
    assert_eq!(
        page2.matches("points=\"0,432 0,0 648,0 648,432\"").count(),
        1
    );
    assert!(!page1.contains("rotate(-90)") && page2.contains("rotate(-90)"));
}

#[test]
fn width_scales_the_picture_only() {
    let chart = chart_of(MANPAGE, &RenderOptions::default());
    let mut out = Vec::new();
    write_svg(&chart, &SvgOptions { width: 432.0 }, &mut out).expect("write");
    let svg = String::from_utf8(out).expect("UTF-8");
    assert!(svg.contains("width=\"432pt\" height=\"288pt\" viewBox=\"0 0 648 432\""));
}

#[test]
fn names_with_bad_bytes_and_specials_stay_well_formed() {
    let hp = b"JOB \"a<&>\"\"b\x01\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
               BEGIN_SAMPLE 0.0\ncaf\xe9 10\nx\xe2\x86 5\na<b>&\"' 3\nEND_SAMPLE 0.0\n\
               BEGIN_SAMPLE 1.0\ncaf\xe9 10\nEND_SAMPLE 1.0\n";
    let svg = svg_of(&chart_of(hp, &RenderOptions::default()));
    assert!(svg.contains(">caf\u{fffd}</text>"));
    assert!(svg.contains(">x\u{fffd}</text>"));
    assert!(svg.contains("\">&apos;</tspan></text>"));
    assert!(svg.contains("<title>a&lt;&amp;&gt;&quot;b\u{fffd}</title>"));
}

#[test]
fn non_finite_coordinates_leave_the_element_out() {
    let mut chart = chart_of(MANPAGE, &RenderOptions::default());
    let graph = chart.pages[0].graph.as_mut().expect("graph");
    graph.bands[0].top[0] = f64::NAN;
    let svg = svg_of(&chart);
    assert!(!svg.contains("NaN") && !svg.contains("inf"));
    let (bands, marks) = chart.pages[0]
        .graph
        .as_ref()
        .map_or((0, 0), |g| (g.bands.len(), g.marks.len()));
    // The broken band and the one above it (whose bottom is the broken top) are gone.
    let filled = svg.matches("<polygon points=").count();
    let unbroken = 2 + chart.pages[0].key.len() + bands - 2 + marks;
    assert_eq!(filled, unbroken);
}

/// Only what the page shows is placed: a DATE of a megabyte (right-aligned in the title
/// box) keeps its last glyphs, the units along the axes what fits beside them, and the
/// elements of any one text stay a few hundred; text the viewer lays out keeps
/// `MOST_UNPLACED` characters from its anchored end.
#[test]
fn text_past_the_page_is_left_out() {
    let mut chart = chart_of(MANPAGE, &RenderOptions::default());
    let long = |n: usize| -> Vec<u8> { (0..n).map(|i| b'a' + (i % 26) as u8).collect() };
    chart.title.date = [long(1 << 20), b"END".to_vec()].concat();
    let axes = chart.pages[0].axes.as_mut().unwrap();
    axes.x_legend = long(1 << 20);
    axes.y_legend = [long(1 << 20), b"TOP".to_vec()].concat();
    chart.pages[0].key[0].label = [b"START".to_vec(), long(1 << 20)].concat();
    let svg = svg_of(&chart);
    assert!(svg.len() < 200_000, "{} bytes", svg.len());
    for text in svg.split("<text").skip(1) {
        let spans = text.matches("<tspan").count();
        assert!(spans < 700, "{spans} glyphs in one text");
    }
    // The ends that show are kept: the DATE's and the y legend's last glyphs, the key
    // label's first.
    for end in ["E</tspan><tspan x=\"", "N</tspan><tspan x=\"", ">S<tspan"] {
        assert!(svg.contains(end), "{end}");
    }
    assert!(
        svg.contains("\">T</tspan><tspan x=\""),
        "the y legend's end"
    );
    // Greek is laid out by the viewer: its last characters, at most MOST_UNPLACED.
    let mut chart = chart_of(MANPAGE, &RenderOptions::default());
    let greek = "λ".repeat(5000) + "Ω";
    chart.title.date = greek.into_bytes();
    let svg = svg_of(&chart);
    let shown = svg.split("text-anchor=\"end\"").nth(1).expect("the DATE");
    let shown = &shown[shown.find('>').unwrap() + 1..shown.find("</text>").unwrap()];
    assert_eq!(shown.chars().count(), glyphs::MOST_UNPLACED);
    assert!(shown.ends_with('Ω'));
}
