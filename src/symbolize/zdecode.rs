//! GHC's z-encoding of names in symbols, decoded, and a closure's symbol turned into
//! the name a person knows: `ghczminternal_GHCziInternalziConcziSync_ThreadId_con_info`
//! → `ghc-internal:GHC.Internal.Conc.Sync.ThreadId`.
//!
//! The encoding (GHC's `GHC.Utils.Encoding` documents it): letters and digits stand for
//! themselves except `z` and `Z`, which are doubled; other characters are `z` or `Z`
//! followed by a letter (`zi` `.`, `zm` `-`, `zd` `$`, `ZC` `:`, …); tuples are `Z3T`
//! (`(,,)`) and `Z3H` (`(#,,#)`); any other character is `z<hex>U`. The separators
//! between a symbol's parts (unit, module, name, suffix) are plain `_`, since a `_` in a
//! name is `zu`.

/// Decodes a z-encoded string. What is not a valid code is kept as it stands, so that
/// any symbol gives a name.
pub(super) fn z_decode(encoded: &str) -> String {
    let b = encoded.as_bytes();
    let mut out = String::with_capacity(encoded.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if (c == b'z' || c == b'Z') && i + 1 < b.len() {
            if let Some((text, used)) = escape(c, &b[i + 1..]) {
                out.push_str(&text);
                i += 1 + used;
                continue;
            }
        }
        // Not ASCII, or not a code: copied as it is, a whole character at a time.
        let len = encoded[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&encoded[i..i + len]);
        i += len;
    }
    out
}

/// The text of the code after a `z` or `Z` (`rest` starts after it), and how many
/// bytes of `rest` it used; `None` if it is not a code.
fn escape(lead: u8, rest: &[u8]) -> Option<(String, usize)> {
    let d = rest[0];
    if d.is_ascii_digit() {
        return if lead == b'Z' {
            tuple(rest)
        } else {
            numbered_char(rest)
        };
    }
    let c = match (lead, d) {
        (b'Z', b'L') => '(',
        (b'Z', b'R') => ')',
        (b'Z', b'M') => '[',
        (b'Z', b'N') => ']',
        (b'Z', b'C') => ':',
        (b'Z', b'Z') => 'Z',
        (b'z', b'z') => 'z',
        (b'z', b'a') => '&',
        (b'z', b'b') => '|',
        (b'z', b'c') => '^',
        (b'z', b'd') => '$',
        (b'z', b'e') => '=',
        (b'z', b'g') => '>',
        (b'z', b'h') => '#',
        (b'z', b'i') => '.',
        (b'z', b'l') => '<',
        (b'z', b'm') => '-',
        (b'z', b'n') => '!',
        (b'z', b'p') => '+',
        (b'z', b'q') => '\'',
        (b'z', b'r') => '\\',
        (b'z', b's') => '/',
        (b'z', b't') => '*',
        (b'z', b'u') => '_',
        (b'z', b'v') => '%',
        _ => return None,
    };
    Some((c.to_string(), 1))
}

/// `Z<n>T` (a boxed n-tuple, `Z0T` the unit) or `Z<n>H` (an unboxed one, `Z1H`
/// `(# #)`); `digits` starts at the number.
fn tuple(digits: &[u8]) -> Option<(String, usize)> {
    let n_len = digits.iter().take_while(|c| c.is_ascii_digit()).count();
    let n: usize = std::str::from_utf8(&digits[..n_len]).ok()?.parse().ok()?;
    // More commas than any real tuple has would only be a way to allocate.
    if n > 64 {
        return None;
    }
    let commas = ",".repeat(n.saturating_sub(1));
    let text = match digits.get(n_len)? {
        b'T' if n == 0 => "()".to_string(),
        b'T' => format!("({commas})"),
        b'H' if n == 1 => "(# #)".to_string(),
        b'H' => format!("(#{commas}#)"),
        _ => return None,
    };
    Some((text, n_len + 1))
}

