//! Measures how long a census takes from the running program to the live page's
//! screen: a program started with `-olFIFO` (or writing its log to a file) is followed
//! by `hp2ps --serve`, whose page is open in headless Chromium.
//!
//! ```text
//! cargo run --release --example live_latency -- fifo|file PATH -- COMMAND...
//! ```
//!
//! * `fifo`: the program writes into the FIFO at PATH (made here); this relays it into
//!   a second FIFO that hp2ps follows, noting when each piece came;
//! * `file`: the program writes the file at PATH, which hp2ps follows; this notes when it
//!   grew (looking every 2 ms).
//!
//! For each census: when the program took it (its time in the log, placed on the wall
//! clock by the log's WALL_CLOCK_TIME event), when its bytes came out of the program
//! (the piece after which the census can be read: the runtime's flush), and when the
//! page first drew a state holding it (`hp2ps.live.drawn`: the frame after an update).
//! It prints each census and the median, 90th percentile and worst of: flush (program
//! → bytes), hp2ps (bytes → screen: reading, the page made, sent, applied, drawn) and
//! the whole. `scripts/live-latency.sh` runs it on `docs/examples/live/Service.hs`.
//! The hp2ps binary is `$HP2PS`, else `target/release/hp2ps`. With `LIVE_SHOT=FILE.png`
//! it also takes a screenshot of the page once it has `LIVE_SHOT_AT` censuses (default
//! 200): the picture of `docs/guide.md`.

#[path = "../tests/support/replay.rs"]
#[allow(dead_code)]
mod replay;
#[path = "../tests/support/webdriver.rs"]
mod webdriver;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

/// Wall-clock ns since the Unix epoch.
fn now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// The bytes of the run as they came: (when, how many bytes so far).
type Arrivals = Arc<Mutex<Vec<(u128, usize)>>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mode), Some(path), Some(dash)) = (args.first(), args.get(1), args.get(2)) else {
        eprintln!("usage: live_latency fifo|file PATH -- COMMAND...");
        return ExitCode::from(2);
    };
    if dash != "--" || args.len() < 4 || !matches!(mode.as_str(), "fifo" | "file") {
        eprintln!("usage: live_latency fifo|file PATH -- COMMAND...");
        return ExitCode::from(2);
    }
    match run(mode == "fifo", Path::new(path), &args[3..]) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("live_latency: {e}");
            ExitCode::FAILURE
        }
    }
}

fn mkfifo(path: &Path) -> Result<(), String> {
    let c =
        std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(path);
    // SAFETY: a C string we own.
    match unsafe { libc::mkfifo(c.as_ptr(), 0o600) } {
        0 => Ok(()),
        _ => Err(format!("mkfifo {}", path.display())),
    }
}

