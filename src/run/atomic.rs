//! Output files that appear whole or not at all: written to a temporary file beside the
//! target, then renamed over it.
//!
//! A special file (`/dev/null`, `/dev/stdout`, a FIFO, a terminal, or a link to one) is
//! written in place instead: renaming over it would put a regular file where the device
//! was. A link to a regular file is replaced, not followed, so an output that is a link to
//! the input never destroys the input.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::background::Background;
use super::cleanup::{self, Listed};

/// A file being written. Nothing at `target` changes until [`AtomicFile::commit`]; a
/// dropped, uncommitted file removes its temporary, and so does a run ended by a
/// signal ([`cleanup`]). The new file keeps the permissions of the one it replaces.
pub struct AtomicFile {
    target: PathBuf,
    /// The temporary file and its place on the list of temporaries, or `None` when
    /// writing a special file in place.
    temp: Option<(PathBuf, Listed)>,
    writer: Option<Background<File>>,
}

impl AtomicFile {
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        // `metadata` follows symbolic links: this is what the target really is.
        let before = fs::metadata(target).ok();
        if let Some(meta) = &before {
            if !meta.is_file() && !meta.is_dir() {
                let file = fs::OpenOptions::new().write(true).open(target)?;
                return Ok(AtomicFile {
                    target: target.to_path_buf(),
                    temp: None,
                    writer: Some(Background::new(file)),
                });
            }
        }
        let target = target.to_path_buf();
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".to_string());
        let pid = std::process::id();
        for attempt in 0..100u32 {
            let temp = dir.join(format!(".{name}.{pid}.{attempt}.tmp"));
            let create = |path: &Path| {
                fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
            };
            match cleanup::create_listed(&temp, create) {
                Ok((file, listed)) => {
                    // A chart made private stays private when it is drawn again.
                    if let Some(meta) = before.as_ref().filter(|m| m.is_file()) {
                        if let Err(e) = file.set_permissions(meta.permissions()) {
                            listed.remove(&temp);
                            return Err(e);
                        }
                    }
                    return Ok(AtomicFile {
                        target,
                        temp: Some((temp, listed)),
                        writer: Some(Background::new(file)),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temporary file name",
        ))
    }

    pub fn writer(&mut self) -> &mut impl Write {
        self.writer.as_mut().expect("writer present until commit")
    }

    /// Flushes and moves the file into place.
    pub fn commit(self) -> io::Result<()> {
        AtomicFile::commit_together(vec![self]).map_err(|(_, e)| e)
    }

    /// Flushes every file, then moves them into place in order, with no signal of
    /// [`cleanup`] in between: a chart and its `.aux`, both replaced or neither. (Not
    /// against SIGKILL or a crash of the machine between the two renames, which no pair
    /// of renames can be; and if the second rename fails, the first target stays
    /// replaced.) An error comes with the target it is about.
    pub fn commit_together(files: Vec<AtomicFile>) -> Result<(), (PathBuf, io::Error)> {
        let mut renames = Vec::new();
        let mut flushed = Ok(());
        for mut file in files {
            if let Some(w) = file.writer.take() {
                // No fsync: the rename is what makes the replacement atomic for readers,
                // and syncing costs more than the whole render on large outputs.
                if let Err(e) = w.finish() {
                    flushed = flushed.and(Err((file.target.clone(), e)));
                }
            }
            if let Some((temp, listed)) = file.temp.take() {
                renames.push((listed, temp, file.target.clone()));
            }
        }
        if let Err(e) = flushed {
            for (listed, temp, _) in renames {
                listed.remove(&temp);
            }
            return Err(e);
        }
        cleanup::commit(renames)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some((temp, listed)) = self.temp.take() {
            listed.remove(&temp);
        }
    }
}

/// Writes with `paint` to `output` (`-`: stdout), else to `default`, atomically; the
/// file written.
pub(crate) fn write_output(
    output: Option<&OsStr>,
    default: &std::path::Path,
    paint: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Option<PathBuf>, String> {
    if output.is_some_and(|o| o == "-") {
        return write_stdout(|out| paint(out)).map(|()| None);
    }
    let path = output.map_or_else(|| default.to_path_buf(), PathBuf::from);
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let mut file = AtomicFile::create(&path).map_err(failed)?;
    paint(file.writer()).map_err(failed)?;
    file.commit().map_err(failed)?;
    Ok(Some(path))
}

/// Writes with `paint` to stdout, through a [`Background`] writer.
pub(crate) fn write_stdout(
    paint: impl FnOnce(&mut Background<io::Stdout>) -> io::Result<()>,
) -> Result<(), String> {
    let mut out = Background::new(io::stdout());
    paint(&mut out)
        .and_then(|()| out.finish().map(drop))
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hp2ps-output-{}-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    fn write(target: &Path, text: &str) -> io::Result<()> {
        let mut f = AtomicFile::create(target)?;
        f.writer().write_all(text.as_bytes())?;
        f.commit()
    }

    #[test]
    fn a_file_is_replaced_through_a_rename_and_no_temporary_is_left() {
        let dir = scratch("rename");
        let target = dir.join("out.ps");
        fs::write(&target, "old").unwrap();
        let before = fs::metadata(&target).unwrap().ino();
        write(&target, "new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_ne!(fs::metadata(&target).unwrap().ino(), before);
        let uncommitted = AtomicFile::create(&target).unwrap();
        drop(uncommitted);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A FIFO stands for every special file (`/dev/null` is not touched by tests: a bug
    /// here would replace it for the whole machine).
    #[test]
    fn a_special_file_is_written_in_place() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe.ps");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        write(&fifo, "through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symbolic_link_to_a_file_is_replaced_not_followed() {
        let dir = scratch("link");
        let real = dir.join("real.hp");
        let link = dir.join("link.ps");
        fs::write(&real, "the input").unwrap();
        std::os::unix::fs::symlink("real.hp", &link).unwrap();
        write(&link, "new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_file());
        assert_eq!(fs::read_to_string(&link).unwrap(), "new");
        assert_eq!(fs::read_to_string(&real).unwrap(), "the input");
        fs::remove_dir_all(&dir).unwrap();
    }
}
