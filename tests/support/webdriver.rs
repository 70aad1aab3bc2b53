//! A small W3C WebDriver client for headless Chromium: the HTML page's tests
//! (`tests/html_browser.rs`) and its measurements and pictures (`examples/html_page.rs`,
//! which includes this file with `#[path]`, so it depends on `std`, `serde_json` and
//! `libc` only).
//!
//! WebDriver is JSON over HTTP: [`Browser`] starts `chromedriver` (Debian:
//! `chromium-driver`) on a free port, opens one session of headless Chromium with a fresh
//! profile and the flags of `tests/browser.rs`, and sends each command as one HTTP/1.1
//! request on a `std::net::TcpStream` (no async runtime, no client crate). Chromium's
//! DevTools commands go through chromedriver's `goog/cdp/execute`, the console through
//! its `se/log`. Dropping the browser ends the session, kills chromedriver's process
//! group (with the browser) and removes the browser's profile.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// The programs: Debian's names (`chromium-driver` installs `/usr/bin/chromedriver`).
pub const CHROMIUM: &str = "chromium";
pub const CHROMEDRIVER: &str = "chromedriver";

/// A cold start of Chromium on a loaded machine takes seconds; this only stops a hang.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// One command's longest wait (a page of several MB loads in well under this).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(120);

/// One headless Chromium session.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    /// The browser's home, profile and logs, removed on drop.
    dir: PathBuf,
}

