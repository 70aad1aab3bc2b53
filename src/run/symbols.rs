//! Naming the bands of a `-hi` profile, the edge's part: finding and reading the
//! program's binary (`--binary`, or the program an eventlog names, beside the log or
//! in the current directory), then [`hp2ps::symbolize::name_bands`].

use std::path::{Path, PathBuf};

use hp2ps::profile::Profile;
use hp2ps::read::Notes;
use hp2ps::summary::NameCounts;
use hp2ps::symbolize::{self, Agreement, IpeNames, SymbolTable};

use crate::cli::Invocation;

/// Names the bands of `profile`, read from `input` (`None` for stdin) and shown as
/// `name` in messages; returns how many got which kind of name (`None` when the bands
/// are not renamed at all) and the warnings, each a whole line.
pub(crate) fn name_bands(
    inv: &Invocation,
    profile: &mut Profile,
    notes: &Notes,
    input: Option<&Path>,
    name: &str,
) -> (Option<NameCounts>, Vec<String>) {
    let mut warnings = Vec::new();
    if inv.symbolize.names == IpeNames::Address {
        return (None, warnings);
    }
    if !symbolize::is_info_table_profile(profile) {
        if let Some(binary) = &inv.binary {
            warnings.push(format!(
                "hp2ps: warning: {name}: its bands are not info-table addresses (a -hi profile): --binary {} names nothing",
                Path::new(binary).display()
            ));
        }
        return (None, warnings);
    }
    let (ipe, program) = match notes {
        Notes::Eventlog(report) => (&report.ipe[..], report.program.as_deref()),
        Notes::Hp(_) => (&[][..], None),
    };
    let (binary, table) = match &inv.binary {
        Some(path) => {
            let path = PathBuf::from(path);
            match read_symbols(&path) {
                Ok(table) => (Some(path), Some(table)),
                Err(why) => {
                    warnings.push(format!(
                        "hp2ps: warning: {name}: {} is not used: {why}",
                        path.display()
                    ));
                    (None, None)
                }
            }
        }
        // A file of the program's name that is not a binary (a wrapper script) is
        // passed over in silence: it was not asked for.
        None => match program.and_then(|p| find_program(p, input)) {
            Some(path) => match read_symbols(&path) {
                Ok(table) => (Some(path), Some(table)),
                Err(_) => (None, None),
            },
            None => (None, None),
        },
    };
    let naming = symbolize::name_bands(profile, ipe, table.as_ref(), &inv.symbolize);
    if let (Some(path), Some(agreement)) = (&binary, naming.binary) {
        let path = path.display();
        let outside = agreement.bands - agreement.in_binary;
        if !agreement.accepted() {
            warnings.push(format!(
                "hp2ps: warning: {name}: {path} is not the program that wrote it ({}): its symbols are not used",
                disagreement(&agreement)
            ));
        } else if outside > 0 {
            warnings.push(format!(
                "hp2ps: warning: {name}: {outside} of {} band addresses lie outside {path} (in shared libraries, if the program is linked dynamically): they keep their addresses",
                agreement.bands
            ));
        }
    }
    let used = binary.map(|p| p.display().to_string());
    (Some(NameCounts::of(&naming, used)), warnings)
}

/// Where the program an eventlog names (its argv[0]) is: its file name beside the log,
/// else in the current directory.
fn find_program(argv0: &str, log: Option<&Path>) -> Option<PathBuf> {
    let file = Path::new(argv0).file_name()?;
    let beside = log
        .and_then(Path::parent)
        .map(|dir| dir.join(file))
        .filter(|p| p.is_file());
    beside.or_else(|| Some(PathBuf::from(file)).filter(|p| p.is_file()))
}

fn read_symbols(path: &Path) -> Result<SymbolTable, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    SymbolTable::parse(&bytes).map_err(|e| e.to_string())
}

/// Why the binary was refused, in words.
fn disagreement(a: &Agreement) -> String {
    let mut why = format!(
        "{} of {} band addresses fall on its symbols",
        a.band_hits, a.in_binary
    );
    if a.ipe_disagree > a.ipe_agree {
        why.push_str(&format!(
            ", and {} of {} IPE entries on a symbol of another name",
            a.ipe_disagree,
            a.ipe_agree + a.ipe_disagree
        ));
    }
    why
}
