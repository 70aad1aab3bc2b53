use super::symbols::Symbol;
use super::*;
use crate::profile::{Band, Point};

fn profile(labels: &[&str]) -> Profile {
    Profile {
        bands: (labels.iter())
            .map(|l| Band {
                name: l.as_bytes().to_vec(),
                points: vec![Point {
                    sample: 1,
                    value: 8.0,
                }],
            })
            .collect(),
        ..Profile::default()
    }
}

fn names(p: &Profile) -> Vec<String> {
    (p.bands.iter())
        .map(|b| String::from_utf8_lossy(&b.name).into_owned())
        .collect()
}

fn entry(address: u64, table_name: &str, line: u32) -> IpeEntry {
    IpeEntry {
        address,
        table_name: table_name.into(),
        closure_desc: "15".into(),
        type_desc: "IO ()".into(),
        label: "main".into(),
        module: "Main".into(),
        src_loc: format!("programs/LeakMap.hs:{line}:3-31"),
    }
}

fn sym(address: u64, size: u64, name: &str) -> Symbol {
    Symbol {
        address,
        size,
        name: name.into(),
    }
}

/// A binary laid out as GHC links one: C code, then closures with their local tables
/// after them, the runtime's tables.
fn binary() -> SymbolTable {
    SymbolTable::new(
        vec![
            sym(0x401000, 0x2a, "hs_word2float64"),
            sym(
                0x401100,
                5,
                "containerszm0zi7zminplace_DataziMapziInternal_map_info",
            ),
            sym(0x401200, 0x1b, "stg_STACK_info"),
            sym(
                0x401300,
                6,
                "ghczminternal_GHCziInternalziConcziSync_ThreadId_con_info",
            ),
            sym(0x401400, 0x20, "Main_main_info"),
        ],
        vec![(0x401000, 0x402000)],
    )
}

#[test]
fn ipe_entries_name_their_tables() {
    let mut p = profile(&["0x40b010", "0x4bc458", "0x40ae70", "0x40a768"]);
    let ipe = [
        entry(0x40b010, "sat_s1Ky_info", 37),
        entry(0x40ae70, "sat_s1Kx_info", 29),
        entry(0x40a768, "sat_s1Kv_info", 29),
    ];
    let naming = name_bands(&mut p, &ipe, None, &SymbolizeOptions::default());
    assert_eq!(
        names(&p),
        [
            "main: thunk :: IO () (LeakMap.hs:37)",
            "0x4bc458",
            // Two tables of one place: their table names tell them apart.
            "main: thunk :: IO () (LeakMap.hs:29) [sat_s1Kx_info]",
            "main: thunk :: IO () (LeakMap.hs:29) [sat_s1Kv_info]",
        ]
    );
    assert_eq!(
        (naming.by_ipe, naming.unresolved, naming.agreement),
        (3, 1, None)
    );
    let info = &p.band_info[&p.bands[0].name];
    assert_eq!(info.ipe.as_ref(), Some(&ipe[0]));
    assert_eq!((info.address, &info.symbol), (0x40b010, &None));
    // A band named by its address only has nothing more to tell.
    assert!(!p.band_info.contains_key(&b"0x4bc458"[..]));
}

#[test]
fn the_names_do_not_depend_on_the_band_order() {
    let ipe = [entry(0x10, "a_info", 1), entry(0x20, "b_info", 1)];
    let mut p = profile(&["0x10", "0x20"]);
    let mut q = profile(&["0x20", "0x10"]);
    name_bands(&mut p, &ipe, None, &SymbolizeOptions::default());
    name_bands(&mut q, &ipe, None, &SymbolizeOptions::default());
    let (mut a, mut b) = (names(&p), names(&q));
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert_eq!(a[0], "main: thunk :: IO () (LeakMap.hs:1) [a_info]");
}

/// Same IPE table name too: the address tells them apart.
#[test]
fn tables_alike_in_everything_get_their_address() {
    let ipe = [entry(0x10, "a_info", 1), entry(0x20, "a_info", 1)];
    let mut p = profile(&["0x10", "0x20"]);
    name_bands(&mut p, &ipe, None, &SymbolizeOptions::default());
    assert_eq!(
        names(&p),
        [
            "main: thunk :: IO () (LeakMap.hs:1) [a_info] [0x10]",
            "main: thunk :: IO () (LeakMap.hs:1) [a_info] [0x20]"
        ]
    );
}

/// Labels of one address (`0x10`, `0x010`) are two bands: their labels part them.
#[test]
fn labels_of_one_address_stay_two_bands() {
    let ipe = [entry(0x10, "a_info", 1)];
    let mut p = profile(&["0x10", "0x010"]);
    name_bands(&mut p, &ipe, None, &SymbolizeOptions::default());
    let main = "main: thunk :: IO () (LeakMap.hs:1) [a_info]";
    assert_eq!(
        names(&p),
        [format!("{main} [0x10]"), format!("{main} [0x010]")]
    );
}

