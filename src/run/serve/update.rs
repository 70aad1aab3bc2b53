//! One state of the page as sent to viewers ([`Update`]), and which of its events a
//! viewer gets ([`Sent`]): the patch of the update before when the viewer has that
//! update and its page, else the whole state.
//!
//! A viewer that reads slowly skips updates, and the whole state of an update that did
//! not change the page carries no page: such a viewer may still hold an older page than
//! the one the next patch was made against. It is sent whole states until an update
//! brings a page, never a patch of a page it was not given.
//!
//! An update is made when the run moves, and sent to a viewer when it comes: a tab
//! opened, or a stream that reconnected, while the program is quiet is sent an update
//! made long before. Its status then says again how long ago the newest census was
//! read, as of when it is sent ([`Update::event_for`]); else the page said "newest
//! census 0 s ago" of a program quiet for a minute.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;

use super::delta::{event, Deltas, STATUS_END};
use super::status::{State, Status};
use crate::paint::html::Page;

/// One state of the page, as sent to viewers.
pub(super) struct Update {
    pub(super) seq: u64,
    /// The update that brought the newest page (`seq` when this one did; 0: none yet).
    page_from: u64,
    /// That of the update before: the page this one's patch was made against.
    base: u64,
    /// The server-sent event of the whole state.
    pub(super) full: Bytes,
    /// The event of what changed since update `seq - 1`, for a viewer that has it.
    pub(super) delta: Option<Bytes>,
    /// The newest page (the page a new viewer is given).
    pub(super) page: Option<Arc<Page>>,
    /// That page as HTML, made when a viewer first asks for it.
    pub(super) html: OnceLock<Bytes>,
    /// The status the events end with, and its JSON there.
    status: Option<(Status, String)>,
}

/// How much older than the status says an update may be when it is sent before its
/// status is said again (the page shows whole seconds).
const STALE_AFTER: f64 = 0.5;

/// What a viewer's stream was sent: the last update, and the update whose page it
/// holds (0: none).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Sent {
    pub(super) seq: u64,
    page: u64,
}

impl Update {
    /// The state before the first update: nothing sent yet.
    pub(super) fn none() -> Update {
        Update {
            seq: 0,
            page_from: 0,
            base: 0,
            full: Bytes::new(),
            delta: None,
            page: None,
            html: OnceLock::new(),
            status: None,
        }
    }

    /// The update after `latest`: `status`, and the newest `page`, which this update
    /// brings if `fresh_page`; its patch made by `deltas`.
    pub(super) fn after(
        latest: &Update,
        status: &Status,
        page: Option<Arc<Page>>,
        fresh_page: bool,
        deltas: &mut Deltas,
    ) -> Update {
        let seq = latest.seq + 1;
        let shown = page.as_deref().filter(|_| fresh_page);
        // The run's section (its picture, a megabyte on a large run) only with the first
        // page: a viewer given a page since has it, and one that missed it reloads.
        let first = latest.page.is_none();
        let json = serde_json::to_string(status).unwrap_or_else(|_| String::from("null"));
        let full = Bytes::from(event(seq, &json, shown, first));
        let delta = deltas.next(seq, &json, shown, status.run).map(Bytes::from);
        Update {
            seq,
            page_from: if shown.is_some() {
                seq
            } else {
                latest.page_from
            },
            base: latest.page_from,
            full,
            delta,
            page,
            html: OnceLock::new(),
            status: Some((status.clone(), json)),
        }
    }

    /// The event a viewer that was sent `sent` gets, which `sent` then says: the delta
    /// when it follows on and holds the page the patch was made against, else the
    /// whole state — with the newest page when this update brought none and the
    /// viewer skipped the one that did, while the run is live (else its chart stayed
    /// the older one until the next page; at the run's end the whole run's page
    /// follows at once).
    pub(super) fn event_for(&self, sent: &mut Sent) -> Bytes {
        let follows = sent.seq + 1 == self.seq && sent.page == self.base;
        let brought = self.page_from == self.seq;
        let (event, with_page) = match &self.delta {
            Some(delta) if follows => (delta.clone(), brought),
            _ => match self.page_missed_by(sent) {
                Some(event) => (event, true),
                None => (self.full.clone(), brought),
            },
        };
        sent.seq = self.seq;
        if with_page {
            sent.page = self.page_from;
        }
        self.said_now(event)
    }

