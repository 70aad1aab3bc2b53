//! One way in for every input: its first bytes say which reader reads it. An input that
//! starts with the eventlog magic (`hdrb`) is a GHC eventlog, whatever its name; anything
//! else is a `.hp` file. Both go through the same time window into the same
//! [`ProfileBuilder`], so everything after reading is shared.

use std::io::{self, Read};

use super::eventlog::{self, EventlogError, EventlogOptions, EventlogReport};
use super::hp::{ReadError, ReadOptions, Warning};
use super::window::{self, Window, WindowError, WindowOptions};
use crate::profile::{Profile, ProfileBuilder};
use crate::read::Sink;

/// How an input becomes a profile.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct InputOptions {
    /// The `.hp` reader's limits. Default: [`ReadOptions::default`].
    pub hp: ReadOptions,
    /// How an eventlog becomes a profile (`--time`, `--full-names`).
    /// Default: [`EventlogOptions::default`].
    pub eventlog: EventlogOptions,
    /// `--from`, `--to`: the samples kept. Default: every sample.
    pub window: WindowOptions,
}

/// What the reader said besides the profile.
#[derive(Debug)]
pub enum Notes {
    /// A `.hp` file, with the damage its reader tolerated.
    Hp(Vec<Warning>),
    /// An eventlog, with everything its reader learnt (warnings, marker texts, heap sizes).
    Eventlog(EventlogReport),
}

impl Notes {
    /// The warnings, one line each (positions first, as `FILE:` will be put before them).
    pub fn warning_lines(&self) -> Vec<String> {
        match self {
            Notes::Hp(warnings) => warnings.iter().map(|w| w.to_string()).collect(),
            Notes::Eventlog(report) => report.warnings.iter().map(|w| format!(" {w}")).collect(),
        }
    }
}

/// Why an input gave no profile.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A `.hp` file that could not be read, or a window that holds no sample.
    #[error(transparent)]
    Hp(#[from] WindowError),
    /// An eventlog that could not be read.
    #[error(transparent)]
    Eventlog(#[from] EventlogError),
}

/// The first bytes of every GHC eventlog.
pub const EVENTLOG_MAGIC: &[u8; 4] = b"hdrb";

/// Reads a `.hp` file or an eventlog, whichever `input` is, keeping the samples of the
/// window. The bands of a `-hi` profile keep their address labels:
/// [`crate::symbolize::name_bands`] names them, from an eventlog's
/// [`EventlogReport::ipe`] and the program's symbols.
pub fn read_input<R: Read>(
    mut input: R,
    opts: &InputOptions,
) -> Result<(Profile, Notes), InputError> {
    let mut head = [0u8; 4];
    let got = read_up_to(&mut input, &mut head).map_err(|e| WindowError::Read(ReadError::Io(e)))?;
    let input = io::Cursor::new(head[..got].to_vec()).chain(input);
    if &head[..got] != EVENTLOG_MAGIC {
        let (profile, warnings) = window::read_profile(input, &opts.hp, &opts.window)?;
        return Ok((profile, Notes::Hp(warnings)));
    }
    eventlog_profile(opts, |sink| {
        eventlog::read_eventlog(input, &opts.eventlog, sink)
    })
}

/// [`read_input`] of bytes already in memory (a mapped file), read in place.
/// `release(n)` is called once the first `n` bytes are no longer needed.
pub fn read_input_slice(
    bytes: &[u8],
    opts: &InputOptions,
    release: &mut dyn FnMut(usize),
) -> Result<(Profile, Notes), InputError> {
    if !bytes.starts_with(EVENTLOG_MAGIC) {
        let (profile, warnings) =
            window::read_profile_slice(bytes, &opts.hp, &opts.window, release)?;
        return Ok((profile, Notes::Hp(warnings)));
    }
    eventlog_profile(opts, |sink| {
        eventlog::read_eventlog_slice(bytes, &opts.eventlog, sink, release)
    })
}

/// The profile of an eventlog that `read` hands to the sink it is given, through the
/// time window.
fn eventlog_profile(
    opts: &InputOptions,
    read: impl FnOnce(&mut dyn Sink) -> Result<EventlogReport, EventlogError>,
) -> Result<(Profile, Notes), InputError> {
    if opts.window.is_everything() {
        let mut builder = ProfileBuilder::default();
        let report = read(&mut builder)?;
        return Ok((builder.finish(), Notes::Eventlog(report)));
    }
    window::check(&opts.window)?;
    let mut sink = Window::new(ProfileBuilder::default(), opts.window);
    let report = read(&mut sink)?;
    let profile = window::finish(sink, &opts.window)?;
    Ok((profile, Notes::Eventlog(report)))
}

/// Reads until `buf` is full or the input ends; returns how much was read.
fn read_up_to<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HP: &[u8] = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
        BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na 2\nEND_SAMPLE 1.0\n";

    #[test]
    fn text_is_read_as_a_hp_file() {
        let (profile, notes) = read_input(HP, &InputOptions::default()).unwrap();
        assert_eq!(profile.times, [0.0, 1.0]);
        assert!(matches!(notes, Notes::Hp(w) if w.is_empty()));
    }

    #[test]
    fn the_magic_picks_the_eventlog_reader() {
        let err = read_input(&b"hdrb and then nothing"[..], &InputOptions::default());
        assert!(matches!(err, Err(InputError::Eventlog(_))), "{err:?}");
        // Short or empty inputs are `.hp` files (and fail as such).
        assert!(matches!(
            read_input(&b"hd"[..], &InputOptions::default()),
            Err(InputError::Hp(_))
        ));
        assert!(matches!(
            read_input(&b""[..], &InputOptions::default()),
            Err(InputError::Hp(_))
        ));
    }
}
