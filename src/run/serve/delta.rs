//! The server-sent events of an update: the whole state ([`event`]), and what changed
//! since the update before, for a viewer that has it:
//! a patch of the page's data (JSON) instead of the whole state (481 KB at 2,000
//! censuses: every viewer parsed and applied it, 45–131 ms a time).
//!
//! The patch works on any JSON, so the page keeps one model (the data `--format html`
//! carries) and the script one way to apply it (`live.js`'s `patch`). Each node of a
//! patch is an object with one key:
//!
//! - `{"$r": v}`: the value is `v` now;
//! - `{"$o": {k: patch, …}}`: an object whose keys `k` changed (`{"$x": 1}`: gone);
//! - `{"$s": n, "$a": [v, …]}`: an array whose first `n` items went and whose tail is
//!   new (a run's columns grow at their end, and the newest level of detail drops its
//!   oldest census as it takes a new one);
//! - `{"$e": {"i": patch, …}}`: an array of the same length whose items `i` changed;
//! - `{"$d": [step, …]}`: an array edited from its start: a step is a number of items
//!   kept (a positive number) or dropped (a negative one), or an array of new items (the
//!   drawn samples thinned again as the run grows: most of them stay).
//!
//! A patch never larger than the value it describes: the whole value instead.

use serde_json::{json, Map, Value};

use crate::paint::html::Page;

/// The data of the last page sent, to tell the next one's changes.
#[derive(Default)]
pub(super) struct Deltas {
    /// The run it belongs to, and its data.
    last: Option<(u64, Value)>,
}

impl Deltas {
    /// The event of update `seq` as a change of update `seq - 1`: its status, and its
    /// page's data as a patch of the last one's (`page`: a new page, `None`: the same
    /// page). `None` when a viewer needs the whole state: the first page of a run (it
    /// brings the run's picture), or a page whose data cannot be read.
    pub(super) fn next(
        &mut self,
        seq: u64,
        status: &str,
        page: Option<&Page>,
        run: u64,
    ) -> Option<Vec<u8>> {
        // The page's data becomes the last one's before anything can fail: the next
        // patch is made against it, and `update.rs` counts on viewers holding it.
        let mut json = format!("{{\"seq\":{seq},\"base\":{}", seq - 1);
        if let Some(p) = page {
            let data: Value = match serde_json::from_str(&p.data) {
                Ok(data) => data,
                Err(_) => {
                    self.last = None;
                    return None;
                }
            };
            let last = self.last.replace((run, data));
            let (_, data) = self.last.as_ref()?;
            let (last_run, old) = last?;
            if last_run != run {
                return None;
            }
            let patch = diff(&old, data).unwrap_or_else(|| json!({"$o": {}}));
            let patch = serde_json::to_string(&patch).ok()?;
            // A patch as large as the data is no saving: the whole state instead.
            if patch.len() >= p.data.len() {
                return None;
            }
            let title = serde_json::to_string(&p.title).ok()?;
            json.push_str(&format!(",\"title\":{title},\"patch\":{patch}"));
        }
        Some(with_status_last(seq, json, status))
    }
}

/// The server-sent event of an update: `event: update`, its number, and one line of
/// JSON: the page when it changed (its title and data, and its run's section if
/// `with_section`), and the status (`status`, its JSON).
pub(super) fn event(seq: u64, status: &str, page: Option<&Page>, with_section: bool) -> Vec<u8> {
    let mut json = format!("{{\"seq\":{seq}");
    if let Some(p) = page {
        let text = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""));
        json.push_str(&format!(",\"title\":{}", text(&p.title)));
        if with_section {
            json.push_str(&format!(",\"section\":{}", text(&p.sections)));
        }
        json.push_str(&format!(",\"page\":{}", p.data));
    }
    with_status_last(seq, json, status)
}

/// What ends every update's event: its status, then the end of the event.
pub(super) const STATUS_END: &[u8] = b"}\n\n";

