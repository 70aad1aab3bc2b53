//! `hp2ps --serve` under test: started in a directory, its address read from its first
//! line of stdout, asked with plain HTTP requests written here (so that a test chooses
//! every header, `Host` included), its server-sent events read as they come (the
//! updates they carry: `update_stream.rs`), and stopped with Ctrl-C (SIGINT), as a
//! person stops it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ExitStatus};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::replay::{self, Pace};
use super::run::{Cmd, Input, Sink};
use super::update_stream::{Events, Raw};
// The updates' helpers, where the serve tests take them from (`support::serve::state`).
#[allow(unused_imports)]
pub use super::update_stream::{state, whole};

/// A running `hp2ps --serve`.
pub struct Served {
    child: Child,
    /// The page's address, as printed.
    pub url: String,
    /// `host:port`.
    pub addr: String,
    /// The path's first part.
    pub token: String,
    stderr: Arc<Mutex<String>>,
    /// The thread that reads stderr: done at its end.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    /// Starts `hp2ps --serve ARGS` in `dir` and waits for its address.
    pub fn start(dir: &Path, args: &[&str]) -> Served {
        Served::started(Cmd::hp2ps(), dir, args)
    }

    /// [`Served::start`] reading `stdin` (a FIFO, say).
    pub fn start_with_stdin(dir: &Path, args: &[&str], stdin: std::fs::File) -> Served {
        Served::started(Cmd::hp2ps().stdin(Input::File(stdin)), dir, args)
    }