/// `z<hex>U`: the character with that code (the hex starts with a digit).
fn numbered_char(hex: &[u8]) -> Option<(String, usize)> {
    let len = hex.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if hex.get(len) != Some(&b'U') || len > 8 {
        return None;
    }
    let code = u32::from_str_radix(std::str::from_utf8(&hex[..len]).ok()?, 16).ok()?;
    Some((char::from_u32(code)?.to_string(), len + 1))
}

/// A unit id without its version and hash: `containers-0.7-inplace` → `containers`,
/// `base-4.20.0.0` → `base`; `ghc-internal` stays.
pub(super) fn package_name(unit: &str) -> &str {
    // `end` is where the last part kept ends, `at` where the next part starts (both
    // byte positions in `unit`, so a cut never falls inside a character).
    let (mut end, mut at) = (0, 0);
    for part in unit.split('-') {
        if part.starts_with(|c: char| c.is_ascii_digit()) {
            break;
        }
        end = at + part.len();
        at = end + 1;
    }
    if end == 0 {
        unit
    } else {
        &unit[..end]
    }
}

/// The name of a code symbol as a person knows it: a GHC closure's `_info` symbol as
/// `package:Module.name` (`Main.main` for the main unit, whose symbols have no unit;
/// a constructor's `_con_info` as the constructor), the runtime's `stg_…_info` as
/// `stg_…`, anything else (C functions) as it is.
pub(super) fn symbol_name(symbol: &str) -> String {
    let Some(closure) = symbol.strip_suffix("_info") else {
        return symbol.to_string();
    };
    if closure.starts_with("stg_") {
        return closure.to_string();
    }
    let mut parts: Vec<&str> = closure.split('_').collect();
    // A constructor's table; a distinct one (-fdistinct-constructor-tables) keeps the
    // module that uses it and a number (`IS_Main_3`), as IPE entries name it.
    if parts.last() == Some(&"con") {
        parts.pop();
    }
    if parts.iter().any(|p| p.is_empty()) {
        return z_decode(closure);
    }
    let (unit, rest) = match parts.as_slice() {
        [unit, rest @ ..] if rest.len() >= 2 && is_unit(unit) => (Some(*unit), rest),
        all => (None, all),
    };
    let mut name = String::new();
    if let Some(unit) = unit {
        name.push_str(package_name(&z_decode(unit)));
        name.push(':');
    }
    let (module, binding) = match rest {
        [module, binding @ ..] if !binding.is_empty() => (Some(*module), binding),
        all => (None, all),
    };
    if let Some(module) = module {
        name.push_str(&z_decode(module));
        name.push('.');
    }
    name.push_str(&operator_in_parens(&z_decode(&binding.join("_"))));
    name
}

/// An operator's name in parentheses, as Haskell writes it outside an application
/// (`:` → `(:)`, `++` → `(++)`); any other name as it is.
pub(crate) fn operator_in_parens(name: &str) -> String {
    let operator = !name.is_empty() && name.chars().all(|c| "!#$%&*+./<=>?@\\^|-~:".contains(c));
    if operator {
        format!("({name})")
    } else {
        name.to_string()
    }
}

