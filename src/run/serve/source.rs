//! Where a followed run's bytes come from, and what is heard there: a file as the
//! program writes it (looked at every [`LOOK`], replaced or cut files starting a new
//! run), a FIFO (`+RTS -olFIFO`: each writer a run), standard input, or the Unix socket
//! of the eventlog-socket library (each connection a run: it sends the log's header to
//! every new client, then the events from then on).
//!
//! The thread that follows blocks in its reads (a pipe, a socket) or sleeps between
//! looks (a file): idle, it costs nothing. A read that returns less than the buffer
//! holds means the input has nothing more for now: that is a pause, when the reader
//! takes the events that wait only for what comes next (see `LiveReader::pause`).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::run::regular::{kind_of, open_regular};
use crate::run::version::Version;

/// How often a followed file is looked at, and a socket tried again; a file that has
/// not grown for [`QUIET`] is looked at every [`LOOK_QUIET`] (a program writing with
/// `--eventlog-flush-interval` writes more often than that).
const LOOK: Duration = Duration::from_millis(100);
const QUIET: Duration = Duration::from_secs(30);
const LOOK_QUIET: Duration = Duration::from_millis(500);
const RETRY: Duration = Duration::from_millis(250);
/// The most read at once: more than a pipe's or a socket's buffer holds, so that a
/// read that fills it is never the last of what has come.
const CHUNK: usize = 1 << 20;

/// A followed input.
#[derive(Debug, Clone)]
pub(super) enum Input {
    /// A path: a file as it grows, or a FIFO.
    Path(PathBuf),
    /// Standard input.
    Stdin,
    /// An eventlog-socket Unix socket.
    Socket(PathBuf),
    /// An eventlog-socket TCP port (`tcp:PORT` on this machine, `tcp:HOST:PORT`), for a
    /// program in another container or on another machine.
    Tcp(String),
}

impl Input {
    /// The input a command-line argument names: `-` stdin, `unix:PATH` a socket.
    pub(super) fn of(arg: Option<&std::ffi::OsStr>) -> Input {
        let Some(arg) = arg else {
            return Input::Stdin;
        };
        if arg == "-" {
            return Input::Stdin;
        }
        if let Some(path) = arg.to_str().and_then(|a| a.strip_prefix("unix:")) {
            return Input::Socket(PathBuf::from(path));
        }
        match arg.to_str().and_then(|a| a.strip_prefix("tcp:")) {
            Some(port) if port.bytes().all(|b| b.is_ascii_digit()) => {
                // Loopback unless a host is named, as the server listens.
                Input::Tcp(format!("127.0.0.1:{port}"))
            }
            Some(at) => Input::Tcp(at.to_string()),
            None => Input::Path(PathBuf::from(arg)),
        }
    }

    /// Its name in messages and on the page.
    pub(super) fn name(&self) -> String {
        match self {
            Input::Path(p) => p.display().to_string(),
            Input::Stdin => "stdin".to_string(),
            Input::Socket(p) => format!("unix:{}", p.display()),
            Input::Tcp(at) => format!("tcp:{at}"),
        }
    }
}

/// What is heard from the input.
pub(super) enum Heard<'a> {
    /// A run begins (the first, or a new one: the program started again), read from a
    /// regular file (a descriptor of it, to read it again whole) or a stream.
    Start(Option<File>),
    /// The next bytes of the run.
    Bytes(&'a [u8]),
    /// Nothing more for now.
    Pause,
    /// The run's input ended, and how.
    End(String),
    /// Nothing to read, and why (said once until something changes).
    Waiting(String),
}

