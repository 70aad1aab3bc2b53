//! Reading back what a run's record kept ([`Ranged`]: a file's first bytes, while the
//! input's thread writes on after them), and sizes said to people ([`size`]).

use std::fs::File;
use std::io::{self, Read};

use crate::profile::spill::read_at;

/// A number of bytes for people: `316.0 MB`.
pub(super) fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} bytes"),
        _ => format!("{value:.1} {}", UNITS[unit]),
    }
}

/// Reads a file from its start to where it stood when the reader was made (a spool, or a
/// followed file), while the input's thread goes on after it.
pub(super) struct Ranged<'a> {
    file: &'a File,
    at: u64,
    end: u64,
}

impl Ranged<'_> {
    /// `file`'s first `end` bytes.
    pub(super) fn new(file: &File, end: u64) -> Ranged<'_> {
        Ranged { file, at: 0, end }
    }

    /// The file read.
    pub(super) fn file(&self) -> &File {
        self.file
    }

    /// Where it ends.
    pub(super) fn end(&self) -> u64 {
        self.end
    }

    /// Whether it was read to its end.
    pub(super) fn done(&self) -> bool {
        self.at >= self.end
    }
}

impl Read for Ranged<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let room = (self.end - self.at).min(buf.len() as u64) as usize;
        if room == 0 {
            return Ok(0);
        }
        let n = read_at(self.file, &mut buf[..room], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}
