//! Properties, checked on random cases with proptest:
//! * the reader reads back exactly what a writer of `.hp` text wrote (profile → text →
//!   profile), whatever the line endings, the layout and the size of each read;
//! * the aggregation keeps band sums, OTHER is the sum of what it merges, trace
//!   elimination drops only the smallest bands, and every order is total.
//!
//! (The PostScript string escaper: `escape_properties.rs`.)

mod support;

use std::io::{self, Read};

use hp2ps::internals::aggregate;
use hp2ps::internals::{apply_band_limit, band_total, eliminate_traces, stack_heights};
use hp2ps::profile::{Band, Point, Profile};
use hp2ps::{load, AggregateOptions, Aux, LoadOptions, NameOrder, Source};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::gen::random::HP_KEYWORDS;

// ---------------------------------------------------------------------------------------
// Reader round trip.

/// One sample as written: its time in micro-units, its data points (name index,
/// value), and the marks written after it, in micro-units.
type Sample = (u64, Vec<(usize, u64)>, Vec<u64>);

/// A profile as a writer produces it: header strings, then samples with their data
/// lines and the marks written after each sample.
#[derive(Debug, Clone)]
struct Written {
    header: [Vec<u8>; 4],
    samples: Vec<Sample>,
    names: Vec<Vec<u8>>,
}

/// How the text is laid out.
#[derive(Debug, Clone, Copy)]
enum Layout {
    /// One statement per line, data as `name<TAB>value`, as GHC writes it.
    Ghc,
    /// CRLF line ends, data as `name value`.
    Crlf,
    /// The whole profile on one line, statements separated by spaces.
    OneLine,
}

/// Identifiers that every layout reads back: no whitespace or NUL, not a keyword, not
/// starting with `"`.
fn name() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 1..24).prop_filter_map("a plain identifier", |v| {
        let ok = v[0] != b'"'
            && !v
                .iter()
                .any(|&b| matches!(b, 0 | b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
            && !HP_KEYWORDS.contains(&v.as_slice());
        ok.then_some(v)
    })
}

/// Header strings: any bytes but NUL (which ends a string in hp2ps).
fn header_text() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>().prop_filter("no NUL", |&b| b != 0), 0..40)
}

fn written() -> impl Strategy<Value = Written> {
    (
        [header_text(), header_text(), header_text(), header_text()],
        proptest::collection::vec(name(), 1..12),
        proptest::collection::vec(
            (
                0u64..5_000_000,
                proptest::collection::vec((0usize..64, 0u64..(1 << 53)), 0..10),
                proptest::collection::vec(0u64..10_000_000, 0..3),
            ),
            1..8,
        ),
    )
        .prop_map(|(header, mut names, mut samples)| {
            names.sort();
            names.dedup();
            // Times must not decrease.
            let mut t = 0;
            for s in &mut samples {
                t += s.0;
                s.0 = t;
                for p in &mut s.1 {
                    p.0 %= names.len();
                }
            }
            Written {
                header,
                samples,
                names,
            }
        })
}

fn micro(t: u64) -> String {
    format!("{}.{:06}", t / 1_000_000, t % 1_000_000)
}

fn to_text(w: &Written, layout: Layout) -> Vec<u8> {
    let end: &[u8] = match layout {
        Layout::Ghc => b"\n",
        Layout::Crlf => b"\r\n",
        Layout::OneLine => b" ",
    };
    let sep: &[u8] = match layout {
        Layout::Ghc => b"\t",
        _ => b" ",
    };
    let mut out = Vec::new();
    let mut statement = |parts: &[&[u8]]| {
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(if i == parts.len() - 1 { sep } else { b" " });
            }
            out.extend_from_slice(p);
        }
        out.extend_from_slice(end);
    };
    for (field, text) in ["JOB", "DATE", "SAMPLE_UNIT", "VALUE_UNIT"]
        .iter()
        .zip(&w.header)
    {
        statement(&[field.as_bytes(), &support::hp_quoted(text)]);
    }
    for (time, points, marks) in &w.samples {
        let t = micro(*time);
        statement(&[b"BEGIN_SAMPLE", t.as_bytes()]);
        for &(n, v) in points {
            statement(&[&w.names[n], v.to_string().as_bytes()]);
        }
        statement(&[b"END_SAMPLE", t.as_bytes()]);
        for &m in marks {
            statement(&[b"MARK", micro(m).as_bytes()]);
        }
    }
    out
}

