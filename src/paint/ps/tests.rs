//! Tests of the PostScript painter and of the format dispatch.

use super::escape::*;
use crate::internals::write_chart;
use crate::layout::chart::Chart;
use crate::paint::{Format, PaintOptions};
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::Profile;

const MANPAGE: &[u8] = include_bytes!("../../../golden/inputs/spec7-01-manpage.hp");

fn manpage() -> Chart {
    let (profile, _) = Profile::read(MANPAGE, &Default::default()).expect("test profile");
    prepare(profile, None, &RenderOptions::default()).0
}

fn painted(chart: &Chart, format: Format, opts: &PaintOptions) -> String {
    let mut out = Vec::new();
    chart.write(format, opts, &mut out).expect("write to a Vec");
    String::from_utf8(out).expect("ASCII profile")
}

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

#[test]
fn format_eps_always_writes_eps() {
    let chart = manpage();
    let eps = painted(&chart, Format::Eps, &PaintOptions::default());
    assert!(eps.starts_with("%!PS-Adobe-3.0 EPSF-3.0\n"), "{eps}");
    assert!(eps.contains("\n1.000000 1.000000 scale\n"));
    assert!(eps.ends_with("showpage\n%%EOF\n"));
    let opts = PaintOptions {
        eps_width: Some(324.0),
        ..PaintOptions::default()
    };
    let half = painted(&chart, Format::Eps, &opts);
    assert!(half.contains("\n0.500000 0.500000 scale\n"));
}

#[test]
fn format_ps_is_a_page_unless_an_eps_width_is_given() {
    let chart = manpage();
    let mut plain = Vec::new();
    write_chart(&chart, Format::Ps, &mut plain).expect("write to a Vec");
    let plain = String::from_utf8(plain).expect("ASCII");
    assert!(plain.starts_with("%!PS-Adobe-2.0\n"));
    assert!(plain.contains("\n-90 rotate\n"));
    assert!(!plain.contains("%%EOF") && !plain.contains("BoundingBox"));
    // hp2ps's `-e`: the same picture, Encapsulated.
    let opts = PaintOptions {
        eps_width: Some(324.0),
        ..PaintOptions::default()
    };
    let eps = painted(&chart, Format::Ps, &opts);
    assert_eq!(eps, painted(&chart, Format::Eps, &opts));
}

#[test]
fn later_eps_pages_lose_the_scale_as_in_hp2ps() {
    let (profile, _) = Profile::read(MANPAGE, &Default::default()).expect("test profile");
    let mut render = RenderOptions::default();
    render.layout.multipage = true;
    render.layout.portrait = true;
    let chart = prepare(profile, None, &render).0;
    let opts = PaintOptions {
        eps_width: Some(324.0),
        ..PaintOptions::default()
    };
    let eps = painted(&chart, Format::Eps, &opts);
    let placements: Vec<&str> = eps
        .lines()
        .filter(|l| l.ends_with(" scale") || l.ends_with(" translate"))
        .collect();
    assert_eq!(
        placements,
        ["0.500000 0.500000 scale", "72.000000 108.000000 translate"]
    );
}

#[test]
fn a_hand_built_band_with_too_few_tops_is_left_out() {
    let mut chart = manpage();
    let graph = chart.pages[0].graph.as_mut().expect("graph");
    let bands = graph.bands.len();
    assert!(bands >= 2);
    graph.bands[0].top.pop();
    // (The exports refuse a chart prepared without their needs: `census::data_of`.)
    for format in Format::ALL.into_iter().filter(|f| f.draws()) {
        let mut out = Vec::new();
        write_chart(&chart, format, &mut out).expect("no panic, no error");
    }
    let ps = painted(&chart, Format::Ps, &PaintOptions::default());
    // The short band and the band on top of it (whose bottom it is) are not drawn.
    let filled = ps.matches("fill\ngrestore\nstroke\n").count();
    let normal = painted(&manpage(), Format::Ps, &PaintOptions::default());
    assert_eq!(
        filled,
        normal.matches("fill\ngrestore\nstroke\n").count() - 2
    );
}
