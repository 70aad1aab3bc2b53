//! What is known about a band besides its name and values: for a `-hi` band (named by an
//! info table's address), the table's IPE entry from the eventlog and the symbol the
//! program's binary has at its code. Filled in by [`crate::symbolize`], kept by name
//! through aggregation, shown by the summary and the SVG tooltips.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// An IPE (info-table provenance) entry: event 169 of a GHC eventlog, written for every
/// info table of the modules built with `-finfo-table-map`. The strings are the log's
/// bytes decoded as UTF-8 (invalid bytes replaced by U+FFFD).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpeEntry {
    /// The info table's address, as a `-hi` band label prints it (`0x4bc458`).
    pub address: u64,
    /// The table's name in the program (`sat_s1Ky_info`, `I#_Main_9_con_info`).
    pub table_name: String,
    /// The closure type as the log has it: a decimal number (`21`).
    pub closure_desc: String,
    /// The Haskell type (`IO ()`), empty when unknown.
    pub type_desc: String,
    /// The binding the table belongs to (`main`, `countWords.step`), empty when none.
    pub label: String,
    /// The module (`Main`).
    pub module: String,
    /// `file:span` (`programs/LeakMap.hs:(29,1)-(37,31)`); `:` when unknown.
    pub src_loc: String,
}

impl IpeEntry {
    /// An entry from its address and six strings in the log's order: `table_name`,
    /// `closure_desc`, `type_desc`, `label`, `module`, `src_loc`.
    pub fn from_fields(address: u64, fields: [String; 6]) -> IpeEntry {
        let [table_name, closure_desc, type_desc, label, module, src_loc] = fields;
        IpeEntry {
            address,
            table_name,
            closure_desc,
            type_desc,
            label,
            module,
            src_loc,
        }
    }
}

/// A symbol of the program's binary that names an info table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SymbolMatch {
    /// The symbol as the binary spells it (`ghczminternal_GHCziInternalziConcziSync_ThreadId_con_info`).
    pub symbol: String,
    /// The symbol decoded (`ghc-internal:GHC.Internal.Conc.Sync.ThreadId`, `stg_STACK`).
    pub name: String,
    /// How far into the symbol's code the table's code starts: 0 when the symbol is the
    /// table's own.
    pub offset: u64,
    /// Whether the table has no symbol of its own and lies inside the code of this one
    /// (a local closure of that function, most likely).
    pub approximate: bool,
}

/// Everything known about one band besides its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BandInfo {
    /// The info table's address: the band's label in the `.hp` and the eventlog.
    #[serde(serialize_with = "hex")]
    pub address: u64,
    /// The table's IPE entry, if the eventlog has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ipe: Option<IpeEntry>,
    /// The binary's symbol at (or around) the table, if a binary was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolMatch>,
}

impl BandInfo {
    /// One line per thing known, for a tooltip or the text summary: the IPE fields,
    /// then the symbol.
    pub fn detail_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(e) = &self.ipe {
            let closure = match closure_type_name(&e.closure_desc) {
                Some(name) => format!("{name} ({})", e.closure_desc),
                None => e.closure_desc.clone(),
            };
            lines.push(format!("table {} at {:#x}", e.table_name, e.address));
            lines.push(format!("closure {closure}, type {}", or_none(&e.type_desc)));
            lines.push(format!(
                "label {}, module {}, {}",
                or_none(&e.label),
                or_none(&e.module),
                or_none(e.src_loc.trim_matches(':'))
            ));
        }
        match &self.symbol {
            Some(s) if s.approximate => lines.push(format!(
                "inside {}+{:#x} (approximate: the table has no symbol of its own)",
                s.symbol, s.offset
            )),
            Some(s) => lines.push(format!("symbol {}", s.symbol)),
            None if self.ipe.is_none() => lines.push(format!("info table at {:#x}", self.address)),
            None => {}
        }
        lines
    }
}

