//! Where the log's info tables lie in the binary, and whether the binary is the one
//! that wrote the log.
//!
//! A `-hi` label is the address of an info table's struct, which the code follows: the
//! table's code, and so its `_info` symbol when it has one, starts a table's size
//! further on (16 bytes; 32 in a profiling build, whose tables carry two more words).
//! A position-independent binary is loaded at a page-aligned offset, the same for
//! every address. Both are found by a vote: each address and each symbol with the
//! same low 12 bits as its code propose an offset, and the offset most addresses
//! agree on wins.

use std::collections::HashMap;

use super::symbols::SymbolTable;
use super::zdecode::z_decode;
use crate::profile::IpeEntry;

/// The sizes an info table's struct may have before its code: a plain build's, a
/// profiling build's.
const TABLE_SIZES: [u64; 2] = [16, 32];
/// Load offsets are whole pages.
const PAGE: u64 = 0x1000;
/// How many of the most voted placements are checked in full.
const CANDIDATES: usize = 8;

/// How the log's addresses map to the binary's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The bytes from a table's address to its code.
    pub(crate) table_size: u64,
    /// Run-time address minus link-time address (0 unless position-independent).
    pub(crate) load_offset: u64,
}

impl Placement {
    /// The link-time address of the code of the table at run-time `address`.
    pub(crate) fn code_of(&self, address: u64) -> u64 {
        address
            .wrapping_add(self.table_size)
            .wrapping_sub(self.load_offset)
    }
}

/// What the binary's symbols say about the log, at the best placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Agreement {
    /// The placement judged.
    pub(crate) placement: Placement,
    /// How many band addresses have a symbol exactly at their code.
    pub(crate) band_hits: usize,
    /// How many bands there are.
    pub(crate) bands: usize,
    /// How many bands' code lies in the binary's code; the others are elsewhere (in
    /// the shared libraries of a dynamically linked program) and keep their addresses.
    pub(crate) in_binary: usize,
    /// IPE entries whose code has a symbol of their table's name.
    pub(crate) ipe_agree: usize,
    /// IPE entries whose code has a symbol of another name.
    pub(crate) ipe_disagree: usize,
}

impl Agreement {
    /// Whether the binary is taken as the log's: at least a quarter of the bands whose
    /// code lies in it fall exactly on symbols (in the logs of GHC 9.10.3, 35–51 % do
    /// with the program's own binary and 9–14 % with another program's), the IPE
    /// entries that fall on symbols mostly have those symbols' names, and some evidence
    /// is more than chance: an IPE entry on its own symbol, or three bands on symbols.
    pub(crate) fn accepted(&self) -> bool {
        self.band_hits * 4 >= self.in_binary
            && self.ipe_agree >= self.ipe_disagree
            && (self.ipe_agree >= 1 || self.band_hits >= 3)
    }
}

/// The placement that the most addresses agree on, judged (`None` without addresses
/// or without any address that falls on a symbol).
pub(crate) fn place(bands: &[u64], ipe: &[&IpeEntry], table: &SymbolTable) -> Option<Agreement> {
    let mut by_low_bits: HashMap<u64, Vec<u64>> = HashMap::new();
    for s in table.symbols() {
        by_low_bits
            .entry(s.address % PAGE)
            .or_default()
            .push(s.address);
    }
    let mut votes: HashMap<(u64, u64), usize> = HashMap::new();
    let addresses = bands.iter().copied().chain(ipe.iter().map(|e| e.address));
    for address in addresses {
        for table_size in TABLE_SIZES {
            let code = address.wrapping_add(table_size);
            for &sym in by_low_bits.get(&(code % PAGE)).into_iter().flatten() {
                *votes
                    .entry((table_size, code.wrapping_sub(sym)))
                    .or_default() += 1;
            }
        }
    }
    // Most votes first; ties: no offset, then the plain table size, then the smaller.
    let mut ranked: Vec<((u64, u64), usize)> = votes.into_iter().collect();
    ranked.sort_by_key(|&((size, offset), n)| (std::cmp::Reverse(n), offset != 0, size, offset));
    let mut best: Option<Agreement> = None;
    for &((table_size, load_offset), _) in ranked.iter().take(CANDIDATES) {
        let placement = Placement {
            table_size,
            load_offset,
        };
        let a = judge(placement, bands, ipe, table);
        // The first of equals wins: the ranking's order.
        let key = |a: &Agreement| (a.ipe_agree as i64 - a.ipe_disagree as i64, a.band_hits);
        if best.as_ref().map_or(true, |b| key(&a) > key(b)) {
            best = Some(a);
        }
    }
    best
}