/// The event of update `seq` whose JSON begins `json`, its status (`status`) put last:
/// an update sent after a quiet spell says its status again with the newest census's
/// age as of then (`update.rs`), which is then a cut and an append, not a parse.
fn with_status_last(seq: u64, mut json: String, status: &str) -> Vec<u8> {
    json.push_str(",\"status\":");
    json.push_str(status);
    let mut event = format!("event: update\nid: {seq}\ndata: {json}").into_bytes();
    event.extend_from_slice(STATUS_END);
    event
}

/// The patch that makes `old` into `new` (`None`: they are the same).
pub(super) fn diff(old: &Value, new: &Value) -> Option<Value> {
    if old == new {
        return None;
    }
    Some(match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            let mut changed = Map::new();
            for (key, value) in b {
                match a.get(key) {
                    Some(was) => {
                        if let Some(p) = diff(was, value) {
                            changed.insert(key.clone(), p);
                        }
                    }
                    None => {
                        changed.insert(key.clone(), json!({ "$r": value }));
                    }
                }
            }
            for key in a.keys().filter(|k| !b.contains_key(*k)) {
                changed.insert(key.clone(), json!({"$x": 1}));
            }
            json!({ "$o": changed })
        }
        (Value::Array(a), Value::Array(b)) => match shifted(a, b) {
            Some(gone) => json!({"$s": gone, "$a": &b[a.len() - gone..]}),
            None => {
                // The shortest of: the items that changed (a table's column), the
                // items kept, dropped and added (drawn samples thinned again as the
                // run grows: most stay), the new array (numbers that all moved).
                let mut best = json!({ "$r": new });
                let mut least = json_len(&best);
                let mut consider = |patch: Value| {
                    let len = json_len(&patch);
                    if len < least {
                        (best, least) = (patch, len);
                    }
                };
                if a.len() == b.len() {
                    let changed: Map<String, Value> = (a.iter().zip(b).enumerate())
                        .filter_map(|(i, (x, y))| Some((i.to_string(), diff(x, y)?)))
                        .collect();
                    consider(json!({ "$e": changed }));
                }
                if let Some(edits) = edits(a, b) {
                    consider(json!({ "$d": edits }));
                }
                best
            }
        },
        _ => json!({ "$r": new }),
    })
}

/// How far ahead an item is looked for when two arrays part ([`edits`]).
const LOOK_AHEAD: usize = 64;

/// `b` as an edit of `a`: a list of steps, each a number of items of `a` kept (a
/// positive number), dropped (a negative one), or an array of new items; `None` when
/// the arrays have too little in common for it to pay. Greedy: where they part, the
/// nearer of the two items is looked for within [`LOOK_AHEAD`] items of the other.
fn edits(a: &[Value], b: &[Value]) -> Option<Vec<Value>> {
    let (mut i, mut j) = (0, 0);
    let mut steps: Vec<Value> = Vec::new();
    let mut kept = 0usize;
    let keep = |steps: &mut Vec<Value>, n: usize| {
        if let Some(Value::Number(last)) = steps.last_mut() {
            if let Some(k) = last.as_i64().filter(|k| *k > 0) {
                *last = (k + n as i64).into();
                return;
            }
        }
        steps.push(json!(n));
    };
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            keep(&mut steps, 1);
            kept += 1;
            i += 1;
            j += 1;
            continue;
        }
        let dropped = (a[i..].iter().take(LOOK_AHEAD)).position(|x| *x == b[j]);
        let added = (b[j..].iter().take(LOOK_AHEAD)).position(|y| *y == a[i]);
        match (dropped, added) {
            (Some(d), Some(n)) if d <= n => {
                steps.push(json!(-(d as i64)));
                i += d;
            }
            (Some(d), None) => {
                steps.push(json!(-(d as i64)));
                i += d;
            }
            (_, Some(n)) => {
                steps.push(Value::Array(b[j..j + n].to_vec()));
                j += n;
            }
            (None, None) => {
                steps.push(json!(-1));
                steps.push(Value::Array(vec![b[j].clone()]));
                i += 1;
                j += 1;
            }
        }
    }
    if i < a.len() {
        steps.push(json!(-((a.len() - i) as i64)));
    }
    if j < b.len() {
        steps.push(Value::Array(b[j..].to_vec()));
    }
    (kept * 2 >= b.len()).then_some(steps)
}

