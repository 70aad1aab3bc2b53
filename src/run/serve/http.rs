//! The live page's HTTP server: tiny_http parses the requests; this module decides
//! which to answer. Only requests whose path starts with the run's random token are
//! answered (the address printed holds it), and, on a loopback address, only those
//! whose `Host` is a loopback name, so that a web page in the same browser cannot reach
//! the server through a name of its own resolving to 127.0.0.1 (DNS rebinding). Three
//! things are served, and no file: the page (`TOKEN/`), its updates as server-sent
//! events (`TOKEN/events`), and the whole run's page to save (`TOKEN/save`).
//!
//! An event stream has a thread of its own, which writes each update and flushes it (the
//! response is written through tiny_http's raw writer: its streamed bodies are buffered
//! until a kilobyte has gathered). At most [`MAX_VIEWERS`] streams run at once.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, StatusCode};

use super::hub::Hub;

/// Event streams served at once (tabs, and machines through ssh tunnels).
const MAX_VIEWERS: usize = 64;
/// Saves waiting at once: they wait for one child making the whole run's page.
const MAX_SAVES: usize = 16;
/// A comment line this often keeps a quiet stream open (and finds a viewer gone).
const KEEPALIVE: Duration = Duration::from_secs(15);

/// A listening server.
pub(super) struct Server {
    http: tiny_http::Server,
    addr: SocketAddr,
    token: String,
}

impl Server {
    /// Listens on `ip:port` (0: a free port), with a new random token.
    pub(super) fn bind(ip: IpAddr, port: u16) -> Result<Server, String> {
        let http = tiny_http::Server::http(SocketAddr::new(ip, port))
            .map_err(|e| format!("cannot listen on {}: {e}", SocketAddr::new(ip, port)))?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| String::from("the server has no IP address"))?;
        let mut random = [0u8; 16];
        getrandom::fill(&mut random).map_err(|e| format!("no random token: {e}"))?;
        let token = random.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Server { http, addr, token })
    }

    /// The page's address, with its token.
    pub(super) fn url(&self) -> String {
        let host = match self.addr.ip() {
            ip if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_string(),
            ip if ip.is_unspecified() => "[::1]".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        format!("http://{host}:{}/{}/", self.addr.port(), self.token)
    }

    /// Answers requests for ever.
    pub(super) fn serve(self, hub: Arc<Hub>) {
        let viewers = Arc::new(AtomicUsize::new(0));
        let saves = Arc::new(AtomicUsize::new(0));
        let loopback = self.addr.ip().is_loopback();
        for request in self.http.incoming_requests() {
            let answer = route(&request, &self.token, loopback);
            match answer {
                Route::Page => respond(request, page(&hub)),
                Route::Events if viewers.load(Ordering::Acquire) >= MAX_VIEWERS => respond(
                    request,
                    refuse(503, "too many viewers of this page at once"),
                ),
                Route::Events => {
                    let (hub, viewers) = (Arc::clone(&hub), Arc::clone(&viewers));
                    viewers.fetch_add(1, Ordering::AcqRel);
                    std::thread::spawn(move || {
                        stream(request, &hub);
                        viewers.fetch_sub(1, Ordering::AcqRel);
                    });
                }
                Route::Save if saves.load(Ordering::Acquire) >= MAX_SAVES => {
                    respond(request, refuse(503, "too many saves of this page at once"))
                }
                Route::Save => {
                    // Asked now: a page begun from now on holds the run as it stands.
                    let asked = hub.asked();
                    let (hub, saves) = (Arc::clone(&hub), Arc::clone(&saves));
                    saves.fetch_add(1, Ordering::AcqRel);
                    std::thread::spawn(move || {
                        respond(request, save(&hub, asked));
                        saves.fetch_sub(1, Ordering::AcqRel);
                    });
                }
                Route::Redirect(to) => {
                    let response = Response::empty(StatusCode(303));
                    respond(request, with(response, &[("Location", &to)]));
                }
                Route::Refused(code, why) => respond(request, refuse(code, why)),
            }
        }
    }
}

/// What a request gets.
#[derive(Debug, PartialEq)]
enum Route {
    Page,
    Events,
    Save,
    Redirect(String),
    Refused(u16, &'static str),
}

fn route(request: &Request, token: &str, loopback: bool) -> Route {
    let host = (request.headers().iter())
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_string());
    route_of(
        request.method(),
        request.url(),
        host.as_deref(),
        token,
        loopback,
    )
}

/// The route of a request: its method, path, `Host` header, against the token and
/// whether the server listens on a loopback address.
fn route_of(method: &Method, url: &str, host: Option<&str>, token: &str, loopback: bool) -> Route {
    if !host.is_some_and(|h| host_allowed(h, loopback)) {
        return Route::Refused(
            403,
            "this server answers to its own address only (the Host of the request is another)",
        );
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    let mut parts = path.strip_prefix('/').unwrap_or(path).splitn(2, '/');
    let first = parts.next().unwrap_or("");
    if !same_token(first, token) {
        return Route::Refused(
            403,
            "this page needs the address hp2ps --serve printed, with its token",
        );
    }
    if !matches!(method, Method::Get | Method::Head) {
        return Route::Refused(405, "only GET is answered");
    }
    match parts.next() {
        None => Route::Redirect(format!("/{token}/")),
        Some("") => Route::Page,
        Some("events") => Route::Events,
        Some("save") => Route::Save,
        Some(_) => Route::Refused(404, "the server serves the page and its updates, no file"),
    }
}

/// Whether the token is `token`, compared in a time that does not tell how much of it
/// was right.
fn same_token(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && (given.bytes().zip(token.bytes())).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

/// Whether a request's `Host` may be answered: on a loopback address only a loopback
/// name or address (any port: an ssh tunnel's), elsewhere any.
fn host_allowed(host: &str, loopback: bool) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        },
    };
    if name.is_empty() {
        return false;
    }
    if !loopback {
        return true;
    }
    let name = name.to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn with<R: std::io::Read>(mut response: Response<R>, headers: &[(&str, &str)]) -> Response<R> {
    for (name, value) in headers {
        if let Some(h) = header(name, value) {
            response.add_header(h);
        }
    }
    response
}

