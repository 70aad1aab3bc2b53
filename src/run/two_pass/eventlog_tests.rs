//! A long eventlog read in bounded memory (`crate::read::eventlog::bounded`: a first
//! reading places the censuses keeping no point, a second hands each to the sink as it
//! completes) against the eventlog read whole: for every eventlog of `tests/data` and
//! `../shared/corpus/eventlog` (GHC 8.2 to 9.10, damaged and cut logs among them), with
//! several load options, the same profile, warnings and report; the same chart (bytes
//! and `.aux`, four formats, several aggregations) from the first reading's totals and
//! the drawn bands; the same summary (JSON and text, with the growth and time windows)
//! from the sums; and each reading's runs cut small for the parallel reader.

use std::path::{Path, PathBuf};

use super::decide;
use crate::aggregate::AggregateOptions;
use crate::load::{eventlog_placement, load_slopes, load_summed};
use crate::paint::PaintOptions;
use crate::pipeline::{prepare, prepare_known};
use crate::read::eventlog::bounded::{place_chunked, stream_chunked};
use crate::read::eventlog::entry::read_eventlog_slice_chunked;
use crate::read::eventlog::TimeAxis;
use crate::seam::ProfileBuilder;
use crate::summary::{summarize, summarize_sums, SummaryOptions};
use crate::{load, Format, LoadOptions, Loaded, RenderOptions, Source};

fn loaded(bytes: &[u8], opts: &LoadOptions) -> Result<Loaded, String> {
    let source = Source::Mapped {
        bytes,
        release: &mut |_| {},
    };
    load(source, opts).map_err(|e| e.to_string())
}

fn eventlogs_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            eventlogs_under(&path, found);
        } else if std::fs::read(&path).is_ok_and(|b| b.starts_with(b"hdrb")) {
            found.push(path);
        }
    }
}

/// Every eventlog of `tests/data`, and of the shared corpus when it is there.
fn eventlogs() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    eventlogs_under(&root.join("tests/data"), &mut paths);
    let shared = root.join("../shared/corpus/eventlog");
    match shared.is_dir() {
        true => eventlogs_under(&shared, &mut paths),
        false if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{} is missing", shared.display())
        }
        false => eprintln!("skipping {}: not there", shared.display()),
    }
    paths.sort();
    assert!(paths.len() > 25, "the eventlogs: {}", paths.len());
    let read = |p: &PathBuf| std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut logs: Vec<(String, Vec<u8>)> = (paths.iter())
        .map(|p| (p.display().to_string(), read(p)))
        .collect();
    logs.extend(damaged(&logs));
    logs
}

/// Logs cut and damaged, made of some of `logs` (GHC 9.0's, whose censuses are at the
/// end, and GHC 9.10's, flushed as they run): cut among their censuses (an open census
/// lost), and with bytes overwritten there (damage that costs censuses, the reading
/// going on after it).
fn damaged(logs: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    let mut made = Vec::new();
    let of = |dir: &'static str| logs.iter().filter(move |(n, _)| n.contains(dir)).take(5);
    for (name, bytes) in of("tests/data/eventlog/").chain(of("tests/data/ghc-9.10/")) {
        for permille in [960, 980, 995] {
            let cut = bytes.len() * permille / 1000;
            made.push((format!("{name} cut at {cut}"), bytes[..cut].to_vec()));
        }
        for (permille, len) in [(950, 3), (975, 40), (990, 40), (996, 400)] {
            let at = bytes.len() * permille / 1000;
            let mut hurt = bytes.clone();
            let end = (at + len).min(hurt.len());
            hurt[at..end].fill(0xFF);
            made.push((format!("{name} damaged at {at}"), hurt));
        }
    }
    made
}

/// The load options compared: the default, the elapsed axis, full names.
fn load_options() -> Vec<LoadOptions> {
    let mut elapsed = LoadOptions::default();
    elapsed.eventlog.time = TimeAxis::Elapsed;
    let mut full = LoadOptions::default();
    full.eventlog.full_names = true;
    vec![LoadOptions::default(), elapsed, full]
}

/// `opts` with the placement of a first reading of `bytes`, if it places them.
fn placed(bytes: &[u8], opts: &LoadOptions) -> Option<LoadOptions> {
    let placement = eventlog_placement(bytes, opts, true, &mut |_| {})?;
    assert!(
        placement.block_has_no_point(),
        "the first reading kept points"
    );
    // The totals it added up are a reading's of the censuses it placed.
    let mut totals = ProfileBuilder::totals_only();
    let streamed = stream_chunked(
        bytes,
        &opts.eventlog,
        &placement,
        &mut totals,
        &mut |_| {},
        1 << 20,
    );
    assert!(streamed.is_ok_and(|placed| placed), "streamed");
    assert!(
        placement.totals == totals.band_totals(),
        "the first reading's totals"
    );
    Some(LoadOptions {
        placed: Some(placement),
        ..opts.clone()
    })
}

