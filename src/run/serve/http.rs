//! The live page's HTTP server: hyper reads and writes HTTP/1.1 on tokio, with the
//! limits a server that every local process can reach needs; [`super::routes`] decides
//! which requests to answer and [`super::answers`] answers them.
//!
//! The limits (docs/live.md says them to users):
//! - a request's head (its line and headers) of at most [`MAX_HEAD`], read within
//!   [`HEAD_TIMEOUT`], which is also the longest an open connection waits for its next
//!   request; past either, hyper answers 431 or closes;
//! - HTTP/2 and unknown versions are answered 400 by hyper, and closed; a body is
//!   refused (400) unread;
//! - a write the client does not take within `deadline::WRITE_TIMEOUT` (20 s) ends
//!   its connection;
//! - at most [`MAX_CONNECTIONS`] connections at once: one more is answered 503 and
//!   closed at once, without being read;
//! - an error of `accept` (no descriptor left: EMFILE) is waited out, longer each time
//!   up to a second, and said once; the server goes on;
//! - the connections are tasks on two threads, and what blocks is done on a pool of at
//!   most [`BLOCKING_THREADS`]: threads and memory do not grow with the clients.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};

use super::answers::{Answer, Answers};
use super::deadline::Deadline;
use super::hub::Hub;
use super::routes::{decide, is_loopback, resumed_after, Asked, Decision};

/// The most a request's head may take (hyper's smallest buffer is 8 KiB).
pub(super) const MAX_HEAD: usize = 16 * 1024;
/// The longest a request's head may take to come, and an idle connection stay open.
pub(super) const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections at once: well below the usual limit of 1,024 descriptors.
pub(super) const MAX_CONNECTIONS: usize = 256;
/// Threads for what blocks: the saves waiting ([`super::answers::MAX_SAVES`]) and the
/// pages being written.
const BLOCKING_THREADS: usize = 24;
/// Connections being turned away (answered 503) at once; past it they are closed.
const TURNING_AWAY: usize = 64;
/// The 503 of a connection past the cap.
const BUSY: &[u8] =
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
Content-Length: 46\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n\
hp2ps: too many connections at once, try again";

/// A listening server.
pub(super) struct Server {
    listener: std::net::TcpListener,
    addr: SocketAddr,
    token: String,
}

impl Server {
    /// Listens on `ip:port` (0: a free port), with a new random token.
    pub(super) fn bind(ip: IpAddr, port: u16) -> Result<Server, String> {
        let at = SocketAddr::new(ip, port);
        let cannot = |e: std::io::Error| format!("cannot listen on {at}: {e}");
        let listener = std::net::TcpListener::bind(at).map_err(cannot)?;
        listener.set_nonblocking(true).map_err(cannot)?;
        let addr = listener.local_addr().map_err(cannot)?;
        let mut random = [0u8; 16];
        getrandom::fill(&mut random).map_err(|e| format!("no random token: {e}"))?;
        let token = random.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Server {
            listener,
            addr,
            token,
        })
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

    /// Answers requests until it cannot: returns why (the caller ends the run).
    pub(super) fn serve(self, hub: Arc<Hub>) -> String {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(BLOCKING_THREADS)
            .thread_name("http")
            .enable_all()
            .build();
        let runtime = match runtime {
            Ok(runtime) => runtime,
            Err(e) => return format!("the server cannot start: {e}"),
        };
        let loopback = is_loopback(self.addr.ip());
        let answers = Arc::new(Answers::new(hub));
        let site = Arc::new(Site {
            answers,
            token: self.token,
            loopback,
        });
        runtime.block_on(accept(self.listener, site))
    }
}

/// What every connection's task shares.
struct Site {
    answers: Arc<Answers>,
    token: String,
    loopback: bool,
}

