//! A band as pprof's stack of frames, innermost first (as pprof wants them), by the
//! kind of the profile: a `-hc` band is its cost-centre stack (the name's cost centres,
//! `/` between them, a `.hp`'s stack number and an eventlog's ` #k` left out); a band
//! whose name is qualified (`-hd`'s `<Data.Map.Internal.sat_sDEI>`, a `-hi` band named by
//! its IPE entry or the binary's symbol) two frames, its module calling its name, a `-hi`
//! band's source location as the function's file and line; any other (`-hT`'s closure
//! types, `-hm`'s modules, `-hy`'s types, `-hr`, `-hb`, `-he`) one frame, its name.

use crate::profile::{match_key, BandInfo};

/// One frame: a function, and where it is when known.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Frame {
    pub(super) name: String,
    pub(super) file: String,
    pub(super) line: i64,
}

impl Frame {
    fn named(name: &str) -> Frame {
        Frame {
            name: name.to_string(),
            file: String::new(),
            line: 0,
        }
    }
}

/// The frames of a band named `name`, innermost first, in a profile of `kind`.
pub(super) fn frames(name: &[u8], kind: Option<&str>, info: Option<&BandInfo>) -> Vec<Frame> {
    let text = String::from_utf8_lossy(name);
    match kind {
        Some("-hc") => {
            let key = String::from_utf8_lossy(match_key(name));
            key.split('/').map(Frame::named).collect()
        }
        Some("-hi") => info_table(&text, info),
        Some("-hd") => {
            let bare = (text.strip_prefix('<').and_then(|t| t.strip_suffix('>'))).unwrap_or(&text);
            match split_qualified(bare) {
                Some((module, name)) => vec![Frame::named(name), Frame::named(module)],
                None => vec![Frame::named(&text)],
            }
        }
        _ => vec![Frame::named(&text)],
    }
}

/// A `-hi` band: named by its IPE entry (the band's name, at the entry's file and line,
/// called by its module), by the binary's symbol (the band's name, called by the
/// symbol's module), or its address alone.
fn info_table(name: &str, info: Option<&BandInfo>) -> Vec<Frame> {
    let Some(info) = info else {
        return vec![Frame::named(name)];
    };
    if let Some(ipe) = &info.ipe {
        let (file, line) = source_location(&ipe.src_loc);
        let leaf = Frame {
            name: name.to_string(),
            file,
            line,
        };
        return match ipe.module.is_empty() {
            true => vec![leaf],
            false => vec![leaf, Frame::named(&ipe.module)],
        };
    }
    let module = (info.symbol.as_ref())
        .and_then(|s| split_qualified(&s.name))
        .map(|(m, _)| m);
    match module {
        Some(module) => vec![Frame::named(name), Frame::named(module)],
        None => vec![Frame::named(name)],
    }
}

/// An IPE entry's `file:span` as a file and its first line: `LeakMap.hs:11:12-14` and
/// `LeakMap.hs:(29,1)-(37,31)` are at line 11 and 29; `:` (unknown) is nowhere.
fn source_location(src_loc: &str) -> (String, i64) {
    // The span follows the last `:` before a digit or `(` that the rest of the text is
    // a span from.
    for (at, _) in src_loc.match_indices(':') {
        let span = &src_loc[at + 1..];
        let digits: String = (span.trim_start_matches('('))
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(line) = digits.parse::<i64>() {
            return (src_loc[..at].to_string(), line);
        }
    }
    (src_loc.trim_matches(':').to_string(), 0)
}

/// A qualified Haskell name as its module and its own name: `[package:]A.B.name`, whose
/// module parts start with a capital letter (`ghc-prim:GHC.Types.:`), splits after `B`;
/// an unqualified name does not split.
fn split_qualified(name: &str) -> Option<(&str, &str)> {
    let start = name
        .find(':')
        .filter(|&c| c + 1 < name.len())
        .map_or(0, |c| c + 1);
    let mut end = None;
    let mut at = start;
    while let Some(dot) = name[at..].find('.') {
        let part = &name[at..at + dot];
        if !part.starts_with(|c: char| c.is_ascii_uppercase()) {
            break;
        }
        end = Some(at + dot);
        at += dot + 1;
    }
    let end = end?;
    (end + 1 < name.len()).then(|| (&name[..end], &name[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::IpeEntry;

    fn names(frames: &[Frame]) -> Vec<&str> {
        frames.iter().map(|f| f.name.as_str()).collect()
    }

    #[test]
    fn a_cost_centre_stack_is_its_cost_centres_innermost_first() {
        let f = frames(b"(302)countWords.step/countWords/main.m", Some("-hc"), None);
        assert_eq!(names(&f), ["countWords.step", "countWords", "main.m"]);
        let f = frames(b"lazySum/main/Main.CAF #2", Some("-hc"), None);
        assert_eq!(names(&f), ["lazySum", "main", "Main.CAF"]);
    }

    #[test]
    fn a_qualified_closure_is_its_module_calling_its_name() {
        let f = frames(b"<Data.Map.Internal.sat_sDEI>", Some("-hd"), None);
        assert_eq!(names(&f), ["sat_sDEI", "Data.Map.Internal"]);
        assert_eq!(names(&frames(b":", Some("-hd"), None)), [":"]);
        assert_eq!(
            names(&frames(b"GHC.IO.Encoding", Some("-hm"), None)),
            ["GHC.IO.Encoding"]
        );
        assert_eq!(names(&frames(b"THUNK_1_0", None, None)), ["THUNK_1_0"]);
        assert_eq!(
            split_qualified("ghc-prim:GHC.Types.:"),
            Some(("ghc-prim:GHC.Types", ":"))
        );
        assert_eq!(split_qualified("stg_STACK"), None);
        assert_eq!(split_qualified("Data.Map"), Some(("Data", "Map")));
        assert_eq!(split_qualified("a.b"), None);
    }

    #[test]
    fn an_info_table_is_at_its_source_location() {
        let entry = IpeEntry::from_fields(
            0x40b290,
            [
                "t",
                "4",
                "[]",
                "mkWord",
                "Main",
                "programs/LeakMap.hs:11:12-14",
            ]
            .map(String::from),
        );
        let info = BandInfo {
            address: 0x40b290,
            ipe: Some(entry),
            symbol: None,
        };
        let f = frames(b"mkWord: (:) (LeakMap.hs:11)", Some("-hi"), Some(&info));
        assert_eq!(names(&f), ["mkWord: (:) (LeakMap.hs:11)", "Main"]);
        assert_eq!((f[0].file.as_str(), f[0].line), ("programs/LeakMap.hs", 11));
        assert_eq!(
            source_location("programs/LeakMap.hs:(29,1)-(37,31)"),
            ("programs/LeakMap.hs".to_string(), 29)
        );
        assert_eq!(source_location(":"), (String::new(), 0));
        assert_eq!(names(&frames(b"0x4bc258", Some("-hi"), None)), ["0x4bc258"]);
    }
}
