//! What an eventlog holds, found without making it: whether it is a time profile alone
//! (`+RTS -p -l`: PROF_BEGIN or PROF_SAMPLE_COST_CENTRE events and no heap census), so
//! that a command of several inputs can put such a log with the time profiles before
//! it reads any (a page comparing runs, a summary comparing two). The heap reader would
//! say the same at its end (`EventlogError::NoSamples` with `time_profile`); this scan reads
//! the log as a stream and stops at its first census, so a heap profile's log costs a
//! few events to tell, a time profile's one reading without a model.

use std::io::Read;

use super::container::{next_event, read_header, Framer, Input, Next};
use super::events::{
    HEAP_BIO_PROF_SAMPLE_BEGIN, HEAP_PROF_SAMPLE_BEGIN, PROF_BEGIN, PROF_SAMPLE_COST_CENTRE,
};

/// Whether the eventlog read from `log` holds a time profile and no heap census (a log
/// that cannot be read says `false`: the heap reader then says what is wrong with it).
pub(crate) fn time_profile_only<R: Read>(log: R) -> bool {
    let mut input = Input::new(log);
    let Ok(types) = read_header(&mut input) else {
        return false;
    };
    let mut framer = Framer::new(&types);
    let mut time = false;
    loop {
        match next_event(&mut input, &mut framer) {
            Ok(Next::Event(raw)) => match raw.id {
                HEAP_PROF_SAMPLE_BEGIN | HEAP_BIO_PROF_SAMPLE_BEGIN => return false,
                PROF_BEGIN | PROF_SAMPLE_COST_CENTRE => time = true,
                _ => {}
            },
            Ok(Next::Damaged { .. }) => {}
            Ok(Next::End | Next::Truncated { .. }) | Err(_) => return time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::time_profile_only;
    use crate::read::eventlog::entry::read_eventlog;
    use crate::read::eventlog::{EventlogError, EventlogOptions};
    use crate::seam::ProfileBuilder;
    use std::path::{Path, PathBuf};

    fn eventlogs(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                eventlogs(&path, found);
            } else if path.extension().is_some_and(|e| e == "eventlog") {
                found.push(path);
            }
        }
    }

    /// The scan says what the heap reader says at its end, for every eventlog of the
    /// tests' data and the shared corpus (heap profiles of every GHC, time profiles,
    /// damaged and cut logs).
    #[test]
    fn the_scan_agrees_with_the_heap_reader() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut found = Vec::new();
        eventlogs(&root.join("tests/data"), &mut found);
        let shared = root.join("../shared/corpus");
        if shared.is_dir() {
            eventlogs(&shared, &mut found);
        } else if std::env::var_os("CI").is_some_and(|v| v == "true") {
            panic!("{} is missing", shared.display());
        } else {
            eprintln!("SKIPPED in part: {} is absent", shared.display());
        }
        let mut told = [0, 0];
        for path in &found {
            let bytes = std::fs::read(path).unwrap();
            let mut sink = ProfileBuilder::default();
            let read = read_eventlog(&bytes[..], &EventlogOptions::default(), &mut sink);
            let alone = matches!(
                read,
                Err(EventlogError::NoSamples {
                    time_profile: true,
                    ..
                })
            );
            let scanned = time_profile_only(&bytes[..]);
            assert_eq!(scanned, alone, "{}", path.display());
            told[usize::from(scanned)] += 1;
        }
        assert!(told[0] > 20 && told[1] >= 1, "{told:?}");
    }

    #[test]
    fn what_is_no_eventlog_is_no_time_profile() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/prof/keywords-ghc9.0.2-p-l.eventlog");
        let time = std::fs::read(path).unwrap();
        assert!(time_profile_only(&time[..]));
        // Cut before its first tick, the log holds neither.
        assert!(!time_profile_only(&time[..64]));
        assert!(!time_profile_only(&b"JOB \"x\"\n"[..]));
    }
}
