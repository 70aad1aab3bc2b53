//! A second, independent eventlog oracle: GHC's reference parser, the Haskell library
//! **ghc-events**, run through the small program `ghc_events_dump.hs` (next to this file).
//!
//! The program is compiled once with `ghc -O0` into a cache under Cargo's target directory
//! (`CARGO_TARGET_TMPDIR/ghc-events-dump/`), keyed by a hash of its source. Concurrent test
//! processes each build in a private directory and publish the binary with an atomic
//! rename, so no lock is needed; within a process the build happens once.
//!
//! Without `ghc` or the ghc-events package, [`oracle`] prints a loud `SKIPPED:` line and
//! returns `None`, except when the environment variable `CI` is `true`: then it panics,
//! so CI cannot pass by skipping.
#![allow(dead_code)] // Each test binary that mounts this module uses a different part of it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

const SOURCE: &str = include_str!("ghc_events_dump.hs");

/// The compiled dump program, or why it is unavailable.
fn built() -> &'static Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build)
}

/// Returns the dump program, compiling it on first use. `None` (after printing
/// `SKIPPED: …`) if `ghc` or ghc-events is missing; panics instead when `CI=true`.
pub fn oracle() -> Option<&'static Path> {
    match built() {
        Ok(p) => Some(p.as_path()),
        Err(why) => {
            let msg = format!(
                "SKIPPED: ghc-events oracle unavailable ({why}); \
                 install it with `apt-get install -y ghc libghc-ghc-events-dev`"
            );
            if crate::support::tools::in_ci() {
                panic!("{msg} (CI=true: missing tools are a failure)");
            }
            // Once per process, and past libtest's output capture (which only catches
            // the print macros), so the skip is visible in a normal `cargo test` run.
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                use std::io::Write;
                let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {msg} !!!!!!!!\n");
            });
            None
        }
    }
}

/// 64-bit FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ghc-events-dump")
}

fn build() -> Result<PathBuf, String> {
    let dir = cache_dir();
    let target = dir.join(format!("ghc-events-dump-{:016x}", fnv1a(SOURCE.as_bytes())));
    if target.is_file() {
        return Ok(target);
    }
    // Tool checks come first so that their absence is a skip, not a failure.
    let ghc = Command::new("ghc").arg("--numeric-version").output();
    match ghc {
        Ok(o) if o.status.success() => {}
        Ok(_) | Err(_) => return Err("`ghc` not found or not working".into()),
    }
    let pkg = Command::new("ghc-pkg")
        .args(["--simple-output", "field", "ghc-events", "version"])
        .output();
    match pkg {
        Ok(o) if o.status.success() && !o.stdout.is_empty() => {}
        _ => return Err("the Haskell package ghc-events is not installed".into()),
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let work = dir.join(format!("build-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("creating {}: {e}", work.display()))?;
    let src = work.join("ghc_events_dump.hs");
    std::fs::write(&src, SOURCE).map_err(|e| format!("writing {}: {e}", src.display()))?;
    let exe = work.join("dump");
    let out = Command::new("ghc")
        .args(["-O0", "-v0", "-package", "ghc-events", "-outputdir"])
        .arg(&work)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("running ghc: {e}"))?;
    if !out.status.success() {
        // The tools exist, so this is a bug in the dump program: always a failure.
        panic!(
            "ghc could not compile ghc_events_dump.hs:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Atomic publish: a concurrent process may have won the race; either binary is fine.
    std::fs::rename(&exe, &target).map_err(|e| format!("publishing the binary: {e}"))?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(target)
}

/// One declared event type as ghc-events read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredType {
    pub id: u16,
    /// `None` = variable size.
    pub size: Option<u16>,
    pub desc: Vec<u8>,
}

/// One decoded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub time: u64,
    /// The capability ghc-events assigned from the enclosing block; `None` for the global
    /// buffer (and events outside blocks).
    pub cap: Option<u16>,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Block {
        end_time: u64,
        cap: i64,
        size: u32,
    },
    Begin {
        era: u64,
    },
    BioBegin {
        era: u64,
        census_time: u64,
    },
    End {
        era: u64,
    },
    CcSample {
        prof_id: u8,
        residency: u64,
        depth: u8,
        stack: Vec<u32>,
    },
    StrSample {
        prof_id: u8,
        residency: u64,
        label: Vec<u8>,
    },
    CostCentre {
        id: u32,
        label: Vec<u8>,
        module: Vec<u8>,
        srcloc: Vec<u8>,
        flags: u8,
    },
    HeapProfBegin {
        prof_id: u8,
        period: u64,
        breakdown: u32,
        filters: Vec<Vec<u8>>,
    },
    Ipe {
        info: u64,
        table_name: Vec<u8>,
        closure_desc: i64,
        ty_desc: Vec<u8>,
        label: Vec<u8>,
        module: Vec<u8>,
        srcloc: Vec<u8>,
    },
    Marker(Vec<u8>),
    Message(Vec<u8>),
    Args {
        capset: u32,
        args: Vec<Vec<u8>>,
    },
    Env {
        capset: u32,
        vars: Vec<Vec<u8>>,
    },
    RtsId {
        capset: u32,
        text: Vec<u8>,
    },
    WallClock {
        capset: u32,
        sec: u64,
        nsec: u32,
    },
    Pid {
        capset: u32,
        pid: u32,
    },
    GcStart,
    GcEnd,
    HeapSize {
        capset: u32,
        bytes: u64,
    },
    HeapLive {
        capset: u32,
        bytes: u64,
    },
    HeapAllocated {
        capset: u32,
        bytes: u64,
    },
    Unknown(u16),
    /// Any other constructor, by name.
    Other(String),
}

/// How decoding ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// All events decoded (ghc-events also says this for a truncated file).
    Done(usize),
    /// `readEventLogFromFile` returned an error (e.g. a bad header).
    Error(String),
    /// Decoding threw (e.g. an undeclared event id).
    Exception(String),
}

/// Everything ghc-events decoded from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    pub types: Vec<DeclaredType>,
    pub events: Vec<Event>,
    pub outcome: Outcome,
}