/// Names crafted to collide at every step (types that spell out what the steps
/// append): the labels stay, unique as ever.
#[test]
fn names_made_to_collide_fall_back_to_the_labels() {
    let crafted = |address: u64, table: &str, type_desc: &str| IpeEntry {
        type_desc: type_desc.into(),
        src_loc: ":".into(),
        ..entry(address, table, 1)
    };
    let ipe = [
        crafted(0x10, "a", "X"),
        crafted(0x20, "a", "X"),
        crafted(0x30, "c", "X [a] [0x10]"),
        crafted(0x40, "d", "X [a] [0x10] [0x10]"),
        crafted(0x50, "e", "X [a] [0x10] [0x30]"),
    ];
    let labels = ["0x10", "0x20", "0x30", "0x40", "0x50"];
    let mut p = profile(&labels);
    name_bands(&mut p, &ipe, None, &SymbolizeOptions::default());
    assert_eq!(names(&p), labels);
    // What is known stays known, under the labels.
    assert_eq!(p.band_info[&b"0x30"[..]].ipe.as_ref(), Some(&ipe[2]));
}

#[test]
fn names_are_one_line() {
    let mut e = entry(0x10, "a_info", 1);
    e.type_desc = "IO\n()\r".into();
    let mut p = profile(&["0x10"]);
    name_bands(&mut p, &[e], None, &SymbolizeOptions::default());
    assert_eq!(names(&p), ["main: thunk :: IO ()  (LeakMap.hs:1)"]);
}

#[test]
fn other_profiles_and_address_names_are_left_alone() {
    let ipe = [entry(0x10, "a_info", 1)];
    for labels in [&["0x10", "MAIN"][..], &["2", "10"], &[]] {
        let mut p = profile(labels);
        let before = p.clone();
        let naming = name_bands(&mut p, &ipe, Some(&binary()), &SymbolizeOptions::default());
        assert_eq!(p, before);
        assert!(!naming.info_tables);
    }
    let mut p = profile(&["0x10"]);
    let before = p.clone();
    let opts = SymbolizeOptions {
        names: IpeNames::Address,
    };
    let naming = name_bands(&mut p, &ipe, Some(&binary()), &opts);
    assert_eq!((p, naming.by_ipe), (before, 0));
}

#[test]
fn symbols_name_the_tables_without_ipe() {
    // Tables at symbol - 16 (exact), after a closure (inside it), after a C function's
    // end (no known function), and outside the code.
    let labels = [
        "0x4011f0", "0x4012f0", "0x4013f0", "0x401100", "0x401108", "0x401030", "0x501000",
        "0x401010",
    ];
    let mut p = profile(&labels);
    let ipe = [entry(0x4013f0, "main_info", 1)];
    let naming = name_bands(&mut p, &ipe, Some(&binary()), &SymbolizeOptions::default());
    assert_eq!(
        names(&p),
        [
            "stg_STACK",
            "ghc-internal:GHC.Internal.Conc.Sync.ThreadId",
            "main: thunk :: IO () (LeakMap.hs:1)",
            "in containers:Data.Map.Internal.map+0x10",
            "in containers:Data.Map.Internal.map+0x18",
            "0x401030",
            "0x501000",
            "in hs_word2float64+0x20",
        ]
    );
    let a = naming.agreement.unwrap();
    assert!(a.accepted());
    assert_eq!((a.band_hits, a.ipe_agree, a.ipe_disagree), (3, 1, 0));
    assert_eq!(
        (
            naming.by_ipe,
            naming.by_symbol,
            naming.approximate,
            naming.unresolved
        ),
        (1, 2, 3, 2)
    );
    // The IPE-named table keeps its symbol too.
    let main = &p.band_info[&p.bands[2].name];
    assert_eq!(
        main.symbol.as_ref().map(|s| s.symbol.as_str()),
        Some("Main_main_info")
    );
    let inside = p.band_info[&p.bands[3].name].symbol.clone().unwrap();
    assert!(inside.approximate);
    assert_eq!(inside.offset, 0x10);
}

#[test]
fn a_position_independent_binary_is_placed_by_its_symbols() {
    let load = 0x5555_5555_0000u64;
    let labels: Vec<String> = [0x4011f0u64, 0x4012f0, 0x4013f0, 0x401100]
        .iter()
        .map(|a| format!("{:#x}", a + load))
        .collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let mut p = profile(&labels);
    let naming = name_bands(&mut p, &[], Some(&binary()), &SymbolizeOptions::default());
    assert_eq!(
        names(&p),
        [
            "stg_STACK",
            "ghc-internal:GHC.Internal.Conc.Sync.ThreadId",
            "Main.main",
            "in containers:Data.Map.Internal.map+0x10"
        ]
    );
    assert_eq!(naming.agreement.unwrap().placement.load_offset, load);
}

#[test]
fn a_binary_that_disagrees_is_not_used() {
    // Four addresses of which one falls on a symbol, and an IPE entry on a symbol of
    // another name.
    let mut p = profile(&["0x4011f0", "0x401500", "0x401600", "0x401700", "0x401800"]);
    let ipe = [entry(0x4012f0, "sat_s1Ky_info", 1)];
    let naming = name_bands(&mut p, &ipe, Some(&binary()), &SymbolizeOptions::default());
    let a = naming.agreement.unwrap();
    assert!(!a.accepted(), "{a:?}");
    assert_eq!(names(&p)[0], "0x4011f0");
    assert_eq!(
        (naming.by_symbol, naming.approximate, naming.unresolved),
        (0, 0, 5)
    );
}

#[test]
fn address_labels() {
    assert_eq!(address_label(b"0x4bc458"), Some(0x4bc458));
    assert_eq!(address_label(b"0xffffffffffffffff"), Some(u64::MAX));
    for bad in [
        &b"0x"[..],
        b"4bc458",
        b"0x1ffffffffffffffff",
        b"0x12g",
        b"0x+1",
        b"",
    ] {
        assert_eq!(address_label(bad), None, "{bad:?}");
    }
}
