//! The `batch_names` and `watch_paths` targets' bodies, shared with
#![allow(dead_code)] // Each target uses one of the two.
//! `tests/fuzz_regressions.rs`. Both need `crate::cli` and `crate::run` (see
//! `run_files.rs`) at their crate's root.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};

use crate::cli;
use crate::run::names::{entry_key, FileNames};
use crate::run::outputs;
use crate::run::regular::open_regular;
use crate::run::watched::{Look, WatchedPath};

/// `batch_names`: NUL-separated arguments (file names and flags such as
/// `--output-dir`, `--format`, `-o`) go through the binary's parser, then the check of
/// what the command would write. A refusal is one line (for arguments without line
/// ends); an accepted batch writes no file twice and never over another input: checked
/// pair by pair against the names each file would write.
pub fn batch_names(data: &[u8]) {
    let args: Vec<OsString> = (data.split(|&b| b == 0))
        .take(16)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect();
    let plain = !args
        .iter()
        .any(|a| a.as_encoded_bytes().iter().any(|&b| b < 0x20));
    let Ok(cli::Command::Render(inv)) = cli::parse(args) else {
        return;
    };
    let checked = outputs::check(&inv);
    if let Err(message) = &checked {
        if plain {
            assert!(!message.contains(['\n', '\r']), "{message:?}");
        }
        return;
    }
    if inv.files.len() < 2 || !inv.renders() || inv.one_page() {
        return;
    }
    let names: Vec<FileNames> = inv.files.iter().map(|f| FileNames::of(&inv, f)).collect();
    let key = |p: &Path| entry_key(p).unwrap_or_else(|| p.components().collect());
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            if key(&a.input) == key(&b.input) {
                continue; // one file named twice: the same outputs, on purpose
            }
            for out in [&a.output, &a.aux] {
                for other in [&b.output, &b.aux, &b.input] {
                    assert_ne!(key(out), key(other), "{a:?} and {b:?} collide");
                }
            }
            for out in [&b.output, &b.aux] {
                assert_ne!(key(out), key(&a.input), "{b:?} writes over {a:?}");
            }
        }
    }
}

/// What is at the watched path in the model of `watch_paths`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    Nothing,
    /// A regular file of this many bytes; no two versions have the same length.
    File(u64),
    Directory,
    Fifo,
}

/// `watch_paths`: each byte is an operation on the watched path (write a new file over
/// it, append to it, remove it, make it a directory, a FIFO, or a link to a directory)
/// or a look at it, checked against a model: a new version is `Changed` once, then
/// `Unchanged`; nothing is `NotYet`, then `Deleted` once something was there; anything
/// else is `NotRegular`, saying what it is; and opening it never waits (a FIFO's open
/// would, for a writer: libFuzzer's timeout catches that) and succeeds only for a
/// regular file.
pub fn watch_paths(data: &[u8]) {
    let dir = scratch();
    let path = dir.join("watched.hp");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("scratch directory");
    let mut watched = WatchedPath::new(path.clone());
    let mut at = At::Nothing;
    let (mut was_there, mut handed): (bool, Option<u64>) = (false, None);
    // Every version a length of its own, so that versions differ whatever the clock.
    let mut next_len = 1u64;
    for &op in data.iter().take(64) {
        match op % 7 {
            0 => {
                clear(&path, at);
                let temp = dir.join("new.tmp");
                std::fs::write(&temp, vec![b'x'; next_len as usize]).expect("write");
                std::fs::rename(&temp, &path).expect("rename");
                at = At::File(next_len);
                next_len += 1 + u64::from(op / 7);
            }
            1 => {
                if let At::File(len) = at {
                    let more = next_len.saturating_sub(len).max(1);
                    let mut f = std::fs::OpenOptions::new()
                        .append(true)
                        .open(&path)
                        .expect("append");
                    std::io::Write::write_all(&mut f, &vec![b'y'; more as usize]).expect("append");
                    at = At::File(len + more);
                    next_len = len + more + 1;
                }
            }
            2 => {
                clear(&path, at);
                at = At::Nothing;
            }
            3 => {
                clear(&path, at);
                std::fs::create_dir(&path).expect("mkdir");
                at = At::Directory;
            }
            4 => {
                clear(&path, at);
                let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
                // SAFETY: a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
                at = At::Fifo;
            }
            5 => {
                clear(&path, at);
                std::os::unix::fs::symlink(&elsewhere, &path).expect("symlink");
                at = At::Directory;
            }
            _ => {
                let want = match at {
                    At::Nothing if was_there => Look::Deleted,
                    At::Nothing => Look::NotYet,
                    At::Directory => Look::NotRegular("a directory"),
                    At::Fifo => Look::NotRegular("a FIFO (named pipe)"),
                    At::File(len) if handed == Some(len) => Look::Unchanged,
                    At::File(_) => Look::Changed,
                };
                match at {
                    At::File(len) => handed = Some(len),
                    At::Directory | At::Fifo => handed = None,
                    At::Nothing => {}
                }
                was_there |= at != At::Nothing;
                assert_eq!(watched.look(), want, "{at:?}");
                let opened = open_regular(&path);
                assert_eq!(
                    opened.is_ok(),
                    matches!(at, At::File(_)),
                    "{at:?}: {opened:?}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Removes what is at `path`.
fn clear(path: &Path, at: At) {
    let _ = match at {
        At::Directory if !path.is_symlink() => std::fs::remove_dir(path),
        At::Nothing => Ok(()),
        _ => std::fs::remove_file(path),
    };
}

/// A directory of this process's own, emptied.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hp2ps-fuzz-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}
