//! Output files that appear whole or not at all: written to a temporary file beside the
//! target, then renamed over it.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written. Nothing at `target` changes until [`AtomicFile::commit`]; a
/// dropped, uncommitted file removes its temporary.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
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
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)
            {
                Ok(file) => {
                    return Ok(AtomicFile {
                        target: target.to_path_buf(),
                        temp,
                        writer: Some(BufWriter::with_capacity(1 << 20, file)),
                    })
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
    pub fn commit(mut self) -> io::Result<()> {
        if let Some(w) = self.writer.take() {
            // No fsync: the rename is what makes the replacement atomic for readers, and
            // syncing costs more than the whole render on large outputs.
            w.into_inner().map_err(|e| e.into_error())?;
        }
        fs::rename(&self.temp, &self.target)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
