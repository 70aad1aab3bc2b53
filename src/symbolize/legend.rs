//! The names bands get in the key: short, saying what the table is and where it comes
//! from. Every field stays available in the band's [`crate::profile::BandInfo`].
//!
//! * From an IPE entry: `<binding>: <what> (<file>:<line>)`, where `<what>` is the
//!   constructor (`I#`, `(:)`), or the kind of closure and its type (`thunk :: IO ()`):
//!   `main.m2: thunk :: Map String Int (LeakMap.hs:35)`, `mkWord: (:) (LeakMap.hs:11)`.
//! * From a symbol at the table's code: the symbol decoded
//!   (`ghc-internal:GHC.Internal.Conc.Sync.ThreadId`, `stg_STACK`).
//! * From the symbol whose code the table lies in: `in <symbol>+<offset>`
//!   (`in containers:Data.Map.Internal.map+0x18`): approximate, and the offset keeps
//!   two tables of one function apart.

use super::zdecode::{operator_in_parens, symbol_name};
use crate::profile::{closure_type_name, IpeEntry, SymbolMatch};

/// The key name of a table with an IPE entry.
pub(crate) fn ipe_legend(e: &IpeEntry) -> String {
    let who = [&e.label, &e.module, &e.table_name]
        .into_iter()
        .find(|s| !s.is_empty())
        .map_or("?", String::as_str);
    let what = match constructor(e) {
        Some(con) => con,
        None => {
            let kind = kind_of(&e.closure_desc);
            if e.type_desc.is_empty() {
                kind
            } else {
                format!("{kind} :: {}", e.type_desc)
            }
        }
    };
    match file_line(&e.src_loc) {
        Some((file, line)) => format!("{who}: {what} ({file}:{line})"),
        None => format!("{who}: {what}"),
    }
}

/// The key name of a table named by a symbol.
pub(crate) fn symbol_legend(s: &SymbolMatch) -> String {
    if s.approximate {
        format!("in {}+{:#x}", s.name, s.offset)
    } else {
        s.name.clone()
    }
}

/// A [`SymbolMatch`] for `symbol`, `offset` bytes into it.
pub(crate) fn symbol_match(symbol: &str, offset: u64) -> SymbolMatch {
    SymbolMatch {
        symbol: symbol.to_string(),
        name: symbol_name(symbol),
        offset,
        approximate: offset != 0,
    }
}

/// The constructor of a constructor's table: its name without `_con_info` and without
/// the module and number a distinct constructor table adds (`I#_Main_9_con_info` →
/// `I#`); an operator in parentheses (`(:)`).
fn constructor(e: &IpeEntry) -> Option<String> {
    let code: u32 = e.closure_desc.trim().parse().unwrap_or(0);
    let name = e.table_name.strip_suffix("_con_info");
    if !(1..=7).contains(&code) && name.is_none() {
        return None;
    }
    let mut name = name.unwrap_or(e.table_name.strip_suffix("_info").unwrap_or(&e.table_name));
    if let Some((head, number)) = name.rsplit_once('_') {
        if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
            if let Some(con) = (head.strip_suffix(e.module.as_str()))
                .and_then(|h| h.strip_suffix('_'))
                .filter(|c| !c.is_empty())
            {
                name = con;
            }
        }
    }
    Some(operator_in_parens(name))
}

/// What a closure type is, in words.
fn kind_of(closure_desc: &str) -> String {
    let code: Option<u32> = closure_desc.trim().parse().ok();
    let word = match code {
        Some(8..=14) => "function",
        Some(15..=21) => "thunk",
        Some(22) => "selector thunk",
        Some(24) => "application",
        Some(25) => "partial application",
        Some(29..=32) => "return frame",
        _ => {
            return closure_type_name(closure_desc)
                .unwrap_or("closure")
                .to_string()
        }
    };
    word.to_string()
}