/// The same profile, warnings and report streamed as read whole.
fn same_profile(name: &str, whole: &Loaded, bytes: &[u8], second: &LoadOptions) {
    let part = loaded(bytes, second).unwrap_or_else(|e| panic!("{name}: streamed: {e}"));
    assert_eq!(whole.warnings, part.warnings, "{name}: warnings");
    assert_eq!(
        format!("{:?}", whole.eventlog),
        format!("{:?}", part.eventlog),
        "{name}: report"
    );
    assert!(whole.profile == part.profile, "{name}: the profile differs");
}

/// The same charts from the two readings as read whole; returns how many were drawn
/// with some band's points not kept.
fn same_charts(name: &str, whole: &Loaded, bytes: &[u8], second: &LoadOptions) -> usize {
    let mut reduced = 0;
    let aggregates = [
        AggregateOptions::default(),
        AggregateOptions {
            band_limit: 3,
            ..AggregateOptions::default()
        },
        AggregateOptions {
            trace_percent: 0.0,
            band_limit: 1,
            ..AggregateOptions::default()
        },
    ];
    for (aggregate, format) in aggregates
        .iter()
        .zip([Format::Ps, Format::Svg, Format::Pdf])
    {
        for format in [format, Format::Eps] {
            let mut render = RenderOptions::for_format(format);
            render.aggregate = aggregate.clone();
            let Some((drawing, totals)) = decide(bytes, second, &render, &mut |_| {}, &|| {})
            else {
                continue;
            };
            let mut third = second.clone();
            third.drawn = Some(drawing);
            let part = loaded(bytes, &third).unwrap_or_else(|e| panic!("{name}: drawn: {e}"));
            assert_eq!(whole.warnings, part.warnings, "{name}: warnings");
            let points =
                |l: &Loaded| -> usize { l.profile.bands.iter().map(|b| b.points.len()).sum() };
            reduced += usize::from(points(&part) < points(whole));
            let (c1, a1) = prepare(whole.profile.clone(), None, &render);
            let (c2, a2) = prepare_known(part.profile, Some(&totals), None, &render);
            let paint = |chart: &crate::Chart| {
                let mut out = Vec::new();
                (chart.write(format, &PaintOptions::default(), &mut out))
                    .unwrap_or_else(|e| panic!("{name}: painting: {e}"));
                out
            };
            let aux = |aux: &crate::Aux| {
                let mut out = Vec::new();
                aux.write(&mut out)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                out
            };
            assert!(
                paint(&c1) == paint(&c2),
                "{name}: {format:?} with {aggregate:?} differs"
            );
            assert!(aux(&a1) == aux(&a2), "{name}: .aux differs");
        }
    }
    reduced
}

/// The same summaries from the sums as from every point, with windows and the growth;
/// returns how many were made from the sums.
fn same_summaries(name: &str, bytes: &[u8], second: &LoadOptions, whole: &Loaded) -> usize {
    let times = &whole.profile.times;
    let at = |share: usize| times[(times.len() - 1) * share / 3];
    let mut made = 0;
    for (from, to, heap_size) in [
        (None, None, false),
        (None, None, true),
        (Some(at(1)), Some(at(2)), false),
    ] {
        let opts = LoadOptions {
            from,
            to,
            heap_size,
            ..second.clone()
        };
        let read = load_summed(bytes, &opts, &mut |_| {});
        let unplaced = LoadOptions {
            placed: None,
            ..opts.clone()
        };
        let all = loaded(bytes, &unplaced);
        let ((part, sums), all) = match (read, all) {
            (Ok(Some(got)), Ok(all)) => (got, all),
            (Ok(None), _) => continue,
            (Err(e), Err(f)) => {
                assert_eq!(e.to_string(), f, "{name}: the error");
                continue;
            }
            (one, other) => panic!(
                "{name}: {:?} read summed, {:?} whole",
                one.is_ok(),
                other.is_ok()
            ),
        };
        assert_eq!(all.warnings, part.warnings, "{name}: warnings");
        let points: usize = part.profile.bands.iter().map(|b| b.points.len()).sum();
        assert_eq!(points, 0, "{name}: the summary's reading kept points");
        let slopes = load_slopes(bytes, &opts, &part, &sums, &mut |_| {})
            .unwrap_or_else(|e| panic!("{name}: slopes: {e}"))
            .unwrap_or_else(|| panic!("{name}: no slopes"))
            .slopes;
        for (top, growth) in [(10, false), (100_000, true)] {
            let sopts = SummaryOptions {
                top,
                slopes: growth,
            };
            let one = summarize(&all, Some(name), &sopts);
            let two = summarize_sums(
                &part,
                &sums,
                growth.then_some(&slopes[..]),
                Some(name),
                &sopts,
            )
            .unwrap_or_else(|| panic!("{name}: no summary from the sums"));
            let bytes_of = |s: &crate::summary::Summary| {
                let (mut json, mut text) = (Vec::new(), Vec::new());
                s.write_json(&mut json).unwrap_or_else(|e| panic!("{e}"));
                s.write_text(&mut text).unwrap_or_else(|e| panic!("{e}"));
                (json, text)
            };
            assert!(bytes_of(&one) == bytes_of(&two), "{name}: summary differs");
            made += 1;
        }
    }
    made
}