/// A band of a decoded census.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Band {
    Str { label: Vec<u8>, residency: u64 },
    Ccs { stack: Vec<u32>, residency: u64 },
}

/// A census: HEAP_PROF_SAMPLE_BEGIN (or the bio BEGIN) up to its END.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Census {
    /// Timestamp of the BEGIN event.
    pub time: u64,
    pub era: u64,
    /// `census_time` of a bio BEGIN (166).
    pub bio_time: Option<u64>,
    pub bands: Vec<Band>,
    /// Closed by an END (165), not by the next BEGIN or the end of the events.
    pub ended: bool,
}

impl Dump {
    /// Censuses in file order. As in GHC < 8.10 files, a census without END closes at the
    /// next BEGIN or at the end; band events outside a census are ignored.
    pub fn censuses(&self) -> Vec<Census> {
        let mut out: Vec<Census> = Vec::new();
        let mut open: Option<Census> = None;
        for e in &self.events {
            match &e.kind {
                Kind::Begin { era } | Kind::BioBegin { era, .. } => {
                    out.extend(open.take());
                    let bio_time = match e.kind {
                        Kind::BioBegin { census_time, .. } => Some(census_time),
                        _ => None,
                    };
                    open = Some(Census {
                        time: e.time,
                        era: *era,
                        bio_time,
                        bands: Vec::new(),
                        ended: false,
                    });
                }
                Kind::End { .. } => {
                    if let Some(mut c) = open.take() {
                        c.ended = true;
                        out.push(c);
                    }
                }
                Kind::StrSample {
                    residency, label, ..
                } => {
                    if let Some(c) = &mut open {
                        c.bands.push(Band::Str {
                            label: label.clone(),
                            residency: *residency,
                        });
                    }
                }
                Kind::CcSample {
                    residency, stack, ..
                } => {
                    if let Some(c) = &mut open {
                        c.bands.push(Band::Ccs {
                            stack: stack.clone(),
                            residency: *residency,
                        });
                    }
                }
                _ => {}
            }
        }
        out.extend(open);
        out
    }

