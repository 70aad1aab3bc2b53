//! Tests of [`super`]: which event a viewer is sent, whatever it skipped, and the
//! newest census's age said again.

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

/// The status of run `run` in `state`.
fn run(state: State, run: u64) -> Status {
    Status {
        state,
        run,
        ..status()
    }
}

/// Page data `n` (a column of 40 numbers from `n`).
fn data(n: u64) -> Value {
    json!({ "t": (n..n + 40).collect::<Vec<_>>() })
}

fn page(data: &Value) -> Arc<Page> {
    Arc::new(Page {
        data: data.to_string(),
        ..Page::default()
    })
}

/// The update after `latest` with `status` and the page of `data`, which it brings if
/// `fresh`.
fn after(
    latest: &Update,
    status: &Status,
    data: &Value,
    fresh: bool,
    deltas: &mut Deltas,
) -> Update {
    Update::after(latest, status, Some(page(data)), fresh, deltas)
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
/// (whose whole state carries none), is not sent the patch of the skipped page but
/// given the newest page whole: from its stream's second event on, a viewer holds
/// the newest page after every update it takes (its first event, a whole state
/// without a page, leaves it the page its tab loaded). Not while a new run waits
/// for its first census: the page is the last run's.
#[test]
fn a_viewer_is_sent_no_patch_of_a_page_it_skipped() {
    // Some pages (a column that grows at its end, and drops its oldest items), some
    // updates of the status only.
    let pages: Vec<Option<Value>> = [1, 2, 0, 3, 0, 0, 4, 5, 0, 6]
        .iter()
        .map(|&n: &u64| (n > 0).then(|| json!({ "t": (n * 3..n * 3 + 40).collect::<Vec<_>>() })))
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
    for state in [State::Live, State::Ended, State::Waiting] {
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
            let mut events = 0;
            for (i, update) in updates.iter().enumerate().skip(1) {
                if taken & (1 << (i - 1)) == 0 {
                    continue;
                }
                let event = json(&update.event_for(&mut sent));
                events += 1;
                let at = format!("{state:?}, updates taken: {taken:b}, at {i}");
                if let Some(p) = event.get("patch") {
                    let old = data.as_ref().expect("a patch follows a page");
                    data = Some(apply(old, p));
                } else if let Some(p) = event.get("page") {
                    assert!(pages[i - 1].is_some() || state != State::Waiting, "{at}");
                    assert!(pages[i - 1].is_some() || events > 1, "{at}");
                    data = Some(p.clone());
                }
                if pages[i - 1].is_some() || (events > 1 && state != State::Waiting) {
                    assert_eq!(data.as_ref(), Some(newest[i - 1]), "{at}");
                }
            }
        }
    }
}

/// At the run's end: the update that says so at once gives no viewer the live
/// page it missed (the whole run's page follows); a later one gives a viewer that
/// skipped the whole run's page that page. A stream's first event gives none.
#[test]
fn a_viewer_that_skipped_the_whole_runs_page_is_given_it() {
    let mut deltas = Deltas::default();
    let (live, ended) = (
        status(),
        Status {
            state: State::Ended,
            ..status()
        },
    );
    let first = after(&Update::none(), &live, &data(1), true, &mut deltas);
    let second = after(&first, &live, &data(2), true, &mut deltas);
    let said = after(&second, &ended, &data(2), false, &mut deltas).before_its_page();
    let whole = after(&said, &ended, &data(3), true, &mut deltas);
    let later = after(&whole, &ended, &data(3), false, &mut deltas);
    let holds_first = || Sent { seq: 1, page: 1 };
    assert!(json(&said.event_for(&mut holds_first()))
        .get("page")
        .is_none());
    for update in [&whole, &later] {
        assert_eq!(json(&update.event_for(&mut holds_first()))["page"], data(3));
    }
    let mut sent = holds_first();
    let _ = said.event_for(&mut sent);
    assert_eq!(json(&later.event_for(&mut sent))["page"], data(3));
    assert_eq!(later.event_for(&mut Sent::default()), later.full);
    assert!(json(&later.full).get("page").is_none());
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
    let first = after(
        &Update::none(),
        &quiet(State::Live, 3.0),
        &data,
        true,
        &mut deltas,
    );
    let second = after(&first, &quiet(State::Live, 3.0), &data, false, &mut deltas);
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
        let update = after(&first, &status, &data, false, &mut deltas);
        assert_eq!(update.event_for(&mut Sent::default()), update.full);
        let delta = update.delta.as_ref().expect("a status-only delta");
        assert_eq!(&update.event_for(&mut Sent { seq: 1, page: 1 }), delta);
    }
}

