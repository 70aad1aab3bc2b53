//! The file a long `.hp`'s drawn bands are spilled into (`-c` as PostScript, issue 39:
//! `crate::profile::spill`): made in TMPDIR without a name where the system can
//! (`O_TMPFILE`), else named and removed at once, so that nothing of it is left on disk
//! however the run ends (its blocks go when the last descriptor is closed).

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// A new, empty spill file in `dir`, with no name left in it.
pub(super) fn spill_file(dir: &Path) -> io::Result<File> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nameless = OpenOptions::new()
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_TMPFILE)
            .open(dir);
        // Not every file system has nameless files: then a name, at once removed.
        if let Ok(file) = nameless {
            return Ok(file);
        }
    }
    named_then_removed(dir)
}

/// The one line for a spill file that could not be written (of the input `name`).
pub(super) fn failed(name: &str, e: &io::Error) -> String {
    let dir = std::env::temp_dir();
    format!(
        "{name}: cannot write the drawn bands to a temporary file in {} (TMPDIR): {e}",
        dir.display()
    )
}

/// The one line for a spill file whose points could not be read back (of the input
/// `name`).
pub(super) fn unreadable(name: &str, e: &io::Error) -> String {
    let dir = std::env::temp_dir();
    format!(
        "{name}: cannot read the drawn bands back from a temporary file in {} (TMPDIR): {e}",
        dir.display()
    )
}

/// A file made under a name no other has (`create_new`), then unlinked.
fn named_then_removed(dir: &Path) -> io::Result<File> {
    let pid = std::process::id();
    let mut last = None;
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = dir.join(format!(".hp2ps-spill-{pid}-{nanos:x}-{attempt}"));
        let mut options = OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(file) => {
                std::fs::remove_file(&path)?;
                return Ok(file);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free name")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Seek, SeekFrom, Write};

    /// Both ways of making one leave no name in the directory, and the file works.
    #[test]
    fn a_spill_file_leaves_no_name() {
        let dir = std::env::temp_dir().join(format!("hp2ps-spill-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for mut file in [spill_file(&dir).unwrap(), named_then_removed(&dir).unwrap()] {
            file.write_all(b"points").unwrap();
            file.seek(SeekFrom::Start(0)).unwrap();
            let mut back = String::new();
            file.read_to_string(&mut back).unwrap();
            assert_eq!(back, "points");
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "a name left");
        }
        std::fs::remove_dir(&dir).unwrap();
    }
}