/// Follows `input` for ever, telling `on` what is heard.
pub(super) fn follow(input: &Input, on: &mut dyn FnMut(Heard<'_>)) {
    let mut buf = vec![0u8; CHUNK];
    match input {
        Input::Stdin => {
            on(Heard::Start(None));
            let end = read_stream(&mut io::stdin().lock(), &mut buf, on);
            on(Heard::End(end));
        }
        Input::Path(path) => follow_path(path, &mut buf, on),
        Input::Socket(path) => follow_socket(path, &mut buf, on),
        Input::Tcp(at) => follow_tcp(at, &mut buf, on),
    }
}

/// Reads a pipe, stdin or a socket to its end; returns how it ended.
fn read_stream(input: &mut dyn Read, buf: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) -> String {
    loop {
        match input.read(buf) {
            Ok(0) => return "the writer closed it".to_string(),
            Ok(n) => {
                on(Heard::Bytes(&buf[..n]));
                if n < buf.len() {
                    on(Heard::Pause);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return format!("read error: {e}"),
        }
    }
}

/// What is at a path now.
enum At {
    Nothing,
    File(Version),
    Fifo,
    /// Something else, in words ("a directory").
    Other(&'static str),
}

impl At {
    /// What is there, in words, whatever a file's version: a change of it is news.
    fn what(&self) -> &'static str {
        match self {
            At::Nothing => "nothing",
            At::File(_) => "a regular file",
            At::Fifo => "a FIFO",
            At::Other(what) => what,
        }
    }
}

fn look(path: &Path) -> At {
    match std::fs::metadata(path) {
        Err(_) => At::Nothing,
        Ok(m) if m.is_file() => At::File(Version::of(&m)),
        Ok(m) if is_fifo(&m) => At::Fifo,
        Ok(m) => At::Other(kind_of(m.file_type())),
    }
}

#[cfg(unix)]
fn is_fifo(m: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

/// What the input's thread waits for, each reason said once: a wait looked at again
/// every second says nothing new until what is at the path changes, or a run has
/// begun since.
#[derive(Default)]
struct Said {
    at: &'static str,
    said: Vec<String>,
}

impl Said {
    /// What is at the path now: another thing than before makes every reason news.
    fn look(&mut self, at: &At) {
        if self.at != at.what() {
            self.at = at.what();
            self.said.clear();
        }
    }

    fn wait(&mut self, why: String, on: &mut dyn FnMut(Heard<'_>)) {
        if !self.said.contains(&why) {
            on(Heard::Waiting(why.clone()));
            self.said.push(why);
        }
    }

    /// A run began: the next wait is news again.
    fn forget(&mut self) {
        self.said.clear();
    }
}

fn follow_path(path: &Path, buf: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) {
    let name = path.display();
    let mut said = Said::default();
    loop {
        let at = look(path);
        said.look(&at);
        match at {
            At::Nothing => {
                said.wait(
                    format!("{name} does not exist yet: waiting for the program to write it"),
                    on,
                );
                std::thread::sleep(LOOK);
            }
            At::Other(what) => {
                said.wait(
                    format!("{name} is {what}: waiting for a file or a FIFO there"),
                    on,
                );
                std::thread::sleep(RETRY * 4);
            }
            At::Fifo => {
                said.wait(
                    format!(
                        "waiting for a program to write into the FIFO {name} (+RTS {})",
                        shell_word(&format!("-ol{name}"))
                    ),
                    on,
                );
                // The open waits for a writer; Ctrl-C ends the program from its own
                // thread meanwhile.
                match File::open(path) {
                    Ok(mut fifo) => {
                        said.forget();
                        on(Heard::Start(None));
                        let end = read_stream(&mut fifo, buf, on);
                        on(Heard::End(end));
                    }
                    Err(e) => {
                        said.wait(format!("cannot open {name}: {e}"), on);
                        std::thread::sleep(RETRY * 4);
                    }
                }
            }
            // Not a plain open: a FIFO put here since the look would hold this thread
            // in the open until a writer came, unheard of.
            At::File(_) => match open_regular(path) {
                Ok(file) => {
                    said.forget();
                    follow_file(path, file, buf, on);
                }
                Err(e) => {
                    said.wait(format!("cannot open {name}: {e}"), on);
                    std::thread::sleep(RETRY * 4);
                }
            },
        }
    }
}

/// Follows an open regular file as it grows, until it is replaced, cut or deleted.
fn follow_file(path: &Path, mut file: File, buf: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) {
    let opened = file.metadata().ok().map(|m| Version::of(&m));
    let mut read = 0u64;
    on(Heard::Start(record_of(&file, path)));
    loop {
        // Everything there is, then a pause.
        loop {
            match file.read(buf) {
                Ok(0) => break,
                Ok(n) => {
                    read += n as u64;
                    on(Heard::Bytes(&buf[..n]));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    on(Heard::End(format!("read error: {e}")));
                    return;
                }
            }
        }
        on(Heard::Pause);
        // Then a look now and then, until it grows or is another file.
        let grew = std::time::Instant::now();
        loop {
            std::thread::sleep(if grew.elapsed() < QUIET {
                LOOK
            } else {
                LOOK_QUIET
            });
            match look(path) {
                At::File(now) if now.len > read && opened.is_some_and(|o| o.same_file(&now)) => {
                    break
                }
                At::File(now) if opened.is_some_and(|o| o.same_file(&now)) && now.len >= read => {}
                At::File(_) => {
                    // Written again from the start (GHC truncates the log when the
                    // program starts), or another file renamed over it.
                    on(Heard::End(format!(
                        "{} was written again: a new run",
                        path.display()
                    )));
                    return;
                }
                At::Nothing => {
                    on(Heard::Waiting(format!(
                        "{} was deleted: waiting for it to be written again",
                        path.display()
                    )));
                    wait_for_path(path);
                    on(Heard::End(format!("{} is back: a new run", path.display())));
                    return;
                }
                At::Fifo | At::Other(_) => {
                    on(Heard::End(format!(
                        "{} is no longer a regular file",
                        path.display()
                    )));
                    return;
                }
            }
        }
    }
}

/// A descriptor of a followed file to read it again whole by: on Unix the same file
/// (positioned reads leave the follower's place alone), elsewhere opened again.
#[cfg(unix)]
fn record_of(file: &File, _path: &Path) -> Option<File> {
    file.try_clone().ok()
}

#[cfg(not(unix))]
fn record_of(_file: &File, path: &Path) -> Option<File> {
    open_regular(path).ok()
}

fn wait_for_path(path: &Path) {
    while matches!(look(path), At::Nothing) {
        std::thread::sleep(LOOK);
    }
}

#[cfg(unix)]
fn follow_socket(path: &Path, buf: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) {
    use std::os::unix::net::UnixStream;
    let mut said: Option<String> = None;
    loop {
        match UnixStream::connect(path) {
            Ok(mut stream) => {
                said = None;
                on(Heard::Start(None));
                let end = read_stream(&mut stream, buf, on);
                on(Heard::End(format!("the program's socket closed ({end})")));
            }
            Err(e) => {
                let why = format!("waiting for the program's socket {} ({e})", path.display());
                if said.as_deref() != Some(&why) {
                    on(Heard::Waiting(why.clone()));
                    said = Some(why);
                }
                std::thread::sleep(RETRY);
            }
        }
    }
}

/// An eventlog-socket TCP port: as its Unix socket, each connection a run. A name is
/// looked up again at each try (a container's address changes when it starts again).
fn follow_tcp(at: &str, buf: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) {
    use std::net::{TcpStream, ToSocketAddrs};
    let mut said: Option<String> = None;
    loop {
        let connected = (at.to_socket_addrs()).and_then(|mut addrs| {
            addrs
                .find_map(|a| TcpStream::connect_timeout(&a, RETRY * 8).ok())
                .ok_or_else(|| {
                    io::Error::new(io::ErrorKind::ConnectionRefused, "connection refused")
                })
        });
        match connected {
            Ok(mut stream) => {
                said = None;
                on(Heard::Start(None));
                let end = read_stream(&mut stream, buf, on);
                on(Heard::End(format!("the program's port closed ({end})")));
            }
            Err(e) => {
                let why = format!("waiting for the program's port {at} ({e})");
                if said.as_deref() != Some(&why) {
                    on(Heard::Waiting(why.clone()));
                    said = Some(why);
                }
                std::thread::sleep(RETRY);
            }
        }
    }
}

#[cfg(not(unix))]
fn follow_socket(path: &Path, _: &mut [u8], on: &mut dyn FnMut(Heard<'_>)) {
    on(Heard::End(format!(
        "unix:{}: Unix sockets are not supported on this platform",
        path.display()
    )));
}

/// `word` as one word of a shell's command line: as it is when every character is one no
/// shell treats specially, else in single quotes. The FIFO's flag is copied from the
/// server's message into the program's command line, and the RTS takes the name glued to
/// `-ol`, so a name with a space must stay one argument (`'-olmy run.fifo'`).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_flag_with_a_plain_name_is_left_as_it_is() {
        assert_eq!(shell_word("-olrun.fifo"), "-olrun.fifo");
        assert_eq!(
            shell_word("-ol/tmp/a-b_c/run.fifo"),
            "-ol/tmp/a-b_c/run.fifo"
        );
    }

    #[test]
    fn a_name_a_shell_would_split_or_expand_is_quoted_as_one_word() {
        assert_eq!(shell_word("-olmy run.fifo"), "'-olmy run.fifo'");
        assert_eq!(shell_word("-ol$HOME/*.fifo"), "'-ol$HOME/*.fifo'");
        assert_eq!(shell_word("-olit's.fifo"), "'-olit'\\''s.fifo'");
    }
}
