//! The chart of a profile read twice (the first reading's totals, the second's drawn
//! bands) against the chart of every point kept: the same bytes, `.aux` and warnings
//! included, for every golden input and generated long profiles, in the formats and
//! with the options that take the two readings.

use super::decide;
use crate::aggregate::AggregateOptions;
use crate::paint::PaintOptions;
use crate::pipeline::{prepare, prepare_known};
use crate::{load, Format, LoadOptions, Loaded, RenderOptions, Source};

/// `bytes` loaded with `opts` from memory, as a mapped file is; `None` when it fails.
pub(super) fn loaded(bytes: &[u8], opts: &LoadOptions) -> Option<Loaded> {
    load(
        Source::Mapped {
            bytes,
            release: &mut |_| {},
        },
        opts,
    )
    .ok()
}

/// The chart's bytes in `format` and its `.aux`.
fn drawn(chart: &crate::Chart, aux: &crate::Aux, format: Format) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    chart
        .write(format, &PaintOptions::default(), &mut out)
        .unwrap_or_else(|e| panic!("painting: {e}"));
    let mut aux_out = Vec::new();
    aux.write(&mut aux_out)
        .unwrap_or_else(|e| panic!("the .aux: {e}"));
    (out, aux_out)
}

/// The option sets: hp2ps's defaults, no traces, few bands, no limit, one band,
/// reversed, many traces (the page's readings are tested with these too).
pub(super) fn option_sets() -> Vec<AggregateOptions> {
    let with = |f: &dyn Fn(&mut AggregateOptions)| {
        let mut o = AggregateOptions::default();
        f(&mut o);
        o
    };
    vec![
        AggregateOptions::default(),
        with(&|o| o.trace_percent = 0.0),
        with(&|o| o.band_limit = 5),
        with(&|o| o.band_limit = 0),
        with(&|o| o.band_limit = 1),
        with(&|o| {
            o.band_limit = 4;
            o.reverse = true;
        }),
        with(&|o| {
            o.trace_percent = 30.0;
            o.band_limit = 3;
        }),
    ]
}

/// Compares both ways for every option set and format; returns how many charts were
/// drawn from the two readings with some band not kept whole.
fn same_both_ways(name: &str, bytes: &[u8]) -> usize {
    let opts = LoadOptions::default();
    let mut reduced = 0;
    for aggregate in option_sets() {
        for format in [Format::Ps, Format::Eps, Format::Svg, Format::Pdf] {
            let mut render = RenderOptions::for_format(format);
            render.aggregate = aggregate.clone();
            let Some((drawing, totals)) = decide(bytes, &opts, &render, &mut |_| {}, &|| {}) else {
                continue;
            };
            let whole =
                loaded(bytes, &opts).unwrap_or_else(|| panic!("{name}: read twice, but not once"));
            let mut second = opts.clone();
            second.drawn = Some(drawing.clone());
            let part = loaded(bytes, &second)
                .unwrap_or_else(|| panic!("{name}: read once, but not the second time"));
            assert_eq!(whole.warnings, part.warnings, "{name}: warnings");
            let points = |l: &Loaded| l.profile.bands.iter().map(|b| b.points.len()).sum();
            let (all, kept): (usize, usize) = (points(&whole), points(&part));
            reduced += usize::from(kept < all);
            let (c1, a1) = prepare(whole.profile, None, &render);
            let (c2, a2) = prepare_known(part.profile, Some(&totals), None, &render);
            let (out1, aux1) = drawn(&c1, &a1, format);
            let (out2, aux2) = drawn(&c2, &a2, format);
            assert!(
                out1 == out2,
                "{name}: {format:?} with {aggregate:?} differs read twice"
            );
            assert_eq!(aux1, aux2, "{name}: .aux with {aggregate:?}");
        }
    }
    reduced
}

/// `each` of every golden input (its name and bytes), added up.
pub(super) fn every_golden_input(each: fn(&str, &[u8]) -> usize) -> usize {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/inputs");
    let mut inputs: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hp"))
        .collect();
    inputs.sort();
    assert!(inputs.len() > 50, "the golden inputs: {}", inputs.len());
    let read = |path: &std::path::PathBuf| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        each(&path.display().to_string(), &bytes)
    };
    inputs.iter().map(read).sum()
}

