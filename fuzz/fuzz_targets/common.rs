//! What every target checks after a successful read: the whole pipeline runs, and each
//! painter's output keeps every text inside its string (PostScript) or text node (SVG).

#![allow(dead_code)]

#[path = "cli_check.rs"]
pub mod cli_check;
#[path = "../../tests/support/pslex.rs"]
pub mod pslex;
#[path = "../../tests/support/xmlcheck.rs"]
pub mod xmlcheck;

use hp2ps::internals::write_chart;
use hp2ps::profile::Profile;
use hp2ps::summary::Summary;
use hp2ps::{
    load, prepare, Aux, Binary, Format, LoadError, LoadOptions, Loaded, NameOrder, Program,
    RenderOptions, Source,
};

/// Render options from one byte, so the corpus explores the flags too.
pub fn options(byte: u8) -> RenderOptions {
    let mut o = RenderOptions::default();
    o.layout.colour = byte & 1 != 0;
    o.aggregate.by_deviation = byte & 2 != 0;
    o.aggregate.by_name = match (byte >> 2) & 3 {
        1 => Some(NameOrder::Ascending),
        2 => Some(NameOrder::Descending),
        _ => None,
    };
    o.aggregate.band_limit = [20, 0, 3, -1, 25, 1, 21, 2][usize::from((byte >> 4) & 7)];
    o.aggregate.trace_percent = if byte & 0x80 != 0 { 0.0 } else { 1.0 };
    o.layout.multipage = byte & 0x40 != 0 && byte & 1 != 0;
    o.layout.marks = byte & 0x08 == 0;
    o
}

/// One line, so the CLI's `hp2ps: FILE:LINE:COL: …` message is one line.
pub fn assert_one_line(message: &str) {
    assert!(
        !message.contains(['\n', '\r']),
        "message spans lines: {message:?}"
    );
}

/// Renders `profile` in every format and checks the outputs. Also checks that the
/// `.aux` it would write reads back with the same band order.
pub fn render_and_check(profile: Profile, previous: Option<&Aux>, opts: &RenderOptions) {
    let (chart, aux) = prepare(profile, previous, opts);
    let texts = pslex::chart_texts(&chart);

    let mut ps = Vec::new();
    write_chart(&chart, Format::Ps, &mut ps).expect("PostScript to memory");
    if let Err(e) = pslex::check_postscript(&ps, &chart) {
        panic!("PostScript: {e}");
    }

    let mut eps = Vec::new();
    write_chart(&chart, Format::Eps, &mut eps).expect("EPS to memory");
    if let Err(e) = pslex::check_postscript(&eps, &chart) {
        panic!("EPS: {e}");
    }

    let mut svg = Vec::new();
    write_chart(&chart, Format::Svg, &mut svg).expect("SVG to memory");
    if let Err(e) = xmlcheck::check_svg(&svg, &chart, &texts) {
        panic!("SVG: {e}");
    }

    let mut pdf = Vec::new();
    write_chart(&chart, Format::Pdf, &mut pdf).expect("PDF to memory");
    assert!(pdf.starts_with(b"%PDF-"), "PDF header");

    let mut aux_text = Vec::new();
    aux.write(&mut aux_text).expect(".aux to memory");
    match Aux::read(&aux_text) {
        Ok(back) => {
            let written: Vec<&[u8]> = aux.order.iter().map(|(n, _)| n.as_slice()).collect();
            let read: Vec<&[u8]> = back.order.iter().map(|(n, _)| n.as_slice()).collect();
            assert_eq!(read, written, "the .aux does not read back");
        }
        Err(e) => panic!("the .aux we wrote does not read back: {e}"),
    }
}

