//! The program binary of a `-hi` profile, the edge's part of naming its bands: the file
//! `--binary` names, or the program an eventlog names, looked for beside the log and in
//! the current directory when the loading step asks ([`crate::Binary`]); the
//! naming itself is the library's.
//!
//! A binary is a file someone else may have chosen (the log's own argv\[0\] picks the
//! file beside it), so it is opened with care: only a regular file of at most
//! [`MAX_BINARY_BYTES`], opened once per run and shared by every input of a batch, and
//! mapped rather than read (on Linux; elsewhere read when a `-hi` profile first asks
//! for it): a profile that is not `-hi` reads none of it, and one that is reads only the
//! parts its symbols are in.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::{Binary, IpeNames, Program};

use super::mapped::Mapped;
use super::regular::open_regular;
use crate::cli::Invocation;

/// The largest program binary used: GHC's own, with its debugging information, is a
/// few hundred megabytes; past this a file is not a program worth reading.
pub(crate) const MAX_BINARY_BYTES: u64 = 2 << 30;

/// The binary for the input read from `input` (`None` for stdin) and shown as `name` in
/// messages, and the warning, a whole line, when `--binary` cannot be used.
pub(crate) fn binary(inv: &Invocation, input: Option<&Path>, name: &str) -> (Binary, Vec<String>) {
    if inv.symbolize.names == IpeNames::Address {
        return (Binary::None, Vec::new());
    }
    let Some(given) = &inv.binary else {
        let input = input.map(Path::to_path_buf);
        let find = move |argv0: &str| found(&find_program(argv0, input.as_deref())?);
        return (Binary::Find(Arc::new(find)), Vec::new());
    };
    // One `--binary` per run: opened once, for every input.
    static GIVEN: OnceLock<Result<Program, String>> = OnceLock::new();
    let path = Path::new(given);
    match GIVEN.get_or_init(|| open(path)) {
        Ok(program) => (Binary::Given(program.clone()), Vec::new()),
        Err(why) => (
            Binary::None,
            vec![format!(
                "hp2ps: warning: {name}: {} is not used: {why}",
                path.display()
            )],
        ),
    }
}

/// The program at `path`, found as the one a log names: opened once per run, whichever
/// inputs name it; `None` (passed over quietly: nobody asked for it) when it cannot be.
fn found(path: &Path) -> Option<Program> {
    static FOUND: OnceLock<Mutex<HashMap<PathBuf, Option<Program>>>> = OnceLock::new();
    let key = std::fs::canonicalize(path).ok()?;
    let mut found = FOUND.get_or_init(Default::default).lock().ok()?;
    found.entry(key).or_insert_with(|| open(path).ok()).clone()
}

/// Opens the program binary at `path`: a regular file of at most [`MAX_BINARY_BYTES`],
/// or why not.
fn open(path: &Path) -> Result<Program, String> {
    let file = open_regular(path).map_err(|e| match e.kind() {
        io::ErrorKind::InvalidInput => e.to_string(),
        _ => format!("cannot read it: {e}"),
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?;
    if meta.len() > MAX_BINARY_BYTES {
        return Err(format!(
            "it is {} bytes, more than the {MAX_BINARY_BYTES} a program binary may have",
            meta.len()
        ));
    }
    let bytes = match Mapped::of(&file) {
        Some(map) => ProgramFile::Mapped(map),
        None => ProgramFile::Read(file, OnceLock::new()),
    };
    Ok(Program::shared(path.display().to_string(), Arc::new(bytes)))
}

/// A program binary's bytes: mapped, or read when first asked for.
enum ProgramFile {
    Mapped(Mapped),
    Read(File, OnceLock<Vec<u8>>),
}

impl AsRef<[u8]> for ProgramFile {
    fn as_ref(&self) -> &[u8] {
        match self {
            ProgramFile::Mapped(map) => map.bytes(),
            // A file that cannot be read reads as nothing: no program ("not a readable
            // program binary"). A file that grew meanwhile is read up to the limit.
            ProgramFile::Read(file, bytes) => bytes.get_or_init(|| {
                let mut read = Vec::new();
                let _ = file.take(MAX_BINARY_BYTES).read_to_end(&mut read);
                read
            }),
        }
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