    /// USER_MARKER events: (timestamp, capability, text), file order.
    pub fn markers(&self) -> Vec<(u64, Option<u16>, Vec<u8>)> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                Kind::Marker(t) => Some((e.time, e.cap, t.clone())),
                _ => None,
            })
            .collect()
    }

    /// The first PROGRAM_ARGS event's argv.
    pub fn args(&self) -> Option<Vec<Vec<u8>>> {
        self.events.iter().find_map(|e| match &e.kind {
            Kind::Args { args, .. } => Some(args.clone()),
            _ => None,
        })
    }

    /// The first WALL_CLOCK_TIME event: (timestamp, sec, nsec).
    pub fn wall_clock(&self) -> Option<(u64, u64, u32)> {
        self.events.iter().find_map(|e| match e.kind {
            Kind::WallClock { sec, nsec, .. } => Some((e.time, sec, nsec)),
            _ => None,
        })
    }

    /// The first HEAP_PROF_BEGIN: (sampling period ns, breakdown code, filters).
    pub fn heap_prof_begin(&self) -> Option<(u64, u32, Vec<Vec<u8>>)> {
        self.events.iter().find_map(|e| match &e.kind {
            Kind::HeapProfBegin {
                period,
                breakdown,
                filters,
                ..
            } => Some((*period, *breakdown, filters.clone())),
            _ => None,
        })
    }

    /// Number of events matching `pred`.
    pub fn count(&self, pred: impl Fn(&Kind) -> bool) -> usize {
        self.events.iter().filter(|e| pred(&e.kind)).count()
    }

    /// The latest timestamp of any event.
    pub fn max_time(&self) -> Option<u64> {
        self.events.iter().map(|e| e.time).max()
    }
}

