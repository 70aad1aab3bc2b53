//! The naming step of loading: the bands of a `-hi` profile (info-table addresses) get
//! names from the eventlog's IPE entries and, when the caller has it, the symbols of the
//! program's binary ([`crate::symbolize::name_bands`]). The library reads no file: the
//! caller hands the binary's bytes in, or finds them when asked ([`Binary`]).

use super::binary::Binary;
use super::{LoadOptions, Warning};
use crate::profile::Profile;
use crate::read::eventlog::EventlogReport;
use crate::symbolize::{self, IpeNames, Naming, SymbolizeOptions};

/// Names the bands of `profile` if they are info-table addresses, and says how (`None`
/// when they were not renamed at all; [`Naming::binary`] the binary whose symbols were
/// used); says in `warnings` what stood in the way.
pub(super) fn name_bands(
    profile: &mut Profile,
    report: Option<&EventlogReport>,
    opts: &LoadOptions,
    warnings: &mut Vec<Warning>,
) -> Option<Naming> {
    let nothing = None;
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
    let mut naming = symbolize::name_bands(profile, ipe, table, &how);
    let binary = program.map(|(name, _)| name);
    if let (Some(name), Some(agreement)) = (&binary, naming.agreement) {
        let outside = agreement.bands - agreement.in_binary;
        if !agreement.accepted() {
            warnings.push(Warning::BinaryRefused {
                binary: name.clone(),
                why: super::warning::disagreement(&agreement),
            });
        } else if outside > 0 {
            warnings.push(Warning::BandsOutsideBinary {
                binary: name.clone(),
                outside,
                bands: agreement.bands,
            });
        }
    }
    naming.binary = binary.filter(|_| naming.binary_used() == Some(true));
    Some(naming)
}
