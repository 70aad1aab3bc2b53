//! What tells one version of a file from the next: its identity (device and inode, where
//! the platform has them), its length and its modification time. `--watch` renders again
//! when the version at a path changes; a render checks that the file it read did not
//! change under it.

use std::fs::Metadata;
use std::time::SystemTime;

/// One version of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    /// Device and inode: a file replaced by another (a rename over it) is another file,
    /// even with the same length and time. `None` where the platform has no such numbers.
    identity: Option<(u64, u64)>,
    /// The length in bytes.
    pub len: u64,
    /// The modification time, where the platform and filesystem keep one.
    modified: Option<SystemTime>,
}

impl Version {
    /// Whether `other` is a version of the same file (where the platform tells files
    /// apart; elsewhere any file is).
    pub fn same_file(&self, other: &Version) -> bool {
        self.identity == other.identity
    }

    /// The version of the file `meta` describes.
    pub fn of(meta: &Metadata) -> Version {
        Version {
            identity: identity(meta),
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// The file's device and inode numbers.
#[cfg(unix)]
fn identity(meta: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

/// Elsewhere the length and time alone tell versions apart (std has no stable file
/// identity on Windows).
#[cfg(not(unix))]
fn identity(_meta: &Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_write_or_a_replacement_is_a_new_version() {
        let dir = std::env::temp_dir().join(format!("hp2ps-version-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.hp");
        std::fs::write(&path, "one").unwrap();
        let first = Version::of(&std::fs::metadata(&path).unwrap());
        assert_eq!(first, Version::of(&std::fs::metadata(&path).unwrap()));
        assert_eq!(first.len, 3);

        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(b"two"))
            .unwrap();
        let grown = Version::of(&std::fs::metadata(&path).unwrap());
        assert_ne!(grown, first);

        // Same length, written elsewhere and renamed over it: another inode.
        let other = dir.join("other");
        std::fs::write(&other, "onetwo").unwrap();
        std::fs::rename(&other, &path).unwrap();
        let replaced = Version::of(&std::fs::metadata(&path).unwrap());
        assert_eq!(replaced.len, grown.len);
        assert_ne!(replaced, grown);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
