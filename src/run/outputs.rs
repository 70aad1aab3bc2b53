//! What a command will write, checked before anything is read or rendered: an `-o` that
//! names a directory, and inputs that would write the same chart or `.aux` (`a/prof.hp
//! b/prof.hp` both write `./prof.ps`; so do `prof.hp prof.eventlog`) or each other's
//! input, and a `--serve` whose `-o` is the input it follows. Such a command is refused
//! as a usage error (exit 2): rendering it would silently keep one chart of several, or
//! replace an input.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::names::{entry_key, same_entry, FileNames};
use crate::cli::Invocation;

/// Why the command's outputs cannot be written as asked, in one line, or `Ok`.
pub fn check(inv: &Invocation) -> Result<(), String> {
    if let Some(o) = inv.output.as_deref().filter(|o| *o != "-") {
        check_output_file(Path::new(o))?;
        if inv.serve.is_some() {
            check_served_output(inv, Path::new(o))?;
        }
    }
    if inv.files.len() < 2 || !inv.renders() || inv.one_page() {
        return Ok(());
    }
    let names: Vec<FileNames> = (inv.files.iter()).map(|f| FileNames::of(inv, f)).collect();
    if let Some(message) = collision(&inv.files, &names) {
        return Err(message);
    }
    Ok(())
}

/// Why the `-o` of `inv` cannot be written as its one output (a directory), or `Ok`.
pub(crate) fn check_output_file_of(inv: &Invocation) -> Result<(), String> {
    match inv.output.as_deref().filter(|o| *o != "-") {
        Some(o) => check_output_file(Path::new(o)),
        None => Ok(()),
    }
}

/// Refuses an `-o` that is a directory, or that ends in a separator (a directory's
/// name, whether or not it exists yet): a chart is a file.
fn check_output_file(o: &Path) -> Result<(), String> {
    let bytes = o.as_os_str().as_encoded_bytes();
    let separator = |b: &u8| *b == b'/' || (cfg!(windows) && *b == b'\\');
    if bytes.last().is_some_and(separator) || o.is_dir() {
        let dir = o.display().to_string();
        let dir = dir.trim_end_matches(|c| c == '/' || (cfg!(windows) && c == '\\'));
        let dir = if dir.is_empty() { "/" } else { dir };
        return Err(format!(
            "-o {} names a directory, but -o names the chart's file: write into the \
             directory with --output-dir {dir}, or name a file in it (-o {dir}/chart.ps)",
            o.display()
        ));
    }
    Ok(())
}

/// Refuses a `--serve` whose `-o` is the input it follows (or the socket it connects
/// to): the whole run's page, written at the end, would replace the run it was made of.
/// (File mode refuses the same when it comes to the file, `names::check_output`.)
fn check_served_output(inv: &Invocation, o: &Path) -> Result<(), String> {
    let Some(arg) = inv.files.first().filter(|f| *f != "-") else {
        return Ok(());
    };
    let input = match arg.to_str().and_then(|a| a.strip_prefix("unix:")) {
        Some(socket) => Path::new(socket),
        None => Path::new(arg),
    };
    if same_entry(o, input) {
        return Err(format!(
            "the output {} is the input profile: name another output file",
            o.display()
        ));
    }
    Ok(())
}

/// The first two files of `files` (their `names`) that would write the same output
/// file, or one of which would write over the other's input; `None` when every file
/// writes files of its own. The same input named twice (`x.hp ./x.hp`) is no
/// collision: it renders twice into the same files, as before.
fn collision(files: &[OsString], names: &[FileNames]) -> Option<String> {
    let inputs: Vec<PathBuf> = names.iter().map(|n| key(&n.input)).collect();
    let mut read_by: HashMap<&PathBuf, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        read_by.entry(input).or_insert(i);
    }
    let mut written_by: HashMap<PathBuf, usize> = HashMap::new();
    for (i, n) in names.iter().enumerate() {
        for out in [&n.output, &n.aux] {
            let out_key = key(out);
            if let Some(&j) = read_by.get(&out_key).filter(|&&j| inputs[j] != inputs[i]) {
                return Some(format!(
                    "{} would write {}, which is the input {}: rename one of them",
                    shown(&files[i]),
                    out.display(),
                    shown(&files[j])
                ));
            }
            match written_by.get(&out_key) {
                Some(&j) if inputs[j] != inputs[i] => {
                    return Some(format!(
                        "{} and {} would both write {}: give each its own --output-dir, or \
                         render them one at a time",
                        shown(&files[j]),
                        shown(&files[i]),
                        out.display()
                    ));
                }
                Some(_) => {}
                None => {
                    written_by.insert(out_key, i);
                }
            }
        }
    }
    None
}

/// What two spellings of one file share ([`entry_key`]); where the directory does not
/// exist yet (an `--output-dir` to be made), the path without its `.` components.
fn key(path: &Path) -> PathBuf {
    entry_key(path).unwrap_or_else(|| {
        (path.components())
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect()
    })
}

fn shown(file: &OsString) -> String {
    Path::new(file).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pairs: &[(&str, &str, &str)]) -> Vec<FileNames> {
        (pairs.iter())
            .map(|&(input, output, aux)| FileNames {
                input: input.into(),
                output: output.into(),
                aux: aux.into(),
                time: None,
            })
            .collect()
    }

    fn files(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn two_inputs_writing_one_chart_collide_and_one_input_twice_does_not() {
        let same = names(&[("a/p.hp", "p.ps", "p.aux"), ("b/p.hp", "./p.ps", "./p.aux")]);
        let message = collision(&files(&["a/p.hp", "b/p.hp"]), &same).expect("a collision");
        assert!(
            message.starts_with("a/p.hp and b/p.hp would both write ./p.ps"),
            "{message}"
        );
        let twice = names(&[("x/p.hp", "p.ps", "p.aux"), ("x/p.hp", "p.ps", "p.aux")]);
        assert_eq!(collision(&files(&["x/p.hp", "x/p.hp"]), &twice), None);
        let apart = names(&[("a/p.hp", "p.ps", "p.aux"), ("a/q.hp", "q.ps", "q.aux")]);
        assert_eq!(collision(&files(&["a/p.hp", "a/q.hp"]), &apart), None);
    }

    #[test]
    fn an_output_that_is_another_input_collides() {
        // `z.eventlog z.aux`: the first writes z.aux, the second's input.
        let over = names(&[
            ("z.eventlog", "z.ps", "z.aux"),
            ("z.aux", "z.aux.ps", "z.aux.aux"),
        ]);
        let message = collision(&files(&["z.eventlog", "z.aux"]), &over).expect("a collision");
        assert!(
            message.contains("would write z.aux, which is the input z.aux"),
            "{message}"
        );
    }
}
