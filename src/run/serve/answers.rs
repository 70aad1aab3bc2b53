//! The answers of the live page's server, once [`super::routes`] has said which: the
//! page, its event stream, the whole run's page to save, a redirect or a refusal. Each
//! is made in the request's own task, and what blocks (making the page's HTML, waiting
//! for the child that makes a save) on tokio's bounded pool of blocking threads: never
//! in the loop that accepts connections, nor on the threads that run the others.
//!
//! An event stream is a task that writes each new update (the change since the last one
//! the viewer was sent, else the whole state) as the viewer takes it. At most
//! [`MAX_VIEWERS`] run at once; one more closes the oldest (its page says so and
//! connects again), so that streams held open and never read cannot keep every viewer
//! out. A stream whose viewer reads nothing is also ended by the write timeout
//! (`deadline.rs`).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Empty, Full};
use hyper::body::{Body, Frame};
use hyper::{Response, StatusCode};
use tokio::sync::{mpsc, Notify};

use super::hub::{lock, Hub};
use super::routes::Route;
use super::update::Sent;

/// Event streams served at once (a browser's tabs share one: `live.js`).
pub(super) const MAX_VIEWERS: usize = 64;
/// Saves waiting at once: they wait for one child making the whole run's page.
pub(super) const MAX_SAVES: usize = 16;
/// A comment line this often keeps a quiet stream open (and finds a viewer gone).
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The content types of the two expositions.
const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The body of every answer.
pub(super) type Answer = Response<BoxBody<Bytes, Infallible>>;

/// What the answers share.
pub(super) struct Answers {
    pub(super) hub: Arc<Hub>,
    /// The page's Content-Security-Policy, sent as a header too.
    csp: String,
    viewers: Viewers,
    saves: AtomicUsize,
}

impl Answers {
    pub(super) fn new(hub: Arc<Hub>) -> Answers {
        let csp = page_policy(&hub.page_html());
        Answers {
            hub,
            csp,
            viewers: Viewers::default(),
            saves: AtomicUsize::new(0),
        }
    }

    /// The answer of `route` (`head`: a HEAD request, whose stream is not started;
    /// `accept`: the request's `Accept`; `resume`: the update after which a stream takes
    /// up again, `routes::resumed_after`).
    pub(super) async fn answer(
        self: &Arc<Self>,
        route: Route,
        head: bool,
        accept: Option<&str>,
        resume: Option<u64>,
    ) -> Answer {
        match route {
            Route::Page => {
                let hub = Arc::clone(&self.hub);
                match tokio::task::spawn_blocking(move || hub.page_html()).await {
                    Ok(html) => self.ok("text/html; charset=utf-8", html),
                    Err(_) => self.refuse(500, "the page could not be made"),
                }
            }
            Route::Events if head => self.ok("text/event-stream; charset=utf-8", Bytes::new()),
            Route::Events => self.stream(resume),
            Route::Save if head => self.save_head(),
            Route::Save => self.save().await,
            Route::Metrics => self.metrics(accept),
        }
    }

    /// The run's newest metrics, made with the page's newest update: OpenMetrics when
    /// the scraper's `Accept` names it (Prometheus's does), else the text format 0.0.4.
    fn metrics(&self, accept: Option<&str>) -> Answer {
        let metrics = self.hub.metrics.get();
        let openmetrics = accept.is_some_and(|a| a.contains("application/openmetrics-text"));
        let (kind, body) = match openmetrics {
            true => (OPENMETRICS, &metrics.openmetrics),
            false => (TEXT_FORMAT, &metrics.text),
        };
        self.ok(kind, Bytes::copy_from_slice(body))
    }

    /// A response with the headers of every answer: not kept, not sniffed, not framed,
    /// no referrer (the address holds the token), the page's policy.
    fn response(&self, code: u16, kind: &str) -> hyper::http::response::Builder {
        Response::builder()
            .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
            .header("Content-Type", kind)
            .header("Cache-Control", "no-store")
            .header("X-Content-Type-Options", "nosniff")
            .header("X-Frame-Options", "DENY")
            .header("Referrer-Policy", "no-referrer")
            .header("Content-Security-Policy", &self.csp)
    }

