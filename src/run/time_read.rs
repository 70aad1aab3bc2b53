//! Reading a time profile file for the command: whether a file argument is one (its
//! first bytes say, or its name `.prof`), and its reading through a map (a watched file,
//! which grows, as a stream), its warnings as the lines the command says.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::{Source, TimeProfile, TimeProfileError};

use super::mapped::Mapped;
use super::regular::open_regular;

/// Whether the file argument `file` is a time profile (see the module doc). A file that
/// cannot be read is not: its render says why.
pub(crate) fn is_time_profile_file(file: &OsStr) -> bool {
    let path = Path::new(file);
    // Opened without waiting, and only if it is a regular file (a FIFO's open waits).
    let Ok(mut f) = open_regular(path) else {
        return false;
    };
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("prof"))
    {
        return true;
    }
    let mut head = Vec::with_capacity(4096);
    let read = (&mut f).take(4096).read_to_end(&mut head);
    read.is_ok() && TimeProfile::sniff(&head)
}

/// Whether the file argument `file` is an eventlog of a time profile alone (`+RTS -p
/// -l`: no heap census), which a command of several inputs puts with the time profiles
/// (a page comparing runs, a summary comparing two, a heap profile with its run's time
/// profile). Read up to its first census (all of it, for such a log): the batch, which
/// finds out as it reads each file, does not ask.
pub(crate) fn is_time_profile_eventlog(file: &OsStr) -> bool {
    open_regular(Path::new(file)).is_ok_and(crate::read::eventlog::time_profile_only)
}

/// Reads a time profile file (through a map when `may_map`, its pages given back as
/// they are read; a watched file, which grows, as a stream): the profile and its
/// warnings as lines, or the one-line error.
pub(crate) fn read_time(file: &OsStr, may_map: bool) -> Result<(TimeProfile, Vec<String>), String> {
    let name = file.to_string_lossy();
    let f = match may_map {
        true => File::open(file),
        false => open_regular(Path::new(file)),
    }
    .map_err(|e| format!("cannot open {name}: {e}"))?;
    let read = match may_map.then(|| Mapped::of(&f)).flatten() {
        Some(map) => {
            let source = Source::Mapped {
                bytes: map.bytes(),
                release: &mut |n| map.release(n),
            };
            let read = TimeProfile::read(source, &Default::default());
            if map.changed_while_read(read.is_err()) {
                return Err(format!("{name}: the file changed while it was read"));
            }
            read
        }
        None => TimeProfile::read(Source::Stream(&mut &f), &Default::default()),
    };
    let profile = read.map_err(|e| match e {
        TimeProfileError::NotAProfile { .. } => format!("{name}:{e}"),
        e => format!("{name}: {e}"),
    })?;
    let warnings = (profile.warnings().iter())
        .map(|w| format!("hp2ps: warning: {}", w.line(&name)))
        .collect();
    Ok((profile, warnings))
}