/// Counts what agrees at one placement.
fn judge(placement: Placement, bands: &[u64], ipe: &[&IpeEntry], table: &SymbolTable) -> Agreement {
    let band_hits = (bands.iter())
        .filter(|&&a| table.at(placement.code_of(a)).is_some())
        .count();
    let (mut ipe_agree, mut ipe_disagree) = (0, 0);
    for e in ipe {
        if let Some(sym) = table.at(placement.code_of(e.address)) {
            if names_agree(&sym.name, &e.table_name) {
                ipe_agree += 1;
            } else {
                ipe_disagree += 1;
            }
        }
    }
    let in_binary = (bands.iter())
        .filter(|&&a| table.is_code(placement.code_of(a)))
        .count();
    Agreement {
        placement,
        band_hits,
        bands: bands.len(),
        in_binary,
        ipe_agree,
        ipe_disagree,
    }
}

/// Whether a symbol is the one an IPE entry's table name (`main_info`,
/// `I#_Main_9_con_info`) stands for: the decoded symbol ends with it after a `_`
/// (`Main_main_info`, `ghczmprim_GHCziTypes_Izh_Main_9_con_info`).
pub(crate) fn names_agree(symbol: &str, table_name: &str) -> bool {
    let decoded = z_decode(symbol);
    decoded == table_name
        || decoded
            .strip_suffix(table_name)
            .is_some_and(|head| head.ends_with('_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolize::symbols::Symbol;

    fn table(base: u64) -> SymbolTable {
        let names = [
            "Main_main_info",
            "stg_STACK_info",
            "stg_TSO_info",
            "f_info",
            "g_info",
        ];
        let symbols = (names.iter().enumerate())
            .map(|(i, n)| Symbol {
                address: base + 0x1000 + 0x48 * i as u64,
                size: 8,
                name: n.to_string(),
            })
            .collect();
        SymbolTable::new(symbols, vec![(base, base + 0x10000)])
    }

    fn ipe(address: u64, table_name: &str) -> IpeEntry {
        IpeEntry {
            address,
            table_name: table_name.to_string(),
            closure_desc: "21".into(),
            type_desc: String::new(),
            label: String::new(),
            module: "Main".into(),
            src_loc: ":".into(),
        }
    }

    #[test]
    fn the_offset_of_a_position_independent_binary() {
        let t = table(0);
        let load = 0x5555_5555_4000u64;
        // Three tables with symbols, one inside a function (no symbol of its own).
        let bands = [
            0x1048 - 16 + load,
            0x1090 - 16 + load,
            0x10d8 - 16 + load,
            0x1100 + load,
        ];
        let main = ipe(0x1000 - 16 + load, "main_info");
        let a = place(&bands, &[&main], &t).unwrap();
        assert_eq!(
            a.placement,
            Placement {
                table_size: 16,
                load_offset: load
            }
        );
        assert_eq!((a.band_hits, a.ipe_agree, a.ipe_disagree), (3, 1, 0));
        assert!(a.accepted());
        // A profiling build's tables are 32 bytes long.
        let bands32: Vec<u64> = bands.iter().map(|b| b - 16).collect();
        let a = place(&bands32, &[], &t).unwrap();
        assert_eq!(
            a.placement,
            Placement {
                table_size: 32,
                load_offset: load
            }
        );
    }

    #[test]
    fn another_programs_binary_is_refused() {
        let t = table(0);
        // Addresses that fall on no symbol at offset 0, and an IPE entry whose address
        // falls on a symbol of another name.
        let bands = [0x1010, 0x1020, 0x1030, 0x1040 - 16];
        let wrong = ipe(0x1048 - 16, "sat_s1Ky_info");
        let a = place(&bands, &[&wrong], &t).unwrap();
        assert!(!a.accepted(), "{a:?}");
        assert_eq!(place(&[], &[], &t), None);
    }

    /// One band on a symbol is chance, even when it is the only band in the binary's
    /// code; three, or an IPE entry on its own symbol, are not.
    #[test]
    fn chance_is_not_agreement() {
        let t = table(0);
        let far = 0x7f00_0000_0000u64;
        let a = place(&[0x1048 - 16, far, far + 8], &[], &t).unwrap();
        assert_eq!((a.band_hits, a.in_binary, a.bands), (1, 1, 3));
        assert!(!a.accepted(), "{a:?}");
        let a = place(&[0x1048 - 16, 0x1090 - 16, 0x10d8 - 16, far], &[], &t).unwrap();
        assert!(a.accepted(), "{a:?}");
        let main = ipe(0x1000 - 16, "main_info");
        let a = place(&[0x1048 - 16, far], &[&main], &t).unwrap();
        assert!(a.accepted(), "{a:?}");
    }

    #[test]
    fn ipe_names_and_symbols() {
        assert!(names_agree("Main_main_info", "main_info"));
        assert!(names_agree(
            "ghczmprim_GHCziTypes_Izh_Main_9_con_info",
            "I#_Main_9_con_info"
        ));
        assert!(names_agree(
            "ghczmprim_GHCziTypes_ZC_Main_0_con_info",
            ":_Main_0_con_info"
        ));
        assert!(!names_agree("Main_domain_info", "main_info"));
        assert!(!names_agree("stg_STACK_info", "sat_s1Ky_info"));
    }
}