/// The length of `v` written as JSON.
fn json_len(v: &Value) -> usize {
    serde_json::to_string(v).map_or(usize::MAX, |s| s.len())
}

/// How many items of `a` went if `b` is the rest of `a` followed by new items (at least
/// one item kept), trying the first few places where `b` could begin.
fn shifted(a: &[Value], b: &[Value]) -> Option<usize> {
    let first = b.first()?;
    (0..a.len())
        .filter(|&k| &a[k] == first)
        .take(8)
        .find(|&k| b.len() >= a.len() - k && a[k..] == b[..a.len() - k])
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The patch applied as `live.js` applies it.
    pub(crate) fn apply(old: &Value, p: &Value) -> Value {
        let o = p.as_object().expect("a patch node");
        if let Some(v) = o.get("$r") {
            return v.clone();
        }
        if let Some(changed) = o.get("$o").and_then(Value::as_object) {
            let mut out = old.as_object().cloned().unwrap_or_default();
            for (k, q) in changed {
                if q.get("$x").is_some() {
                    out.remove(k);
                } else {
                    let was = out.get(k).cloned().unwrap_or(Value::Null);
                    out.insert(k.clone(), apply(&was, q));
                }
            }
            return Value::Object(out);
        }
        let mut arr = old.as_array().cloned().unwrap_or_default();
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
                        k => at += (-k) as usize,
                    },
                }
            }
            return Value::Array(out);
        }
        if let Some(n) = o.get("$s").and_then(Value::as_u64) {
            arr.drain(..n as usize);
            arr.extend(o["$a"].as_array().cloned().unwrap_or_default());
            return Value::Array(arr);
        }
        for (i, q) in o["$e"].as_object().expect("$e") {
            let i: usize = i.parse().expect("an index");
            arr[i] = apply(&arr[i], q);
        }
        Value::Array(arr)
    }

    #[test]
    fn a_patch_makes_the_old_value_the_new_one() {
        let cases = [
            (
                json!({"a": [1, 2, 3], "b": "x"}),
                json!({"a": [1, 2, 3, 4, 5], "b": "x"}),
            ),
            (json!({"a": [1, 2, 3, 4]}), json!({"a": [3, 4, 5]})),
            (
                json!({"v": [[1, 2], [3, 4]]}),
                json!({"v": [[1, 2, 9], [3, 4, 8]]}),
            ),
            (
                json!({"v": [1, 2], "gone": 1}),
                json!({"v": [7, 8, 9], "new": {"x": 1}}),
            ),
            (json!([1, 1, 1, 2]), json!([1, 1, 2, 3])),
            (json!({"n": 1.5}), json!({"n": null})),
            (
                json!((0..200).collect::<Vec<_>>()),
                json!((0..200)
                    .filter(|i| i % 7 != 3)
                    .chain([500, 501])
                    .collect::<Vec<_>>()),
            ),
            (
                json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
                json!([1, 2, 30, 4, 5, 6, 7, 8, 9, 10, 11]),
            ),
        ];
        for (old, new) in cases {
            let p = diff(&old, &new).expect("a change");
            assert_eq!(apply(&old, &p), new, "{old} -> {new} by {p}");
        }
        assert_eq!(diff(&json!({"a": [1]}), &json!({"a": [1]})), None);
    }

    #[test]
    fn a_column_that_grows_is_sent_by_its_new_items() {
        let old: Vec<u64> = (0..1000).collect();
        let new: Vec<u64> = (3..1003).collect();
        let p = diff(&json!({ "t": old }), &json!({ "t": new })).expect("a change");
        assert_eq!(p, json!({"$o": {"t": {"$s": 3, "$a": [1000, 1001, 1002]}}}));
    }
}
