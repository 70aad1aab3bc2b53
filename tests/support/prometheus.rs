//! Real Prometheus parts for the exports' tests, each started by the test on a free
//! port of 127.0.0.1 with its files in the test's directory, and killed (its process
//! group) when dropped: the Pushgateway (`prometheus-pushgateway`), Prometheus itself
//! with a scrape configuration of the test's, and a one-answer HTTP server that serves
//! an exposition for Prometheus to scrape. HTTP here is plain HTTP/1.1 written by hand
//! (`Connection: close`, a body by its length or in chunks), as `support::serve` asks
//! `hp2ps --serve`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Child;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::run::{Cmd, Sink};

/// A port of 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// `METHOD path` to `addr` with `body` (and its `Content-Type`): the status and the
/// body of the answer.
pub fn http(addr: &str, method: &str, path: &str, body: Option<(&str, &[u8])>) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("{addr}: {e}"));
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some((kind, bytes)) = body {
        request += &format!(
            "Content-Type: {kind}\r\nContent-Length: {}\r\n",
            bytes.len()
        );
    }
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(b"\r\n");
    if let Some((_, body)) = body {
        bytes.extend_from_slice(body);
    }
    stream.write_all(&bytes).unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status: u16 = (line.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{addr}{path}: no status line: {line:?}"));
    let mut chunked = false;
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line.trim_end().is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
    }
    let mut body = Vec::new();
    if !chunked {
        reader.read_to_end(&mut body).unwrap();
        return (status, body);
    }
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
        if size == 0 {
            return (status, body);
        }
        let mut chunk = vec![0; size + 2];
        reader.read_exact(&mut chunk).unwrap();
        body.extend_from_slice(&chunk[..size]);
    }
}

/// A program started for a test, killed with its process group when dropped.
pub struct Daemon {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Daemon {
    /// Starts `program args` in `dir` (stdout and stderr to `dir/NAME.log`), and waits
    /// until `GET ready` answers 200.
    fn start(dir: &Path, program: &str, args: &[String], port: u16, ready: &str) -> Daemon {
        let log = |stream: &str| {
            let name = format!(
                "{}.{stream}.log",
                program.rsplit('/').next().unwrap_or(program)
            );
            Sink::File(std::fs::File::create(dir.join(name)).unwrap())
        };
        let child = Cmd::new(program)
            .args(args)
            .current_dir(dir)
            .stdout(log("out"))
            .stderr(log("err"))
            .spawn();
        let daemon = Daemon {
            child,
            addr: format!("127.0.0.1:{port}"),
        };
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            if TcpStream::connect(&daemon.addr).is_ok()
                && http(&daemon.addr, "GET", ready, None).0 == 200
            {
                return daemon;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "{program} did not answer {ready} on {} within 30 s",
            daemon.addr
        );
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        // Its own process group (support::run::Cmd).
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// A Pushgateway of the test's, without persistence.
pub fn pushgateway(dir: &Path) -> Daemon {
    let port = free_port();
    let args = [format!("--web.listen-address=127.0.0.1:{port}")];
    Daemon::start(dir, "prometheus-pushgateway", &args, port, "/-/ready")
}

/// A Prometheus of the test's scraping `targets` (`host:port` each) at `metrics_path`
/// every second, its data in `dir/data`.
pub fn prometheus(dir: &Path, targets: &[&str], metrics_path: &str) -> Daemon {
    let port = free_port();
    let quoted: Vec<String> = targets.iter().map(|t| format!("'{t}'")).collect();
    let config = format!(
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n\
         scrape_configs:\n  - job_name: hp2ps\n    metrics_path: '{metrics_path}'\n\
         \x20   static_configs:\n      - targets: [{}]\n",
        quoted.join(", ")
    );
    std::fs::write(dir.join("prometheus.yml"), config).unwrap();
    let args = [
        "--config.file=prometheus.yml".to_string(),
        "--storage.tsdb.path=data".to_string(),
        format!("--web.listen-address=127.0.0.1:{port}"),
    ];
    Daemon::start(dir, "prometheus", &args, port, "/-/ready")
}

/// Prometheus's HTTP query API: the result of `expr` now (`data.result`).
pub fn query(prometheus: &Daemon, expr: &str) -> Value {
    let path = format!("/api/v1/query?query={}", encode(expr));
    let (status, body) = http(&prometheus.addr, "GET", &path, None);
    let v: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(status, 200, "{expr}: {v}");
    v["data"]["result"].clone()
}

/// Waits until `done` holds of the scrape targets (`/api/v1/targets`' `activeTargets`),
/// and gives them.
pub fn targets_when(
    prometheus: &Daemon,
    within: Duration,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let (_, body) = http(&prometheus.addr, "GET", "/api/v1/targets", None);
        let v: Value = serde_json::from_slice(&body).expect("JSON");
        let targets = v["data"]["activeTargets"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if done(&targets) || start.elapsed() > within {
            return targets;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Percent-encoding of a query's value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// A server that answers every request with one exposition and its content type, on a
/// thread of its own until dropped.
pub struct Exposed {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    stop: Arc<AtomicBool>,
}

impl Exposed {
    pub fn serve(body: Vec<u8>, content_type: &'static str) -> Exposed {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                // The request's head, to its empty line.
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        Exposed { addr, stop }
    }
}

impl Drop for Exposed {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