#[test]
fn every_golden_input_is_drawn_alike_from_two_readings() {
    let reduced = every_golden_input(same_both_ways);
    // Not vacuous: many charts were drawn without some bands' points.
    assert!(reduced > 100, "charts drawn from fewer points: {reduced}");
}

/// A long profile of `bands` bands over `censuses` censuses, each band in about two
/// censuses of three, whole values (or, with `fraction`, one that is not), its last
/// census cut (with a band only it has) when `cut`.
pub(super) fn generated(bands: usize, censuses: usize, fraction: bool, cut: bool) -> Vec<u8> {
    let mut next = crate::test_rng::xorshift(39);
    let mut s = String::from(
        "JOB \"gen\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n",
    );
    for c in 0..censuses {
        s += &format!("BEGIN_SAMPLE {}.{:02}\n", c / 10, c % 10 * 10);
        for b in 0..bands {
            if next() % 3 != 0 {
                let value = next() % (1000 * (b as u64 + 1));
                s += &format!("(b{b})band/{}\t{value}\n", b * 7 % 13);
            }
        }
        if fraction && c == censuses / 2 {
            s += "(b0)band/0\t10.5\n";
        }
        s += &format!("END_SAMPLE {}.{:02}\n", c / 10, c % 10 * 10);
    }
    if cut {
        s += "BEGIN_SAMPLE 999.0\n(b1)band/7\t5\n(only)in/the/cut/census\t7\n";
    }
    s.into_bytes()
}

#[test]
fn generated_profiles_are_drawn_alike_from_two_readings() {
    let mut reduced = 0;
    for (bands, censuses, cut) in [(60, 300, false), (60, 300, true), (25, 40, true)] {
        let bytes = generated(bands, censuses, false, cut);
        reduced += same_both_ways(&format!("{bands} bands, cut {cut}"), &bytes);
    }
    assert!(reduced > 10, "charts drawn from fewer points: {reduced}");
}

#[test]
fn the_two_readings_keep_the_drawn_bands_points_only() {
    let bytes = generated(200, 200, false, false);
    let render = RenderOptions::for_format(Format::Ps);
    let opts = LoadOptions::default();
    let (drawing, _) = decide(&bytes, &opts, &render, &mut |_| {}, &|| {})
        .unwrap_or_else(|| panic!("a plain profile is read twice"));
    let mut second = opts.clone();
    second.drawn = Some(drawing);
    let part = loaded(&bytes, &second).unwrap_or_else(|| panic!("the second reading"));
    let whole = loaded(&bytes, &opts).unwrap_or_else(|| panic!("the one reading"));
    let points = |l: &Loaded| -> usize { l.profile.bands.iter().map(|b| b.points.len()).sum() };
    // 19 bands drawn and OTHER's sum, of 200: about a tenth of the points.
    assert!(
        points(&part) * 5 < points(&whole),
        "kept {} of {}",
        points(&part),
        points(&whole)
    );
    assert_eq!(part.profile.bands.len(), whole.profile.bands.len());
}

#[test]
fn sums_not_exact_in_any_order_are_read_once() {
    let bytes = generated(60, 100, true, false);
    let render = RenderOptions::for_format(Format::Ps);
    assert!(decide(
        &bytes,
        &LoadOptions::default(),
        &render,
        &mut |_| {},
        &|| {}
    )
    .is_none());
}

#[test]
fn options_that_need_every_point_are_read_once() {
    let bytes = generated(60, 100, false, false);
    let opts = LoadOptions::default();
    let mut render = RenderOptions::for_format(Format::Ps);
    render.aggregate.by_deviation = true;
    assert!(decide(&bytes, &opts, &render, &mut |_| {}, &|| {}).is_none());
    let page = RenderOptions::for_format(Format::Html);
    assert!(decide(&bytes, &opts, &page, &mut |_| {}, &|| {}).is_none());
}

