//! The naming step of loading: the bands of a `-hi` profile (info-table addresses) get
//! names from the eventlog's IPE entries and, when the caller has it, the symbols of the
//! program's binary ([`crate::symbolize::name_bands`]). The library reads no file: the
//! caller hands the binary's bytes in, or finds them when asked ([`Binary`]).

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::{LoadOptions, Warning};
use crate::profile::Profile;
use crate::read::eventlog::EventlogReport;
use crate::symbolize::{self, IpeNames, Naming, SymbolError, SymbolTable, SymbolizeOptions};

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

/// What the naming step did: the naming (`None` when the bands were not renamed at all)
/// and the name of the binary whose symbols were read.
pub(super) struct Named {
    pub(super) naming: Option<Naming>,
    pub(super) binary: Option<String>,
}

/// Names the bands of `profile` if they are info-table addresses; says in `warnings` what
/// stood in the way.
pub(super) fn name_bands(
    profile: &mut Profile,
    report: Option<&EventlogReport>,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Named {
    let nothing = Named {
        naming: None,
        binary: None,
    };
    if opts.ipe_names == IpeNames::Address {
        return nothing;
    }
    if !symbolize::is_info_table_profile(profile) {
        if let Binary::Given(program) = &opts.binary {
            warnings.push(Warning::BinaryNamesNothing {
                binary: program.name.clone(),
            });
        }
        return nothing;
    }
    let found;
    let program = match &opts.binary {
        Binary::None => None,
        Binary::Given(program) => match program.symbols() {
            Ok(table) => Some((program.name.clone(), table)),
            Err(why) => {
                warnings.push(Warning::BinaryUnusable {
                    binary: program.name.clone(),
                    why: why.to_string(),
                });
                None
            }
        },
        Binary::Find(find) => {
            found = (report.and_then(|r| r.program.as_deref())).and_then(|argv0| find(argv0));
            (found.as_ref()).and_then(|p| Some((p.name.clone(), p.symbols().ok()?)))
        }
    };
    let ipe = report.map_or(&[][..], |r| &r.ipe[..]);
    let table = program.as_ref().map(|&(_, table)| table);
    let how = SymbolizeOptions {
        names: opts.ipe_names,
    };
    let naming = symbolize::name_bands(profile, ipe, table, &how);
    let binary = program.map(|(name, _)| name);
    if let (Some(name), Some(agreement)) = (&binary, naming.binary) {
        let outside = agreement.bands - agreement.in_binary;
        if !agreement.accepted() {
            warnings.push(Warning::BinaryRefused {
                binary: name.clone(),
                why: super::disagreement(&agreement),
            });
        } else if outside > 0 {
            warnings.push(Warning::BandsOutsideBinary {
                binary: name.clone(),
                outside,
                bands: agreement.bands,
            });
        }
    }
    Named {
        naming: Some(naming),
        binary,
    }
}