/// A run's whole run's page is never skipped by a viewer that was following, though the
/// next run's updates come within a millisecond (a socket's next run refused at once);
/// and no page of one run is given with another run's status.
#[test]
fn a_runs_end_page_is_never_skipped_and_no_page_crosses_runs() {
    let mut deltas = Deltas::default();
    let live = after(
        &Update::none(),
        &run(State::Live, 1),
        &data(1),
        true,
        &mut deltas,
    );
    let end = after(&live, &run(State::Ended, 1), &data(2), true, &mut deltas);
    let said = after(&end, &run(State::Closed, 2), &data(2), false, &mut deltas).before_its_page();
    let next = after(&said, &run(State::Closed, 2), &data(2), false, &mut deltas);
    for update in [&said, &next] {
        let mut sent = Sent { seq: 1, page: 1 };
        let first = json(&update.event_for(&mut sent));
        assert_eq!((first["seq"].as_u64(), &first["page"]), (Some(2), &data(2)));
        assert_eq!(first["status"]["run"], 1);
        let then = json(&update.event_for(&mut sent));
        assert_eq!(then["status"]["run"], 2);
        assert!(
            then.get("page").is_none() && then.get("patch").is_none(),
            "{then}"
        );
    }
    // A live run 2 before its first page (run 1 cut short, no page of its end): run
    // 1's newest page, which the viewer skipped, is not given with run 2's status.
    let skipped = after(&live, &run(State::Live, 1), &data(3), true, &mut deltas);
    let live2 = after(&skipped, &run(State::Live, 2), &data(3), false, &mut deltas);
    let event = json(&live2.event_for(&mut Sent { seq: 1, page: 1 }));
    assert!(event.get("page").is_none(), "{event}");
    // A stream's first event is this update's whole state.
    assert_eq!(next.event_for(&mut Sent::default()), next.full);
}

/// A stream that takes up again after an update its tab had (a reconnection, or a tab
/// that gave its stream back while hidden) is given the newest page whole, never a
/// patch of a page it may not hold, and a run's whole run's page it skipped; a new
/// stream's first event gives no page (its tab loaded the newest), and a number past the
/// newest update (not this server's) is a new stream's.
#[test]
fn a_stream_that_takes_up_again_is_given_the_newest_page() {
    let mut deltas = Deltas::default();
    let first = after(&Update::none(), &status(), &data(1), true, &mut deltas);
    let second = after(&first, &status(), &data(2), true, &mut deltas);
    let quiet = after(&second, &status(), &data(2), false, &mut deltas);
    for update in [&second, &quiet] {
        let event = json(&update.event_for(&mut Sent::resuming(Some(1), quiet.seq)));
        assert_eq!(event["page"], data(2), "{event}");
        assert!(event.get("patch").is_none(), "{event}");
    }
    // Made once for every such viewer of the update, not once a viewer.
    let [a, b] = [0, 1].map(|_| quiet.event_for(&mut Sent::resuming(Some(1), quiet.seq)));
    assert!(a == b && a.as_ptr() == b.as_ptr());
    let fresh = json(&quiet.event_for(&mut Sent::resuming(None, quiet.seq)));
    assert!(fresh.get("page").is_none(), "{fresh}");
    let elsewhere = Sent::resuming(Some(quiet.seq + 1), quiet.seq);
    assert_eq!(quiet.event_for(&mut elsewhere.clone()), quiet.full);
    // Resumed at the newest update, the stream waits for the next: it has this one.
    assert_eq!(Sent::resuming(Some(quiet.seq), quiet.seq).seq, quiet.seq);
    // The run ended while the tab was hidden, and the next one waits for its program:
    // the end's page first, then the wait, which brings none.
    let end = after(&quiet, &run(State::Ended, 1), &data(3), true, &mut deltas);
    let waits = after(&end, &run(State::Waiting, 2), &data(3), false, &mut deltas);
    let mut sent = Sent::resuming(Some(2), waits.seq);
    let told = json(&waits.event_for(&mut sent));
    assert_eq!(
        (&told["page"], &told["status"]["run"]),
        (&data(3), &json!(1))
    );
    let then = json(&waits.event_for(&mut sent));
    assert_eq!(then["status"]["state"], "waiting", "{then}");
    assert!(then.get("page").is_none() && then.get("patch").is_none());
    // What a new stream is sent then: the wait, and no page (the bug this mends: a tab
    // that came back with a new stream kept its live chart).
    let fresh = json(&waits.event_for(&mut Sent::default()));
    assert!(fresh.get("page").is_none(), "{fresh}");
}