/// `bytes` drawn with the drawn bands spilled into a file (`-c` of a long profile)
/// against the chart of every point kept, for every option set: as PostScript of every
/// sample (the painter reads the spill), in colour and grey, with print patterns and
/// several pages of key; and thinned (EPS, SVG, PDF, PostScript of few points: thinning
/// reads the spill back). Returns how many were drawn from the spill (with no point in
/// memory) by the painter, and how many read back.
fn same_spilled_both(name: &str, bytes: &[u8]) -> (usize, usize) {
    use crate::profile::spill::{Spill, SpillHandle};
    let opts = LoadOptions::default();
    let (mut spilled, mut read_back) = (0, 0);
    let looks: [fn(&mut RenderOptions); 5] = [
        |_| {},
        |r| r.layout.colour = true,
        |r| r.layout.pattern = true,
        |r| r.layout.multipage = true,
        |r| r.aggregate.max_points = Some(40),
    ];
    let charts = (looks.iter().map(|&look| (Format::Ps, look)))
        .chain([Format::Eps, Format::Svg, Format::Pdf].map(|f| (f, looks[0])));
    for aggregate in option_sets() {
        for (format, look) in charts.clone() {
            let mut render = RenderOptions::for_format(format);
            render.aggregate = aggregate.clone();
            look(&mut render);
            let Some((mut drawing, totals)) = decide(bytes, &opts, &render, &mut |_| {}, &|| {})
            else {
                continue;
            };
            let spill = SpillHandle::new(Spill::new(Box::new(std::io::Cursor::new(Vec::new()))));
            drawing.spill = Some(spill.clone());
            let whole = loaded(bytes, &opts).unwrap_or_else(|| panic!("{name}: read once"));
            let mut second = opts.clone();
            second.drawn = Some(drawing);
            let part = loaded(bytes, &second).unwrap_or_else(|| panic!("{name}: read twice"));
            assert_eq!(whole.warnings, part.warnings, "{name}: warnings");
            spill
                .lock()
                .finish()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            // Not one point in memory: they are all in the spill.
            let kept: usize = part.profile.bands.iter().map(|b| b.points.len()).sum();
            assert_eq!(kept, 0, "{name}: points kept in memory");
            let painted = super::painted_from_spill(format, &render);
            let (c1, a1) = prepare(whole.profile, None, &render);
            let (c2, a2) =
                crate::pipeline::prepare_spilled(part.profile, &totals, &spill, painted, &render);
            let failed = spill.lock().read_failure();
            assert!(failed.is_none(), "{name}: read back: {failed:?}");
            let graph = c2.pages.iter().find_map(|p| p.graph.as_ref());
            let from_spill = graph.is_some_and(|g| g.spilled.is_some());
            assert_eq!(from_spill, painted && graph.is_some(), "{name}: {format:?}");
            spilled += usize::from(from_spill);
            read_back += usize::from(!painted);
            let (out1, aux1) = drawn(&c1, &a1, format);
            let (out2, aux2) = drawn(&c2, &a2, format);
            assert!(
                out1 == out2,
                "{name}: {format:?} {aggregate:?} {:?} max_points {:?} differs drawn from the spill",
                render.layout,
                render.aggregate.max_points,
            );
            assert_eq!(aux1, aux2, "{name}: .aux with {aggregate:?}");
        }
    }
    (spilled, read_back)
}

/// [`same_spilled_both`]'s count of charts drawn from a spill by the painter, checking
/// that some were read back by thinning too.
fn same_spilled(name: &str, bytes: &[u8]) -> usize {
    let (painted, read_back) = same_spilled_both(name, bytes);
    assert!(painted == 0 || read_back > 0, "{name}: none read back");
    painted
}

#[test]
fn every_golden_input_is_drawn_alike_from_a_spill() {
    let spilled = every_golden_input(same_spilled);
    assert!(spilled > 100, "charts drawn from a spill: {spilled}");
}

