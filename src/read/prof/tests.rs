//! The readers on small reports made here, one layout or one kind of damage each (the
//! real files' are `tests/prof_readers.rs`'s).

use super::columns::{parse_decimal, tenths, Fit, Layout, Num};
use super::*;
use crate::calltree::NodeId;

fn read(text: &str) -> Result<TimeProfile, TimeProfileError> {
    read_time_profile_bytes(text.as_bytes(), &TimeProfileOptions::default(), &mut |_| {})
}

fn labels(t: &CallTree) -> Vec<String> {
    (t.nodes())
        .map(|n| format!("{}{}", " ".repeat(t.depth(n)), t.cost_centre(t.cc(n)).label))
        .collect()
}

const HEAD: &str = "\tSat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)\n\n\
    \t   prog +RTS -P -RTS arg\n\n\
    \ttotal time  =        0.10 secs   (100 ticks @ 1000 us, 1 processor)\n\
    \ttotal alloc =       1,000 bytes  (excludes profiling overheads)\n\n";

/// A tree of labels, modules and locations that need care: spaces, TABs, UTF-8, a
/// Windows path with a space, `<no location info>`.
fn odd_report(line_end: &str) -> String {
    let rows = [
        "COST CENTRE      MODULE SRC                      no. entries  %time %alloc   %time %alloc  ticks bytes",
        "",
        "MAIN             MAIN   <built-in>                 1       0    0.0    0.0   100.0  100.0      0     0",
        " CAF:main1       Main   <no location info>         2       0    0.0    0.0    10.0   10.0      0     0",
        "  tab\tlabel      Main   C:\\My Files\\M.hs:1:1-5      3       1   10.0   10.0    10.0   10.0     10   100",
        " 你好世界            Lib    src/Lib.hs:(14,1)-(15,41)  4       7   90.0   90.0    90.0   90.0     90   900",
    ];
    let mut text = HEAD.replace('\n', line_end);
    for r in rows {
        text.push_str(r);
        text.push_str(line_end);
    }
    text
}

#[test]
fn odd_names_are_read_whole_with_either_line_end() {
    for end in ["\n", "\r\n"] {
        let p = read(&odd_report(end)).unwrap();
        assert_eq!(p.warnings(), [], "{end:?}");
        let t = &p.tree;
        assert_eq!(
            labels(t),
            ["MAIN", " CAF:main1", "  tab\tlabel", " 你好世界"]
        );
        let c = t.cost_centre(t.cc(NodeId(2)));
        assert_eq!((c.module, c.src), ("Main", "C:\\My Files\\M.hs:1:1-5"));
        assert_eq!(t.cost_centre(t.cc(NodeId(1))).src, "<no location info>");
        assert!(t.cost_centre(t.cc(NodeId(1))).is_caf);
        assert_eq!(
            (t.entries(NodeId(3)), t.ticks(NodeId(3)), t.bytes(NodeId(3))),
            (7, Some(90), Some(900))
        );
        assert_eq!(t.no(NodeId(3)), Some(4));
        let h = t.header();
        assert_eq!(h.date.as_deref(), Some("Sat Nov 28 10:38 2026"));
        assert_eq!(
            (h.program.as_deref(), &h.rts_options[..], &h.arguments[..]),
            (
                Some("prog"),
                &["-P".to_string()][..],
                &["arg".to_string()][..]
            )
        );
        assert_eq!(
            (h.total_ticks, h.total_alloc, h.tick_interval),
            (Some(100), Some(1000), Some(0.001))
        );
    }
}

#[test]
fn the_2011_layout_has_no_src_and_no_processors() {
    let text = "\tWed Oct 26 13:31 2011 Time and Allocation Profiling Report  (Final)\n\n\
        \t   T2552 +RTS -p -RTS\n\n\
        \ttotal time  =        1.02 secs   (51 ticks @ 20 ms)\n\
        \ttotal alloc = 234,535,968 bytes  (excludes profiling overheads)\n\n\
        COST CENTRE     MODULE  %time %alloc\n\n\
        fib1            Main     60.0   50.0\n\n\n\
        \x20                         individual     inherited\n\
        COST CENTRE     MODULE  no.     entries  %time %alloc   %time %alloc\n\n\
        MAIN            MAIN    102           0   40.0   50.0   100.0  100.0\n\
        \x20fib1           Main    205           1   60.0   50.0    60.0   50.0\n";
    let p = read(text).unwrap();
    assert_eq!(p.warnings(), []);
    let t = &p.tree;
    assert_eq!(labels(t), ["MAIN", " fib1"]);
    assert_eq!(t.cost_centre(t.cc(NodeId(1))).src, "");
    assert_eq!(t.header().tick_interval, Some(0.02));
    assert_eq!(t.header().processors, None);
    assert_eq!(t.ticks(NodeId(0)), None);
    // The report's own table, kept as listed.
    assert_eq!(t.listed().len(), 1);
    assert_eq!((t.listed()[0].time, t.listed()[0].alloc), (60.0, 50.0));
    assert_eq!(t.listed()[0].cc, t.cc(NodeId(1)));
}

