//! File mode's names (`foo` and `foo.hp` read `foo.hp` and write `./foo.ps` and
//! `./foo.aux`), and the checks that an output never replaces its own input.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::Format;

use crate::cli::Invocation;

/// The files of one file-mode run (§1.4 of `docs/reference/hp2ps-behaviour.md`): `foo` and
/// `foo.hp` both read `foo.hp`, and write `./foo.ps` (or `.eps`, `.svg`, `.pdf`) and
/// `./foo.aux` in the current directory, or in `--output-dir`. An eventlog takes the same
/// names: `foo.eventlog` writes `./foo.ps` and `./foo.aux`, and `foo` reads `foo.eventlog`
/// when there is no `foo.hp`.
#[derive(Debug, Clone, PartialEq)]
pub struct FileNames {
    /// The profile to read.
    pub input: PathBuf,
    /// The chart to write.
    pub output: PathBuf,
    /// The `.aux` to write (and to read with `-p`).
    pub aux: PathBuf,
    /// The time profile of the same run, for its page: `foo.prof` beside a bare `foo`
    /// whose page (`--format html`) shows its heap profile.
    pub time: Option<PathBuf>,
}

/// The extensions a profile may carry: hp2ps's own, then the eventlog's.
const HP: &[u8] = b".hp";
const EVENTLOG: &[u8] = b".eventlog";
/// A GHC time profile's (`+RTS -p` names it `prog.prof`, `-pj` too).
const PROF: &[u8] = b".prof";

impl FileNames {
    /// The names for `arg` as hp2ps forms them. Only when `arg` has neither extension are
    /// the files looked at: `exists` tells which are there, `is_eventlog` whether a file
    /// starts as an eventlog does.
    pub fn for_argument(
        arg: &OsString,
        format: Format,
        dir: Option<&Path>,
        exists: impl Fn(&Path) -> bool,
        is_eventlog: impl Fn(&Path) -> bool,
    ) -> FileNames {
        let bytes = arg.as_encoded_bytes();
        let mut time = None;
        let with = |stem: &[u8], ext: &[u8]| {
            let mut v = stem.to_vec();
            v.extend_from_slice(ext);
            PathBuf::from(os_string(v))
        };
        let (stem, input) = if let Some(stem) = bytes.strip_suffix(HP) {
            (stem, PathBuf::from(arg))
        } else if let Some(stem) = bytes.strip_suffix(EVENTLOG) {
            (stem, PathBuf::from(arg))
        } else if let Some(stem) = bytes.strip_suffix(PROF) {
            (stem, PathBuf::from(arg))
        } else {
            let hp = with(bytes, HP);
            let eventlog = with(bytes, EVENTLOG);
            let prof = with(bytes, PROF);
            // The page of a run with its time profile: the eventlog first (a `-p -hc -l`
            // run's carries the time samples a window of the heap chart needs).
            if format == Format::Html && exists(&prof) && (exists(&hp) || exists(&eventlog)) {
                time = Some(prof);
                let input = if exists(&eventlog) { eventlog } else { hp };
                (bytes, input)
            } else {
                // hp2ps reads `foo.hp`; only when it is missing do the other spellings
                // count: `foo.eventlog`, then `foo` itself if it is an eventlog, then
                // `foo.prof` (a `.hp` text under another name still fails as in hp2ps).
                let input = if exists(&hp) {
                    hp
                } else if exists(&eventlog) {
                    eventlog
                } else if is_eventlog(Path::new(arg)) {
                    PathBuf::from(arg)
                } else if exists(&prof) {
                    prof
                } else {
                    hp
                };
                (bytes, input)
            }
        };
        let base = base_name(stem, SEPARATORS);
        let in_dir = |name: PathBuf| match dir {
            Some(d) => d.join(name),
            None => name,
        };
        let mut ext = b".".to_vec();
        ext.extend_from_slice(format.extension().as_bytes());
        FileNames {
            input,
            output: in_dir(with(base, &ext)),
            aux: in_dir(with(base, b".aux")),
            time,
        }
    }

    /// The names for `arg` under this invocation's format and `--output-dir`.
    pub fn of(inv: &Invocation, arg: &OsString) -> FileNames {
        let dir = inv.output_dir.as_ref().map(Path::new);
        FileNames::for_argument(arg, inv.format(), dir, Path::is_file, starts_as_eventlog)
    }
}

