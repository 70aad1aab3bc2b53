//! The shape of hp2ps's error messages.

/// The closing line of a run over several files: `hp2ps: 1 of 2 files failed`.
fn is_batch_summary(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    matches!(words.as_slice(), ["hp2ps:", n, "of", m, "files", "failed"]
        if n.parse::<u64>().is_ok() && m.parse::<u64>().is_ok())
}

/// The one line `hp2ps: FILE:LINE:COL: …` a refused input must give, or why not.
pub fn positioned_error_line(stderr: &[u8], file: &str) -> Result<(u64, u64), String> {
    let text = String::from_utf8_lossy(stderr);
    let errors: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("hp2ps: warning:") && !is_batch_summary(l))
        .collect();
    let [line] = errors.as_slice() else {
        return Err(format!("expected one error line, got {text:?}"));
    };
    let prefix = format!("hp2ps: {file}:");
    let rest = line
        .strip_prefix(&prefix)
        .ok_or_else(|| format!("{line:?} does not start with {prefix:?}"))?;
    let mut parts = rest.splitn(3, ':');
    let num = |p: Option<&str>| p.and_then(|s| s.parse::<u64>().ok());
    match (num(parts.next()), num(parts.next()), parts.next()) {
        (Some(l), Some(c), Some(msg)) if l >= 1 && c >= 1 && msg.len() > 2 => Ok((l, c)),
        _ => Err(format!("{line:?} names no LINE:COL")),
    }
}
