//! Scratch directories, removed on drop, and directory snapshots.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::raster::{decode_png, Image};

/// A uniquely named directory, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Under [`scratch_base`]: RAM-backed when possible, for the suites that run
    /// thousands of small renders.
    pub fn new(tag: &str) -> Self {
        Self::create_in(
            &scratch_base(),
            &format!("hp2ps-diff-{}-{tag}", std::process::id()),
        )
    }

    /// Under the system temp dir (`$TMPDIR`, else `/tmp`): for large files, and for
    /// the tests that mount a file system inside.
    pub fn in_tmp(tag: &str) -> Self {
        Self::create_in(
            &std::env::temp_dir(),
            &format!("hp2ps-test-{}-{tag}", std::process::id()),
        )
    }

    fn create_in(base: &Path, stem: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("{stem}-{n}"));
            match std::fs::create_dir(&path) {
                Ok(()) => return TempDir(path),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", path.display()),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `name` in the directory; returns its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        path
    }

    /// Every entry of the directory and its bytes (directories as empty), sorted.
    pub fn snapshot(&self) -> Vec<(OsString, Vec<u8>)> {
        snapshot(&self.0)
    }

    /// The PNG files in the directory whose names start with `prefix`, in name order
    /// (the page numbers that renderers append are zero-padded to equal width).
    pub fn pngs(&self, prefix: &str) -> Result<Vec<Image>, String> {
        self.images(prefix, ".png", decode_png)
    }

    /// The files named `<prefix>…<suffix>`, in name order, decoded.
    pub fn images(
        &self,
        prefix: &str,
        suffix: &str,
        decode: fn(&[u8]) -> Result<Image, String>,
    ) -> Result<Vec<Image>, String> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.0)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                name.is_some_and(|n| n.starts_with(prefix) && n.ends_with(suffix))
            })
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| {
                let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                decode(&bytes).map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where [`TempDir::new`] puts directories: `$HP2PS_DIFF_TMPDIR`, else the RAM-backed
/// `/dev/shm` when usable (thousands of runs, and a program that fsyncs its outputs
/// pays for a disk flush per run on a real disk), else the temp dir.
pub fn scratch_base() -> PathBuf {
    if let Some(dir) = std::env::var_os("HP2PS_DIFF_TMPDIR") {
        return PathBuf::from(dir);
    }
    let shm = Path::new("/dev/shm");
    let usable = shm.is_dir() && std::fs::metadata(shm).is_ok_and(|m| !m.permissions().readonly());
    if usable {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    }
}

/// Every entry of `dir` and its bytes (directories as empty), sorted.
pub fn snapshot(dir: &Path) -> Vec<(OsString, Vec<u8>)> {
    let mut v: Vec<(OsString, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            let e = e.expect("dir entry");
            let bytes = if e.path().is_file() {
                std::fs::read(e.path()).unwrap_or_default()
            } else {
                Vec::new()
            };
            (e.file_name(), bytes)
        })
        .collect();
    v.sort();
    v
}

/// Compares two directory snapshots, naming the differing entries (not their bytes).
pub fn assert_same_files(
    before: &[(OsString, Vec<u8>)],
    after: &[(OsString, Vec<u8>)],
    what: &str,
) {
    if before != after {
        let list = |s: &[(OsString, Vec<u8>)]| {
            s.iter()
                .map(|(n, b)| format!("{} ({} bytes)", n.to_string_lossy(), b.len()))
                .collect::<Vec<_>>()
        };
        panic!(
            "{what}: files changed: before {:?}, after {:?}",
            list(before),
            list(after)
        );
    }
}

/// The names of the entries of `dir`, sorted.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}