    /// [`Served::start`] of a command set up by the caller (limits, stdin).
    pub fn started(cmd: Cmd, dir: &Path, args: &[&str]) -> Served {
        let mut child = cmd
            .arg("--serve")
            .args(args)
            .current_dir(dir)
            .stdout(Sink::Capture)
            .stderr(Sink::Capture)
            .spawn();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut stderr_reader = None;
        if let Some(pipe) = child.stderr.take() {
            let stderr = Arc::clone(&stderr);
            stderr_reader = Some(std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    let mut s = stderr.lock().unwrap_or_else(|e| e.into_inner());
                    s.push_str(&line);
                    s.push('\n');
                }
            }));
        }
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let url = line.trim().to_string();
        let rest = url.strip_prefix("http://").unwrap_or_else(|| {
            let err = stderr.lock().map(|s| s.clone()).unwrap_or_default();
            panic!("no address printed: {line:?}; stderr: {err}")
        });
        let (addr, path) = rest.split_once('/').expect("a path");
        Served {
            child,
            url: url.clone(),
            addr: addr.to_string(),
            token: path.trim_end_matches('/').to_string(),
            stderr,
            stderr_reader,
        }
    }

    /// What it said on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Waits until stderr holds `text`.
    pub fn wait_stderr(&self, text: &str, within: Duration) -> bool {
        let until = Instant::now() + within;
        while Instant::now() < until {
            if self.stderr().contains(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// `GET path` with this `Host` (`None`: none sent), `extra` request lines; the
    /// status and the body.
    pub fn request(&self, method: &str, path: &str, host: Option<&str>) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if let Some(h) = host {
            req.push_str(&format!("Host: {h}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).expect("send");
        let mut all = Vec::new();
        let _ = s.read_to_end(&mut all);
        let text = String::from_utf8_lossy(&all);
        let code = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {:?}", &text[..text.len().min(200)]));
        let body = match all.windows(4).position(|w| w == b"\r\n\r\n") {
            Some(i) => all[i + 4..].to_vec(),
            None => Vec::new(),
        };
        (code, body)
    }

    /// The head of the answer to `GET path` (the status line and headers, up to the
    /// blank line), read as it comes: an event stream's ends only with the server.
    pub fn stream_head(&self, path: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let req = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr);
        s.write_all(req.as_bytes()).expect("send");
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                _ => panic!("no whole head: {:?}", String::from_utf8_lossy(&head)),
            }
        }
        String::from_utf8_lossy(&head).into_owned()
    }

    /// `GET path` as a browser on this machine asks.
    pub fn get(&self, path: &str) -> (u16, Vec<u8>) {
        self.request("GET", path, Some(&self.addr.clone()))
    }

    /// The page's server-sent events, parsed, as they come.
    pub fn events(&self) -> Events {
        self.events_asking("", "")
    }

    /// [`Served::events`] of a stream asked for with `query` after the path (`?after=3`)
    /// and `headers` (each line ending in CRLF).
    pub fn events_asking(&self, query: &str, headers: &str) -> Events {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        let req = format!(
            "GET /{}/events{query} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n{headers}\r\n",
            self.token, self.addr
        );
        s.write_all(req.as_bytes()).expect("send");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut data = None;
            for line in BufReader::new(s).lines().map_while(Result::ok) {
                if let Some(text) = line.strip_prefix("data: ") {
                    match serde_json::from_str::<Value>(text) {
                        Ok(v) => {
                            if tx.send(whole(v, &mut data)).is_err() {
                                return;
                            }
                        }
                        Err(e) => panic!("an event that is not JSON: {e}"),
                    }
                }
            }
        });
        Events { rx }
    }

    /// An event stream connected and not read (until [`Raw::read_all`]), with a
    /// receive buffer of a few kilobytes, so that the server's writes to it soon wait.
    pub fn raw_events(&self) -> Raw {
        let mut s = small_buffer_connect(&self.addr);
        let req = format!(
            "GET /{}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.token, self.addr
        );
        s.write_all(req.as_bytes()).expect("send");
        Raw { stream: s }
    }

    /// The process id, for signals.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ctrl-C, then its exit status and stderr.
    pub fn interrupt(self) -> (ExitStatus, String) {
        self.send(libc::SIGINT);
        self.exited()
    }

    /// Ctrl-C as a terminal sends it, to the whole process group (the child started
    /// in a group of its own, and whatever it runs), then its exit status and stderr.
    pub fn interrupt_group(self) -> (ExitStatus, String) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: a signal to our own child's group, by its id.
        unsafe {
            libc::kill(-pid, libc::SIGINT);
        }
        self.exited()
    }

    /// Sends `signal` to it.
    pub fn send(&self, signal: libc::c_int) {
        // SAFETY: a signal to our own child, by its id.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, signal);
        }
    }

    /// Its exit status (within a minute, else a failure) and stderr.
    pub fn exited(mut self) -> (ExitStatus, String) {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // Everything it said: its stderr read to the end (a loaded machine
                // may take a while to read the last lines).
                let until = Instant::now() + Duration::from_secs(10);
                while (self.stderr_reader.as_ref()).is_some_and(|r| !r.is_finished())
                    && Instant::now() < until
                {
                    std::thread::sleep(Duration::from_millis(10));
                }
                return (status, self.stderr());
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!(
                    "--serve did not stop on a signal; stderr: {}",
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes a FIFO at `path` (with mkfifo(1), as `atomic.rs` does).
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
}

/// A TCP connection to `addr` (an IPv4 `host:port`) whose receive buffer is set small
/// before it connects (the window it offers stays small).
fn small_buffer_connect(addr: &str) -> TcpStream {
    use std::os::fd::FromRawFd;
    let addr: std::net::SocketAddrV4 = addr.parse().expect("an IPv4 address");
    // SAFETY: a socket we own, set up and handed to TcpStream, which closes it.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
        assert!(fd >= 0, "socket");
        let size: libc::c_int = 2048;
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            &size as *const libc::c_int as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
        let sin = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: addr.port().to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from(*addr.ip()).to_be(),
            },
            sin_zero: [0; 8],
        };
        let r = libc::connect(
            fd,
            &sin as *const libc::sockaddr_in as *const libc::sockaddr,
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        );
        assert_eq!(r, 0, "connect");
        TcpStream::from_raw_fd(fd)
    }
}