fn run(fifo: bool, path: &Path, command: &[String]) -> Result<(), String> {
    let hp2ps = std::env::var_os("HP2PS")
        .map_or_else(|| PathBuf::from("target/release/hp2ps"), PathBuf::from);
    let work = std::env::temp_dir().join(format!("hp2ps-latency-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let served_path = if fifo {
        mkfifo(path)?;
        let relay = work.join("serve.fifo");
        mkfifo(&relay)?;
        relay
    } else {
        let _ = std::fs::remove_file(path);
        path.to_path_buf()
    };
    let mut server = Command::new(&hp2ps)
        .arg("--serve")
        .arg(&served_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{}: {e}", hp2ps.display()))?;
    let mut url = String::new();
    let stdout = server.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut url)
        .map_err(|e| e.to_string())?;
    let browser = webdriver::Browser::start(1280, 1100)?;
    browser.goto(url.trim());

    let arrivals: Arrivals = Arc::default();
    let bytes = Arc::new(Mutex::new(Vec::new()));
    let watcher = {
        let (arrivals, bytes) = (Arc::clone(&arrivals), Arc::clone(&bytes));
        let (path, relay) = (path.to_path_buf(), served_path.clone());
        std::thread::spawn(move || match fifo {
            true => relay_fifo(&path, &relay, &arrivals, &bytes),
            false => watch_file(&path, &arrivals),
        })
    };
    let started = Instant::now();
    let mut program = Command::new("sh")
        .arg("-c")
        .arg(command.join(" "))
        .spawn()
        .map_err(|e| format!("{command:?}: {e}"))?;
    // Until the page says the run ended.
    let mut last_state;
    let mut shot = std::env::var_os("LIVE_SHOT").map(PathBuf::from);
    let shot_at: u64 = std::env::var("LIVE_SHOT_AT")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    loop {
        std::thread::sleep(Duration::from_millis(250));
        if let Some(path) = &shot {
            let n = browser.script(
                "return window.hp2ps.live && window.hp2ps.live.status ? window.hp2ps.live.status.censuses : 0",
                json!([]),
            );
            if n.as_u64().unwrap_or(0) >= shot_at {
                std::fs::write(path, browser.screenshot()).map_err(|e| e.to_string())?;
                shot = None;
            }
        }
        let state = browser.script(
            "return window.hp2ps.live && window.hp2ps.live.status ? window.hp2ps.live.status.state : ''",
            json!([]),
        );
        last_state = state.as_str().unwrap_or("").to_string();
        if matches!(last_state.as_str(), "ended" | "closed") {
            break;
        }
        if started.elapsed() > Duration::from_secs(3600) {
            return Err("the page never said the run ended".into());
        }
    }
    let _ = program.wait();
    let drawn = browser.script("return window.hp2ps.live.drawn", json!([]));
    let drawn: Vec<(u128, f64)> = (drawn.as_array().into_iter().flatten())
        .filter_map(|d| Some(((d[0].as_f64()? * 1e6) as u128, d[1].as_f64()?)))
        .collect();
    let _ = server.kill();
    let _ = server.wait();
    let _ = watcher.join();
    let log = if fifo {
        std::mem::take(&mut *bytes.lock().map_err(|e| e.to_string())?)
    } else {
        std::fs::read(path).map_err(|e| e.to_string())?
    };
    let arrivals = arrivals.lock().map_err(|e| e.to_string())?.clone();
    report(&log, &arrivals, &drawn, &last_state)
}

/// Relays the program's FIFO into hp2ps's, noting when each piece came.
fn relay_fifo(from: &Path, to: &Path, arrivals: &Arrivals, bytes: &Mutex<Vec<u8>>) {
    let (Ok(mut input), Ok(mut output)) = (
        std::fs::File::open(from),
        std::fs::OpenOptions::new().write(true).open(to),
    ) else {
        eprintln!("live_latency: cannot open the FIFOs");
        return;
    };
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0;
    while let Ok(n) = input.read(&mut buf) {
        if n == 0 {
            break;
        }
        let at = now();
        total += n;
        if let Ok(mut a) = arrivals.lock() {
            a.push((at, total));
        }
        if let Ok(mut b) = bytes.lock() {
            b.extend_from_slice(&buf[..n]);
        }
        if output.write_all(&buf[..n]).is_err() {
            break;
        }
    }
}

/// Notes when the file grew, until it stops growing for ten seconds.
fn watch_file(path: &Path, arrivals: &Arrivals) {
    let mut last = 0;
    let mut quiet = Instant::now();
    while quiet.elapsed() < Duration::from_secs(10) {
        let len = std::fs::metadata(path).map_or(0, |m| m.len() as usize);
        if len > last {
            last = len;
            quiet = Instant::now();
            if let Ok(mut a) = arrivals.lock() {
                a.push((now(), len));
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn report(
    log: &[u8],
    arrivals: &[(u128, usize)],
    drawn: &[(u128, f64)],
    state: &str,
) -> Result<(), String> {
    let (clock, wall) = replay::wall_clock(log).ok_or("no WALL_CLOCK_TIME event in the log")?;
    let mut opts = hp2ps::internals::live::LiveOptions::default();
    opts.detail = 1 << 20;
    // When each census could first be read: the log fed piece by piece as it came.
    let mut run = hp2ps::internals::live::LiveRun::new(&opts);
    let mut reader = hp2ps::internals::live::LiveReader::new(&opts);
    let mut came = Vec::new();
    let mut from = 0;
    for &(at, upto) in arrivals {
        let upto = upto.min(log.len());
        reader
            .feed(&log[from..upto], &mut run)
            .map_err(|e| e.to_string())?;
        reader.pause(&mut run).map_err(|e| e.to_string())?;
        from = upto;
        while (came.len() as u64) < run.censuses() {
            came.push(at);
        }
    }
    let mut load = hp2ps::LoadOptions::default();
    load.eventlog.time = hp2ps::TimeAxis::Elapsed;
    let profile = hp2ps::load(hp2ps::Source::Bytes(log), &load)
        .map_err(|e| e.to_string())?
        .profile;
    let censuses = &profile.times[1..profile.times.len() - 1];
    println!(
        "state at the end: {state}; {} censuses; {} pieces; {} page updates",
        censuses.len(),
        arrivals.len(),
        drawn.len()
    );
    println!("census  time (s)  flush (ms)  hp2ps (ms)  whole (ms)");
    let (mut flush, mut ours, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &t) in censuses.iter().enumerate() {
        let made = wall + (t * 1e9) as u128 - u128::from(clock);
        let Some(&came) = came.get(i) else { continue };
        let Some(&(shown, _)) = drawn.iter().find(|(_, newest)| *newest >= t - 1e-9) else {
            println!("{i:6}  {t:8.3}  never drawn");
            continue;
        };
        let ms = |a: u128, b: u128| (a as f64 - b as f64) / 1e6;
        let (f, o, w) = (ms(came, made), ms(shown, came), ms(shown, made));
        println!("{i:6}  {t:8.3}  {f:10.1}  {o:10.1}  {w:10.1}");
        flush.push(f);
        ours.push(o);
        whole.push(w);
    }
    for (what, mut v) in [
        ("flush (program → bytes)", flush),
        ("hp2ps (bytes → screen)", ours),
        ("whole (program → screen)", whole),
    ] {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| {
            v.get(((v.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(f64::NAN)
        };
        println!(
            "{what:26} median {:7.1} ms  p90 {:7.1} ms  worst {:7.1} ms  ({} censuses)",
            at(0.5),
            at(0.9),
            at(1.0),
            v.len()
        );
    }
    Ok(())
}