/// Runs ghc-events on a file.
pub fn dump_file(exe: &Path, path: &Path) -> Dump {
    let out = Command::new(exe)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    let text = String::from_utf8(out.stdout).expect("the dump format is ASCII");
    parse_dump(&text).unwrap_or_else(|e| {
        panic!(
            "unreadable ghc-events dump of {}: {e}\nstderr: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Runs ghc-events on bytes (written to a temporary file under the target directory).
pub fn dump_bytes(exe: &Path, eventlog: &[u8]) -> Dump {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = cache_dir().join("inputs");
    std::fs::create_dir_all(&dir).expect("creating the oracle's input directory");
    let path = dir.join(format!(
        "in-{}-{}.eventlog",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, eventlog).expect("writing the oracle's input file");
    let dump = dump_file(exe, &path);
    let _ = std::fs::remove_file(&path);
    dump
}

/// Decodes one `%XX`-escaped field (`""` is the empty string).
pub fn unescape(field: &str) -> Result<Vec<u8>, String> {
    if field == "\"\"" {
        return Ok(Vec::new());
    }
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = field
                .get(i + 1..i + 3)
                .ok_or_else(|| format!("cut escape in {field:?}"))?;
            out.push(u8::from_str_radix(hex, 16).map_err(|e| format!("{field:?}: {e}"))?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn num<T: std::str::FromStr>(f: Option<&&str>) -> Result<T, String> {
    let f = f.ok_or("missing field")?;
    f.parse::<T>().map_err(|_| format!("bad number {f:?}"))
}

fn text(f: Option<&&str>) -> Result<Vec<u8>, String> {
    unescape(f.ok_or("missing field")?)
}

/// Parses the dump program's output (format documented in `ghc_events_dump.hs`).
pub fn parse_dump(out: &str) -> Result<Dump, String> {
    let mut lines = out.lines();
    if lines.next() != Some("ghc-events-dump\t1") {
        return Err("missing `ghc-events-dump 1` header line".into());
    }
    let mut dump = Dump {
        types: Vec::new(),
        events: Vec::new(),
        outcome: Outcome::Exception("output ended without a final line".into()),
    };
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        match f[0] {
            "type" => dump.types.push(DeclaredType {
                id: num(f.get(1))?,
                size: match f.get(2) {
                    Some(&"var") => None,
                    s => Some(num(s)?),
                },
                desc: text(f.get(3))?,
            }),
            "ev" => {
                let cap = match f.get(2) {
                    Some(&"-") => None,
                    c => Some(num(c)?),
                };
                let a = &f[4..];
                let kind = match *f.get(3).ok_or("missing kind")? {
                    "block" => Kind::Block {
                        end_time: num(a.first())?,
                        cap: num(a.get(1))?,
                        size: num(a.get(2))?,
                    },
                    "begin" => Kind::Begin {
                        era: num(a.first())?,
                    },
                    "biobegin" => Kind::BioBegin {
                        era: num(a.first())?,
                        census_time: num(a.get(1))?,
                    },
                    "end" => Kind::End {
                        era: num(a.first())?,
                    },
                    "ccsample" => Kind::CcSample {
                        prof_id: num(a.first())?,
                        residency: num(a.get(1))?,
                        depth: num(a.get(2))?,
                        stack: match a.get(3) {
                            Some(&"-") => Vec::new(),
                            Some(s) => s
                                .split(',')
                                .map(|x| x.parse::<u32>().map_err(|e| e.to_string()))
                                .collect::<Result<_, _>>()?,
                            None => return Err("missing stack".into()),
                        },
                    },
                    "strsample" => Kind::StrSample {
                        prof_id: num(a.first())?,
                        residency: num(a.get(1))?,
                        label: text(a.get(2))?,
                    },
                    "cc" => Kind::CostCentre {
                        id: num(a.first())?,
                        label: text(a.get(1))?,
                        module: text(a.get(2))?,
                        srcloc: text(a.get(3))?,
                        flags: num(a.get(4))?,
                    },
                    "heapprofbegin" => Kind::HeapProfBegin {
                        prof_id: num(a.first())?,
                        period: num(a.get(1))?,
                        breakdown: num(a.get(2))?,
                        filters: a[3.min(a.len())..]
                            .iter()
                            .map(|s| unescape(s))
                            .collect::<Result<_, _>>()?,
                    },
                    "ipe" => Kind::Ipe {
                        info: num(a.first())?,
                        table_name: text(a.get(1))?,
                        closure_desc: num(a.get(2))?,
                        ty_desc: text(a.get(3))?,
                        label: text(a.get(4))?,
                        module: text(a.get(5))?,
                        srcloc: text(a.get(6))?,
                    },
                    "marker" => Kind::Marker(text(a.first())?),
                    "message" => Kind::Message(text(a.first())?),
                    "args" | "env" => {
                        let capset = num(a.first())?;
                        let n: usize = num(a.get(1))?;
                        let items: Vec<Vec<u8>> = a[2.min(a.len())..]
                            .iter()
                            .map(|s| unescape(s))
                            .collect::<Result<_, _>>()?;
                        if items.len() != n {
                            return Err(format!("{n} arguments announced, {} given", items.len()));
                        }
                        if f[3] == "args" {
                            Kind::Args {
                                capset,
                                args: items,
                            }
                        } else {
                            Kind::Env {
                                capset,
                                vars: items,
                            }
                        }
                    }
                    "rtsid" => Kind::RtsId {
                        capset: num(a.first())?,
                        text: text(a.get(1))?,
                    },
                    "wallclock" => Kind::WallClock {
                        capset: num(a.first())?,
                        sec: num(a.get(1))?,
                        nsec: num(a.get(2))?,
                    },
                    "pid" => Kind::Pid {
                        capset: num(a.first())?,
                        pid: num(a.get(1))?,
                    },
                    "gcstart" => Kind::GcStart,
                    "gcend" => Kind::GcEnd,
                    "heapsize" => Kind::HeapSize {
                        capset: num(a.first())?,
                        bytes: num(a.get(1))?,
                    },
                    "heaplive" => Kind::HeapLive {
                        capset: num(a.first())?,
                        bytes: num(a.get(1))?,
                    },
                    "heapalloc" => Kind::HeapAllocated {
                        capset: num(a.first())?,
                        bytes: num(a.get(1))?,
                    },
                    "unknown" => Kind::Unknown(num(a.first())?),
                    "other" => Kind::Other(a.first().unwrap_or(&"").to_string()),
                    k => return Err(format!("unknown event kind {k:?}")),
                };
                dump.events.push(Event {
                    time: num(f.get(1))?,
                    cap,
                    kind,
                });
            }
            "done" => dump.outcome = Outcome::Done(num(f.get(1))?),
            "error" => {
                dump.outcome = Outcome::Error(String::from_utf8_lossy(&text(f.get(1))?).into())
            }
            "exception" => {
                dump.outcome = Outcome::Exception(String::from_utf8_lossy(&text(f.get(1))?).into())
            }
            other => return Err(format!("unknown line kind {other:?}")),
        }
    }
    Ok(dump)
}
