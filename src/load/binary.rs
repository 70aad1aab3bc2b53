//! [`Binary`]: the program that wrote a `-hi` profile, whose symbols name its bands: its
//! bytes, read and parsed once, and shared by every load that uses it.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::symbolize::{SymbolError, SymbolTable};

/// The program that wrote a `-hi` profile, for its symbols.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum Binary {
    /// None: bands without an IPE entry keep their addresses.
    #[default]
    None,
    /// This binary, given by the caller (`--binary`). A warning says when it cannot be
    /// used, or when the profile's bands are not addresses.
    Given(Program),
    /// Asked, only when the bands of an eventlog are addresses, for the binary of the
    /// program the log names (its argv\[0\] as the run was started, `./leakmap`): the
    /// caller looks for it (the command: beside the log, then in the current directory).
    /// A file found that is no binary is passed over quietly: nobody asked for it.
    #[allow(clippy::type_complexity)]
    Find(Arc<dyn Fn(&str) -> Option<Program> + Send + Sync>),
}

impl fmt::Debug for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Binary::None => f.write_str("None"),
            Binary::Given(program) => f.debug_tuple("Given").field(program).finish(),
            Binary::Find(_) => f.write_str("Find(..)"),
        }
    }
}

/// A program binary's bytes, with the name warnings and the summary give it.
#[derive(Clone)]
pub struct Program {
    /// What to call it (its path).
    pub name: String,
    /// The whole file: bytes in memory, or a file the caller maps or reads when they
    /// are first asked for (only a `-hi` profile asks), shared by every load that
    /// uses it.
    bytes: Arc<dyn AsRef<[u8]> + Send + Sync>,
    /// Its symbol table, read when first asked for and shared by the clones: a live
    /// page names its bands again with every update.
    symbols: Arc<OnceLock<Result<SymbolTable, SymbolError>>>,
}

impl Program {
    /// The binary `name` whose file holds `bytes`.
    pub fn new(name: impl Into<String>, bytes: impl Into<Arc<[u8]>>) -> Program {
        let bytes: Arc<[u8]> = bytes.into();
        Program::shared(name, Arc::new(bytes))
    }

    /// The binary `name` whose file's bytes `bytes` gives when asked (a map of the
    /// file, say): nothing is copied, and clones share it.
    pub fn shared(name: impl Into<String>, bytes: Arc<dyn AsRef<[u8]> + Send + Sync>) -> Program {
        Program {
            name: name.into(),
            bytes,
            symbols: Arc::default(),
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// Its symbol table, or why it has none: read once, whichever clone asks.
    pub(crate) fn symbols(&self) -> Result<&SymbolTable, &SymbolError> {
        let read = self
            .symbols
            .get_or_init(|| SymbolTable::parse(self.bytes()));
        read.as_ref()
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}
