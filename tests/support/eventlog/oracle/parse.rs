//! Reading the dump program's output (its format is documented in `ghc_events_dump.hs`).

use super::{DeclaredType, Dump, Event, Kind, Outcome};

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