/// A Unix socket served as eventlog-socket serves one: the log's header to each client
/// as it connects, then the events from then on ([`Wait`]: when the program runs).
/// Returns what each client was sent.
pub fn eventlog_socket(
    path: &Path,
    log: Vec<u8>,
    speed: f64,
    wait: Wait,
) -> std::thread::JoinHandle<Vec<Vec<u8>>> {
    use std::os::unix::net::{UnixListener, UnixStream};
    use std::sync::{Arc, Mutex};
    let listener = UnixListener::bind(path).expect("bind");
    std::thread::spawn(move || {
        let header = replay::pieces(&log, Pace::Blocks).header;
        // Each client, and what it was sent.
        type Clients = Mutex<Vec<(UnixStream, Vec<u8>)>>;
        let clients: Arc<Clients> = Arc::default();
        let accept = |client: UnixStream, clients: &Clients| {
            let mut client = client;
            if client.write_all(&log[..header]).is_ok() {
                let mut c = clients.lock().unwrap_or_else(|e| e.into_inner());
                c.push((client, log[..header].to_vec()));
            }
        };
        if wait == Wait::First {
            let (client, _) = listener.accept().expect("a client");
            accept(client, &clients);
        }
        let blocks = replay::pieces(&log, Pace::Blocks).blocks.len();
        let mut pieces = 0;
        let mut sent_header = false;
        replay::replay(&log, Pace::Blocks, speed, &mut |piece| {
            pieces += 1;
            // Half the run with no client (one that connects waits in the backlog),
            // then a client, whenever it comes.
            let half = blocks / 2;
            let blocking = wait == Wait::Half && pieces == half;
            let accepting = wait != Wait::Half || pieces >= half;
            listener.set_nonblocking(!blocking).expect("nonblocking");
            while let Some(Ok((client, _))) = accepting.then(|| listener.accept()) {
                client.set_nonblocking(false).expect("blocking");
                accept(client, &clients);
                if blocking {
                    listener.set_nonblocking(true).expect("nonblocking");
                }
            }
            if !sent_header {
                // The header goes to each client as it connects.
                sent_header = true;
                return Ok(());
            }
            let mut c = clients.lock().unwrap_or_else(|e| e.into_inner());
            for (client, sent) in c.iter_mut() {
                if client.write_all(piece).is_ok() {
                    sent.extend_from_slice(piece);
                }
            }
            Ok(())
        })
        .expect("replay");
        let c = std::mem::take(&mut *clients.lock().unwrap_or_else(|e| e.into_inner()));
        // The program ended: its socket first, so that hp2ps, told the run's end by the
        // clients' close, is refused when it tries again (else, under load, its next
        // try waits in the backlog and becomes an empty second run).
        drop(listener);
        c.into_iter().map(|(_, sent)| sent).collect()
    })
}

/// When the program of [`eventlog_socket`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// Once its first client has come (eventlog-socket's `startWait`).
    First,
    /// Half its run with no client, then it waits for one.
    Half,
}

/// A `.hp` of `bands` bands and `samples` samples, in pieces of `per` samples.
pub fn big_hp(bands: usize, samples: usize, per: usize) -> Vec<Vec<u8>> {
    let mut pieces = vec![
        b"JOB \"big\"\nDATE \"today\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n".to_vec(),
    ];
    for s in 0..samples {
        if s % per == 0 {
            pieces.push(Vec::new());
        }
        let piece = pieces.last_mut().expect("a piece");
        let t = s as f64 * 0.1;
        piece.extend_from_slice(format!("BEGIN_SAMPLE {t:.2}\n").as_bytes());
        for b in 0..bands {
            let v = 1000 + (s * 7919 + b * 104729) % 5000 + s * b;
            piece.extend_from_slice(format!("module{b}.function{b} {v}\n").as_bytes());
        }
        piece.extend_from_slice(format!("END_SAMPLE {t:.2}\n").as_bytes());
    }
    pieces
}

/// A GHC 9.10.3 log of `tests/data/ghc-9.10/`.
pub fn log(name: &str) -> Vec<u8> {
    std::fs::read(super::html_page::repo(&format!(
        "tests/data/ghc-9.10/{name}"
    )))
    .expect("a test log")
}

/// The page `--format html --time elapsed` writes of `bytes`, named `name`.
pub fn static_page(bytes: &[u8], name: &str) -> Vec<u8> {
    let dir = super::TempDir::new("serve-static");
    std::fs::write(dir.join(name), bytes).expect("write");
    let ran = Cmd::hp2ps()
        .args([
            "--format",
            "html",
            "--time",
            "elapsed",
            "-o",
            "page.html",
            name,
        ])
        .current_dir(dir.path())
        .run();
    assert!(ran.status.success(), "{}", ran.describe());
    std::fs::read(dir.join("page.html")).expect("the page")
}
