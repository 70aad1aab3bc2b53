//! Tests of the summary's numbers and its text and JSON forms.

use super::text::number;
use super::*;
use crate::read::hp::ReadOptions;

fn profile(body: &str) -> Profile {
    let text = format!("JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n{body}");
    Profile::read(text.as_bytes(), &ReadOptions::default())
        .expect("valid")
        .0
}

#[test]
fn band_areas_add_up_to_the_total() {
    let p = profile(
        "BEGIN_SAMPLE 0.0\na 4\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 2\nb 6\nb 2\n\
         END_SAMPLE 1.0\nBEGIN_SAMPLE 3.0\nEND_SAMPLE 3.0\n",
    );
    let s = summarize(&p, &SummaryOptions::default());
    assert_eq!(s.area, 7.0 + 10.0);
    assert_eq!((s.peak.total, s.peak.time), (10.0, 1.0));
    let sum: f64 = s.top.iter().map(|b| b.area).sum();
    assert_eq!(sum, s.area);
    assert_eq!(s.top[0].name, "b");
    assert_eq!((s.top[0].peak, s.top[0].peak_time), (8.0, 1.0));
    assert_eq!((s.top[1].peak, s.top[1].peak_time), (4.0, 0.0));
}

#[test]
fn top_limits_the_list_and_ties_sort_by_name() {
    let p = profile("BEGIN_SAMPLE 0.0\nz 1\ny 1\nx 1\nEND_SAMPLE 0.0\n");
    let top2 = SummaryOptions {
        top: 2,
        ..SummaryOptions::default()
    };
    let s = summarize(&p, &top2);
    assert_eq!(s.bands, 3);
    let names: Vec<&str> = s.top.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(s.area, 0.0);
    assert!(s.top.iter().all(|b| b.share == 0.0));
}

#[test]
fn numbers_for_people() {
    assert_eq!(number(648.6800000000001), "648.68");
    assert_eq!(number(2.0), "2");
    assert_eq!(number(0.05), "0.05");
    assert_eq!(number(1.5), "1.5");
    assert_eq!(number(-0.001), "0");
    assert_eq!(number(99159496.0), "99,159,496");
    assert_eq!(number(32334570.2), "32,334,570.2");
    assert_eq!(number(-1234.5), "-1,234.5");
    assert_eq!(number(999.0), "999");
    assert_eq!(number(f64::INFINITY), "inf");
}

#[test]
fn json_values_are_integers_when_exact() {
    let p = profile("BEGIN_SAMPLE 0.5\na 3\nEND_SAMPLE 0.5\n");
    let mut out = Vec::new();
    summarize(&p, &SummaryOptions::default())
        .write_json(&mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("\"peak\":{\"total\":3,\"time\":0.5}"),
        "{text}"
    );
}
