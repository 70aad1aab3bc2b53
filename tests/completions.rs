//! The man page and the shell completions come from the same definition as `--help`.

mod support;

use std::path::Path;
use std::process::Output;

use support::tools::require;
use support::{Cmd, TempDir};

const BIN: &str = env!("CARGO_BIN_EXE_hp2ps");

fn run(dir: &Path, args: &[&str]) -> Output {
    support::run_in(BIN, dir, args, None)
}

/// Every visible long option, read from `--help`.
fn long_options() -> Vec<String> {
    let dir = TempDir::new("compl-help");
    let help = String::from_utf8(run(dir.path(), &["--help"]).stdout).unwrap();
    let mut v: Vec<String> = help
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
                .split(['[', '=', '<'])
                .next()
                .unwrap_or("")
                .trim_end_matches(',')
                .to_string()
        })
        .collect();
    v.sort();
    v.dedup();
    for o in ["--output-dir", "--watch", "--from", "--summary", "--jobs"] {
        assert!(v.contains(&o.to_string()), "{o} in {v:?}");
    }
    v
}

#[test]
fn the_man_page_documents_every_flag_and_renders_cleanly() {
    let dir = TempDir::new("compl-man");
    let out = run(dir.path(), &["--generate", "man"]);
    assert!(out.status.success(), "{out:?}");
    let man = String::from_utf8(out.stdout).unwrap();
    assert!(man.contains(".TH hp2ps 1"), "{man}");
    for flag in "bscdigeMmlpty".chars() {
        assert!(man.contains(&format!("\\fB\\-{flag}\\fR")), "-{flag}");
    }
    for long in long_options() {
        let roff = long.replace('-', "\\-");
        assert!(man.contains(&roff), "{long} in the man page");
    }
    assert!(!man.contains("generate"), "hidden options stay hidden");
    // Into a directory: hp2ps.1, nothing else.
    let out = run(dir.path(), &["--generate", "man", "share/man/man1"]);
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let page = dir.path().join("share/man/man1/hp2ps.1");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), man);
    if require("/usr/bin/groff") {
        let out = Cmd::new("groff")
            .args(["-man", "-Tutf8", "-P-cbou", "-ww"])
            .arg(&page)
            .output();
        assert!(out.status.success(), "{out:?}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("HP2PS FLAGS") && text.contains("--output-dir"),
            "{text}"
        );
    }
}

#[test]
fn completions_for_bash_zsh_fish_and_powershell() {
    let dir = TempDir::new("compl-shells");
    for (shell, file, start) in [
        ("bash", "hp2ps.bash", "_hp2ps() {"),
        ("zsh", "_hp2ps", "#compdef hp2ps"),
        ("fish", "hp2ps.fish", "complete -c hp2ps"),
        (
            "powershell",
            "_hp2ps.ps1",
            "using namespace System.Management.Automation",
        ),
    ] {
        let out = run(dir.path(), &["--generate", shell]);
        assert!(out.status.success(), "{shell}: {out:?}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.trim_start().starts_with(start), "{shell}: {script}");
        if shell == "powershell" {
            assert!(
                script.contains("Register-ArgumentCompleter -Native -CommandName 'hp2ps'"),
                "{script}"
            );
        }
        for long in long_options() {
            let name = long.trim_start_matches('-');
            assert!(script.contains(name), "{shell}: {long}");
        }
        let out = run(dir.path(), &[&format!("--generate={shell}"), "completions"]);
        assert!(out.status.success(), "{out:?}");
        let written = std::fs::read_to_string(dir.path().join("completions").join(file));
        assert_eq!(written.unwrap(), script, "{shell}");
    }
    assert!(!run(dir.path(), &["--generate", "csh"]).status.success());
}

#[test]
fn bash_completes_long_options_and_format_names() {
    if !require("/bin/bash") {
        return;
    }
    let dir = TempDir::new("compl-bash");
    assert!(run(dir.path(), &["--generate", "bash", "."])
        .status
        .success());
    let complete = |words: &str, cword: usize| {
        let script = format!(
            "source ./hp2ps.bash; COMP_WORDS=({words}); COMP_CWORD={cword}; \
             _hp2ps hp2ps \"${{COMP_WORDS[$COMP_CWORD]}}\" \"${{COMP_WORDS[$COMP_CWORD-1]}}\"; \
             echo \"${{COMPREPLY[@]}}\""
        );
        let out = Cmd::new("bash")
            .args(["-c", &script])
            .current_dir(dir.path())
            .output();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    assert_eq!(complete("hp2ps --out", 1), "--output --output-dir");
    assert_eq!(
        complete("hp2ps --format ''", 2),
        "ps eps svg pdf html prometheus pprof"
    );
    assert_eq!(complete("hp2ps --summ", 1), "--summary");
}