    fn finish(
        &self,
        builder: hyper::http::response::Builder,
        body: BoxBody<Bytes, Infallible>,
    ) -> Answer {
        // Every header above is valid: the builder cannot fail; if it did, an empty 500.
        builder.body(body).unwrap_or_else(|_| {
            let mut r = Response::new(Empty::new().boxed());
            *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            r
        })
    }

    fn ok(&self, kind: &str, body: Bytes) -> Answer {
        self.finish(self.response(200, kind), Full::new(body).boxed())
    }

    /// A refusal, in words.
    pub(super) fn refuse(&self, code: u16, why: &str) -> Answer {
        let mut builder = self.response(code, "text/plain; charset=utf-8");
        if code == 400 {
            // The body declared is not read: the connection cannot go on.
            builder = builder.header("Connection", "close");
        }
        let text = Bytes::from(format!("hp2ps: {why}\n"));
        self.finish(builder, Full::new(text).boxed())
    }

    pub(super) fn redirect(&self, to: &str) -> Answer {
        let builder = self
            .response(303, "text/plain; charset=utf-8")
            .header("Location", to);
        self.finish(builder, Empty::new().boxed())
    }

    /// The whole run's page, to save: the page `--format html` writes of the run so far
    /// (the record as it stood when the request came, or later).
    async fn save(self: &Arc<Self>) -> Answer {
        // The place is taken and held by a guard at once, so that dropping the guard is
        // the one way a place is given back, on a refusal as after a making.
        let taken = self.saves.fetch_add(1, Ordering::AcqRel);
        let slot = SaveSlot(Arc::clone(self));
        if taken >= MAX_SAVES {
            drop(slot);
            return self.refuse(503, "too many saves of this page at once");
        }
        // Asked now: a page begun from now on holds the run as it stands.
        let asked = self.hub.asked();
        let hub = Arc::clone(&self.hub);
        let made = tokio::task::spawn_blocking(move || {
            // Held by the making, not by this answer: a client that goes away drops the
            // answer at the `await` below, but the making goes on, and counts until it
            // ends (so abandoned saves neither keep their places for ever nor stack up).
            let _slot = slot;
            hub.whole(Some(asked), None)
        })
        .await;
        match made {
            Ok(Ok(whole)) => {
                let page = Bytes::from(whole.page.clone());
                self.finish(self.saved(), Full::new(page).boxed())
            }
            Ok(Err(e)) => self.refuse(500, &e),
            Err(_) => self.refuse(500, "the page could not be made"),
        }
    }

    /// An event stream: its task sends into a channel of one update that the response's
    /// body takes from as hyper writes it.
    fn stream(self: &Arc<Self>, resume: Option<u64>) -> Answer {
        let (tx, rx) = mpsc::channel(1);
        let slot = self.viewers.join();
        let hub = Arc::clone(&self.hub);
        let answers = Arc::clone(self);
        tokio::spawn(async move {
            feed(&hub, &tx, &slot.gone, resume).await;
            answers.viewers.leave(slot.id);
        });
        let builder = self.response(200, "text/event-stream; charset=utf-8");
        self.finish(builder, Events { rx }.boxed())
    }
}

impl Answers {
    /// The head of a save's answer: a page, as an attachment of the run's name.
    fn saved(&self) -> hyper::http::response::Builder {
        let file = super::saved::saved_name(&self.hub.name);
        let disposition = format!("attachment; filename=\"{file}\"");
        self.response(200, "text/html; charset=utf-8")
            .header("Content-Disposition", disposition)
    }

    /// A HEAD of the save: its head, without making the page (a child's work, which a
    /// client looping on HEAD would have had done for nothing). The page's length is
    /// known only once it is made, so none is said (RFC 9110, 9.3.2 allows it): the
    /// body is one of no known length, which the HEAD answer does not send.
    fn save_head(&self) -> Answer {
        self.finish(self.saved(), LengthUnknown.boxed())
    }
}

