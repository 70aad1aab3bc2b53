//! Names for the bands of a `-hi` profile, whose labels are info-table addresses
//! (`0x4bc458`): a step of its own between reading and aggregation, so that ordering,
//! `-i`, OTHER, the `.aux` and the summary all see the final names.
//!
//! * An address with an IPE entry (event 169 of the eventlog: the tables of the
//!   modules built with `-finfo-table-map`) is named by it:
//!   `<binding>: <constructor, or kind :: type> (<file>:<line>)`, e.g.
//!   `main: thunk :: IO () (LeakMap.hs:29)`, `mkWord: (:) (LeakMap.hs:11)`.
//! * With the program's binary ([`SymbolTable::parse`] of its bytes), an address
//!   without one is named by the symbol at its code (`stg_STACK`,
//!   `ghc-internal:GHC.Internal.Conc.Sync.ThreadId`), or, when it has no symbol of its
//!   own, approximately by the function whose code it lies in
//!   (`in containers:Data.Map.Internal.map+0x18`). The binary is used only if its
//!   symbols agree with the log's addresses ([`Agreement::accepted`]); the load offset
//!   of a position-independent binary is found from them.
//! * Any other address keeps its label. Two bands never share a name.
//!
//! Everything known about a band goes to [`Profile::band_info`].
//!
//! ```
//! use hp2ps::internals::{name_bands, SymbolizeOptions};
//! use hp2ps::profile::{Band, IpeEntry, Profile};
//!
//! let mut profile = Profile::default();
//! profile.bands.push(Band { name: b"0x40b010".to_vec(), points: Vec::new() });
//! let entry = IpeEntry {
//!     address: 0x40b010,
//!     table_name: "sat_s1Ky_info".into(),
//!     closure_desc: "21".into(),
//!     type_desc: "IO ()".into(),
//!     label: "main".into(),
//!     module: "Main".into(),
//!     src_loc: "programs/LeakMap.hs:(29,1)-(37,31)".into(),
//! };
//! let naming = name_bands(&mut profile, &[entry], None, &SymbolizeOptions::default());
//! assert_eq!(profile.bands[0].name, b"main: thunk :: IO () (LeakMap.hs:29)");
//! assert_eq!(naming.by_ipe, 1);
//! ```

mod legend;
mod placement;
mod symbols;
mod zdecode;

pub(crate) use placement::Agreement;
pub(crate) use symbols::SymbolError;
pub use symbols::SymbolTable;

use std::collections::{HashMap, HashSet};

use crate::profile::{BandInfo, IpeEntry, Profile};

/// How `-hi` bands are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum IpeNames {
    /// By their IPE entries and the binary's symbols, where known. The default.
    #[default]
    Source,
    /// Not renamed: the address labels, as the `.hp` has them.
    Address,
}

impl IpeNames {
    /// The command line's names of the values.
    pub const NAMES: [&'static str; 2] = ["source", "address"];

    /// The value of a command-line name.
    pub fn from_name(name: &str) -> Option<IpeNames> {
        match name {
            "source" => Some(IpeNames::Source),
            "address" => Some(IpeNames::Address),
            _ => None,
        }
    }
}

/// How bands are named.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct SymbolizeOptions {
    /// `--ipe-names`. Default: [`IpeNames::Source`].
    pub names: IpeNames,
}

/// What [`name_bands`] did.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Naming {
    /// Whether the bands are info-table addresses (a `-hi` profile); nothing else is
    /// renamed.
    pub info_tables: bool,
    /// The number of bands.
    pub bands: usize,
    /// Bands named by their IPE entry.
    pub by_ipe: usize,
    /// Bands without one named by the symbol at their code.
    pub by_symbol: usize,
    /// Bands without either named by the function whose code they lie in.
    pub approximate: usize,
    /// Bands that kept their address.
    pub unresolved: usize,
    /// The binary whose symbols named bands: its name (`Program::name`), when one was
    /// given or found and its symbols fit the profile ([`Naming::binary_used`]). Set by
    /// loading, which knows the binary's name.
    pub binary: Option<String>,
    /// The binary's check, when one was given and the bands are addresses (its
    /// symbols are used only if [`Agreement::accepted`]).
    pub(crate) agreement: Option<Agreement>,
}

impl Naming {
    /// Whether the binary's symbols fit the profile's addresses and named bands, when a
    /// binary was given and the bands are addresses.
    pub fn binary_used(&self) -> Option<bool> {
        self.agreement.as_ref().map(Agreement::accepted)
    }
}

/// The address of a `-hi` label: `0x` and 1 to 16 hex digits, as C's `%p` prints it.
pub(crate) fn address_label(name: &[u8]) -> Option<u64> {
    let hex = name.strip_prefix(b"0x")?;
    if hex.is_empty() || hex.len() > 16 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()
}

/// Whether every band of `profile` (and there is one) is an info-table address: a
/// `-hi` profile, from an eventlog or a `.hp`.
pub(crate) fn is_info_table_profile(profile: &Profile) -> bool {
    !profile.bands.is_empty()
        && profile
            .bands
            .iter()
            .all(|b| address_label(&b.name).is_some())
}

