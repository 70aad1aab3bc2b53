//! Opening a file that must be a regular one (a program binary, the profile `--watch`
//! follows) without blocking: opening a FIFO for reading waits for a writer, through
//! Ctrl-C (the open restarts after the signal), and a device reads forever. The open
//! does not wait (`O_NONBLOCK`), and what is not a regular file is refused, saying
//! what it is.

use std::fs::{File, FileType, OpenOptions};
use std::io;
use std::path::Path;

/// What a file of `kind` is, in words, for a message ("a FIFO").
pub fn kind_of(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading if it is a regular file (a link to one counts), without
/// waiting for a FIFO's writer; an error of kind `InvalidInput` says what else it is.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    // Looked at first too: elsewhere the open itself may wait.
    let before = std::fs::metadata(path)?;
    if !before.is_file() {
        return Err(not_regular(before.file_type()));
    }
    let file = options.open(path)?;
    // What was opened, which may have been put there since.
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(kind));
    }
    Ok(file)
}

fn not_regular(kind: FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not a regular file", kind_of(kind)),
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_without_waiting_and_a_file_opens() {
        let dir = std::env::temp_dir().join(format!("hp2ps-regular-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let e = open_regular(&fifo).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            e.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        let e = open_regular(&dir).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        assert!(open_regular(Path::new("/dev/zero")).is_err());
        std::fs::write(dir.join("file"), "x").unwrap();
        assert!(open_regular(&dir.join("file")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
