//! Filter mode (`hp2ps < prog.hp > prog.ps`): stdin read as a file argument is (mapped
//! when it is a regular file), drawn to stdout or `-o`, with no `.aux`.

use std::io;
use std::path::{Path, PathBuf};

use super::atomic::AtomicFile;
use super::mapped;
use super::names::stdin_is;
use super::painted::{write_stdout, Painted};
use super::render::{prepare_done, read, read_mapped, Done, Failure, Origin};
use crate::cli::Invocation;

/// Stdin to stdout (or `-o`), no `.aux` read or written.
/// `head`: stdin's first bytes, already read (from a pipe) to see what it holds.
pub fn filter(inv: &Invocation, head: Vec<u8>) -> Result<Done, Failure> {
    if let Some(o) = inv.output.as_deref().filter(|o| *o != "-") {
        if inv.renders() && stdin_is(Path::new(o)) {
            return Err(Failure::from(format!(
                "the output {} is the input profile (stdin): name another output file",
                Path::new(o).display()
            )));
        }
    }
    // `hp2ps < big.hp`: a regular file on stdin is mapped like a named one.
    let src = Origin {
        path: None,
        name: "stdin",
    };
    let (profile, mut done) = match mapped::of_stdin() {
        Some(map) => read_mapped(inv, map, src, true)?,
        None => {
            let mut stdin = io::Read::chain(io::Cursor::new(head), io::stdin().lock());
            read(inv, &mut stdin, src)?
        }
    };
    if !inv.renders() {
        return Ok(done);
    }
    // A page's last reading may fail (the file changed): said after the warnings.
    let prepared = prepare_done(inv, profile, &mut done, "stdin", None);
    let (chart, _) = prepared.map_err(|message| Failure {
        warnings: done.warning_lines().collect(),
        ..Failure::from(message)
    })?;
    let painted = Painted::new(inv, &chart, None, "stdin", &mut done, None)?;
    let drawn = match inv.output.as_deref() {
        Some(o) if o != "-" => {
            let path = PathBuf::from(o);
            let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
            let mut out = AtomicFile::create(&path).map_err(failed)?;
            painted.write(out.writer()).map_err(failed)?;
            out.commit().map_err(failed).map(|()| Some(path))
        }
        _ => write_stdout(&painted).map(|()| None),
    };
    done.drawn(drawn)
}