/// The profile the reader must build from `w`: bands in the order their names first
/// appear, points in file order.
fn expected(w: &Written) -> Profile {
    let time = |t: u64| micro(t).parse::<f64>().unwrap();
    let mut p = Profile {
        job: w.header[0].clone(),
        date: w.header[1].clone(),
        sample_unit: w.header[2].clone(),
        value_unit: w.header[3].clone(),
        ..Profile::default()
    };
    for (k, (t, points, marks)) in w.samples.iter().enumerate() {
        p.times.push(time(*t));
        for &(n, v) in points {
            let name = &w.names[n];
            let band = match p.bands.iter().position(|b| &b.name == name) {
                Some(i) => i,
                None => {
                    p.bands.push(Band {
                        name: name.clone(),
                        points: Vec::new(),
                    });
                    p.bands.len() - 1
                }
            };
            p.bands[band].points.push(Point {
                sample: k as u32,
                value: v as f64,
            });
        }
        p.marks.extend(marks.iter().map(|&m| time(m)));
    }
    p
}

/// Hands out the input a few bytes at a time, as a pipe from a slow writer would.
struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    k: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.k % self.sizes.len()].min(buf.len());
        self.k += 1;
        let n = size.min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn read_back(text: &[u8], sizes: Vec<usize>) -> Result<Profile, TestCaseError> {
    let mut input = Trickle {
        data: text,
        sizes,
        k: 0,
    };
    let loaded = load(Source::Stream(&mut input), &LoadOptions::default())
        .map_err(|e| TestCaseError::fail(format!("refused: {e}")))?;
    prop_assert!(
        loaded.warnings.is_empty(),
        "warnings: {:?}",
        loaded.warnings
    );
    Ok(loaded.profile)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_reader_reads_back_what_was_written(
        w in written(),
        layout in prop_oneof![Just(Layout::Ghc), Just(Layout::Crlf), Just(Layout::OneLine)],
        sizes in proptest::collection::vec(1usize..9000, 1..5),
    ) {
        let text = to_text(&w, layout);
        let profile = read_back(&text, sizes)?;
        prop_assert_eq!(profile, expected(&w));
    }
}

// ---------------------------------------------------------------------------------------
// Aggregation.

/// Bands with small integer values (sums are exact in any order), over `nsamples`.
fn bands(nsamples: u32) -> impl Strategy<Value = Vec<Band>> {
    proptest::collection::vec(
        (
            proptest::collection::vec(b'a'..=b'e', 1..4),
            proptest::collection::vec((0..nsamples, 0u32..1000), 0..6),
        ),
        0..30,
    )
    .prop_map(|raw| {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        raw.into_iter()
            .filter(|(name, _)| {
                let new = !seen.contains(name);
                seen.push(name.clone());
                new
            })
            .map(|(name, points)| Band {
                name,
                points: points
                    .into_iter()
                    .map(|(sample, v)| Point {
                        sample,
                        value: f64::from(v),
                    })
                    .collect(),
            })
            .collect()
    })
}

fn per_sample(bands: &[Band], nsamples: usize) -> Vec<f64> {
    let mut sums = vec![0.0; nsamples];
    for b in bands {
        for p in &b.points {
            sums[p.sample as usize] += p.value;
        }
    }
    sums
}

