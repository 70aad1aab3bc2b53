//! The live page's updates as a test reads them from `hp2ps --serve`'s event stream
//! ([`Events`] as they come, [`Raw`] all at the end), each made the whole state it stands
//! for as the page's script makes it ([`whole`]: a delta's patch applied, [`patched`]),
//! and the run's state an update says ([`state`]). Apart from `serve.rs`, which starts
//! the server and asks it over HTTP, because this is the updates' format, not the process.

use std::io::Read;
use std::net::TcpStream;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use serde_json::Value;

/// Updates as they come.
pub struct Events {
    pub(super) rx: Receiver<Value>,
}

impl Events {
    /// The next update, if one comes within `within`.
    pub fn next(&self, within: Duration) -> Option<Value> {
        self.rx.recv_timeout(within).ok()
    }

    /// Updates until one satisfies `done` (included), within `within`.
    pub fn until(&self, within: Duration, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let until = Instant::now() + within;
        let mut got = Vec::new();
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.rx.recv_timeout(left) {
                Ok(v) => {
                    let stop = done(&v);
                    got.push(v);
                    if stop {
                        return got;
                    }
                }
                Err(_) => break,
            }
        }
        panic!(
            "no such update within {within:?}; the last: {}",
            got.last()
                .map_or(String::from("none"), |v| v["status"].to_string())
        );
    }
}

/// An update as the whole state it stands for: a delta's patch (`{"base": N, "patch":
/// ...}`) applied to the page's data so far (`data`), as `live.js` applies it, and put
/// in `page`; a whole state's `page` kept as the data so far.
pub fn whole(mut update: Value, data: &mut Option<Value>) -> Value {
    if let Some(p) = update.get("patch") {
        let old = data.take().expect("a delta follows a whole state");
        let new = patched(&old, p);
        update["page"] = new.clone();
        *data = Some(new);
    } else if !update["page"].is_null() {
        *data = Some(update["page"].clone());
    }
    update
}

/// `old` changed by the patch `p` (the format is `src/run/serve/delta.rs`'s).
pub fn patched(old: &Value, p: &Value) -> Value {
    let o = p.as_object().expect("a patch node is an object");
    if let Some(v) = o.get("$r") {
        return v.clone();
    }
    if let Some(changed) = o.get("$o").and_then(Value::as_object) {
        let mut out = old.as_object().cloned().expect("an object to patch");
        for (k, q) in changed {
            if q.get("$x").is_some() {
                out.remove(k);
            } else {
                let was = out.get(k).cloned().unwrap_or(Value::Null);
                out.insert(k.clone(), patched(&was, q));
            }
        }
        return Value::Object(out);
    }
    let mut arr = old.as_array().cloned().expect("an array to patch");
    if let Some(steps) = o.get("$d").and_then(Value::as_array) {
        let (mut out, mut at) = (Vec::new(), 0usize);
        for step in steps {
            match step {
                Value::Array(new) => out.extend(new.iter().cloned()),
                n => match n.as_i64().expect("a count") {
                    k if k > 0 => {
                        out.extend(arr[at..at + k as usize].iter().cloned());
                        at += k as usize;
                    }
                    k => at += k.unsigned_abs() as usize,
                },
            }
        }
        return Value::Array(out);
    }
    if let Some(n) = o.get("$s").and_then(Value::as_u64) {
        arr.drain(..n as usize);
        arr.extend(o["$a"].as_array().cloned().expect("new items"));
        return Value::Array(arr);
    }
    for (i, q) in o["$e"].as_object().expect("a patch of items") {
        let i: usize = i.parse().expect("an index");
        arr[i] = patched(&arr[i], q);
    }
    Value::Array(arr)
}

/// The state an update says the run is in.
pub fn state(update: &Value) -> &str {
    update["status"]["state"].as_str().unwrap_or("")
}

/// An event stream read only at the end.
pub struct Raw {
    pub(super) stream: TcpStream,
}

impl Raw {
    /// Every update sent so far: read until nothing more comes for `quiet`.
    pub fn read_all(mut self, quiet: Duration) -> Vec<Value> {
        self.stream.set_read_timeout(Some(quiet)).ok();
        let mut all = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = self.stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        let mut data = None;
        String::from_utf8_lossy(&all)
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .map(|v| whole(v, &mut data))
            .collect()
    }
}
