//! The flame graph's painters on a tree made by hand: each writes every frame and text,
//! the same bytes each time; a format that is no picture is refused.

use super::*;
use crate::calltree::{CallTree, Columns, Row, TreeBuilder};
use crate::layout::flame::{flame_chart, FlameOptions};

fn tree() -> CallTree {
    let mut b = TreeBuilder::new(Columns::report(false));
    let h = b.header_mut();
    h.command_line = Some("prog (a) <b> & \\c".into());
    h.total_time = Some(1.5);
    h.total_alloc = Some(123_456);
    let main = b.cost_centre("MAIN", "MAIN", "<built-in>", false);
    let f = b.cost_centre("f<&>(x)", "Main", "M.hs:1:1", false);
    let g = b.cost_centre("größe…", "Main", "M.hs:2:1", false);
    let row = |t: f64, inh: f64| Row {
        time: t,
        inherited_time: inh,
        ..Row::default()
    };
    b.push(0, main, None, row(0.0, 100.0));
    b.push(1, f, None, row(60.0, 60.0));
    b.push(1, g, None, row(40.0, 40.0));
    b.finish()
}

fn painted(format: Format) -> Vec<u8> {
    let chart = flame_chart(&tree(), &FlameOptions::default());
    let mut out = Vec::new();
    write_flame(&chart, format, &mut out).expect("painted");
    out
}

#[test]
fn each_painter_writes_every_frame_the_same_bytes_each_time() {
    for format in [Format::Svg, Format::Pdf, Format::Ps, Format::Eps] {
        assert_eq!(painted(format), painted(format), "{format:?}");
    }
    let svg = String::from_utf8(painted(Format::Svg)).expect("UTF-8");
    assert_eq!(svg.matches("<g><title>").count(), 3);
    assert!(svg.contains(">f&lt;&amp;&gt;(x)</text>"), "{svg}");
    assert!(svg.contains(">größe…</text>"));
    assert!(svg.contains("<title>prog (a) &lt;b&gt; &amp; \\c</title>"));
    let ps = String::from_utf8(painted(Format::Eps)).expect("ASCII");
    assert!(ps.starts_with("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 648 "));
    assert!(ps.contains("(f<&>\\(x\\))"), "{ps}");
    assert!(ps.contains("(gr??e...)"), "{ps}");
    assert!(ps.contains("(prog \\(a\\) <b> & \\\\c)"));
    assert!(ps.is_ascii());
    let pdf = painted(Format::Pdf);
    assert!(pdf.starts_with(b"%PDF-"));
    // WinAnsi: ö, ß and the ellipsis are one byte each (pdf-writer writes such a
    // string in hex).
    assert!(pdf.windows(14).any(|w| w == b"<6772F6DF6585>"));
}

#[test]
fn a_format_that_is_no_picture_is_refused() {
    let chart = flame_chart(&tree(), &FlameOptions::default());
    for format in [Format::Html, Format::Prometheus, Format::Pprof] {
        assert!(!format.draws_flame());
        let e = write_flame(&chart, format, &mut Vec::new()).expect_err("refused");
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }
}
