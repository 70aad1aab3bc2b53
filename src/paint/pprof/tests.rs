//! pprof profiles of profiles made in the test, read back with prost; `tests/pprof.rs`
//! has `go tool pprof` read those of real GHC profiles.

use std::io::Read;

use super::*;
use crate::paint::Format;
use crate::pipeline::{prepare, RenderOptions};
use crate::profile::Profile;

fn profile(job: &str, bands: &[(&str, &[f64])]) -> Profile {
    Profile::of_columns(job, 0.5, bands)
}

fn pprof(p: Profile, census: Census) -> io::Result<proto::Profile> {
    let opts = RenderOptions {
        needs: Format::Pprof.needs(),
        ..RenderOptions::default()
    };
    let (chart, _) = prepare(p, None, &opts);
    let paint = PaintOptions {
        census,
        ..PaintOptions::default()
    };
    let mut gz = Vec::new();
    chart.write(Format::Pprof, &paint, &mut gz)?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice()).read_to_end(&mut bytes)?;
    Ok(proto::Profile::decode(bytes.as_slice()).expect("a profile.proto"))
}

/// Each sample as its stack's function names (innermost first) and its value.
fn stacks(p: &proto::Profile) -> Vec<(Vec<&str>, i64)> {
    let name = |location: u64| {
        let f = &p.function[location as usize - 1];
        p.string_table[f.name as usize].as_str()
    };
    (p.sample.iter())
        .map(|s| (s.location_id.iter().map(|&l| name(l)).collect(), s.value[0]))
        .collect()
}

const BANDS: &[(&str, &[f64])] = &[
    ("(1)inner/outer/MAIN", &[0.0, 10.0, 30.0, 20.0, 0.0]),
    ("(2)outer/MAIN", &[1.0, 2.0, 3.0, 40.0, 0.0]),
    ("(3)gone/MAIN", &[5.0, 0.0, 0.0, 0.0, 0.0]),
];

#[test]
fn the_peak_census_of_a_cost_centre_profile_is_its_stacks() {
    let p = pprof(profile("p +RTS -hc -RTS", BANDS), Census::Peak).unwrap();
    // The totals are 6, 12, 33, 60, 0: the peak is the fourth census.
    assert_eq!(
        stacks(&p),
        [
            (vec!["outer", "MAIN"], 40),
            (vec!["inner", "outer", "MAIN"], 20)
        ]
    );
    let st = &p.string_table;
    assert_eq!(st[0], "");
    let ty = &p.sample_type[0];
    assert_eq!(
        (
            st[ty.r#type as usize].as_str(),
            st[ty.unit as usize].as_str()
        ),
        ("inuse_space", "bytes")
    );
    assert_eq!(p.default_sample_type, ty.r#type);
    let label = &p.sample[1].label[0];
    assert_eq!(
        (
            st[label.key as usize].as_str(),
            st[label.str as usize].as_str()
        ),
        ("band", "(1)inner/outer/MAIN")
    );
    assert_eq!(p.function.len(), 3, "each cost centre once");
    let said: Vec<&str> = p.comment.iter().map(|&c| st[c as usize].as_str()).collect();
    assert!(
        said[0].ends_with("the census at 1.5 seconds (the peak)"),
        "{said:?}"
    );
    assert_eq!(said[1], "JOB p +RTS -hc -RTS");
}

#[test]
fn the_last_a_time_and_the_mean_choose_their_census() {
    let job = "p +RTS -hc -RTS";
    let last = pprof(profile(job, BANDS), Census::Last).unwrap();
    assert_eq!(
        stacks(&last).iter().map(|s| s.1).sum::<i64>(),
        60,
        "the exit left aside"
    );
    let at = pprof(profile(job, BANDS), Census::At(0.6)).unwrap();
    assert_eq!(stacks(&at).iter().map(|s| s.1).collect::<Vec<_>>(), [10, 2]);
    let late = pprof(profile(job, BANDS), Census::At(9.0)).unwrap_err();
    assert!(late.to_string().contains("--at 9"), "{late}");
    // Means over 2 seconds, the areas by the trapezoids' weights (0.25, 0.5, 0.5, 0.5,
    // 0.25): inner 30 / 2 = 15, outer 22.75 / 2 = 11.375 → 11, gone 1.25 / 2 = 0.625 → 1.
    let mean = pprof(profile(job, BANDS), Census::Mean).unwrap();
    assert_eq!(
        stacks(&mean).iter().map(|s| s.1).collect::<Vec<_>>(),
        [15, 11, 1]
    );
    assert_eq!(mean.duration_nanos, 2_000_000_000);
}

#[test]
fn other_kinds_are_one_frame_or_their_module_and_name() {
    let bands: &[(&str, &[f64])] = &[("<Data.Map.Internal.sat_s1>", &[4.0]), (":", &[2.0])];
    let p = pprof(profile("p +RTS -hd", bands), Census::Peak).unwrap();
    assert_eq!(
        stacks(&p),
        [(vec!["sat_s1", "Data.Map.Internal"], 4), (vec![":"], 2)]
    );
    let p = pprof(
        profile("p +RTS -hT", &[("THUNK_1_0", &[4.0])]),
        Census::Peak,
    )
    .unwrap();
    assert_eq!(stacks(&p), [(vec!["THUNK_1_0"], 4)]);
}

#[test]
fn the_same_chart_gives_the_same_bytes_and_no_census_is_refused() {
    let opts = RenderOptions {
        needs: Format::Pprof.needs(),
        ..RenderOptions::default()
    };
    let write = |p: Profile| {
        let (chart, _) = prepare(p, None, &opts);
        let mut out = Vec::new();
        chart
            .write(Format::Pprof, &PaintOptions::default(), &mut out)
            .map(|()| out)
    };
    let a = write(profile("p", BANDS)).unwrap();
    assert_eq!(a, write(profile("p", BANDS)).unwrap());
    assert_eq!(&a[..4], &[0x1f, 0x8b, 8, 0], "gzip, no name");
    assert_eq!(
        &a[4..10],
        &[0, 0, 0, 0, 0, 255],
        "no time, no operating system"
    );
    let e = write(profile("p", &[])).unwrap_err();
    assert_eq!(e.to_string(), "the profile has no census");
}