/// The `hp_reader` target: the first byte picks the render flags; the rest is the
/// profile, read as a stream as the library reads any input. Any bytes either read (and
/// then render in every format, with no text escaping its string) or give one one-line
/// error, positioned when the input is read as a `.hp` (an input that starts with
/// `hdrb` is an eventlog).
pub fn hp_reader(data: &[u8]) {
    let Some((&flags, mut input)) = data.split_first() else {
        return;
    };
    match load(Source::Stream(&mut input), &LoadOptions::default()) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                assert_one_line(&w.line("f"));
            }
            let profile = loaded.profile;
            assert!(profile.sample_count() > 0, "a profile without samples read");
            render_and_check(profile, None, &options(flags));
        }
        Err(LoadError::Hp(hp2ps::ReadError::Io(e))) => {
            panic!("I/O error reading memory: {e}")
        }
        Err(LoadError::Hp(e)) => {
            let pos = e.pos().expect("every syntax error has a position");
            assert!(pos.line >= 1 && pos.col >= 1, "position {pos}");
            assert_one_line(&e.to_string());
        }
        Err(e) => assert_one_line(&e.to_string()),
    }
}

/// The `aux_reader` target: the first byte picks the render flags; the rest is the
/// `.aux`. Any bytes either read (and then steer a `-p` render of a fixed profile in
/// every format) or give one positioned, one-line error.
pub fn aux_reader(data: &[u8]) {
    let Some((&flags, input)) = data.split_first() else {
        return;
    };
    match Aux::read(input) {
        Ok(aux) => render_and_check(example(), Some(&aux), &options(flags)),
        Err(e) => {
            let pos = e.pos().expect("an .aux error has a position");
            assert!(pos.line >= 1 && pos.col >= 1, "position {pos}");
            assert_one_line(&e.to_string());
        }
    }
}

/// The man-page example (spec §7 #1): a small, complete profile for the targets that
/// fuzz something else than the profile.
pub const EXAMPLE: &[u8] = b"JOB \"a.out -p\"\nDATE \"Fri Apr 17 11:43:45 1992\"\n\
SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n\
BEGIN_SAMPLE 1.00\nelim 180\ninsert 24\nintersect 12\ndisin 60\nmain 12\nreduce 20\nSYSTEM 12\nEND_SAMPLE 1.00\n\
MARK 1.50\nMARK 1.75\nMARK 1.80\n\
BEGIN_SAMPLE 2.00\nelim 192\ninsert 24\nintersect 12\ndisin 84\nmain 12\nSYSTEM 24\nEND_SAMPLE 2.00\n\
BEGIN_SAMPLE 2.82\nEND_SAMPLE 2.82\n";

pub fn example() -> Profile {
    let loaded = load(Source::Bytes(EXAMPLE), &LoadOptions::default());
    loaded.expect("the example reads").profile
}

/// The `eventlog_reader` target: the first byte picks the render flags; the rest is the
/// eventlog. Any bytes either read (and then render in every format) or give one
/// one-line error; warnings are one line each.
pub fn eventlog_reader(data: &[u8]) {
    use hp2ps::internals::eventlog::{read_eventlog, read_eventlog_slice_chunked};
    use hp2ps::internals::ProfileBuilder;
    use hp2ps::EventlogError;
    let Some((&flags, input)) = data.split_first() else {
        return;
    };
    let mut opts = LoadOptions::default();
    opts.eventlog.full_names = flags & 0x10 != 0;
    // The reader on every core (runs of whole blocks, as small as the flags say) must give
    // exactly what the one-pass reader gives.
    let one_pass = {
        let mut builder = ProfileBuilder::default();
        read_eventlog(input, &opts.eventlog, &mut builder).map(|report| (builder.finish(), report))
    };
    let chunk = 1 + usize::from(flags & 0x0f) * 64;
    let in_runs = {
        let mut builder = ProfileBuilder::default();
        read_eventlog_slice_chunked(input, &opts.eventlog, &mut builder, chunk)
            .map(|report| (builder.finish(), report))
    };
    assert_eq!(
        format!("{one_pass:?}"),
        format!("{in_runs:?}"),
        "the reader in runs of {chunk} bytes differs from the one-pass reader"
    );
    if !input.starts_with(b"hdrb") {
        // Not an eventlog to the library, which reads it as a `.hp`.
        if let Err(e) = one_pass {
            assert_one_line(&e.to_string());
        }
        return;
    }
    // As the command reads it: -hi bands named by the log's IPE entries.
    match load(Source::Bytes(input), &opts) {
        Ok(loaded) => {
            assert_printable_summary(&loaded);
            let profile = loaded.profile;
            let names: std::collections::HashSet<&[u8]> =
                profile.bands.iter().map(|b| &b.name[..]).collect();
            assert_eq!(names.len(), profile.bands.len(), "two bands of one name");
            for w in &loaded.warnings {
                assert_one_line(&w.line("f"));
            }
            // The empty first sample, at least one census, the empty last sample.
            assert!(
                profile.sample_count() >= 3,
                "a profile without censuses read"
            );
            assert!(
                profile.times.windows(2).all(|w| w[0] <= w[1]),
                "sample times run backwards"
            );
            // However long the labels of its cost centres, no name is longer than an
            // identifier of a `.hp` (and a suffix that tells equal names apart), and all
            // of them fit a budget.
            let e = &opts.eventlog;
            let longest = profile
                .bands
                .iter()
                .map(|b| b.name.len())
                .max()
                .unwrap_or(0);
            assert!(longest <= e.max_name_len + 24, "a name of {longest} bytes");
            let all: usize = profile.bands.iter().map(|b| b.name.len()).sum();
            assert!(
                all <= e.max_names_bytes + 24 * profile.bands.len(),
                "{all} bytes of names"
            );
            render_and_check(profile, None, &options(flags));
        }
        Err(LoadError::Eventlog(EventlogError::Io(e))) => panic!("I/O error reading memory: {e}"),
        Err(e) => assert_one_line(&e.to_string()),
    }
}

