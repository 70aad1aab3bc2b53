//! One state of the page as sent to viewers ([`Update`]), and which of its events a
//! viewer gets ([`Sent`]): the patch of the update before when the viewer has that
//! update and its page, else the whole state.
//!
//! A viewer that reads slowly skips updates, and the whole state of an update that did
//! not change the page carries no page: such a viewer may still hold an older page than
//! the one the next patch was made against. It is sent whole states until an update
//! brings a page, never a patch of a page it was not given; and given the newest page
//! whole, with the next update that brings none, when it skipped it. A run's whole
//! run's page (its end's) is never skipped by a viewer that was following: the next
//! run may begin within a millisecond of the end, and its updates would leave the
//! viewer with the last run's live chart.
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
    /// The whole state with the newest page when this update brought none, made when a
    /// viewer that skipped the page (or a stream that takes up again) first needs it.
    with_page: OnceLock<Bytes>,
    /// The status the events end with, and its JSON there.
    status: Option<(Status, String)>,
    /// The run's end said at once: its whole run's page follows (so a viewer that
    /// missed the newest page is not given the live one now).
    page_follows: bool,
    /// The run whose page [`Update::page`] is.
    page_run: u64,
    /// The newest update that brought a run's whole run's page, which a viewer that
    /// was following is not let skip (a new run may follow within a millisecond).
    last_final: Option<Arc<Final>>,
}

/// The whole state of the update that brought a run's whole run's page.
pub(super) struct Final {
    seq: u64,
    event: Bytes,
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

impl Sent {
    /// A stream that takes up again after update `after` ([`super::routes`]'s
    /// `resumed_after`), `newest` being the newest update: its viewer holds the page of
    /// that update or of an earlier one, it cannot say which, so it is given the newest
    /// page whole (and a run's whole run's page it skipped) rather than a patch; a new
    /// stream's first event would give it no page, and its tab would keep its older
    /// chart. A number past the newest update (not this server's) is a new viewer's.
    pub(super) fn resuming(after: Option<u64>, newest: u64) -> Sent {
        match after {
            Some(seq) if seq <= newest => Sent { seq, page: 0 },
            _ => Sent::default(),
        }
    }
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
            with_page: OnceLock::new(),
            status: None,
            page_follows: false,
            page_run: 0,
            last_final: None,
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
        let finished = matches!(status.state, State::Ended | State::Closed);
        let brought = shown.is_some();
        let last_final = match brought {
            true if finished => Some(Arc::new(Final {
                seq,
                event: full.clone(),
            })),
            _ => latest.last_final.clone(),
        };
        Update {
            seq,
            page_from: if brought { seq } else { latest.page_from },
            base: latest.page_from,
            full,
            delta,
            page,
            html: OnceLock::new(),
            with_page: OnceLock::new(),
            status: Some((status.clone(), json)),
            page_follows: false,
            page_run: if brought { status.run } else { latest.page_run },
            last_final,
        }
    }

    /// This update, which says the run's end before its whole run's page is made.
    pub(super) fn before_its_page(self) -> Update {
        Update {
            page_follows: true,
            ..self
        }
    }

    /// The event a viewer that was sent `sent` gets, which `sent` then says: a run's
    /// whole run's page it would skip, whole (then this update is asked for again);
    /// else the delta when it follows on and holds the page the patch was made
    /// against; else the whole state — with the newest page when this update brought
    /// none and the viewer skipped the one that did (else its chart stayed the older
    /// one until the next page).
    pub(super) fn event_for(&self, sent: &mut Sent) -> Bytes {
        // A viewer that would skip a run's whole run's page is sent it first (the
        // caller asks again for this update).
        if let Some(last) = &self.last_final {
            if sent.seq > 0 && sent.seq < last.seq && last.seq < self.seq {
                *sent = Sent {
                    seq: last.seq,
                    page: last.seq,
                };
                return last.event.clone();
            }
        }
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

    /// The whole state with the newest page, for a viewer that this stream was sent
    /// updates before (a new stream's page is the one its tab loaded) and that skipped
    /// the newest page, when this update brought none. Not a page of another run (a
    /// new run without a page yet), nor while a new run waits for its first census,
    /// nor when the run's end is said before its whole run's page (which follows).
    fn page_missed_by(&self, sent: &Sent) -> Option<Bytes> {
        let (status, json) = self.status.as_ref()?;
        let missed = sent.seq > 0 && self.page_from != self.seq && sent.page != self.page_from;
        let waits = status.state == State::Waiting || self.page_follows;
        if !missed || waits || self.page_run != status.run {
            return None;
        }
        let page = self.page.as_deref()?;
        let whole = || Bytes::from(event(self.seq, json, Some(page), false));
        Some(self.with_page.get_or_init(whole).clone())
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
#[path = "update_tests.rs"]
mod tests;
