//! `hp2ps --serve FIFO` followed by a program the machine's GHC builds, started with the
//! RTS flag the server prints while it waits: the advice is one GHC takes (it said
//! `+RTS -ol fifo`, which GHC's RTS refuses with "-ol expects filename": the file name
//! is glued to the flag), and the run is followed to its end.

mod support;

use std::path::Path;
use std::time::Duration;

use support::serve::{mkfifo, Served};
use support::{tools, Cmd, TempDir};

/// A program whose heap grows for a while, long enough for a few censuses at `-i0.02`:
/// about 0.75 s and 7 censuses here. (With 300,000 keys it ran 0.11 s, and 4 runs in 5
/// ended before GHC's first census: "the program ended (0 censuses)".)
const PROGRAM: &str = "import qualified Data.Map.Strict as M\n\
    main :: IO ()\n\
    main = print (M.foldl' (+) 0 (M.fromList [(i, i) | i <- [1 .. 1500000 :: Int]]))\n";

/// Builds [`PROGRAM`] in `dir` as `grow`, with the eventlog RTS.
fn build(dir: &Path) {
    std::fs::write(dir.join("grow.hs"), PROGRAM).expect("write");
    let built = Cmd::new("ghc")
        .args(["-O0", "-rtsopts", "-eventlog", "-outputdir", "grow.o"])
        .args(["grow.hs", "-o", "grow"])
        .current_dir(dir)
        .timeout(Duration::from_secs(300))
        .run();
    assert_eq!(built.code, Some(0), "ghc: {}", built.describe());
}

/// The RTS flag in the server's "waiting for a program to write into the FIFO NAME
/// (+RTS FLAG)", as it is printed (quoted for a shell when the name needs it).
fn advised_flag(stderr: &str) -> String {
    let line = (stderr.lines())
        .find(|l| l.contains("waiting for a program to write into the FIFO"))
        .unwrap_or_else(|| panic!("no advice: {stderr}"));
    let (_, rest) = line.split_once("(+RTS ").expect("(+RTS ...)");
    let flag = rest.strip_suffix(')').expect("... )");
    flag.to_string()
}

/// Serves the FIFO `fifo` in `dir` (where `grow` is built), runs `grow` with the flag the
/// server advises (through `sh -c`, the flag pasted as printed, when `shell`; else as
/// one argument) and follows the run to its end: the flag as printed.
fn followed_as_advised(dir: &Path, fifo: &str, shell: bool) -> String {
    mkfifo(&dir.join(fifo));
    let served = Served::start(dir, &[fifo]);
    assert!(
        served.wait_stderr("waiting for a program", Duration::from_secs(20)),
        "{}",
        served.stderr()
    );
    let flag = advised_flag(&served.stderr());
    let ran = match shell {
        true => Cmd::new("sh").args([
            "-c".to_string(),
            format!("./grow +RTS -hT -i0.02 -l {flag} -RTS"),
        ]),
        false => Cmd::new(dir.join("grow")).args(["+RTS", "-hT", "-i0.02", "-l", &flag, "-RTS"]),
    };
    let ran = ran.current_dir(dir).timeout(Duration::from_secs(120)).run();
    assert_eq!(ran.code, Some(0), "the program, {flag}: {}", ran.describe());
    assert!(
        served.wait_stderr(
            &format!("{fifo}: the program ended ("),
            Duration::from_secs(30)
        ),
        "{}",
        served.stderr()
    );
    let stderr = served.stderr();
    let censuses: u64 = (stderr.split("the program ended (").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number of censuses: {stderr}"));
    assert!(censuses >= 1, "{stderr}");
    let (status, stderr) = served.interrupt();
    assert!(status.success(), "{stderr}");
    flag
}

#[test]
fn a_program_started_as_the_server_says_is_followed_to_its_end() {
    if !tools::require("ghc") {
        return;
    }
    let dir = TempDir::new("serve-ghc-fifo");
    build(dir.path());
    // One argument, as GHC's RTS reads it: the name glued to the flag.
    assert_eq!(
        followed_as_advised(dir.path(), "run.fifo", false),
        "-olrun.fifo"
    );
    // A name with a space: the advice, pasted into a shell, is still one argument.
    assert_eq!(
        followed_as_advised(dir.path(), "my run.fifo", true),
        "'-olmy run.fifo'"
    );
}
