//! The code symbols of a program's binary (ELF, Mach-O or PE, read by the `object`
//! crate), sorted by address: which symbol starts at an address, and which one an
//! address lies after.

use object::{BinaryFormat, Object, ObjectSection, ObjectSymbol, SectionKind};

/// Why a binary gave no symbol table.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum SymbolError {
    /// Not an object file `object` reads, or a damaged one.
    #[error("not a readable program binary (ELF, Mach-O or PE): {0}")]
    Unreadable(String),
    /// A binary without code symbols: stripped.
    #[error("the binary has no symbols (it was stripped)")]
    Stripped,
}

/// A code symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Where it starts, as linked.
    pub address: u64,
    /// Its size as the symbol table says (0 when unknown). GHC gives an `_info`
    /// symbol the size of its own entry code only, not of the local code after it.
    pub size: u64,
    /// Its name (without Mach-O's leading `_`).
    pub name: String,
}

/// The code symbols of a binary, one per address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymbolTable {
    /// Sorted by address, one per address.
    symbols: Vec<Symbol>,
    /// The executable sections: (start, end).
    code: Vec<(u64, u64)>,
}

impl SymbolTable {
    /// Reads the symbols of a binary's bytes (its static symbol table, or its dynamic
    /// one when there is no other).
    pub fn parse(bytes: &[u8]) -> Result<SymbolTable, SymbolError> {
        let file =
            object::File::parse(bytes).map_err(|e| SymbolError::Unreadable(e.to_string()))?;
        let macho = file.format() == BinaryFormat::MachO;
        let code: Vec<(u64, u64)> = (file.sections())
            .filter(|s| s.kind() == SectionKind::Text)
            .map(|s| (s.address(), s.address().saturating_add(s.size())))
            .collect();
        let in_code = |index| {
            file.section_by_index(index)
                .is_ok_and(|s| s.kind() == SectionKind::Text)
        };
        let mut symbols = Vec::new();
        for list in [file.symbols(), file.dynamic_symbols()] {
            for sym in list {
                let (Some(index), Ok(name)) = (sym.section_index(), sym.name()) else {
                    continue;
                };
                if !sym.is_definition() || name.is_empty() || !in_code(index) {
                    continue;
                }
                let name = if macho {
                    name.strip_prefix('_').unwrap_or(name)
                } else {
                    name
                };
                symbols.push(Symbol {
                    address: sym.address(),
                    size: sym.size(),
                    name: name.to_string(),
                });
            }
            if !symbols.is_empty() {
                break;
            }
        }
        if symbols.is_empty() {
            return Err(SymbolError::Stripped);
        }
        Ok(SymbolTable::new(symbols, code))
    }

    /// A table of these symbols in these executable sections ((start, end) each);
    /// of several symbols at one address, a closure's `_info` symbol is kept, else the
    /// first name in byte order.
    pub fn new(mut symbols: Vec<Symbol>, code: Vec<(u64, u64)>) -> SymbolTable {
        symbols.sort_by(|a, b| {
            (a.address.cmp(&b.address))
                .then_with(|| b.name.ends_with("_info").cmp(&a.name.ends_with("_info")))
                .then_with(|| a.name.cmp(&b.name))
        });
        symbols.dedup_by_key(|s| s.address);
        SymbolTable { symbols, code }
    }

    /// The number of code symbols (one per address).
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Every symbol, by address.
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// The symbol that starts at `address`.
    pub fn at(&self, address: u64) -> Option<&Symbol> {
        let i = self
            .symbols
            .binary_search_by_key(&address, |s| s.address)
            .ok()?;
        self.symbols.get(i)
    }

    /// Whether `address` lies in one of the binary's executable sections.
    pub fn is_code(&self, address: u64) -> bool {
        self.code.iter().any(|&(s, e)| s <= address && address < e)
    }

    /// The last symbol before `address` in the same executable section, and how far
    /// after its start `address` lies.
    pub fn before(&self, address: u64) -> Option<(&Symbol, u64)> {
        let section = self
            .code
            .iter()
            .find(|&&(s, e)| s <= address && address < e)?;
        let i = self.symbols.partition_point(|s| s.address <= address);
        let sym = self.symbols.get(i.checked_sub(1)?)?;
        (sym.address >= section.0).then(|| (sym, address - sym.address))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(address: u64, size: u64, name: &str) -> Symbol {
        Symbol {
            address,
            size,
            name: name.to_string(),
        }
    }

    #[test]
    fn lookups() {
        let t = SymbolTable::new(
            vec![
                sym(0x2000, 8, "b_info"),
                sym(0x1000, 4, "local_alias"),
                sym(0x1000, 5, "a_info"),
                sym(0x5000, 5, "other_section_info"),
            ],
            vec![(0x1000, 0x3000), (0x5000, 0x6000)],
        );
        assert_eq!(t.len(), 3);
        assert_eq!(t.at(0x1000).map(|s| s.name.as_str()), Some("a_info"));
        assert_eq!(t.at(0x1001), None);
        let (s, off) = t.before(0x2010).unwrap();
        assert_eq!((s.name.as_str(), off), ("b_info", 0x10));
        // Outside every executable section, or before the section's first symbol.
        assert_eq!(t.before(0x4000), None);
        assert_eq!(t.before(0x0fff), None);
        assert_eq!(t.before(0x5004).map(|(s, _)| s.address), Some(0x5000));
    }

    #[test]
    fn not_a_binary() {
        assert!(matches!(
            SymbolTable::parse(b"JOB \"x\"\n"),
            Err(SymbolError::Unreadable(_))
        ));
        assert!(SymbolTable::parse(&[]).is_err());
    }
}
