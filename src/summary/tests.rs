//! Tests of the summary's numbers and its text and JSON forms.

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
    let s = of_profile(&p, &SummaryOptions::default());
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
    let s = of_profile(&p, &top2);
    assert_eq!(s.bands, 3);
    let names: Vec<&str> = s.top.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(s.area, 0.0);
    assert!(s.top.iter().all(|b| b.share == 0.0));
}

#[test]
fn json_values_are_integers_when_exact() {
    let p = profile("BEGIN_SAMPLE 0.5\na 3\nEND_SAMPLE 0.5\n");
    let mut out = Vec::new();
    of_profile(&p, &SummaryOptions::default())
        .write_json(&mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("\"peak\":{\"total\":3,\"time\":0.5}"),
        "{text}"
    );
}

/// A band's IPE entry and symbol in the JSON (every field, the closure type's name,
/// hex addresses) and below its row in the text; the kind of profile and the naming
/// counts when the caller sets them; none of it otherwise.
#[test]
fn band_info_breakdown_and_names() {
    use crate::profile::{IpeEntry, SymbolMatch};
    let mut p = profile("BEGIN_SAMPLE 1.0\nt 8\ns 4\nEND_SAMPLE 1.0\n");
    let plain = of_profile(&p, &SummaryOptions::default());
    let mut json = Vec::new();
    plain.write_json(&mut json).unwrap();
    let json = String::from_utf8(json).unwrap();
    for absent in ["info", "breakdown", "names"] {
        assert!(!json.contains(&format!("\"{absent}\"")), "{json}");
    }
    let ipe = IpeEntry {
        address: 0x40ae70,
        table_name: "sat_s1Kx_info".into(),
        closure_desc: "15".into(),
        type_desc: "IO ()".into(),
        label: "main".into(),
        module: "Main".into(),
        src_loc: "L.hs:(29,1)-(37,31)".into(),
    };
    let symbol = SymbolMatch {
        symbol: "stg_STACK_info".into(),
        name: "stg_STACK".into(),
        offset: 0,
        approximate: false,
    };
    let info = |ipe: Option<IpeEntry>, symbol: Option<SymbolMatch>| BandInfo {
        address: 0x4bc458,
        ipe,
        symbol,
    };
    p.band_info.insert(b"t".to_vec(), info(Some(ipe), None));
    p.band_info.insert(b"s".to_vec(), info(None, Some(symbol)));
    let mut s = of_profile(&p, &SummaryOptions::default());
    s.breakdown = Some(Breakdown::Era);
    s.names = Some(Naming {
        info_tables: true,
        bands: 2,
        by_ipe: 1,
        by_symbol: 1,
        binary: Some("./prog".into()),
        ..Naming::default()
    });
    let mut json = Vec::new();
    s.write_json(&mut json).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let t = &v["top"][0]["info"];
    assert_eq!(t["address"], "0x4bc458");
    assert_eq!(
        t["ipe"],
        serde_json::json!({"address": "0x40ae70", "table_name": "sat_s1Kx_info",
            "closure_desc": "15", "closure_type": "THUNK", "type_desc": "IO ()",
            "label": "main", "module": "Main", "src_loc": "L.hs:(29,1)-(37,31)"})
    );
    assert!(t.get("symbol").is_none());
    let sym = &v["top"][1]["info"]["symbol"];
    assert_eq!(
        (sym["symbol"].as_str(), sym["name"].as_str()),
        (Some("stg_STACK_info"), Some("stg_STACK"))
    );
    assert_eq!(
        (sym["offset"].as_u64(), sym["approximate"].as_bool()),
        (Some(0), Some(false))
    );
    assert_eq!(
        v["breakdown"],
        serde_json::json!({"flag": "-he", "bands": "eras"})
    );
    assert_eq!(v["names"]["binary"], "./prog");
    // The naming's counts, in the order the JSON has always had them.
    let json = String::from_utf8(json).unwrap();
    assert!(
        json.contains(
            r#""names":{"ipe":1,"symbol":1,"approximate":0,"unresolved":0,"binary":"./prog"}"#
        ),
        "{json}"
    );
    let mut text = Vec::new();
    s.write_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("  bands    2 eras (-he), by area:\n"),
        "{text}"
    );
    assert!(
        text.contains("  names    1 by IPE entry, 1 by symbol of ./prog, 0 inside"),
        "{text}"
    );
    let row = text.find("  t\n").expect("the row of t");
    assert!(text[row..].starts_with("  t\n  "), "{text}");
    for line in [
        "table sat_s1Kx_info at 0x40ae70",
        "closure THUNK (15), type IO ()",
        "label main, module Main, L.hs:(29,1)-(37,31)",
    ] {
        assert!(text.contains(&format!("  {line}\n")), "{line} in {text}");
    }
    assert!(
        text.contains("  s\n") && text.contains("  symbol stg_STACK_info\n"),
        "{text}"
    );
}

/// The bidirectional formatting characters (which reorder what a terminal shows) are
/// written as escapes, as control characters are; other text is left as it is.
#[test]
fn printable_escapes_bidi_formatting() {
    for c in [
        '\u{061c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}',
    ] {
        let text = format!("a{c}b");
        assert_eq!(
            super::printable(&text),
            format!("a\\u{{{:x}}}b", u32::from(c)),
            "{c:?}"
        );
    }
    assert!(matches!(
        super::printable("caf\u{e9} \u{2192} x"),
        std::borrow::Cow::Borrowed(_)
    ));
}
