//! Tests of the command-line scanner and its rules.

use super::*;
use crate::needs::XLabels;
use crate::NameOrder;

pub(super) fn inv(args: &[&str]) -> Invocation {
    match parse(args.iter().map(OsString::from)) {
        Ok(Command::Render(inv)) => *inv,
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn glued_values_and_p_bundling() {
    let i = inv(&["-e8in", "-m5", "-t0.5", "-pc", "x.hp"]);
    assert_eq!(i.paint.eps_width, Some(576.0));
    assert_eq!(i.render.aggregate.band_limit, 5);
    assert_eq!(i.render.aggregate.trace_percent, 0.5);
    assert!(i.use_aux && i.render.layout.colour);
    assert_eq!(i.files, vec![OsString::from("x.hp")]);
}

#[test]
fn a_letter_other_than_p_swallows_the_rest() {
    let i = inv(&["-cp", "-bz", "-dy"]);
    assert!(!i.use_aux && i.render.layout.colour && i.render.layout.big_title);
    assert!(i.render.aggregate.by_deviation && i.render.layout.marks);
}

#[test]
fn atoi_and_atof_values() {
    assert_eq!(inv(&["-m3x"]).render.aggregate.band_limit, 3);
    assert_eq!(inv(&["-mabc"]).render.aggregate.band_limit, 0);
    assert_eq!(inv(&["-m"]).render.aggregate.band_limit, 0);
    assert_eq!(inv(&["-m-3"]).render.aggregate.band_limit, -3);
    assert_eq!(inv(&["-t"]).render.aggregate.trace_percent, 0.0);
    assert_eq!(inv(&["-t1e-1"]).render.aggregate.trace_percent, 0.1);
    // Units are case-sensitive: "IN" is not inches, so this is 200 points.
    assert_eq!(inv(&["-e200IN"]).paint.eps_width, Some(200.0));
    assert_eq!(inv(&["-e150mm"]).paint.eps_width, Some(150.0 * 2.834646));
    assert_eq!(
        inv(&["-i-"]).render.aggregate.by_name,
        Some(NameOrder::Descending)
    );
    assert_eq!(
        inv(&["-i+"]).render.aggregate.by_name,
        Some(NameOrder::Ascending)
    );
    assert_eq!(inv(&["-l"]).render.aggregate.band_limit, 0);
    assert_eq!(inv(&["-m3", "-m5"]).render.aggregate.band_limit, 5);
    let sticky = inv(&["-m30", "-m5"]).render;
    assert!(sticky.layout.multipage && sticky.aggregate.band_limit == 5);
    assert!(inv(&["-"]).files.is_empty());
}

#[test]
fn bad_flags_and_values_are_usage_errors() {
    for bad in [
        "-t6", "-t-1", "-tnan", "-e1in", "-e144", "-e", "-enan", "-einf", "-x", "--foo", "-pz",
        "-pt6",
    ] {
        assert!(parse([OsString::from(bad)]).is_err(), "{bad}");
    }
    assert!(parse([OsString::from("-e145")]).is_ok());
}

#[test]
fn format_and_output() {
    let i = inv(&["--format", "svg", "a.hp"]);
    assert_eq!(i.format(), Format::Svg);
    assert_eq!(inv(&["--format=PDF"]).format(), Format::Pdf);
    assert_eq!(inv(&["-o", "x.pdf"]).format(), Format::Pdf);
    assert_eq!(inv(&["-ox.svg"]).format(), Format::Svg);
    assert_eq!(inv(&["--output=x.eps"]).format(), Format::Eps);
    assert_eq!(inv(&["--format", "ps", "-o", "x.svg"]).format(), Format::Ps);
    assert_eq!(inv(&["-o", "-"]).format(), Format::Ps);
    assert_eq!(inv(&["-e6in", "x.hp"]).format(), Format::Ps);
    assert_eq!(inv(&["--format", "eps"]).paint.eps_width, None);
    assert_eq!(
        inv(&["--format", "eps", "-e6in"]).paint.eps_width,
        Some(432.0)
    );
    assert!(parse(["--format", "gif"].map(OsString::from)).is_err());
    assert!(parse(["--format"].map(OsString::from)).is_err());
    assert!(parse(["-o", "x.ps", "a.hp", "b.hp"].map(OsString::from)).is_err());
}

#[test]
fn help_and_version() {
    for h in ["-?", "-h", "--help", "-p?"] {
        assert_eq!(parse([OsString::from(h)]), Ok(Command::Help), "{h}");
    }
    assert_eq!(parse([OsString::from("--version")]), Ok(Command::Version));
}

#[test]
fn long_options_take_separate_or_glued_values() {
    let i = inv(&[
        "--output-dir",
        "out",
        "-j3",
        "--from=1.5",
        "--to",
        "4",
        "--top",
        "3",
        "--summary=json",
        "a.hp",
        "b",
    ]);
    assert_eq!(i.output_dir, Some(OsString::from("out")));
    assert_eq!(i.jobs, Some(3));
    assert_eq!(i.window, WindowOptions::new(Some(1.5), Some(4.0)));
    assert_eq!(i.summary, Some(SummaryFormat::Json));
    assert_eq!(i.summary_options.top, 3);
    assert_eq!(i.files, ["a.hp", "b"].map(OsString::from));
    assert!(i.renders(), "--output-dir draws the charts too");
    assert_eq!(inv(&["-j", "2"]).jobs, Some(2));
    assert_eq!(inv(&["-j2", "--jobs=3"]).jobs, Some(3));
    assert_eq!(
        inv(&["--format=svg", "--format", "pdf"]).format(),
        Format::Pdf
    );
    assert_eq!(inv(&["--from", "-1"]).window.from, Some(-1.0));
    let s = inv(&["--summary", "x.hp"]);
    assert_eq!(s.summary, Some(SummaryFormat::Text));
    assert_eq!(s.files, [OsString::from("x.hp")]);
    assert!(!s.renders());
    assert!(inv(&["--summary", "--format", "pdf", "x.hp"]).renders());
    // hp2ps flags mix freely with the long options.
    let m = inv(&["-pc", "--watch", "--interval", "0.05", "-m5", "x"]);
    assert!(m.use_aux && m.render.layout.colour && m.render.aggregate.band_limit == 5);
    assert_eq!(
        m.watch,
        Some(WatchOptions {
            interval: Duration::from_millis(50),
            max_renders: None
        })
    );
    assert_eq!(
        inv(&["--watch", "--watch-max-renders=2", "x"])
            .watch
            .and_then(|w| w.max_renders),
        Some(2)
    );
}

#[test]
fn bad_long_options_and_combinations_are_usage_errors() {
    for bad in [
        &["--summary", "json", "x.hp"][..],
        &["--summary=xml"],
        &["-j0", "a"],
        &["-j"],
        &["--jobs", "many"],
        &["--from", "nan"],
        &["--from", "3", "--to", "2"],
        &["--interval", "1", "x"],
        &["--watch", "--interval", "0", "x"],
        &["--watch"],
        &["--watch", "a", "b"],
        &["--watch", "-o", "-", "a"],
        &["--output-dir", "d"],
        &["--output-dir", "d", "-o", "x.ps", "a"],
        &["--summary", "-o", "-", "a"],
        &["--summary", "--format", "svg"],
        &["--output-dir"],
        &["--generate", "csh"],
        &["--top", "-1"],
    ] {
        let args = bad.iter().map(OsString::from);
        assert!(parse(args).is_err(), "{bad:?}");
    }
    // A summary on stdout with the chart in a file is fine, in filter mode too.
    assert!(parse(["--summary", "-o", "x.ps"].map(OsString::from)).is_ok());
    // A summary of stdin, without a chart.
    assert!(!inv(&["--summary=text"]).renders());
}

#[test]
fn generate_takes_a_kind_and_an_optional_directory() {
    let g = |args: &[&str]| parse(args.iter().map(OsString::from));
    assert_eq!(
        g(&["--generate", "man"]),
        Ok(Command::Generate(Generate {
            kind: GenerateKind::Man,
            dir: None
        }))
    );
    assert_eq!(
        g(&["--generate=zsh", "out"]),
        Ok(Command::Generate(Generate {
            kind: GenerateKind::Zsh,
            dir: Some(OsString::from("out"))
        }))
    );
    assert_eq!(
        g(&["--generate", "powershell"]),
        Ok(Command::Generate(Generate {
            kind: GenerateKind::PowerShell,
            dir: None
        }))
    );
    assert!(g(&["--generate", "bash", "a", "b"]).is_err());
}

#[test]
fn x_labels_follow_the_format_unless_asked() {
    let labels = |args: &[&str]| match parse(args.iter().map(OsString::from)) {
        Ok(Command::Render(inv)) => inv.render.needs.x_labels,
        other => panic!("{args:?}: {other:?}"),
    };
    // hp2ps's bytes for its own formats, by default.
    assert_eq!(labels(&["x.hp"]), XLabels::Hp2ps);
    assert_eq!(labels(&["-e6in", "x.hp"]), XLabels::Hp2ps);
    assert_eq!(labels(&["-o", "x.svg", "x.hp"]), XLabels::ByStep);
    assert_eq!(labels(&["--format", "html", "x.hp"]), XLabels::ByStep);
    // Asked for, in any format.
    assert_eq!(
        labels(&["--x-labels", "exact", "-e6in", "x.hp"]),
        XLabels::ByStep
    );
    assert_eq!(labels(&["--x-labels=exact", "x.hp"]), XLabels::ByStep);
    assert_eq!(
        labels(&["--x-labels", "hp2ps", "-o", "x.pdf", "x.hp"]),
        XLabels::Hp2ps
    );
    assert!(parse(["--x-labels", "two", "x.hp"].map(OsString::from)).is_err());
}

#[test]
fn help_comes_from_the_definition_and_lists_every_flag() {
    let text = help();
    assert!(
        text.starts_with("usage: hp2ps [flags] [file[.hp] ...]\n"),
        "{text}"
    );
    // The line under hp2ps's usage line says what goes in and what comes out.
    let about = text.lines().nth(1).unwrap_or("");
    for word in [
        ".hp",
        "eventlogs",
        "PostScript",
        "EPS",
        "SVG",
        "PDF",
        "HTML",
    ] {
        assert!(about.contains(word), "{word} in {about:?}");
    }
    for heading in [
        "hp2ps flags:",
        "Output:",
        "Batch and watch:",
        "Selection:",
        "Summary:",
    ] {
        assert!(text.contains(heading), "{heading}");
    }
    for flag in "bscdigeMmlpty".chars() {
        assert!(text.contains(&format!("  -{flag}  ")), "-{flag}");
    }
    let cmd = command();
    for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        if let Some(long) = a.get_long() {
            assert!(text.contains(&format!("--{long}")), "--{long}");
        }
    }
    assert!(!text.contains("--generate") && !text.contains("--watch-max-renders"));
    command().debug_assert();
}

#[test]
fn selection_options_build_the_filter_and_the_order() {
    let i = inv(&[
        "--include",
        "^Data",
        "--include=Map",
        "--exclude",
        "Internal",
        "x",
    ]);
    let f = &i.filter;
    assert!(f.keeps(b"Data.Set") && f.keeps(b"my.Map") && !f.keeps(b"main"));
    assert!(!f.keeps(b"Data.Map.Internal"));
    let g = inv(&["-d", "--sort", "growth", "--reverse", "x"]);
    assert!(g.render.aggregate.by_growth && g.render.aggregate.reverse);
    assert!(!g.render.aggregate.by_deviation, "--sort replaces -d");
    assert!(g.summary_options.slopes);
    assert!(inv(&["--sort=stddev", "x"]).render.aggregate.by_deviation);
    let by_name = inv(&["--sort=name", "x"]).render.aggregate;
    assert_eq!(by_name.by_name, Some(NameOrder::Ascending));
    assert!(by_name.numeric_names, "--sort name: numbers by value");
    assert!(
        !inv(&["-i", "x"]).render.aggregate.numeric_names,
        "-i: bytes"
    );
    assert!(
        !inv(&["--sort=name", "--sort=size", "x"])
            .render
            .aggregate
            .numeric_names
    );
    assert_eq!(inv(&["x"]).render.aggregate, Default::default());
}

#[test]
fn ipe_names_and_binary() {
    use crate::IpeNames;
    let i = inv(&["x"]);
    assert_eq!((i.symbolize.names, i.binary), (IpeNames::Source, None));
    let i = inv(&["--ipe-names", "address", "x"]);
    assert_eq!(i.symbolize.names, IpeNames::Address);
    assert_eq!(
        inv(&["--ipe-names=source", "x"]).symbolize.names,
        IpeNames::Source
    );
    let i = inv(&["--binary", "./prog", "x"]);
    assert_eq!(i.binary, Some(OsString::from("./prog")));
    for bad in [
        &["--ipe-names", "symbol", "x"][..],
        &["--binary"],
        &["--binary", "p", "--ipe-names", "address", "x"],
    ] {
        assert!(parse(bad.iter().map(OsString::from)).is_err(), "{bad:?}");
    }
}

#[test]
fn bad_selection_values_are_usage_errors() {
    for args in [
        &["--include", "(", "x"][..],
        &["--sort", "size-ish", "x"],
        &["--uniform-scale", "space", "x"],
    ] {
        assert!(
            parse(args.iter().map(OsString::from)).is_err(),
            "{args:?} was accepted"
        );
    }
}

#[test]
fn uniform_scale_names_its_axes() {
    let both = inv(&["--uniform-scale", "both", "a", "b"]).uniform_scale;
    assert_eq!(both, Some(SharedAxes::Both));
    assert!(both.is_some_and(|u| u.time() && u.memory()));
    let time = inv(&["--uniform-scale=time", "a"]).uniform_scale;
    assert!(time.is_some_and(|u| u.time() && !u.memory()));
}

#[test]
fn palettes_colour_by_and_patterns() {
    use crate::Palette;
    let plain = inv(&["x"]).render.layout;
    assert_eq!(plain, Default::default());
    let l = inv(&["-c", "--palette", "tol-muted", "--colour-by", "name", "x"])
        .render
        .layout;
    assert!(l.colour && l.colour_by_name && !l.pattern);
    assert_eq!(l.palette, Some(Palette::TolMuted));
    let l = inv(&["--palette=hp2ps", "--color-by=order", "--pattern", "x"])
        .render
        .layout;
    assert_eq!(l.palette, None);
    assert!(!l.colour_by_name && l.pattern);
    for args in [
        &["--palette", "rainbow", "x"][..],
        &["--colour-by", "size", "x"],
        &["--palette"],
    ] {
        assert!(
            parse(args.iter().map(OsString::from)).is_err(),
            "{args:?} was accepted"
        );
    }
}

#[test]
fn max_points_defaults_per_format() {
    let limits = |args: &[&str]| {
        let i = inv(args);
        (i.render.aggregate.max_points, i.render.needs.band_points)
    };
    let budget = crate::defaults::VECTOR_MAX_BAND_POINTS;
    // hp2ps's own PostScript keeps every sample; the other formats share a budget of band
    // vertices, unless --max-points says how many samples.
    assert_eq!(limits(&["-c"]), (None, 0));
    assert_eq!(limits(&["-e8in"]), (None, 0));
    for format in ["svg", "pdf", "eps", "html"] {
        assert_eq!(limits(&["--format", format]), (None, budget), "{format}");
        assert_eq!(
            limits(&["--format", format, "--max-points", "300"]),
            (Some(300), budget)
        );
        let every = limits(&["--format", format, "--max-points", "0"]);
        assert_eq!(every, (Some(0), budget));
    }
    assert_eq!(limits(&["-o", "x.svg"]), (None, budget));
    assert_eq!(limits(&["--max-points", "50"]), (Some(50), 0));
}

#[test]
fn each_format_says_what_it_needs() {
    use crate::needs::XLabels;
    let needs = |args: &[&str]| inv(args).render.needs;
    assert_eq!(needs(&["x"]), Format::Ps.needs());
    assert_eq!(needs(&["-o", "x.html"]), Format::Html.needs());
    let page = needs(&["--format", "html", "x"]);
    assert!(page.data && page.band_table && page.rest && page.key_pages);
    for format in ["ps", "eps", "svg", "pdf"] {
        let n = needs(&["--format", format, "x"]);
        assert!(
            !n.data && !n.band_table && !n.rest && !n.key_pages,
            "{format}"
        );
        let hp2ps = matches!(format, "ps" | "eps");
        assert_eq!(n.x_labels == XLabels::Hp2ps, hp2ps, "{format}");
    }
}

#[test]
fn spool_options_go_with_serve_and_read_sizes() {
    let serve = |max: &str| {
        let inv = inv(&["--serve", "--spool", "/var/tmp", "--spool-max", max, "x"]);
        let serve = inv.serve.expect("--serve");
        assert_eq!(
            serve.spool.as_deref(),
            Some(std::path::Path::new("/var/tmp"))
        );
        serve.spool_max
    };
    assert_eq!(serve("1000"), Some(1000));
    assert_eq!(serve("500M"), Some(500_000_000));
    assert_eq!(serve("1.5GB"), Some(1_500_000_000));
    assert_eq!(serve("1GiB"), Some(1 << 30));
    for bad in [
        &["--serve", "--spool-max", "0", "x"][..],
        &["--serve", "--spool-max", "2X", "x"],
        &["--serve", "--spool-max", "-1G", "x"],
        &["--spool", "/tmp", "x"],
        &["--spool-max", "1G", "x"],
    ] {
        assert!(parse(bad.iter().map(OsString::from)).is_err(), "{bad:?}");
    }
}
