//! File mode's names (`foo` and `foo.hp` read `foo.hp` and write `./foo.ps` and
//! `./foo.aux`), and the checks that an output never replaces its own input.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use hp2ps::paint::Format;

use crate::cli::Invocation;

/// The files of one file-mode run (§1.4 of `docs/reference/hp2ps-behaviour.md`): `foo` and `foo.hp` both read `foo.hp`, and
/// write `./foo.ps` (or `.eps`, `.svg`, `.pdf`) and `./foo.aux` in the current directory,
/// or in `--output-dir`.
#[derive(Debug, Clone, PartialEq)]
pub struct FileNames {
    pub input: PathBuf,
    pub output: PathBuf,
    pub aux: PathBuf,
}

impl FileNames {
    pub fn for_argument(arg: &OsString, format: Format, dir: Option<&Path>) -> FileNames {
        let bytes = arg.as_bytes();
        let path = match bytes.iter().rposition(|&b| b == b'.') {
            Some(dot) if &bytes[dot..] == b".hp" => &bytes[..dot],
            _ => bytes,
        };
        let base = match path.iter().rposition(|&b| b == b'/') {
            Some(slash) => &path[slash + 1..],
            None => path,
        };
        let with = |stem: &[u8], ext: &[u8]| {
            let mut v = stem.to_vec();
            v.extend_from_slice(ext);
            PathBuf::from(OsString::from_vec(v))
        };
        let in_dir = |name: PathBuf| match dir {
            Some(d) => d.join(name),
            None => name,
        };
        let mut ext = b".".to_vec();
        ext.extend_from_slice(format.extension().as_bytes());
        FileNames {
            input: with(path, b".hp"),
            output: in_dir(with(base, &ext)),
            aux: in_dir(with(base, b".aux")),
        }
    }

    /// The names for `arg` under this invocation's format and `--output-dir`.
    pub fn of(inv: &Invocation, arg: &OsString) -> FileNames {
        let dir = inv.output_dir.as_ref().map(Path::new);
        FileNames::for_argument(arg, inv.format(), dir)
    }
}

/// Whether two paths name the same directory entry, however they are spelled (`t.hp`,
/// `./t.hp`, `d/../t.hp`). Links are different entries: replacing one leaves the other.
fn same_entry(a: &Path, b: &Path) -> bool {
    fn key(p: &Path) -> Option<PathBuf> {
        let name = p.file_name()?;
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(name))
    }
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Refuses an `-o` that would replace the input or be replaced by the `.aux`.
pub(crate) fn check_output(inv: &Invocation, names: &FileNames) -> Result<(), String> {
    let Some(output) = inv.output.as_deref().filter(|o| *o != "-") else {
        return Ok(());
    };
    let output = Path::new(output);
    if same_entry(output, &names.input) {
        return Err(format!(
            "the output {} is the input profile: name another output file",
            output.display()
        ));
    }
    if inv.renders() && same_entry(output, &names.aux) {
        return Err(format!(
            "the output {} is where the .aux file goes: name another output file",
            output.display()
        ));
    }
    Ok(())
}

/// Whether stdin is the regular file at `path` (filter mode with `-o` naming its input).
pub(crate) fn stdin_is(path: &Path) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (File::from(fd).metadata(), std::fs::metadata(path)) {
        (Ok(i), Ok(o)) => i.is_file() && i.dev() == o.dev() && i.ino() == o.ino(),
        _ => false,
    }
}