/// The summary as text writes no control character but its own line ends, whatever the
/// profile's texts hold (a terminal would obey them).
pub fn assert_printable_summary(loaded: &Loaded) {
    let mut text = Vec::new();
    let summary = Summary::of(loaded, Some("f"), &Default::default());
    summary.write_text(&mut text).expect("text to memory");
    let text = String::from_utf8(text).expect("the summary is UTF-8");
    let control = text.chars().find(|&c| c.is_control() && c != '\n');
    assert_eq!(
        control, None,
        "a control character in the summary: {text:?}"
    );
}

/// A `-hi` profile whose bands are the addresses of the functions of
/// `fuzz/seeds/binary/t.elf` (`Main_leak_info`, `Main_keep_info`,
/// `base_GHCziBase_zdfMonadIO_info`), one that is no symbol's, and one outside it.
const HI: &[u8] = b"JOB \"t\"\nDATE \"\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n\
BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n\
BEGIN_SAMPLE 1.0\n0x401000\t100\n0x401007\t50\n0x401013\t30\n0x401100\t20\n0x500000\t10\nEND_SAMPLE 1.0\n\
BEGIN_SAMPLE 2.0\n0x401000\t200\n0x401007\t40\nEND_SAMPLE 2.0\n";

/// The `binary` target: any bytes as the program binary (`--binary`) of a fixed `-hi`
/// profile. The profile always loads, its bands named or not, with one-line warnings
/// (a binary that is none, or another program's); the names are distinct, the summary
/// printable, and the chart renders in every format with every text in its string.
pub fn binary(data: &[u8]) {
    let mut opts = LoadOptions::default();
    opts.binary = Binary::Given(Program::new("fuzz-binary", data));
    let loaded = load(Source::Bytes(HI), &opts).expect("the fixed profile reads");
    for w in &loaded.warnings {
        assert_one_line(&w.line("f"));
    }
    assert_printable_summary(&loaded);
    let profile = loaded.profile;
    let names: std::collections::HashSet<&[u8]> =
        profile.bands.iter().map(|b| &b.name[..]).collect();
    assert_eq!(names.len(), profile.bands.len(), "two bands of one name");
    render_and_check(profile, None, &options(0x01));
}