/// Whether the first part of a symbol is a unit id rather than a module: modules start
/// with a capital, units with a small letter or carry a version (`zm` and a digit).
fn is_unit(part: &str) -> bool {
    part.starts_with(|c: char| c.is_ascii_lowercase())
        || part
            .match_indices("zm")
            .any(|(i, _)| part[i + 2..].starts_with(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of examples in GHC's `GHC.Utils.Encoding`.
    #[test]
    fn ghc_documented_examples() {
        for (decoded, encoded) in [
            ("Trak", "Trak"),
            ("foo_wib", "foozuwib"),
            (">", "zg"),
            (">1", "zg1"),
            ("foo#", "foozh"),
            ("foo##", "foozhzh"),
            ("foo##1", "foozhzh1"),
            ("fooZ", "fooZZ"),
            (":+", "ZCzp"),
            ("()", "Z0T"),
            ("(,,,,)", "Z5T"),
            ("(# #)", "Z1H"),
            ("(#,,,,#)", "Z5H"),
        ] {
            assert_eq!(z_decode(encoded), decoded, "{encoded}");
        }
    }

    #[test]
    fn every_code() {
        assert_eq!(
            z_decode("ZLZRZMZNZCZZzzzazbzczdzezgzhzizlzmznzpzqzrzsztzuzv"),
            "()[]:Zz&|^$=>#.<-!+'\\/*_%"
        );
        assert_eq!(z_decode("z3bbU"), "\u{3bb}");
        assert_eq!(z_decode("z2200U"), "\u{2200}");
        assert_eq!(z_decode("aZ2Tb"), "a(,)b");
    }

    /// Broken codes are kept as they stand: every symbol gives a name, and nothing
    /// panics on a string cut anywhere.
    #[test]
    fn broken_codes_stay() {
        for s in [
            "z",
            "Z",
            "zy",
            "ZQ",
            "z12",
            "z12x",
            "Z3",
            "Z3X",
            "z110000U",
            "Z99999999999T",
        ] {
            assert_eq!(z_decode(s), s);
        }
        assert_eq!(z_decode("ä_zi"), "ä_.");
        let long = "ghczminternal_GHCziInternalziConcziSync_ThreadId_con_info z3bbU Z5H";
        for cut in 0..=long.len() {
            z_decode(&long[..cut]);
            symbol_name(&long[..cut]);
        }
    }

    #[test]
    fn packages_without_versions() {
        assert_eq!(package_name("containers-0.7-inplace"), "containers");
        assert_eq!(package_name("base-4.20.0.0"), "base");
        assert_eq!(package_name("ghc-internal"), "ghc-internal");
        assert_eq!(package_name("text-2.1.1-5a7b"), "text");
        assert_eq!(package_name("0x"), "0x");
        // A unit that starts with `-` (any symbol of a binary can be met): cut after its
        // last part, never inside a character.
        assert_eq!(package_name("-a-b"), "-a-b");
        assert_eq!(package_name("-a-bc\u{e9}-1"), "-a-bc\u{e9}");
        assert_eq!(
            symbol_name("zmazmbcz00e9U_Main_x_info"),
            "-a-bc\u{e9}:Main.x"
        );
    }

    /// Symbols of the -hi logs' binaries (tests/data/ghc-9.10/bin).
    #[test]
    fn closure_symbols() {
        for (symbol, name) in [
            (
                "ghczminternal_GHCziInternalziConcziSync_ThreadId_con_info",
                "ghc-internal:GHC.Internal.Conc.Sync.ThreadId",
            ),
            ("stg_STACK_info", "stg_STACK"),
            ("stg_sel_0_upd_info", "stg_sel_0_upd"),
            (
                "containerszm0zi7zminplace_DataziMapziInternal_Bin_con_info",
                "containers:Data.Map.Internal.Bin",
            ),
            (
                "ghczmprim_GHCziClasses_zdfOrdListzuzdcmax_info",
                "ghc-prim:GHC.Classes.$fOrdList_$cmax",
            ),
            (
                "ghczmprim_GHCziTuple_Z2T_con_info",
                "ghc-prim:GHC.Tuple.(,)",
            ),
            ("ghczmprim_GHCziTypes_ZC_con_info", "ghc-prim:GHC.Types.(:)"),
            (
                "ghczminternal_GHCziInternalziBase_zpzp_info",
                "ghc-internal:GHC.Internal.Base.(++)",
            ),
            (
                "ghczminternal_GHCziInternalziBase_zpzpzuzdszpzp_info",
                "ghc-internal:GHC.Internal.Base.++_$s++",
            ),
            ("ghczmprim_GHCziTypes_Izh_con_info", "ghc-prim:GHC.Types.I#"),
            (
                "ghczmbignum_GHCziNumziInteger_IS_Main_3_con_info",
                "ghc-bignum:GHC.Num.Integer.IS_Main_3",
            ),
            ("Main_main_info", "Main.main"),
            ("ZCMain_main_info", ":Main.main"),
            (
                "QuickCheckzm2zi14_TestziQuickCheck_property_info",
                "QuickCheck:Test.QuickCheck.property",
            ),
            ("hs_word2float64", "hs_word2float64"),
            ("main_info", "main"),
        ] {
            assert_eq!(symbol_name(symbol), name, "{symbol}");
        }
    }
}