fn profile_of(bands: Vec<Band>, nsamples: usize) -> Profile {
    Profile {
        times: (0..nsamples).map(|i| i as f64).collect(),
        bands,
        ..Profile::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_band_limit_keeps_every_sum_and_other_sums_what_it_merges(
        bands in bands(6),
        limit in 1i64..12,
    ) {
        let mut limited = bands.clone();
        apply_band_limit(&mut limited, limit, 6);
        prop_assert_eq!(per_sample(&limited, 6), per_sample(&bands, 6));
        prop_assert_eq!(stack_heights(&limited, 6), per_sample(&bands, 6));
        let n = bands.len();
        if n as i64 <= limit {
            prop_assert_eq!(&limited, &bands);
        } else {
            let merged = n - limit as usize + 1;
            prop_assert_eq!(limited.len(), limit as usize);
            prop_assert_eq!(&limited[0].name, &b"OTHER".to_vec());
            prop_assert_eq!(per_sample(&limited[..1], 6), per_sample(&bands[..merged], 6));
            prop_assert_eq!(&limited[1..], &bands[merged..]);
        }
    }

    #[test]
    fn trace_elimination_drops_only_the_smallest_bands_below_the_threshold(
        bands in bands(4),
        percent in 0.0f64..=5.0,
    ) {
        let mut kept = bands.clone();
        eliminate_traces(&mut kept, percent);
        let grand: i64 = bands.iter().map(band_total).sum();
        let dropped: Vec<&Band> = bands.iter().filter(|b| !kept.contains(b)).collect();
        prop_assert_eq!(kept.len() + dropped.len(), bands.len());
        let smallest_kept = kept.iter().map(band_total).min();
        for d in &dropped {
            if let Some(k) = smallest_kept {
                prop_assert!(band_total(d) <= k, "dropped a band bigger than a kept one");
            }
        }
        if grand > 0 {
            let share = 100.0 * dropped.iter().map(|b| band_total(b)).sum::<i64>() as f64
                / grand as f64;
            prop_assert!(share < percent + 1e-9, "dropped {share}% at -t{percent}");
        }
        // The kept bands come out in ascending order of their totals.
        let totals: Vec<i64> = kept.iter().map(band_total).collect();
        prop_assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
    }

    #[test]
    fn every_order_is_total_and_aggregation_loses_no_value(
        bands in bands(5),
        by_name in prop_oneof![Just(None), Just(Some(NameOrder::Ascending)), Just(Some(NameOrder::Descending))],
        by_deviation in any::<bool>(),
        limit in prop_oneof![Just(0i64), 1i64..25],
        with_aux in any::<bool>(),
    ) {
        let mut opts = AggregateOptions::default();
        opts.trace_percent = 0.0;
        opts.by_deviation = by_deviation;
        opts.by_name = by_name;
        opts.band_limit = limit;
        let aux = with_aux.then(|| Aux {
            order: bands
                .iter()
                .enumerate()
                .map(|(i, b)| (b.name.clone(), (i as i32 * 7919) % 13))
                .collect(),
            ..Aux::default()
        });
        let run = || aggregate(profile_of(bands.clone(), 5), aux.as_ref(), &opts, &hp2ps::internals::Needs::default());
        let agg = run();
        // Deterministic: the same input gives the same order.
        prop_assert_eq!(&agg, &run());
        // Nothing is lost: every value is in a band or in OTHER (-t0 drops nothing but
        // zero bands, which hold no value).
        prop_assert_eq!(per_sample(&agg.bands, 5), per_sample(&bands, 5));
        // Every name appears once.
        let mut names: Vec<&Vec<u8>> = agg.bands.iter().map(|b| &b.name).collect();
        names.sort();
        names.dedup();
        prop_assert_eq!(names.len(), agg.bands.len());
        // The last sort decides: -p's ORDER keys, else -i's names.
        let other = agg.bands.first().is_some_and(|b| b.name == b"OTHER")
            && !bands.iter().any(|b| b.name == b"OTHER");
        let sorted = &agg.bands[usize::from(other)..];
        if let Some(aux) = &aux {
            let keys: Vec<i32> = sorted.iter().map(|b| aux.order_of(&b.name)).collect();
            prop_assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
        } else if let Some(order) = by_name {
            let ordered = sorted.windows(2).all(|w| match order {
                NameOrder::Ascending => w[0].name < w[1].name,
                NameOrder::Descending => w[0].name > w[1].name,
            });
            prop_assert!(ordered, "not in strict name order");
        }
    }
}