/// The file's last component and the first line of an IPE `file:span`
/// (`programs/LeakMap.hs:(29,1)-(37,31)` → `LeakMap.hs`, 29; `…:11:18-45` → 11);
/// `None` when the entry has no place (`:`).
fn file_line(src_loc: &str) -> Option<(&str, &str)> {
    // The span starts at the first `:` followed by a line number or `(`.
    let b = src_loc.as_bytes();
    let colon = (0..b.len()).find(|&i| {
        b[i] == b':'
            && b.get(i + 1)
                .is_some_and(|&c| c.is_ascii_digit() || c == b'(')
    })?;
    let file = &src_loc[..colon];
    let span = src_loc[colon + 1..].trim_start_matches('(');
    let line = &span[..span.bytes().take_while(u8::is_ascii_digit).count()];
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    (!base.is_empty() && !line.is_empty()).then_some((base, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(fields: [&str; 6]) -> IpeEntry {
        IpeEntry::from_fields(0x40b010, fields.map(String::from))
    }

    /// Entries of tests/data/ghc-9.10/leakmap-hi.eventlog and textproc-hi.eventlog.
    #[test]
    fn names_of_real_entries() {
        for (fields, name) in [
            (
                [
                    "sat_s1Ky_info",
                    "21",
                    "IO ()",
                    "main",
                    "Main",
                    "programs/LeakMap.hs:(29,1)-(37,31)",
                ],
                "main: thunk :: IO () (LeakMap.hs:29)",
            ),
            (
                [
                    "sat_s1JA_info",
                    "15",
                    "Int -> Int -> Int",
                    "countWords.step",
                    "Main",
                    "programs/LeakMap.hs:19:29-31",
                ],
                "countWords.step: thunk :: Int -> Int -> Int (LeakMap.hs:19)",
            ),
            (
                [
                    "sat_s1Ki_info",
                    "11",
                    "Int -> Int",
                    "main.m2",
                    "Main",
                    "programs/LeakMap.hs:35:18-22",
                ],
                "main.m2: function :: Int -> Int (LeakMap.hs:35)",
            ),
            (
                [
                    "I#_Main_9_con_info",
                    "3",
                    "Int",
                    "main",
                    "Main",
                    "programs/LeakMap.hs:32:9-25",
                ],
                "main: I# (LeakMap.hs:32)",
            ),
            (
                [
                    ":_Main_0_con_info",
                    "4",
                    "[]",
                    "mkWord",
                    "Main",
                    "programs/LeakMap.hs:11:12-14",
                ],
                "mkWord: (:) (LeakMap.hs:11)",
            ),
            (
                [
                    "(,)_Main_5_con_info",
                    "4",
                    "(,)",
                    "frequencies",
                    "Main",
                    "programs/TextProc.hs:37:22-47",
                ],
                "frequencies: (,) (TextProc.hs:37)",
            ),
            (
                ["$dOrd_r1Jw_info", "21", "Ord String", "", "Main", ":"],
                "Main: thunk :: Ord String",
            ),
            (
                [
                    "block_c1R2_info",
                    "53",
                    "",
                    "averageLength",
                    "Main",
                    "programs/LeakMap.hs:26:26-31",
                ],
                "averageLength: STACK (LeakMap.hs:26)",
            ),
            (["x_info", "999", "", "", "", ""], "x_info: closure"),
        ] {
            assert_eq!(ipe_legend(&e(fields)), name, "{fields:?}");
        }
    }

    #[test]
    fn places() {
        assert_eq!(file_line("a/b/C.hs:12:3-4"), Some(("C.hs", "12")));
        assert_eq!(file_line("C.hs:(7,1)-(9,2)"), Some(("C.hs", "7")));
        assert_eq!(file_line("C:\\x\\D.hs:5:1"), Some(("D.hs", "5")));
        assert_eq!(file_line(":"), None);
        assert_eq!(file_line(""), None);
        assert_eq!(file_line("D.hs:"), None);
    }

    #[test]
    fn symbol_names() {
        assert_eq!(
            symbol_legend(&symbol_match("stg_STACK_info", 0)),
            "stg_STACK"
        );
        let inside = symbol_match(
            "containerszm0zi7zminplace_DataziMapziInternal_map_info",
            0x18,
        );
        assert!(inside.approximate);
        assert_eq!(
            symbol_legend(&inside),
            "in containers:Data.Map.Internal.map+0x18"
        );
    }
}