/// A program on `PATH` (or a path as it is).
pub fn find_program(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Path::new(name).is_file().then(|| PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

impl Browser {
    /// Starts chromedriver and a session of `width` × `height` CSS pixels at one device
    /// pixel per CSS pixel, with Chromium and chromedriver found on `PATH`.
    pub fn start(width: u32, height: u32) -> Result<Browser, String> {
        let chromium = find_program(CHROMIUM).ok_or("no chromium on PATH")?;
        let chromedriver = find_program(CHROMEDRIVER).ok_or("no chromedriver on PATH")?;
        let dir = scratch_dir()?;
        let port = free_port();
        let out = std::fs::File::create(dir.join("chromedriver.out")).map_err(|e| e.to_string())?;
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .arg(format!(
                "--log-path={}",
                dir.join("chromedriver.log").display()
            ))
            // Keep the browser's caches and settings out of the real home directory.
            .env("HOME", &dir)
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::null())
            .stdout(out.try_clone().map_err(|e| e.to_string())?)
            .stderr(out)
            // A group of its own, with the browser it starts: killed together on drop.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start chromedriver: {e}"))?;
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            dir,
        };
        browser.wait_until_ready()?;
        let profile = browser.dir.join("profile");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                    "--force-device-scale-factor=1", "--disable-extensions",
                    "--disable-default-apps", "--mute-audio",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let reply = browser
            .send("POST", "/session", Some(caps))
            .map_err(|e| format!("new session: {e}\n{}", browser.driver_log()))?;
        browser.session = reply["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        Ok(browser)
    }

    fn wait_until_ready(&self) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Ok(status) = self.send("GET", "/status", None) {
                if status["ready"] == json!(true) {
                    return Ok(());
                }
            }
            if start.elapsed() > START_TIMEOUT {
                return Err(format!("chromedriver did not start\n{}", self.driver_log()));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The end of chromedriver's log, for an error message.
    pub fn driver_log(&self) -> String {
        let log = std::fs::read(self.dir.join("chromedriver.log")).unwrap_or_default();
        let log = String::from_utf8_lossy(&log);
        let tail: Vec<&str> = log.lines().rev().take(30).collect();
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    /// One WebDriver command: the reply's `value`, or the error it names.
    pub fn send(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(COMMAND_TIMEOUT))
            .map_err(|e| e.to_string())?;
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        let payload = read_reply(&mut stream).map_err(|e| format!("{method} {path}: {e}"))?;
        let value: Value = serde_json::from_str(&payload)
            .map_err(|e| format!("{method} {path}: {e}: {payload}"))?;
        let value = value["value"].clone();
        if let Some(error) = value.get("error") {
            return Err(format!(
                "{method} {path}: {error}: {}",
                value["message"].as_str().unwrap_or("")
            ));
        }
        Ok(value)
    }

    fn session_path(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    fn command(&self, method: &str, rest: &str, body: Value) -> Value {
        let body = (method == "POST").then_some(body);
        let path = self.session_path(rest);
        self.send(method, &path, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Opens a URL and waits for it to load.
    pub fn goto(&self, url: &str) {
        self.command("POST", "/url", json!({ "url": url }));
    }

    /// Opens a local file.
    pub fn open(&self, path: &Path) {
        self.goto(&format!("file://{}", path.display()));
    }

    /// Runs `body` as a function with `args` (as `arguments`); what it returns.
    pub fn script(&self, body: &str, args: Value) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            json!({ "script": body, "args": args }),
        )
    }

    /// Runs `body` as a function whose last argument is the callback to call with the
    /// result.
    pub fn async_script(&self, body: &str, args: Value) -> Value {
        self.command(
            "POST",
            "/execute/async",
            json!({ "script": body, "args": args }),
        )
    }

    /// Performs W3C actions (`{"actions": [...]}`), then releases what they hold.
    pub fn actions(&self, actions: Value) {
        self.command("POST", "/actions", json!({ "actions": actions }));
        self.command("DELETE", "/actions", Value::Null);
    }

    /// Moves the mouse to viewport coordinates (CSS pixels, whole).
    pub fn move_to(&self, x: f64, y: f64) {
        self.actions(json!([{ "type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": "viewport",
                         "x": x.round() as i64, "y": y.round() as i64}]}]));
    }

    /// Presses the left button at `from`, moves to `to` in a few steps, releases.
    pub fn drag(&self, from: (f64, f64), to: (f64, f64)) {
        let at = |x: f64, y: f64| {
            json!({"type": "pointerMove", "duration": 0,
            "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64})
        };
        let mut steps = vec![
            at(from.0, from.1),
            json!({"type": "pointerDown", "button": 0}),
        ];
        for k in 1..=4 {
            let f = f64::from(k) / 4.0;
            steps.push(at(
                from.0 + (to.0 - from.0) * f,
                from.1 + (to.1 - from.1) * f,
            ));
        }
        steps.push(json!({"type": "pointerUp", "button": 0}));
        self.actions(json!([{ "type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": steps }]));
    }

    /// A click (`modifier`: a key held down meanwhile, such as "\u{E00A}" for Alt) at
    /// viewport coordinates.
    pub fn click_at(&self, x: f64, y: f64, clicks: u32, modifier: Option<&str>) {
        let mut pointer = vec![
            json!({"type": "pointerMove", "duration": 0, "origin": "viewport",
            "x": x.round() as i64, "y": y.round() as i64}),
        ];
        for _ in 0..clicks {
            pointer.push(json!({"type": "pointerDown", "button": 0}));
            pointer.push(json!({"type": "pointerUp", "button": 0}));
        }
        let mut sources = vec![json!({ "type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": pointer })];
        if let Some(key) = modifier {
            // The key goes down in the first tick and up after the pointer's last.
            let mut keys = vec![json!({"type": "keyDown", "value": key})];
            let pauses = pointer_len(&sources[0]) - 1;
            keys.extend((0..pauses).map(|_| json!({"type": "pause"})));
            keys.push(json!({"type": "keyUp", "value": key}));
            sources.push(json!({"type": "key", "id": "keyboard", "actions": keys}));
        }
        self.actions(Value::Array(sources));
    }

    /// Types keys (WebDriver key values) into the focused element.
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for k in keys {
            actions.push(json!({"type": "keyDown", "value": k}));
            actions.push(json!({"type": "keyUp", "value": k}));
        }
        self.actions(json!([{"type": "key", "id": "keyboard", "actions": actions}]));
    }

    /// A screenshot of the viewport, as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let shot = self.command("GET", "/screenshot", Value::Null);
        png_of(&shot)
    }

    /// The first element matching a CSS selector (its WebDriver reference).
    pub fn element(&self, css: &str) -> Value {
        self.command(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        )
    }

    /// A screenshot of an element (found with [`Browser::element`]), as PNG.
    pub fn element_screenshot(&self, element: &Value) -> Vec<u8> {
        let id = element_id(element);
        let shot = self.command("GET", &format!("/element/{id}/screenshot"), Value::Null);
        png_of(&shot)
    }

    /// The browser's console and network messages since the last call.
    pub fn log(&self) -> Vec<Value> {
        let log = self.command("POST", "/se/log", json!({"type": "browser"}));
        log.as_array().cloned().unwrap_or_default()
    }

    /// A Chrome DevTools Protocol command.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.command(
            "POST",
            "/goog/cdp/execute",
            json!({"cmd": cmd, "params": params}),
        )
    }

    /// How long a script may run (WebDriver's default: 30 s).
    pub fn script_timeout(&self, timeout: Duration) {
        let ms = timeout.as_millis() as u64;
        self.command("POST", "/timeouts", json!({ "script": ms }));
    }

    /// How long a page may take to load (WebDriver's default: 300 s).
    pub fn page_load_timeout(&self, timeout: Duration) {
        let ms = timeout.as_millis() as u64;
        self.command("POST", "/timeouts", json!({ "pageLoad": ms }));
    }

    /// Opens a new tab of the same browser and makes it the current one: its handle.
    pub fn new_tab(&self) -> String {
        let reply = self.command("POST", "/window/new", json!({"type": "tab"}));
        let handle = reply["handle"].as_str().unwrap_or_default().to_string();
        self.switch_to(&handle);
        handle
    }

    /// The current tab's handle.
    pub fn current(&self) -> String {
        let reply = self.command("GET", "/window", json!(null));
        reply.as_str().unwrap_or_default().to_string()
    }

    /// Makes the tab (or window) `handle` the current one.
    pub fn switch_to(&self, handle: &str) {
        self.command("POST", "/window", json!({ "handle": handle }));
    }

    /// Opens `url` in the current tab: an error (a page that did not load within the
    /// page-load timeout, say) is returned, not a failure.
    pub fn try_goto(&self, url: &str) -> Result<(), String> {
        let path = self.session_path("/url");
        self.send("POST", &path, Some(json!({ "url": url })))
            .map(|_| ())
    }

    /// Sets the window's size in CSS pixels.
    pub fn resize(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            json!({"width": width, "height": height}),
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.send("DELETE", &self.session_path(""), None);
        }
        // chromedriver runs in a process group of its own (`Cmd`), with the browser it
        // started: end them all.
        let pid = self.driver.id() as libc::pid_t;
        // SAFETY: a signal to our own child's process group.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A new directory for one browser, under `$TMPDIR` (Chromium's profile is large for a
