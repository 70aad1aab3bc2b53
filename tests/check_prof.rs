//! `--check` of time profiles (`hp2ps --check=alloc:LIMIT --baseline old.prof new.prof`):
//! the total allocation of two real runs of one build (every `-p`/`-P` pair of
//! `tests/data/prof`, GHC 9.0.2 and 9.10.3) raises no alarm at the default rule; a
//! program built by the test with the machine's GHC (`ghc -prof`) whose new build
//! allocates more is flagged, with its numbers, while ten runs of the old build are not;
//! a heap profile's rule on a `.prof`, a time profile's on a `.hp` and a mixed pair are
//! refused in one line (exit 2).

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use support::run::{self, Cmd, Input};
use support::{tools, TempDir};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `hp2ps ARGS` in `dir`.
fn hp2ps(dir: &Path, args: &[&str]) -> run::Ran {
    run::hp2ps(dir, args, Input::Null)
}

fn verdict(ran: &run::Ran) -> Value {
    serde_json::from_slice(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.describe()))
}

#[test]
fn runs_of_one_build_raise_no_alarm() {
    let dir = TempDir::new("check-prof-twins");
    let prof = data("prof");
    let mut pairs = 0;
    for entry in std::fs::read_dir(&prof).unwrap().flatten() {
        let p = entry.path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix("-p.prof") else {
            continue;
        };
        let twin = prof.join(format!("{stem}-P.prof"));
        if !twin.exists() {
            continue;
        }
        let (a, b) = (p.display().to_string(), twin.display().to_string());
        for (old, new) in [(&a, &b), (&b, &a)] {
            let ran = hp2ps(
                dir.path(),
                &["--check", "--check-format", "json", "--baseline", old, new],
            );
            assert_eq!(ran.code, Some(0), "{name}: {}", ran.describe());
            let v = verdict(&ran);
            assert_eq!(v["rules"][0]["rule"], "alloc:10%", "--check alone: {v}");
            let growth = v["rules"][0]["findings"][0]["growth"].as_f64().unwrap();
            assert!(growth.abs() < 0.001, "{name}: {growth}");
        }
        pairs += 1;
    }
    assert!(pairs >= 26, "{pairs} pairs");
}

/// Builds `source` with profiling in `dir` as `name`, and runs it `runs` times with
/// `+RTS -p`: the `.prof` of each run.
fn build_and_run(dir: &Path, name: &str, source: &str, runs: usize) -> Vec<PathBuf> {
    std::fs::write(dir.join(format!("{name}.hs")), source).unwrap();
    let built = Cmd::new("ghc")
        .args(["-prof", "-fprof-auto", "-O0", "-rtsopts", "-outputdir"])
        .arg(format!("{name}.o"))
        .args([&format!("{name}.hs"), "-o", name])
        .current_dir(dir)
        .timeout(Duration::from_secs(300))
        .run();
    assert_eq!(built.code, Some(0), "ghc: {}", built.describe());
    (0..runs)
        .map(|i| {
            let ran = Cmd::new(dir.join(name))
                .args(["200000", "+RTS", "-p", &format!("-po{name}-{i}"), "-RTS"])
                .current_dir(dir)
                .timeout(Duration::from_secs(120))
                .run();
            assert_eq!(ran.code, Some(0), "{name}: {}", ran.describe());
            dir.join(format!("{name}-{i}.prof"))
        })
        .collect()
}

/// A program that keeps a map of `n` numbers' texts; `extra` more allocation per entry
/// in the "new" build.
fn program(extra: &str) -> String {
    format!(
        "import System.Environment (getArgs)\n\
         import qualified Data.Map.Strict as M\n\
         main :: IO ()\n\
         main = do\n\
         \x20 [n] <- map read <$> getArgs\n\
         \x20 let m = M.fromList [(i, {extra}show i) | i <- [1 .. n :: Int]]\n\
         \x20 print (M.foldl' (\\a s -> a + length s) 0 m)\n"
    )
}

#[test]
fn a_build_that_allocates_more_is_flagged_and_runs_of_the_old_are_not() {
    if !tools::require("ghc") {
        return;
    }
    let dir = TempDir::new("check-prof-build");
    let old = build_and_run(dir.path(), "old", &program(""), 10);
    let new = build_and_run(dir.path(), "new", &program("reverse $ "), 1);
    let name = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    for run in &old[1..] {
        let ran = hp2ps(
            dir.path(),
            &["--check", "--baseline", &name(&old[0]), &name(run)],
        );
        assert_eq!(ran.code, Some(0), "{}", ran.describe());
    }
    let ran = hp2ps(
        dir.path(),
        &[
            "--check=alloc:10%",
            "--baseline",
            &name(&old[0]),
            &name(&new[0]),
        ],
    );
    assert_eq!(ran.code, Some(1), "{}", ran.describe());
    let text = String::from_utf8(ran.stdout).unwrap();
    assert!(
        text.starts_with("new-0.prof against old-0.prof: 1 of 1 rules fail\n  FAIL alloc:10%: the total allocation is "),
        "{text}"
    );
    let json = hp2ps(
        dir.path(),
        &[
            "--check=alloc:10%",
            "--check-format",
            "json",
            "--baseline",
            &name(&old[0]),
            &name(&new[0]),
        ],
    );
    let v = verdict(&json);
    let f = &v["rules"][0]["findings"][0];
    let (value, base) = (
        f["value"].as_f64().unwrap(),
        f["baseline"].as_f64().unwrap(),
    );
    assert!(value > base * 1.1 && !f["passed"].as_bool().unwrap(), "{v}");
    // The numbers are the reports' own `total alloc`.
    let total = |p: &Path| -> f64 {
        let text = std::fs::read_to_string(p).unwrap();
        let line = text.lines().find(|l| l.contains("total alloc =")).unwrap();
        let digits: String = line
            .split('=')
            .nth(1)
            .unwrap()
            .split("bytes")
            .next()
            .unwrap()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap()
    };
    assert_eq!((value, base), (total(&new[0]), total(&old[0])));
    // A ceiling needs no baseline.
    let ceiling = format!("--check=alloc:{}", base as u64);
    assert_eq!(hp2ps(dir.path(), &[&ceiling, &name(&old[1])]).code, Some(0));
    assert_eq!(hp2ps(dir.path(), &[&ceiling, &name(&new[0])]).code, Some(1));
}

#[test]
fn rules_of_the_other_kind_of_profile_are_refused() {
    let dir = TempDir::new("check-prof-refused");
    let prof = data("prof/marker-ghc9.10.3-p.prof").display().to_string();
    let hp = data("gate/leakmap-leak.hp").display().to_string();
    for (args, word) in [
        (
            vec!["--check=peak:10%", "--baseline", &prof, &prof],
            "judges a heap profile",
        ),
        (
            vec!["--check=alloc:10%", "--baseline", &hp, &hp],
            "judges a time profile",
        ),
        (
            vec!["--check", "--baseline", &hp, &prof],
            "a time profile (.prof) with a time profile",
        ),
        (
            vec!["--check", "--baseline", &prof, &hp],
            "a time profile (.prof) with a time profile",
        ),
    ] {
        let ran = hp2ps(dir.path(), &args);
        assert_eq!(ran.code, Some(2), "{args:?}: {}", ran.describe());
        let e = ran.stderr_text();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(word), "{args:?}: {e}");
        assert!(ran.stdout.is_empty());
    }
}