/// The bytes that end a directory in a path: `/`, and on Windows `\\` and a drive's `:`.
#[cfg(not(windows))]
const SEPARATORS: &[u8] = b"/";
#[cfg(windows)]
const SEPARATORS: &[u8] = b"/\\:";

/// What follows the last separator of `path` (the whole of it without one): where hp2ps
/// writes `./foo.ps` for `dir/foo.hp`.
fn base_name<'a>(path: &'a [u8], separators: &[u8]) -> &'a [u8] {
    match path.iter().rposition(|b| separators.contains(b)) {
        Some(at) => &path[at + 1..],
        None => path,
    }
}

/// A name put together from an argument's bytes ([`std::ffi::OsStr::as_encoded_bytes`]) and ASCII:
/// on Unix, those very bytes.
#[cfg(unix)]
fn os_string(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

/// Elsewhere std has no safe way back from encoded bytes: the name as UTF-8, which every
/// name a Windows program is likely to get is (an unpaired UTF-16 surrogate becomes
/// U+FFFD, and a file of that name is not found: a clean error).
#[cfg(not(unix))]
fn os_string(bytes: Vec<u8>) -> OsString {
    utf8_os_string(bytes)
}

/// The fallback of [`os_string`], on every platform so that it is tested everywhere.
#[cfg_attr(unix, allow(dead_code))]
fn utf8_os_string(bytes: Vec<u8>) -> OsString {
    match String::from_utf8(bytes) {
        Ok(text) => text.into(),
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned().into(),
    }
}

/// Whether the file at `path` begins with the eventlog magic (`hdrb`). Only a regular
/// file is looked into: a FIFO's open would wait for a writer (through Ctrl-C, in
/// `--watch`) and its first bytes, once read, would be gone.
fn starts_as_eventlog(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    super::regular::open_regular(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| crate::read::kind::is_eventlog(&magic))
}

/// Whether two paths name the same directory entry, however they are spelled (`t.hp`,
/// `./t.hp`, `d/../t.hp`). Links are different entries: replacing one leaves the other.
pub fn same_entry(a: &Path, b: &Path) -> bool {
    match (entry_key(a), entry_key(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// What two spellings of one directory entry share: its directory, resolved, and its
/// name. `None` when the directory cannot be resolved (it does not exist yet).
pub fn entry_key(p: &Path) -> Option<PathBuf> {
    let name = p.file_name()?;
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// Refuses an `-o` that would replace the input or be replaced by the `.aux`.
pub fn check_output(inv: &Invocation, names: &FileNames) -> Result<(), String> {
    let Some(output) = inv.output.as_deref().filter(|o| *o != "-") else {
        return Ok(());
    };
    let output = Path::new(output);
    if same_entry(output, &names.input) {
        return Err(format!(
            "the output {} is the input profile: name another output file",
            output.display()
        ));
    }
    if inv.renders() && same_entry(output, &names.aux) {
        return Err(format!(
            "the output {} is where the .aux file goes: name another output file",
            output.display()
        ));
    }
    Ok(())
}

/// Whether stdin is the regular file at `path` (filter mode with `-o` naming its input).
#[cfg(unix)]
pub fn stdin_is(path: &Path) -> bool {
    use std::fs::File;
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return false;
    };
    match (File::from(fd).metadata(), std::fs::metadata(path)) {
        (Ok(i), Ok(o)) => i.is_file() && i.dev() == o.dev() && i.ino() == o.ino(),
        _ => false,
    }
}

/// Elsewhere std cannot tell which file stdin is: `-o` is not checked against it (the
/// output is still written to a temporary file first, so a bad render loses nothing).
#[cfg(not(unix))]
pub fn stdin_is(_path: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names with `present` files there, of which those ending in `log` are eventlogs.
    fn names(arg: &str, present: &[&str]) -> FileNames {
        let there = |p: &Path| present.iter().any(|f| Path::new(f) == p);
        let eventlog = |p: &Path| there(p) && p.to_string_lossy().ends_with("log");
        FileNames::for_argument(&OsString::from(arg), Format::Ps, None, there, eventlog)
    }

    #[test]
    fn a_bare_name_of_a_page_finds_its_time_profile_beside_it() {
        let of = |present: &[&str]| {
            let there = |p: &Path| present.iter().any(|f| Path::new(f) == p);
            let arg = OsString::from("d/prog");
            FileNames::for_argument(&arg, Format::Html, None, there, |_| false)
        };
        let all = of(&["d/prog.hp", "d/prog.eventlog", "d/prog.prof"]);
        assert_eq!(all.input, PathBuf::from("d/prog.eventlog"));
        assert_eq!(all.time, Some(PathBuf::from("d/prog.prof")));
        assert_eq!(all.output, PathBuf::from("prog.html"));
        let hp = of(&["d/prog.hp", "d/prog.prof"]);
        assert_eq!(
            (hp.input, hp.time),
            ("d/prog.hp".into(), Some("d/prog.prof".into()))
        );
        // A time profile alone is the input; without one, hp2ps's rule.
        let prof = of(&["d/prog.prof"]);
        assert_eq!((prof.input, prof.time), ("d/prog.prof".into(), None));
        let heap = of(&["d/prog.hp", "d/prog.eventlog"]);
        assert_eq!((heap.input, heap.time), ("d/prog.hp".into(), None));
        // Another format draws the heap profile as ever; a .prof argument is its own.
        let ps = names("d/prog", &["d/prog.hp", "d/prog.prof"]);
        assert_eq!((ps.input, ps.time), ("d/prog.hp".into(), None));
        let arg = names("d/prog.prof", &[]);
        assert_eq!(
            (arg.input, arg.output),
            ("d/prog.prof".into(), "prog.ps".into())
        );
    }

    #[test]
    fn an_hp_argument_is_read_as_given() {
        let n = names("d/prog.hp", &[]);
        assert_eq!(n.input, PathBuf::from("d/prog.hp"));
        assert_eq!(n.output, PathBuf::from("prog.ps"));
        assert_eq!(n.aux, PathBuf::from("prog.aux"));
    }

    #[test]
    fn an_eventlog_argument_writes_the_names_of_its_hp() {
        let n = names("d/prog.eventlog", &[]);
        assert_eq!(n.input, PathBuf::from("d/prog.eventlog"));
        assert_eq!(n.output, PathBuf::from("prog.ps"));
        assert_eq!(n.aux, PathBuf::from("prog.aux"));
    }

    #[test]
    fn the_base_name_follows_the_last_separator_of_the_platform() {
        assert_eq!(base_name(b"d/e/prog", b"/"), b"prog");
        assert_eq!(base_name(b"prog", b"/"), b"prog");
        assert_eq!(base_name(b"d/", b"/"), b"");
        assert_eq!(base_name(b"C:\\runs\\prog", b"/"), b"C:\\runs\\prog");
        // Windows' set, tested here too.
        assert_eq!(base_name(b"C:\\runs\\prog", b"/\\:"), b"prog");
        assert_eq!(base_name(b"C:prog", b"/\\:"), b"prog");
        assert_eq!(base_name(b"d/e\\prog", b"/\\:"), b"prog");
    }

    #[test]
    fn names_go_back_from_bytes_exactly_on_unix_and_as_utf8_elsewhere() {
        assert_eq!(
            os_string(b"caf\xc3\xa9.hp".to_vec()),
            OsString::from("café.hp")
        );
        assert_eq!(
            utf8_os_string(b"caf\xc3\xa9.hp".to_vec()),
            OsString::from("café.hp")
        );
        // Not UTF-8: the fallback replaces what it cannot keep, Unix keeps the bytes.
        assert_eq!(
            utf8_os_string(b"a\xff.hp".to_vec()),
            OsString::from("a\u{fffd}.hp")
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            assert_eq!(os_string(b"a\xff.hp".to_vec()).as_bytes(), b"a\xff.hp");
        }
    }

    #[test]
    fn a_bare_name_prefers_the_hp_then_the_eventlog_then_itself() {
        let both = names("prog", &["prog.hp", "prog.eventlog", "prog"]);
        assert_eq!(both.input, PathBuf::from("prog.hp"));
        let eventlog = names("prog", &["prog.eventlog", "prog"]);
        assert_eq!(eventlog.input, PathBuf::from("prog.eventlog"));
        assert_eq!(eventlog.output, PathBuf::from("prog.ps"));
        let itself = names("run.log", &["run.log"]);
        assert_eq!(itself.input, PathBuf::from("run.log"));
        assert_eq!(itself.output, PathBuf::from("run.log.ps"));
        // Nothing there, or a file that is not an eventlog: hp2ps's name, so the error
        // names the file hp2ps would open.
        assert_eq!(names("prog", &[]).input, PathBuf::from("prog.hp"));
        assert_eq!(names("prog", &["prog"]).input, PathBuf::from("prog.hp"));
    }
}