/// The accept loop: hands each connection to a task of its own, and does nothing else.
async fn accept(listener: std::net::TcpListener, site: Arc<Site>) -> String {
    let listener = match TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => return format!("the server cannot listen: {e}"),
    };
    let open = Arc::new(AtomicUsize::new(0));
    let away = Arc::new(AtomicUsize::new(0));
    let mut wait = Duration::ZERO;
    loop {
        match listener.accept().await {
            Ok((tcp, _)) => {
                wait = Duration::ZERO;
                if open.load(Ordering::Acquire) >= MAX_CONNECTIONS {
                    turn_away(tcp, &away);
                    continue;
                }
                open.fetch_add(1, Ordering::AcqRel);
                let (site, open) = (Arc::clone(&site), Arc::clone(&open));
                tokio::spawn(async move {
                    connection(tcp, site).await;
                    open.fetch_sub(1, Ordering::AcqRel);
                });
            }
            Err(e) if fatal(&e) => return format!("the server cannot accept connections: {e}"),
            Err(e) => {
                // No descriptor left (EMFILE), no memory for the socket, a client gone
                // before it was accepted: waited out, the connections open meanwhile
                // go on, and it is said once a spell.
                if wait.is_zero() {
                    say!("hp2ps: warning: the server cannot take a connection now ({e}): waiting");
                }
                wait = (wait * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                tokio::time::sleep(wait).await;
            }
        }
    }
}

/// An error after which the listening socket is of no more use.
fn fatal(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    if let Some(code) = e.raw_os_error() {
        return [libc::EBADF, libc::EINVAL, libc::ENOTSOCK, libc::EOPNOTSUPP].contains(&code);
    }
    let _ = e;
    false
}

/// A connection past the cap: 503, its request not read, closed. A task of its own for
/// a quarter of a second at most, which reads what the client sent meanwhile (a close
/// with unread bytes would reset the connection, 503 and all); past [`TURNING_AWAY`] of
/// those, the 503 is written if the socket takes it at once, and the connection closed.
fn turn_away(tcp: TcpStream, away: &Arc<AtomicUsize>) {
    if away.fetch_add(1, Ordering::AcqRel) >= TURNING_AWAY {
        away.fetch_sub(1, Ordering::AcqRel);
        let _ = tcp.try_write(BUSY);
        return;
    }
    let away = Arc::clone(away);
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tcp;
        let answered = async {
            tcp.write_all(BUSY).await?;
            tcp.shutdown().await?;
            let mut sink = vec![0u8; 4096];
            while tcp.read(&mut sink).await? > 0 {}
            Ok::<(), std::io::Error>(())
        };
        let _ = tokio::time::timeout(Duration::from_millis(250), answered).await;
        away.fetch_sub(1, Ordering::AcqRel);
    });
}

/// Serves one connection with hyper, its limits set.
async fn connection(tcp: TcpStream, site: Arc<Site>) {
    let _ = tcp.set_nodelay(true);
    let io = TokioIo::new(Deadline::new(tcp));
    let service = service_fn(move |request| {
        let site = Arc::clone(&site);
        async move { Ok::<_, std::convert::Infallible>(answer(&site, request).await) }
    });
    let _ = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .max_headers(64)
        .serve_connection(io, service)
        .await;
}

/// The answer to one request.
async fn answer<B: hyper::body::Body>(site: &Site, request: Request<B>) -> Answer {
    // A value that is not text reads as empty, not as absent: an `Origin` no browser
    // would send is then another site's, not none (the checks fail closed).
    let header = |name: &str| (request.headers().get(name)).map(|v| v.to_str().unwrap_or(""));
    let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
    let asked = Asked {
        read_only: matches!(*request.method(), Method::GET | Method::HEAD),
        path: target,
        // An absolute-form target (`GET http://host/...`, which a browser sends only to a
        // proxy) names the host asked for, and its `Host` is ignored (RFC 9112, 3.2.2).
        host: (request.uri().authority()).map_or_else(|| header("host"), |a| Some(a.as_str())),
        origin: header("origin"),
        fetch_site: header("sec-fetch-site"),
        body: !request.body().is_end_stream(),
        second_host: request.headers().get_all("host").iter().nth(1).is_some(),
    };
    let answers = &site.answers;
    match decide(&asked, &site.token, site.loopback) {
        Decision::Serve(route) => {
            let resume = resumed_after(header("last-event-id"), target);
            answers
                .answer(
                    route,
                    request.method() == Method::HEAD,
                    header("accept"),
                    resume,
                )
                .await
        }
        Decision::Redirect(to) => answers.redirect(&to),
        Decision::Refused(code, why) => answers.refuse(code, why),
    }
}
