//! The program binary of a `-hi` profile, the edge's part of naming its bands: the file
//! `--binary` names, read before the profile, or the program an eventlog names, looked
//! for beside the log and in the current directory when the loading step asks
//! ([`hp2ps::Binary`]); the naming itself is the library's.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use hp2ps::{Binary, IpeNames, Program};

use crate::cli::Invocation;

/// The binary for the input read from `input` (`None` for stdin) and shown as `name` in
/// messages, and the warning, a whole line, when `--binary` cannot be read.
pub(crate) fn binary(inv: &Invocation, input: Option<&Path>, name: &str) -> (Binary, Vec<String>) {
    if inv.symbolize.names == IpeNames::Address {
        return (Binary::None, Vec::new());
    }
    let Some(given) = &inv.binary else {
        let input = input.map(Path::to_path_buf);
        let find = move |argv0: &str| {
            let path = find_program(argv0, input.as_deref())?;
            let bytes = std::fs::read(&path).ok()?;
            Some(Program::new(path.display().to_string(), bytes))
        };
        return (Binary::Find(Arc::new(find)), Vec::new());
    };
    let path = Path::new(given);
    match std::fs::read(path) {
        Ok(bytes) => (
            Binary::Given(Program::new(path.display().to_string(), bytes)),
            Vec::new(),
        ),
        Err(e) => (
            Binary::None,
            vec![format!(
                "hp2ps: warning: {name}: {} is not used: cannot read it: {e}",
                path.display()
            )],
        ),
    }
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
