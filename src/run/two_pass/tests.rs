//! The chart of a profile read twice (the first reading's totals, the second's drawn
//! bands) against the chart of every point kept: the same bytes, `.aux` and warnings
//! included, for every golden input and generated long profiles, in the formats and
//! with the options that take the two readings.

use super::decide;
use crate::aggregate::AggregateOptions;
use crate::paint::PaintOptions;
use crate::pipeline::{prepare, prepare_known};
use crate::{load, Format, LoadOptions, Loaded, RenderOptions, Source};

fn loaded(bytes: &[u8], opts: &LoadOptions) -> Option<Loaded> {
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
/// reversed, many traces.
fn option_sets() -> Vec<AggregateOptions> {
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
            let Some((drawing, totals)) = decide(bytes, &opts, &render, &mut |_| {}) else {
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

#[test]
fn every_golden_input_is_drawn_alike_from_two_readings() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/inputs");
    let mut inputs: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hp"))
        .collect();
    inputs.sort();
    assert!(inputs.len() > 50, "the golden inputs: {}", inputs.len());
    let mut reduced = 0;
    for path in &inputs {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        reduced += same_both_ways(&path.display().to_string(), &bytes);
    }
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
    let (drawing, _) = decide(&bytes, &opts, &render, &mut |_| {})
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
    assert!(decide(&bytes, &LoadOptions::default(), &render, &mut |_| {}).is_none());
}

#[test]
fn options_that_need_every_point_are_read_once() {
    let bytes = generated(60, 100, false, false);
    let opts = LoadOptions::default();
    let mut render = RenderOptions::for_format(Format::Ps);
    render.aggregate.by_deviation = true;
    assert!(decide(&bytes, &opts, &render, &mut |_| {}).is_none());
    let page = RenderOptions::for_format(Format::Html);
    assert!(decide(&bytes, &opts, &page, &mut |_| {}).is_none());
}
