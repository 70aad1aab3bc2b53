//! The whole run's page on disk: `-o`, and the name the page's "Save page" gives it.

use std::path::Path;

use crate::run::atomic::AtomicFile;

/// Writes `page` to `path`, atomically.
pub(super) fn write_page(path: &Path, page: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let mut out = AtomicFile::create(path).map_err(failed)?;
    out.writer().write_all(page).map_err(failed)?;
    out.commit().map_err(failed)
}

/// The name a saved page gets: the input's, as `.html`.
pub(super) fn saved_name(name: &str) -> String {
    if let Some(at) = name.strip_prefix("tcp:") {
        let safe: String = (at.chars())
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        return format!("{safe}.html");
    }
    let path = Path::new(name.strip_prefix("unix:").unwrap_or(name));
    let stem = path.file_stem().map_or_else(
        || String::from("hp2ps"),
        |s| s.to_string_lossy().into_owned(),
    );
    let safe: String = (stem.chars())
        .map(|c| match c {
            '"' | '\\' | '/' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    format!("{safe}.html")
}