/// The headers of everything served: not kept, not sniffed, not framed, no referrer
/// (the address holds the token).
const COMMON: [(&str, &str); 4] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
];

fn respond<R: std::io::Read>(request: Request, response: Response<R>) {
    // Every answer's length is known: sent with it, not in chunks.
    let response = with(response, &COMMON).with_chunked_threshold(usize::MAX);
    // A viewer gone before its answer: nothing to do.
    let _ = request.respond(response);
}

fn refuse(code: u16, why: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let text = format!("hp2ps: {why}\n");
    with(
        Response::from_data(text.into_bytes()).with_status_code(code),
        &[("Content-Type", "text/plain; charset=utf-8")],
    )
}

fn page(hub: &Hub) -> Response<std::io::Cursor<Vec<u8>>> {
    with(
        Response::from_data(hub.page_html()),
        &[("Content-Type", "text/html; charset=utf-8")],
    )
}

/// The whole run's page, to save: the page `--format html` writes of the run so far
/// (the record as it stood when the request came, `asked`, or later).
fn save(hub: &Hub, asked: u64) -> Response<std::io::Cursor<Vec<u8>>> {
    match hub.whole(Some(asked)) {
        Ok(whole) => {
            let file = super::saved_name(&hub.name);
            let disposition = format!("attachment; filename=\"{file}\"");
            with(
                Response::from_data(whole.page.clone()),
                &[
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Disposition", &disposition),
                ],
            )
        }
        Err(e) => with(
            Response::from_data(format!("hp2ps: {e}\n").into_bytes()).with_status_code(500),
            &[("Content-Type", "text/plain; charset=utf-8")],
        ),
    }
}

/// The head of an event stream's response, written here (the stream goes through the
/// raw writer): the headers of every answer, and the retry time of the events.
fn stream_head() -> String {
    let mut head = String::from(
        "HTTP/1.1 200 OK\r\n\
         Content-Type: text/event-stream; charset=utf-8\r\n\
         Connection: close\r\n",
    );
    for (name, value) in COMMON {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\nretry: 2000\n\n");
    head
}

/// Sends the page's updates as server-sent events until the viewer goes.
fn stream(request: Request, hub: &Hub) {
    let mut out = request.into_writer();
    let head = stream_head();
    if out
        .write_all(head.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return;
    }
    let mut sent = 0;
    loop {
        let wrote = match hub.newer(sent, KEEPALIVE) {
            Some(update) => {
                sent = update.seq;
                out.write_all(&update.event)
            }
            None => out.write_all(b": still here\n\n"),
        };
        if wrote.and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_the_token_and_a_loopback_host_are_answered() {
        let get = |url: &str, host: Option<&str>| route_of(&Method::Get, url, host, T, true);
        let ok = Some("127.0.0.1:8080");
        assert_eq!(get(&format!("/{T}/"), ok), Route::Page);
        assert_eq!(get(&format!("/{T}/events"), ok), Route::Events);
        assert_eq!(get(&format!("/{T}/save?x=1"), ok), Route::Save);
        assert_eq!(get(&format!("/{T}"), ok), Route::Redirect(format!("/{T}/")));
        for url in [
            "/",
            "/events",
            "/x/",
            &format!("/{}/", &T[1..]),
            &format!("/{T}0/"),
        ] {
            assert!(matches!(get(url, ok), Route::Refused(403, _)), "{url}");
        }
        for path in ["etc/passwd", "../Cargo.toml", "page.html", "events/x"] {
            assert!(
                matches!(get(&format!("/{T}/{path}"), ok), Route::Refused(404, _)),
                "{path}"
            );
        }
        for host in [
            "localhost:1",
            "LOCALHOST",
            "[::1]:9",
            "127.0.0.2:80",
            "a.localhost:3",
        ] {
            assert_eq!(get(&format!("/{T}/"), Some(host)), Route::Page, "{host}");
        }
        for host in [
            None,
            Some("evil.example:8080"),
            Some("127.0.0.1.evil.example"),
            Some(""),
        ] {
            assert!(
                matches!(get(&format!("/{T}/"), host), Route::Refused(403, _)),
                "{host:?}"
            );
        }
        // Bound elsewhere, a name is answered (the token guards the page).
        let far = route_of(
            &Method::Get,
            &format!("/{T}/"),
            Some("box.lan:80"),
            T,
            false,
        );
        assert_eq!(far, Route::Page);
        let post = route_of(&Method::Post, &format!("/{T}/"), ok, T, true);
        assert!(matches!(post, Route::Refused(405, _)));
    }
}
