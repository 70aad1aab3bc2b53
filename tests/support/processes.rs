//! What `/proc` tells of the processes a test started: the children of `hp2ps --serve`
//! that make a whole run's page.

/// The ids of the children of `parent` that make a whole run's page now.
pub fn page_makers(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // The parent is the fourth field of stat, after the name in parentheses.
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let ppid = (stat.rsplit_once(')').map(|(_, rest)| rest))
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let making = cmdline
            .split(|&b| b == 0)
            .any(|a| a == b"--serve-whole-run");
        if ppid == Some(parent) && making {
            found.push(pid);
        }
    }
    found
}