fn or_none(s: &str) -> &str {
    if s.is_empty() {
        "-"
    } else {
        s
    }
}

/// The runtime's closure types by number (`rts/include/rts/storage/ClosureTypes.h`;
/// the same numbers from GHC 9.2, the first with IPE, on: later types are added at
/// the end).
const CLOSURE_TYPES: [&str; 66] = [
    "INVALID_OBJECT",
    "CONSTR",
    "CONSTR_1_0",
    "CONSTR_0_1",
    "CONSTR_2_0",
    "CONSTR_1_1",
    "CONSTR_0_2",
    "CONSTR_NOCAF",
    "FUN",
    "FUN_1_0",
    "FUN_0_1",
    "FUN_2_0",
    "FUN_1_1",
    "FUN_0_2",
    "FUN_STATIC",
    "THUNK",
    "THUNK_1_0",
    "THUNK_0_1",
    "THUNK_2_0",
    "THUNK_1_1",
    "THUNK_0_2",
    "THUNK_STATIC",
    "THUNK_SELECTOR",
    "BCO",
    "AP",
    "PAP",
    "AP_STACK",
    "IND",
    "IND_STATIC",
    "RET_BCO",
    "RET_SMALL",
    "RET_BIG",
    "RET_FUN",
    "UPDATE_FRAME",
    "CATCH_FRAME",
    "UNDERFLOW_FRAME",
    "STOP_FRAME",
    "BLOCKING_QUEUE",
    "BLACKHOLE",
    "MVAR_CLEAN",
    "MVAR_DIRTY",
    "TVAR",
    "ARR_WORDS",
    "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY",
    "MUT_ARR_PTRS_FROZEN_DIRTY",
    "MUT_ARR_PTRS_FROZEN_CLEAN",
    "MUT_VAR_CLEAN",
    "MUT_VAR_DIRTY",
    "WEAK",
    "PRIM",
    "MUT_PRIM",
    "TSO",
    "STACK",
    "TREC_CHUNK",
    "ATOMICALLY_FRAME",
    "CATCH_RETRY_FRAME",
    "CATCH_STM_FRAME",
    "WHITEHOLE",
    "SMALL_MUT_ARR_PTRS_CLEAN",
    "SMALL_MUT_ARR_PTRS_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_CLEAN",
    "COMPACT_NFDATA",
    "CONTINUATION",
    "ANN_FRAME",
];

/// The closure type of an IPE entry's `closure_desc` (`21` → `THUNK_STATIC`); `None`
/// when it is not a number the runtime defines.
pub fn closure_type_name(closure_desc: &str) -> Option<&'static str> {
    let n: usize = closure_desc.trim().parse().ok()?;
    CLOSURE_TYPES.get(n).copied()
}

/// Every field, and the closure type's name beside its number (`"closure_type":
/// "THUNK_STATIC"`, `null` for a number the runtime does not define).
impl Serialize for IpeEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("IpeEntry", 8)?;
        st.serialize_field("address", &format!("{:#x}", self.address))?;
        st.serialize_field("table_name", &self.table_name)?;
        st.serialize_field("closure_desc", &self.closure_desc)?;
        st.serialize_field("closure_type", &closure_type_name(&self.closure_desc))?;
        st.serialize_field("type_desc", &self.type_desc)?;
        st.serialize_field("label", &self.label)?;
        st.serialize_field("module", &self.module)?;
        st.serialize_field("src_loc", &self.src_loc)?;
        st.end()
    }
}

fn hex<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{v:#x}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_types_by_number() {
        assert_eq!(closure_type_name("21"), Some("THUNK_STATIC"));
        assert_eq!(closure_type_name("3"), Some("CONSTR_0_1"));
        assert_eq!(closure_type_name("53"), Some("STACK"));
        assert_eq!(closure_type_name("65"), Some("ANN_FRAME"));
        assert_eq!(closure_type_name("66"), None);
        assert_eq!(closure_type_name("x"), None);
    }
}