/// Names the bands of a `-hi` profile by `ipe` (the eventlog's entries; later entries
/// for an address win) and `binary`'s symbols, and records what is known of each in
/// [`Profile::band_info`]. A profile whose bands are not all addresses, or
/// [`IpeNames::Address`], is left as it is.
pub fn name_bands(
    profile: &mut Profile,
    ipe: &[IpeEntry],
    binary: Option<&SymbolTable>,
    opts: &SymbolizeOptions,
) -> Naming {
    let mut naming = Naming {
        info_tables: is_info_table_profile(profile),
        bands: profile.bands.len(),
        ..Naming::default()
    };
    if !naming.info_tables || opts.names == IpeNames::Address {
        return naming;
    }
    let addresses: Vec<u64> = (profile.bands.iter())
        .filter_map(|b| address_label(&b.name))
        .collect();
    let by_address: HashMap<u64, &IpeEntry> = ipe.iter().map(|e| (e.address, e)).collect();
    let entries: Vec<&IpeEntry> = by_address.values().copied().collect();
    let placement = binary.and_then(|table| {
        naming.agreement = placement::place(&addresses, &entries, table);
        let agreement = naming.agreement.filter(Agreement::accepted)?;
        Some((table, agreement.placement))
    });

    let mut infos = Vec::with_capacity(addresses.len());
    let mut names = Vec::with_capacity(addresses.len());
    for (band, &address) in profile.bands.iter().zip(&addresses) {
        let entry = by_address.get(&address).copied();
        let symbol = placement.and_then(|(table, p)| symbol_at(table, p.code_of(address)));
        let name = match (entry, &symbol) {
            (Some(e), _) => {
                naming.by_ipe += 1;
                legend::ipe_legend(e)
            }
            (None, Some(s)) if s.approximate => {
                naming.approximate += 1;
                legend::symbol_legend(s)
            }
            (None, Some(s)) => {
                naming.by_symbol += 1;
                legend::symbol_legend(s)
            }
            (None, None) => {
                naming.unresolved += 1;
                String::from_utf8_lossy(&band.name).into_owned()
            }
        };
        // A name is one line, as every profile's (the `.aux` lists one per line);
        // IPE strings and symbols are any bytes.
        names.push(name.replace(['\n', '\r'], " ").into_bytes());
        infos.push(BandInfo {
            address,
            ipe: entry.cloned(),
            symbol,
        });
    }
    let labels: Vec<&[u8]> = profile.bands.iter().map(|b| &b.name[..]).collect();
    if !make_unique(&mut names, &infos, &labels) {
        // Only names made to collide (a crafted log or binary) get here: the labels,
        // unique as every profile's names are, stay.
        names = labels.iter().map(|l| l.to_vec()).collect();
    }
    for ((band, name), info) in profile.bands.iter_mut().zip(names).zip(infos) {
        band.name = name;
        if info.ipe.is_some() || info.symbol.is_some() {
            profile.band_info.insert(band.name.clone(), info);
        }
    }
    naming
}

/// The symbol of the table whose code is at `code`: the one starting there, or the
/// closure whose code it lies in (GHC puts a function's local closures after it).
/// Not any other symbol it lies beyond: a C function's code ends at its size, and what
/// follows is code without a symbol, of no known function.
fn symbol_at(table: &SymbolTable, code: u64) -> Option<crate::profile::SymbolMatch> {
    let (sym, offset) = table.before(code)?;
    let ghc_code = sym.name.ends_with("_info");
    if offset > 0 && !ghc_code && offset >= sym.size {
        return None;
    }
    Some(legend::symbol_match(&sym.name, offset))
}

/// Makes every name unique, the same way whatever the bands' order: a name two tables
/// share gets the IPE table name (`[sat_s1Kx_info]`), and one still shared, its label
/// (`[0x40ae70]`, unique in the profile). Returns whether the names are unique.
fn make_unique(names: &mut [Vec<u8>], infos: &[BandInfo], labels: &[&[u8]]) -> bool {
    let mut pass = 0;
    loop {
        let mut count: HashMap<&[u8], usize> = HashMap::new();
        for n in names.iter() {
            *count.entry(n).or_default() += 1;
        }
        let shared: HashSet<Vec<u8>> = (count.into_iter())
            .filter(|&(_, c)| c > 1)
            .map(|(n, _)| n.to_vec())
            .collect();
        if shared.is_empty() {
            return true;
        }
        if pass == 3 {
            return false;
        }
        for ((name, info), label) in names.iter_mut().zip(infos).zip(labels) {
            if !shared.contains(name) {
                continue;
            }
            match (pass, &info.ipe) {
                (0, Some(e)) => name.extend_from_slice(format!(" [{}]", e.table_name).as_bytes()),
                (0, None) => {}
                _ => {
                    name.extend_from_slice(b" [");
                    name.extend_from_slice(label);
                    name.push(b']');
                }
            }
        }
        pass += 1;
    }
}

#[cfg(test)]
mod tests;