/// RAM-backed directory).
fn scratch_dir() -> Result<PathBuf, String> {
    let base = std::env::temp_dir();
    for n in 0..1000 {
        let dir = base.join(format!("hp2ps-webdriver-{}-{n}", std::process::id()));
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
    }
    Err("no scratch directory".into())
}

fn pointer_len(source: &Value) -> usize {
    source["actions"].as_array().map_or(0, Vec::len)
}

fn element_id(element: &Value) -> String {
    element
        .as_object()
        .and_then(|o| o.values().next())
        .and_then(Value::as_str)
        .expect("an element reference")
        .to_string()
}

fn png_of(shot: &Value) -> Vec<u8> {
    base64_decode(shot.as_str().expect("a base64 PNG"))
}

/// A port nobody listens on now (the OS's pick for a listener just closed).
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("its address").port()
}

/// An HTTP reply's body: as long as its `Content-Length` says (chromedriver keeps the
/// connection open whatever the request asks), or chunked, or up to the end.
fn read_reply(stream: &mut TcpStream) -> Result<String, String> {
    let mut reader = BufReader::new(stream);
    let mut length = None;
    let mut chunked = false;
    let mut status = String::new();
    reader.read_line(&mut status).map_err(|e| e.to_string())?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 || line == "\r\n" {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    } else {
        reader.read_to_end(&mut body).map_err(|e| e.to_string())?;
    }
    String::from_utf8(body).map_err(|e| e.to_string())
}

/// Standard base64, as WebDriver sends screenshots.
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