    /// The whole state with the newest page, for a viewer that was sent `sent` and
    /// does not hold it, when this update brought no page and the run is live.
    fn page_missed_by(&self, sent: &Sent) -> Option<Bytes> {
        let (status, json) = self.status.as_ref()?;
        let missed = self.page_from != self.seq && sent.page != self.page_from;
        if !missed || status.state != State::Live {
            return None;
        }
        let page = self.page.as_deref()?;
        Some(Bytes::from(event(self.seq, json, Some(page), false)))
    }

    /// `event` with its status saying how long ago the newest census was read as of
    /// now, when that has grown since the update was made (the run is live, and quiet).
    fn said_now(&self, event: Bytes) -> Bytes {
        let Some((status, json)) = &self.status else {
            return event;
        };
        let (Some(then), Some(now)) = (status.since_newest, status.clock.since()) else {
            return event;
        };
        if status.state != State::Live || now - then < STALE_AFTER {
            return event;
        }
        let Some(head) = event.len().checked_sub(json.len() + STATUS_END.len()) else {
            return event;
        };
        if !event[head..].starts_with(json.as_bytes()) {
            return event;
        }
        let mut aged = status.clone();
        aged.since_newest = Some(now);
        let Ok(json) = serde_json::to_string(&aged) else {
            return event;
        };
        let mut bytes = Vec::with_capacity(head + json.len() + STATUS_END.len());
        bytes.extend_from_slice(&event[..head]);
        bytes.extend_from_slice(json.as_bytes());
        bytes.extend_from_slice(STATUS_END);
        Bytes::from(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::super::delta::tests::apply;
    use super::super::status::{Arrivals, State};
    use super::*;
    use serde_json::{json, Value};

    fn status() -> Status {
        Status {
            state: State::Live,
            message: String::new(),
            run: 1,
            censuses: 0,
            newest: None,
            axis: "elapsed",
            notices: Vec::new(),
            source: String::from("run.hp"),
            since_newest: None,
            gap: None,
            kept: String::new(),
            kept_bytes: 0,
            clock: Arrivals::default(),
        }
    }

    fn page(data: &Value) -> Arc<Page> {
        Arc::new(Page {
            data: data.to_string(),
            ..Page::default()
        })
    }

    /// The JSON of an event.
    fn json(event: &[u8]) -> Value {
        let text = std::str::from_utf8(event).expect("UTF-8");
        let line = (text.lines().find_map(|l| l.strip_prefix("data: "))).expect("data");
        serde_json::from_str(line).expect("JSON")
    }

    /// A viewer that was sent the update before gets the patch; one that fell behind (or
    /// is new) the whole state.
    #[test]
    fn a_viewer_behind_gets_the_whole_state() {
        let update = Update {
            seq: 7,
            page_from: 7,
            base: 4,
            full: Bytes::from_static(b"whole"),
            delta: Some(Bytes::from_static(b"patch")),
            ..Update::none()
        };
        assert_eq!(update.event_for(&mut Sent { seq: 6, page: 4 }), "patch");
        for seq in [0, 3, 5] {
            assert_eq!(update.event_for(&mut Sent { seq, page: 4 }), "whole");
        }
        // Sent update 6, but not the page of update 4 (it skipped it).
        assert_eq!(update.event_for(&mut Sent { seq: 6, page: 2 }), "whole");
        let no_patch = Update {
            delta: None,
            ..update
        };
        assert_eq!(no_patch.event_for(&mut Sent { seq: 6, page: 4 }), "whole");
    }

    /// Whatever updates a viewer skips, every patch it is sent applies to the page it
    /// holds: one that skipped a page, then was sent an update that changed no page
    /// (whose whole state carries none), is not sent the patch of the skipped page.
    /// While the run is live, that update brings it the newest page instead: after
    /// every update it takes, a viewer holds the newest page. At the run's end (the
    /// whole run's page follows) it gets the whole state as made.
    #[test]
    fn a_viewer_is_sent_no_patch_of_a_page_it_skipped() {
        // Some pages (a column that grows at its end, and drops its oldest items), some
        // updates of the status only.
        let pages: Vec<Option<Value>> = [1, 2, 0, 3, 0, 0, 4, 5, 0, 6]
            .iter()
            .map(|&n: &u64| {
                (n > 0).then(|| json!({ "t": (n * 3..n * 3 + 40).collect::<Vec<_>>() }))
            })
            .collect();
        let newest: Vec<&Value> = (1..=pages.len())
            .map(|i| {
                pages[..i]
                    .iter()
                    .rev()
                    .find_map(Option::as_ref)
                    .expect("one")
            })
            .collect();
        for state in [State::Live, State::Ended] {
            let status = Status { state, ..status() };
            let mut deltas = Deltas::default();
            let mut updates = vec![Update::none()];
            let mut page_so_far = None;
            for p in &pages {
                if let Some(p) = p {
                    page_so_far = Some(page(p));
                }
                let latest = updates.last().expect("one");
                let next = Update::after(
                    latest,
                    &status,
                    page_so_far.clone(),
                    p.is_some(),
                    &mut deltas,
                );
                updates.push(next);
            }
            let patches = (updates.iter()).filter(|u| {
                u.delta
                    .as_ref()
                    .is_some_and(|d| json(d).get("patch").is_some())
            });
            assert!(patches.count() >= 4, "the pages are sent as patches");
            // Every choice of the updates taken.
            for taken in 0u32..1 << pages.len() {
                let (mut sent, mut data) = (Sent::default(), None::<Value>);
                for (i, update) in updates.iter().enumerate().skip(1) {
                    if taken & (1 << (i - 1)) == 0 {
                        continue;
                    }
                    let event = json(&update.event_for(&mut sent));
                    let at = format!("{state:?}, updates taken: {taken:b}, at {i}");
                    if let Some(p) = event.get("patch") {
                        let old = data.as_ref().expect("a patch follows a page");
                        data = Some(apply(old, p));
                    } else if let Some(p) = event.get("page") {
                        assert!(pages[i - 1].is_some() || state == State::Live, "{at}");
                        data = Some(p.clone());
                    } else {
                        assert!(pages[i - 1].is_none(), "{at}");
                        assert!(
                            state != State::Live || data.as_ref() == Some(newest[i - 1]),
                            "{at}"
                        );
                        continue;
                    }
                    assert_eq!(data.as_ref(), Some(newest[i - 1]), "{at}");
                }
            }
        }
    }

    /// A viewer sent an update made while the program is quiet (a tab opened, a
    /// stream reconnected) is told how long ago the newest census was read as of then,
    /// whole state or patch; an update sent when made, or of a run that is not live, is
    /// sent as made.
    #[test]
    fn an_update_sent_late_says_the_newest_census_age_as_of_then() {
        let mut deltas = Deltas::default();
        let data = json!({ "t": (0..40).collect::<Vec<_>>() });
        let quiet = |state, ago| Status {
            state,
            since_newest: Some(0.2),
            clock: Arrivals::read_ago(ago),
            ..status()
        };
        let first = Update::after(
            &Update::none(),
            &quiet(State::Live, 3.0),
            Some(page(&data)),
            true,
            &mut deltas,
        );
        let second = Update::after(
            &first,
            &quiet(State::Live, 3.0),
            Some(page(&data)),
            false,
            &mut deltas,
        );
        for (update, sent) in [
            (&first, Sent::default()),
            (&second, Sent { seq: 1, page: 1 }),
        ] {
            let made = json(if sent.seq == 0 {
                &update.full
            } else {
                update.delta.as_ref().expect("a patch")
            });
            let event = update.event_for(&mut sent.clone());
            let told = json(&event);
            let since = told["status"]["since_newest"].as_f64().expect("a number");
            assert!((3.0..4.0).contains(&since), "{since}");
            assert_eq!(made["status"]["since_newest"], 0.2);
            let mut told = told;
            told["status"]["since_newest"] = json!(0.2);
            assert_eq!(told, made, "only the age changes");
            assert!(event.starts_with(b"event: update\nid: ") && event.ends_with(b"}\n\n"));
        }
        // Sent as made: a fresh one, one of a run that ended, one with no census yet.
        for status in [
            quiet(State::Live, 0.2),
            quiet(State::Ended, 3.0),
            Status {
                clock: Arrivals::default(),
                since_newest: None,
                ..status()
            },
        ] {
            let update = Update::after(&first, &status, None, false, &mut deltas);
            assert_eq!(update.event_for(&mut Sent::default()), update.full);
        }
    }
}