#[test]
fn every_eventlog_is_read_alike_in_bounded_memory() {
    let (mut placed_count, mut reduced, mut summaries, mut whole_only) = (0, 0, 0, Vec::new());
    for (name, bytes) in eventlogs() {
        for opts in load_options() {
            let whole = loaded(&bytes, &opts);
            let Some(second) = placed(&bytes, &opts) else {
                whole_only.push(name.clone());
                continue;
            };
            let whole = whole.unwrap_or_else(|e| panic!("{name}: placed, but whole: {e}"));
            placed_count += 1;
            same_profile(&name, &whole, &bytes, &second);
            reduced += same_charts(&name, &whole, &bytes, &second);
            summaries += same_summaries(&name, &bytes, &second, &whole);
        }
    }
    eprintln!("read whole: {whole_only:?}");
    // Not vacuous: most logs took the bounded way, and charts and summaries came of it.
    assert!(placed_count > 150, "placed: {placed_count}");
    assert!(reduced > 50, "charts from fewer points: {reduced}");
    assert!(summaries > 100, "summaries from the sums: {summaries}");
}

/// Runs cut small (the parallel reader's workers hand over between nearly every pair of
/// blocks) give the whole reading's profile too.
#[test]
fn small_runs_give_the_same_profile() {
    let mut compared = 0;
    for (name, bytes) in eventlogs() {
        let opts = LoadOptions::default();
        let mut whole = ProfileBuilder::default();
        if read_eventlog_slice_chunked(&bytes, &opts.eventlog, &mut whole, 4096).is_err() {
            continue;
        }
        let Ok(Some(placement)) = place_chunked(&bytes, &opts.eventlog, true, &mut |_| {}, 4096)
        else {
            continue;
        };
        let mut builder = ProfileBuilder::default();
        let ok = stream_chunked(
            &bytes,
            &opts.eventlog,
            &placement,
            &mut builder,
            &mut |_| {},
            4096,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(ok, "{name}: other censuses than placed");
        assert!(
            whole.finish() == builder.finish(),
            "{name}: the profile differs"
        );
        compared += 1;
    }
    assert!(compared > 50, "compared: {compared}");
}

/// Every statement a sink is given, in words.
#[derive(Default)]
struct Said(Vec<String>);

impl crate::seam::Sink for Said {
    fn header(&mut self, field: crate::seam::HeaderField, text: &[u8]) {
        self.0.push(format!("{field:?} {}", text.escape_ascii()));
    }
    fn mark(&mut self, time: f64) {
        self.0.push(format!("mark {time:?}"));
    }
    fn labelled_mark(&mut self, time: f64, text: &[u8]) {
        self.0
            .push(format!("mark {time:?} {}", text.escape_ascii()));
    }
    fn begin_sample(&mut self, time: f64) {
        self.0.push(format!("begin {time:?}"));
    }
    fn end_sample(&mut self) {
        self.0.push("end".to_string());
    }
    fn data(&mut self, name: &[u8], value: f64) {
        self.0.push(format!("{} {value:?}", name.escape_ascii()));
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        self.0.push("discard".to_string());
        false
    }
    fn samples(&mut self, block: crate::seam::SampleBlock) {
        block.replay(self);
    }
}

/// The second reading says what the whole reading's block says, statement by statement
/// (so a sink of any kind, not only the profile builder, gets the same).
#[test]
fn the_second_reading_says_what_the_block_says() {
    let mut compared = 0;
    for (name, bytes) in eventlogs() {
        let opts = LoadOptions::default();
        let mut whole = Said::default();
        if read_eventlog_slice_chunked(&bytes, &opts.eventlog, &mut whole, 1 << 20).is_err() {
            continue;
        }
        let Ok(Some(placement)) =
            place_chunked(&bytes, &opts.eventlog, false, &mut |_| {}, 1 << 20)
        else {
            continue;
        };
        let mut streamed = Said::default();
        stream_chunked(
            &bytes,
            &opts.eventlog,
            &placement,
            &mut streamed,
            &mut |_| {},
            1 << 20,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(whole.0 == streamed.0, "{name}: the statements differ");
        compared += 1;
    }
    assert!(compared > 50, "compared: {compared}");
}