/// The `prof_reader` target: any bytes, as a time profile (`.prof` report, `-pj` JSON or
/// an eventlog's samples), either read or give one one-line error; read from memory
/// and as a stream alike. What is read is a well-formed tree (pre-order, parents before
/// children, subtrees inside the tree), every derived view of it is made (the flat
/// table, folded stacks of every measure, a sandwich, a diff with itself, windows of an
/// eventlog's samples), its warnings are one line each, and its summaries (JSON and
/// text, and of it compared with itself) write no control character raw.
pub fn prof_reader(data: &[u8]) {
    use hp2ps::internals::calltree::{CallTree, Measure, TreeDiff};
    use hp2ps::internals::prof::{sampled, tree};
    use hp2ps::summary::{TimeComparison, TimeSummary};
    use hp2ps::{TimeProfile, TimeProfileOptions};
    let mut opts = TimeProfileOptions::default();
    opts.max_name_len = 64;
    let from_bytes = TimeProfile::read(Source::Bytes(data), &opts);
    let mut stream = data;
    let from_stream = TimeProfile::read(Source::Stream(&mut stream), &opts);
    assert_eq!(
        format!("{from_bytes:?}"),
        format!("{from_stream:?}"),
        "a stream reads otherwise than bytes"
    );
    // A report's tree cut into chunks of a few rows, each parsed on a thread of its own
    // (as a large one is), reads as one thread reads it.
    let chunked = hp2ps::internals::prof::read_chunked(data, 1 + usize::from(data.len() as u8) * 4);
    let plain = TimeProfile::read(Source::Bytes(data), &TimeProfileOptions::default());
    assert_eq!(
        format!("{plain:?}"),
        format!("{chunked:?}"),
        "the reading in chunks differs from the one-thread reading"
    );
    let p = match from_bytes {
        Ok(p) => p,
        Err(e) => return assert_one_line(&e.to_string()),
    };
    for w in p.warnings() {
        assert_one_line(&w.line("f"));
    }
    let t: &CallTree = tree(&p);
    for n in t.nodes() {
        let end = t.subtree_end(n).index();
        assert!(
            end > n.index() && end <= t.len(),
            "a subtree out of the tree"
        );
        if let Some(parent) = t.parent(n) {
            assert!(
                parent < n && t.subtree_end(parent).index() >= end,
                "a child outside its parent"
            );
            assert_eq!(t.depth(n), t.depth(parent) + 1);
        }
        let c = t.cost_centre(t.cc(n));
        for name in [c.label, c.module, c.src] {
            assert!(
                name.len() <= opts.max_name_len + 3,
                "a name longer than the limit"
            );
        }
    }
    let flat = t.flat_table();
    assert_eq!(flat.iter().map(|r| r.stacks).sum::<usize>(), t.len());
    for m in [
        Measure::Time,
        Measure::Alloc,
        Measure::Entries,
        Measure::Ticks,
        Measure::Bytes,
    ] {
        let _ = (t.folded(m), t.inherited(m));
    }
    if let Some(cc) = t.cost_centres().next() {
        let s = t.sandwich(cc);
        assert_eq!(
            s.callees.roots().count(),
            usize::from(!t.outermost(cc).is_empty())
        );
    }
    let d = TreeDiff::of(t, t);
    assert_eq!(d.before.len(), d.after.len());
    assert!(d
        .changes
        .iter()
        .all(|c| c.time_change() == 0.0 && c.entries_change() == 0));
    if let Some(s) = sampled(&p) {
        let times: Vec<f64> = s.samples().map(|(t, _)| t).collect();
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "samples out of time order"
        );
        if let (Some(&a), Some(&b)) = (times.first(), times.last()) {
            let w = s.tree_of_window(a, (a + b) / 2.0);
            assert_eq!(
                w.header().total_ticks,
                Some(s.count_in(a, (a + b) / 2.0) as u64)
            );
        }
    }
    let summary = TimeSummary::of(&p, Some("f"), &Default::default());
    let compared = TimeComparison::of(&p, &p, [Some("a"), Some("b")], &Default::default());
    for text in [
        {
            let mut v = Vec::new();
            summary.write_text(&mut v).expect("text to memory");
            v
        },
        {
            let mut v = Vec::new();
            compared.write_text(&mut v).expect("text to memory");
            v
        },
    ] {
        let text = String::from_utf8(text).expect("UTF-8 text");
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "a control character in the summary: {text:?}"
        );
    }
    let mut json = Vec::new();
    summary.write_json(&mut json).expect("JSON to memory");
    assert!(
        json.starts_with(b"{\"file\":") && !json.contains(&b'\n'),
        "one line of JSON"
    );
}