#[test]
fn a_module_glued_to_its_number_is_told_apart_once() {
    let text = format!(
        "{HEAD}COST CENTRE MODULE      no.     entries  %time %alloc   %time %alloc\n\n\
         MAIN        MAIN          1           0    0.0    0.0   100.0  100.0\n\
         \x20a          Long.Module2104975           1   50.0   50.0    50.0   50.0\n\
         \x20b          Long.Modulex104976           1   50.0   50.0    50.0   50.0\n\
         \x20c          Long.Module2     77           1    0.0    0.0     0.0    0.0\n\
         \x20d          Long.Module2104977           1    0.0    0.0     0.0    0.0\n\
         \x20e          M1234567890123456789012345           1    0.0    0.0     0.0    0.0\n"
    );
    let p = read(&text).unwrap();
    let t = &p.tree;
    let modules: Vec<&str> = t.nodes().map(|n| t.cost_centre(t.cc(n)).module).collect();
    let nos: Vec<Option<u32>> = t.nodes().map(|n| t.no(n)).collect();
    // Without a known module ending in a digit, the digits are the number; once
    // `Long.Module2` was seen unglued, it is known. A number is at most 19 digits (a
    // u64): the digits before are the module's (and one beyond a u32 is no `no.`).
    let expected = [
        "MAIN",
        "Long.Module",
        "Long.Modulex",
        "Long.Module2",
        "Long.Module2",
        "M123456",
    ];
    assert_eq!(modules, expected);
    let expected = [
        Some(1),
        Some(2104975),
        Some(104976),
        Some(77),
        Some(104977),
        None,
    ];
    assert_eq!(nos, expected);
    match p.warnings() {
        [TimeProfileWarning::Glued {
            line,
            count: 4,
            module,
            number,
        }] => {
            assert_eq!(
                (*line, module.as_str(), number.as_str()),
                (11, "Long.Module", "2104975")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_row_out_of_line_is_read_by_its_spaces_with_a_warning() {
    let text = format!(
        "{HEAD}COST CENTRE MODULE SRC         no. entries  %time %alloc   %time %alloc\n\n\
         MAIN        MAIN   <built-in>    1       0    0.0    0.0   100.0  100.0\n\
         \x20a label that is far too long Main  <no location info> 2  1  100.0  100.0  100.0  100.0\n"
    );
    let p = read(&text).unwrap();
    let t = &p.tree;
    let c = t.cost_centre(t.cc(NodeId(1)));
    assert_eq!(
        (c.label, c.module, c.src),
        ("a label that is far too long", "Main", "<no location info>")
    );
    assert_eq!(
        p.warnings(),
        [TimeProfileWarning::Misaligned { line: 11, count: 1 }]
    );
}

#[test]
fn a_cut_report_gives_what_it_holds_with_one_warning() {
    let full = odd_report("\n");
    // Cut inside the last row: that row is left out.
    let cut = &full[..full.len() - 10];
    let p = read(cut).unwrap();
    assert_eq!(p.tree.len(), 3);
    assert_eq!(p.warnings().len(), 1, "{:?}", p.warnings());
    assert!(matches!(
        p.warnings()[0],
        TimeProfileWarning::Cut { line: 13, .. }
    ));
    // Cut in the head: no tree, the facts read.
    let p = read(&full[..HEAD.len() - 40]).unwrap();
    assert!(p.tree.is_empty());
    assert_eq!(p.tree.header().total_ticks, Some(100));
    assert!(matches!(p.warnings(), [TimeProfileWarning::Cut { .. }]));
    assert!(
        p.warnings()[0].to_string().contains("before its tables"),
        "{}",
        p.warnings()[0]
    );
}

#[test]
fn damaged_rows_are_left_out_and_counted_in_one_warning() {
    let text = odd_report("\n")
        .replace("     10   100", "     10   1x0")
        .replace("90.0   90.0    90.0   90.0", "90.0   9x.0    90.0   90.0");
    let p = read(&text).unwrap();
    assert_eq!(labels(&p.tree), ["MAIN", " CAF:main1"]);
    match p.warnings() {
        [TimeProfileWarning::Damaged {
            line: 12,
            count: 2,
            why,
        }] => {
            assert!(why.contains("not a number"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        p.warnings()[0].line("x.prof"),
        format!("x.prof:{}", p.warnings()[0])
    );
}

#[test]
fn what_is_no_profile_is_refused_where_it_is_not() {
    for (text, at) in [
        ("JOB \"x\"\n", "1:1"),
        ("\n\n   hello\n", "3:4"),
        ("", "1:1"),
        ("{\"x\": 1}", "1:1"),
        ("[1, 2]", "1:1"),
    ] {
        let e = read(text).unwrap_err();
        let message = e.to_string();
        assert!(message.starts_with(at), "{text:?}: {message}");
        assert!(message.contains("expected"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn retainer_profiling_lines_before_and_sets_after() {
    let text = format!(
        "Retainer Profiling: 0, at 0.040383 seconds\n\tMax auxiliary stack size = 164\n\
         {}\nRetainer sets created during profiling:\nSET 2 = {{<SYSTEM.SYSTEM>}}\n\
         SET 68 = {{<Main.f,Main.main>, <>}}\n",
        odd_report("\n")
    );
    let p = read(&text).unwrap();
    assert_eq!(p.warnings(), []);
    assert_eq!(p.tree.len(), 4);
    let sets = p.tree.retainer_sets();
    assert_eq!(sets.len(), 2);
    assert_eq!(
        p.tree.retainer_set(68).unwrap().members,
        ["Main.f,Main.main", ""]
    );
    assert!(kind_of(text.as_bytes()) == Some(Kind::Report));
}

#[test]
fn json_valid_and_as_ghc_9_0_2_writes_it() {
    let json = r#"{"program": "p", "arguments": ["./p", "x"], "rts_arguments": ["-pj"],
        "end_time": "today", "initial_capabilities": 0, "total_time": 0.1,
        "total_ticks": 10, "tick_interval": 1000, "total_alloc": 100,
        "cost_centres": [{"id": 1, "label": "MAIN", "module": "MAIN", "src_loc": "<built-in>", "is_caf": false},
          {"id": 2, "label": "quote"inside", "module": "Main", "src_loc": "M.hs:1:1", "is_caf": false},
          {"id": 3, "label": "tab	\u00e9\\", "module": "Main", "src_loc": "M.hs:2:1", "is_caf": true}],
        "profile": {"id": 1, "entries": 0, "alloc": 10, "ticks": 1, "children": [
           {"id": 2, "entries": 5, "alloc": 60, "ticks": 6, "children": []},
           {"id": 3, "entries": 1, "alloc": 30, "ticks": 3, "children": [{"id": 9, "entries": 0, "alloc": 0, "ticks": 0, "children": []}]}]}}"#;
    let p = read(json).unwrap();
    let t = &p.tree;
    assert_eq!(labels(t), ["MAIN", " quote\"inside", " tab\té\\", "  ?9"]);
    assert_eq!((t.time(NodeId(1)), t.alloc(NodeId(1))), (60.0, 60.0));
    assert_eq!(t.inherited_time(NodeId(0)), 100.0);
    assert_eq!(t.inherited_alloc(NodeId(2)), 30.0);
    assert!(t.cost_centre(t.cc(NodeId(2))).is_caf);
    let h = t.header();
    assert_eq!(h.command_line.as_deref(), Some("p x +RTS -pj -RTS"));
    assert_eq!((h.processors, h.tick_interval), (None, Some(0.001)));
    let kinds: Vec<String> = p.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert!(
        kinds[0].starts_with("5:36: not valid JSON: an unescaped '\"'"),
        "{}",
        kinds[0]
    );
    assert!(kinds[0].ends_with("(2 such places in all)"), "{}", kinds[0]);
    assert!(kinds[1].contains("?9"), "{}", kinds[1]);
    // Cut inside the tree: the stacks read are kept.
    let cut = &json[..json.find("\"id\": 3, \"entries\"").unwrap()];
    let p = read(cut).unwrap();
    assert_eq!(p.tree.len(), 2);
    assert!(p
        .warnings()
        .iter()
        .any(|w| matches!(w, TimeProfileWarning::Cut { .. })));
}

#[test]
fn a_deep_tree_needs_no_deep_stack() {
    let depth = 50_000;
    let mut json = String::from(r#"{"cost_centres": [], "profile": "#);
    for _ in 0..depth {
        json.push_str(r#"{"id": 1, "ticks": 1, "children": ["#);
    }
    for _ in 0..depth {
        json.push_str("]}");
    }
    json.push('}');
    let p = read(&json).unwrap();
    assert_eq!(p.tree.len(), depth);
    assert_eq!(p.tree.depth(NodeId(depth as u32 - 1)), depth - 1);
    // The report's indentation likewise.
    let mut text = format!("{HEAD}COST CENTRE MODULE no. entries %time %alloc %time %alloc\n\n");
    for d in 0..depth / 10 {
        text.push_str(&format!("{}a Main 1 0 0.0 0.0 0.0 0.0\n", " ".repeat(d)));
    }
    assert_eq!(
        read(&text)
            .unwrap()
            .tree
            .depth(NodeId(depth as u32 / 10 - 1)),
        depth / 10 - 1
    );
}

#[test]
fn sniffing_is_by_content() {
    assert_eq!(kind_of(odd_report("\n").as_bytes()), Some(Kind::Report));
    assert_eq!(kind_of(b"  \n{\n\"program\": \"x\""), Some(Kind::Json));
    assert_eq!(kind_of(b"{\"a\": 1}"), None);
    assert_eq!(kind_of(b"JOB \"x\""), None);
    assert_eq!(kind_of(b"hdrb\0\0\0\0"), Some(Kind::Eventlog));
    assert!(TimeProfile::sniff(odd_report("\r\n").as_bytes()));
    assert!(!TimeProfile::sniff(b"hdrb\0\0\0\0"));
}

#[test]
fn layouts_and_numbers() {
    let l = Layout::of("COST CENTRE MODULE SRC no. entries %time %alloc %time %alloc ticks bytes")
        .unwrap();
    assert!(l.has(Num::InheritedAlloc) && l.has(Num::Bytes));
    assert_eq!(
        Layout::of("COST CENTRE MODULE scc %time").unwrap_err(),
        "scc"
    );
    assert!(Layout::of("COST CENTRE SRC").is_err());
    let cells = l.split(b"x M s 1 2 3.5 4 5 6 7 8", &|_| false).unwrap();
    assert_eq!(
        (cells.label, cells.module, cells.src, cells.fit),
        (&b"x"[..], &b"M"[..], &b"s"[..], Fit::Loose)
    );
    assert!(l.split(b"x M s 1 2 3.5 4 5 6 7", &|_| false).is_err());
    let t = tenths();
    for s in [
        "38.3",
        "100.0",
        "0",
        "0.05",
        "12345678.25",
        "1.25e2",
        "204.7",
        "204.8",
        "9.9",
    ] {
        assert_eq!(parse_decimal(s.as_bytes(), &t), s.parse().ok(), "{s}");
    }
    // Every tenth the table holds is the closest double to its decimal.
    for n in 0..3000 {
        let s = format!("{}.{}", n / 10, n % 10);
        assert_eq!(parse_decimal(s.as_bytes(), &t), s.parse().ok(), "{s}");
    }
    for s in ["", ".", "-1", "1e3x", "NaN", "inf", "1.2.3"] {
        assert_eq!(parse_decimal(s.as_bytes(), &t), None, "{s}");
    }
}

#[test]
fn lines_are_counted_over_runs_of_any_length() {
    use super::rows::count_lines;
    assert_eq!(count_lines(b""), 0);
    assert_eq!(count_lines(b"a"), 1);
    assert_eq!(count_lines(b"a\n"), 1);
    assert_eq!(count_lines(b"a\nb"), 2);
    // More line ends in a run of 255 bytes than a byte counter could hold past it.
    let many = vec![b'\n'; 1000];
    assert_eq!(count_lines(&many), 1000);
    let mixed: Vec<u8> = (0..10_000)
        .map(|i| if i % 7 == 0 { b'\n' } else { b'x' })
        .collect();
    let ends = mixed.iter().filter(|&&c| c == b'\n').count();
    assert_eq!(count_lines(&mixed), ends + 1);
}
