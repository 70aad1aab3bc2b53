//! What is at a path that is followed as a program writes it (`--watch`): a regular
//! file of a new version, the same version, nothing yet, nothing any more, or something
//! that is not a regular file (a FIFO, a directory, a device), looked at without opening
//! it. Kept apart from the watch loop, for every reader that follows a path.

use std::path::PathBuf;

use super::regular::kind_of;
use super::version::Version;

/// What a look at a watched path found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Look {
    /// A regular file, another version than the one last rendered.
    Changed,
    /// The same version as the one last rendered.
    Unchanged,
    /// Nothing there yet.
    NotYet,
    /// Nothing there any more: the file was deleted (or moved away).
    Deleted,
    /// Something other than a regular file, in words ("a FIFO (named pipe)").
    NotRegular(&'static str),
}

/// A path being watched, and the version of the file at it that was last handed out.
#[derive(Debug)]
pub struct WatchedPath {
    path: PathBuf,
    seen: Option<Version>,
    was_there: bool,
}

impl WatchedPath {
    /// `path`, not looked at yet.
    pub fn new(path: PathBuf) -> WatchedPath {
        WatchedPath {
            path,
            seen: None,
            was_there: false,
        }
    }

    /// Looks at the path; a regular file of a new version counts as seen from now on.
    pub fn look(&mut self) -> Look {
        let meta = match std::fs::metadata(&self.path) {
            Ok(meta) => meta,
            Err(_) if self.was_there => return Look::Deleted,
            Err(_) => return Look::NotYet,
        };
        self.was_there = true;
        if !meta.is_file() {
            // A regular file put back later is a new version, even with the old numbers.
            self.seen = None;
            return Look::NotRegular(kind_of(meta.file_type()));
        }
        let now = Some(Version::of(&meta));
        if now == self.seen {
            return Look::Unchanged;
        }
        self.seen = now;
        Look::Changed
    }

    /// What to say about a look that renders nothing (`None` for a change, or none).
    pub fn message(&self, look: &Look) -> Option<String> {
        let path = self.path.display();
        match look {
            Look::Changed | Look::Unchanged => None,
            Look::NotYet => Some(format!("hp2ps: {path} does not exist yet (waiting for it)")),
            Look::Deleted => Some(format!(
                "hp2ps: {path} was deleted (waiting for it to be written again)"
            )),
            Look::NotRegular(kind) => Some(format!(
                "hp2ps: {path} is {kind}, not a regular file: --watch follows a file that \
                 a program writes (waiting for one)"
            )),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_followed_through_absence_other_kinds_and_versions() {
        let dir = std::env::temp_dir().join(format!("hp2ps-watched-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.hp");
        let mut w = WatchedPath::new(path.clone());
        assert_eq!(w.look(), Look::NotYet);
        std::fs::write(&path, "a").unwrap();
        assert_eq!(w.look(), Look::Changed);
        assert_eq!(w.look(), Look::Unchanged);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(w.look(), Look::Deleted);
        std::fs::create_dir(&path).unwrap();
        assert_eq!(w.look(), Look::NotRegular("a directory"));
        let look = w.look();
        assert!(w
            .message(&look)
            .unwrap()
            .contains("is a directory, not a regular"));
        std::fs::remove_dir(&path).unwrap();
        std::fs::write(&path, "a").unwrap();
        assert_eq!(w.look(), Look::Changed);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