#[test]
fn generated_profiles_are_drawn_alike_from_a_spill() {
    let mut spilled = 0;
    // Long enough for blocks of many points, bands twice in a census, a cut census.
    for (bands, censuses, cut) in [(30, 9000, false), (60, 300, true), (25, 40, true)] {
        let mut bytes = generated(bands, censuses, false, cut);
        if !cut {
            let at = bytes.len() / 2;
            let end = at + bytes[at..].iter().position(|&b| b == b'\n').unwrap_or(0) + 1;
            bytes.splice(
                end..end,
                b"(b3)band/8\t4000\n(b3)band/8\t17\n".iter().copied(),
            );
        }
        spilled += same_spilled(&format!("{bands} bands, cut {cut}"), &bytes);
    }
    spilled += same_spilled("OTHER ends early", &other_ends_early());
    assert!(spilled > 10, "charts drawn from a spill: {spilled}");
}

/// A generated profile whose bands merged into OTHER end before the run does: OTHER is
/// 0 after them (the band limit's), where the reading's sum of them stops.
fn other_ends_early() -> Vec<u8> {
    let mut bytes = generated(30, 2000, false, false);
    for c in 2000..2600 {
        let time = format!("{}.{:02}", c / 10, c % 10 * 10);
        bytes.extend(format!("BEGIN_SAMPLE {time}\n").bytes());
        for b in 25..30 {
            bytes.extend(format!("(b{b})band/{}\t{}\n", b * 7 % 13, 1000 * b + c % 97).bytes());
        }
        bytes.extend(format!("END_SAMPLE {time}\n").bytes());
    }
    bytes
}

/// Thinning that reads the drawn bands back from a spill leaves them as thinning of the
/// points in memory does, point for point (OTHER's zeros after the merged bands end
/// included), thinned or not.
#[test]
fn thinning_from_a_spill_leaves_the_bands_as_in_memory() {
    use crate::aggregate::{aggregate_known, thin_filled};
    use crate::profile::spill::{Spill, SpillHandle};
    let opts = LoadOptions::default();
    let none = || |_: &[bool]| Ok::<_, std::convert::Infallible>(None);
    let mut compared = 0;
    for bytes in [other_ends_early(), generated(60, 300, false, true)] {
        let sets = option_sets().into_iter();
        for (aggregate, max_points) in sets.flat_map(|a| [(a.clone(), None), (a, Some(0))]) {
            let mut render = RenderOptions::for_format(Format::Svg);
            render.aggregate = aggregate;
            render.aggregate.max_points = max_points;
            let Some((drawing, totals)) = decide(&bytes, &opts, &render, &mut |_| {}, &|| {})
            else {
                continue;
            };
            let (a, n) = (&render.aggregate, &render.needs);
            let spill = SpillHandle::new(Spill::new(Box::new(std::io::Cursor::new(Vec::new()))));
            let read = |spill: Option<SpillHandle>| {
                let mut second = opts.clone();
                // Only a spill takes the points split by role (as `first_reading`).
                let by_name = spill.is_some().then(|| drawing.by_name.clone()).flatten();
                second.drawn = Some(crate::profile::keep::Drawing {
                    spill,
                    by_name,
                    ..drawing.clone()
                });
                loaded(&bytes, &second)
                    .unwrap_or_else(|| panic!("read twice"))
                    .profile
            };
            let agg = aggregate_known(read(None), None, a, n, Some(&totals), None);
            let one = thin_filled(agg, a.max_points, n, None, &mut none());
            let profile = read(Some(spill.clone()));
            spill.lock().finish().unwrap_or_else(|e| panic!("{e}"));
            let agg = aggregate_known(profile, None, a, n, Some(&totals), Some(&spill));
            let two = thin_filled(agg, a.max_points, n, Some(&spill), &mut none());
            let one = one.unwrap_or_else(|e| match e {});
            let two = two.unwrap_or_else(|e| match e {});
            assert!(one.agg.bands.iter().any(|b| !b.points.is_empty()), "points");
            assert!(one == two, "{:?}: the bands differ", render.aggregate);
            compared += 1;
        }
    }
    assert!(compared >= 20, "compared: {compared}");
}