/// A save's place among the [`MAX_SAVES`], given back when dropped.
struct SaveSlot(Arc<Answers>);

impl Drop for SaveSlot {
    fn drop(&mut self) {
        self.0.saves.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The page's Content-Security-Policy (from its `<meta>`), which the header repeats,
/// and that no page may frame this one.
fn page_policy(html: &[u8]) -> String {
    let text = String::from_utf8_lossy(html);
    let meta = "http-equiv=\"Content-Security-Policy\" content=\"";
    let policy = (text.split_once(meta))
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or("default-src 'none'", |(policy, _)| policy);
    format!("{policy}; frame-ancestors 'none'")
}

/// Sends updates to one viewer until it goes, its stream is closed to make room, or the
/// server ends.
async fn feed(hub: &Hub, tx: &mpsc::Sender<Bytes>, gone: &Notify, resume: Option<u64>) {
    let mut updates = hub.watch();
    if !send(tx, Bytes::from_static(b"retry: 2000\n\n"), gone).await {
        return;
    }
    let mut sent = Sent::resuming(resume, updates.borrow().seq);
    loop {
        let update = Arc::clone(&updates.borrow_and_update());
        if update.seq > sent.seq {
            // The newest update only: one that reads slowly skips what it missed.
            let event = update.event_for(&mut sent);
            if !send(tx, event, gone).await {
                return;
            }
            continue;
        }
        tokio::select! {
            changed = updates.changed() => if changed.is_err() { return },
            () = tokio::time::sleep(KEEPALIVE) => {
                if !send(tx, Bytes::from_static(b": still here\n\n"), gone).await {
                    return;
                }
            }
            () = gone.notified() => return closed(tx),
            () = tx.closed() => return,
        }
    }
}

/// Sends `bytes` once the viewer has taken the last; false if it went, or its stream
/// was closed meanwhile.
async fn send(tx: &mpsc::Sender<Bytes>, bytes: Bytes, gone: &Notify) -> bool {
    tokio::select! {
        sent = tx.send(bytes) => sent.is_ok(),
        () = gone.notified() => {
            closed(tx);
            false
        }
    }
}

/// Tells a viewer its stream was closed to make room (if it can take one more event).
fn closed(tx: &mpsc::Sender<Bytes>) {
    let _ = tx.try_send(Bytes::from_static(b"event: closed\ndata: {}\n\n"));
}

/// The body of an event stream: what its task sends.
struct Events {
    rx: mpsc::Receiver<Bytes>,
}

impl Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.rx.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b))))
    }
}

/// A body that says nothing of its length and has no data: the HEAD of an answer
/// whose length is known only once made. (`Empty` would say a length of 0.)
struct LengthUnknown;

impl Body for LengthUnknown {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(None)
    }
}

/// The event streams open, oldest first: each one's number and what closes it.
type Open = VecDeque<(u64, Arc<Notify>)>;

/// The event streams open, and the number of the last one.
#[derive(Default)]
struct Viewers {
    open: Mutex<(u64, Open)>,
}

/// A viewer's place among them.
struct Slot {
    id: u64,
    /// Told when the stream must close to make room.
    gone: Arc<Notify>,
}

impl Viewers {
    /// A place for a new stream: the oldest is closed when all are taken.
    fn join(&self) -> Slot {
        let mut open = lock(&self.open);
        let (next, streams) = &mut *open;
        if streams.len() >= MAX_VIEWERS {
            if let Some((_, oldest)) = streams.pop_front() {
                oldest.notify_one();
            }
        }
        *next += 1;
        let gone = Arc::new(Notify::new());
        streams.push_back((*next, Arc::clone(&gone)));
        Slot { id: *next, gone }
    }

    fn leave(&self, id: u64) {
        lock(&self.open).1.retain(|(i, _)| *i != id);
    }
}
