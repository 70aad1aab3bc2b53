//! Which reader reads an input: its first bytes say. An input that starts with the
//! eventlog magic (`hdrb`) is a GHC eventlog, whatever its name; anything else is a `.hp`
//! file. Both go through the same time window into the same profile builder, so
//! everything after reading is shared.

use std::io::{self, Read};
use std::sync::Arc;

use super::{LoadError, LoadOptions};
use crate::profile::keep::{BandTotals, Growth, Sums};
use crate::profile::Profile;
use crate::read::eventlog::bounded::{self, Placement};
use crate::read::eventlog::{self, EventlogError, EventlogReport};
use crate::read::hp::{self, ReadError, Warning};
use crate::read::kind::InputKind;
use crate::read::window::{self, Window};
use crate::seam::{ProfileBuilder, Sink};

/// Where [`super::load`] reads a profile from.
pub enum Source<'a> {
    /// Any stream (a file, stdin, a pipe), read as it comes, in a few large blocks at a
    /// time: memory grows with the profile, not with the input.
    Stream(&'a mut dyn Read),
    /// Bytes already in memory (a file read whole), read in place, on every core. The
    /// profile is the one the same bytes give as a stream.
    Bytes(&'a [u8]),
    /// Bytes in memory whose front the caller can give back as reading goes (a memory
    /// map dropping the pages read): [`Source::Bytes`], with `release(n)` called once
    /// the first `n` bytes are no longer needed.
    Mapped {
        /// The whole input.
        bytes: &'a [u8],
        /// Called with how many bytes from the start are no longer needed.
        release: &'a mut dyn FnMut(usize),
    },
}

/// What the reader said besides the profile.
pub(crate) enum Notes {
    /// A `.hp` file, with the damage its reader tolerated.
    Hp(Vec<Warning>),
    /// An eventlog, with everything its reader learnt (warnings, marker texts, heap sizes).
    Eventlog(Box<EventlogReport>),
}

/// Reads `source`, a `.hp` file or an eventlog, keeping the samples of the window.
pub(crate) fn read_source(
    source: Source<'_>,
    opts: &LoadOptions,
) -> Result<(Profile, Notes), LoadError> {
    match source {
        Source::Stream(input) => read_stream(input, opts),
        Source::Bytes(bytes) => read_bytes(bytes, opts, &mut |_| {}),
        Source::Mapped { bytes, release } => read_bytes(bytes, opts, release),
    }
}

fn read_stream(input: &mut dyn Read, opts: &LoadOptions) -> Result<(Profile, Notes), LoadError> {
    let mut head = [0u8; InputKind::HEAD];
    let got = read_up_to(&mut *input, &mut head).map_err(ReadError::Io)?;
    let head = &head[..got];
    let input = io::Cursor::new(head.to_vec()).chain(input);
    if InputKind::of(head) == InputKind::Eventlog {
        return eventlog_profile(opts, |sink| {
            eventlog::read_eventlog(input, &opts.eventlog, sink)
        });
    }
    if !opts.window().is_everything() {
        let (profile, warnings) = windowed(opts, |sink| hp::read_into(input, &opts.hp, sink))?;
        return Ok((profile, Notes::Hp(warnings)));
    }
    let mut builder = ProfileBuilder::default();
    let warnings = hp::read_into_parallel(input, &opts.hp, &mut builder)?;
    Ok((builder.finish(), Notes::Hp(warnings)))
}

/// [`read_stream`] of bytes already in memory, read in place.
fn read_bytes(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
) -> Result<(Profile, Notes), LoadError> {
    let everything = opts.window().is_everything();
    match (InputKind::of(bytes), &opts.placed) {
        (InputKind::Eventlog, Some(placed)) if everything => {
            let mut builder = match &opts.drawn {
                Some(drawing) => ProfileBuilder::drawn_only(drawing.clone()),
                None => ProfileBuilder::default(),
            };
            let report = stream_placed(bytes, opts, placed, &mut builder, release)?;
            return Ok((builder.finish(), Notes::Eventlog(Box::new(report))));
        }
        (InputKind::Eventlog, _) => {
            return eventlog_profile(opts, |sink| {
                eventlog::read_eventlog_slice(bytes, &opts.eventlog, sink, release)
            });
        }
        _ => {}
    }
    if !everything {
        let (profile, warnings) = windowed(opts, |sink| hp::read_into(bytes, &opts.hp, sink))?;
        return Ok((profile, Notes::Hp(warnings)));
    }
    let mut builder = match &opts.drawn {
        Some(drawing) => ProfileBuilder::drawn_only(drawing.clone()),
        None => ProfileBuilder::default(),
    };
    let warnings = hp::read_slice_parallel(bytes, &opts.hp, &mut builder, release)?;
    Ok((builder.finish(), Notes::Hp(warnings)))
}

/// The first reading of a long mapped `.hp` (`crate::profile::keep`): every band's name
/// and total, keeping no point; an eventlog's are its placement's
/// ([`eventlog_placement`]: `None` when not placed), or `None` for a `.hp` the reader
/// refuses (the ordinary reading then says why). The reader's workers add the points
/// up; in the rare file whose sums that cannot take (a band's total past 2^53), the
/// `.hp` is read again point by point, after `again` (the caller's map then gives its
/// pages back from the start anew).
pub(crate) fn band_totals(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
    again: &dyn Fn(),
) -> Option<BandTotals> {
    match (InputKind::of(bytes), &opts.placed) {
        (InputKind::Hp, _) => {
            let mut builder = ProfileBuilder::totals_only();
            hp::read_slice_parallel(bytes, &opts.hp, &mut builder, release).ok()?;
            if builder.sums_spoiled() {
                again();
                builder = ProfileBuilder::totals_by_points();
                hp::read_slice_parallel(bytes, &opts.hp, &mut builder, release).ok()?;
            }
            builder.band_totals()
        }
        (InputKind::Eventlog, Some(placed)) => placed.totals.clone(),
        _ => None,
    }
}

/// The first reading of a long mapped eventlog (`crate::read::eventlog::bounded`): where
/// its censuses go, keeping none, and, when `totals`, every band's name and total (as
/// [`band_totals`] finds a `.hp`'s); `None` for a `.hp`, a log the reader refuses (the
/// whole reading then says why), or one whose censuses must be read whole.
pub(crate) fn eventlog_placement(
    bytes: &[u8],
    opts: &LoadOptions,
    totals: bool,
    release: &mut dyn FnMut(usize),
) -> Option<Arc<Placement>> {
    if InputKind::of(bytes) != InputKind::Eventlog {
        return None;
    }
    let placed = bounded::place(bytes, &opts.eventlog, totals, release).ok()??;
    Some(Arc::new(placed))
}

/// The second reading of an eventlog whose first gave `placed`, into `sink`: the
/// whole reading's report (its warnings included).
fn stream_placed(
    bytes: &[u8],
    opts: &LoadOptions,
    placed: &Placement,
    sink: &mut dyn Sink,
    release: &mut dyn FnMut(usize),
) -> Result<EventlogReport, LoadError> {
    if !bounded::stream(bytes, &opts.eventlog, placed, sink, release)? {
        let changed = io::Error::other("the eventlog changed between its two readings");
        return Err(EventlogError::Io(changed).into());
    }
    Ok(placed.report.clone())
}

/// The reading of a long mapped `.hp` for its summary (issue 39): the profile without
/// its points, what the reader said, and the sums the summary needs instead
/// (`crate::profile::keep::Sums`); `None` for an eventlog its first reading did not
/// place (`opts.placed`, `crate::read::eventlog::bounded`). A time window is read by the
/// one-thread reader, as [`read_bytes`] reads it, its bytes given back as they are read.
pub(crate) fn read_summed(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Profile, Notes, Sums)>, LoadError> {
    let placed = match (InputKind::of(bytes), &opts.placed) {
        (InputKind::Hp, _) => None,
        (InputKind::Eventlog, Some(placed)) => Some(placed),
        _ => return Ok(None),
    };
    if let Some(placed) = placed {
        let notes = || Notes::Eventlog(Box::new(placed.report.clone()));
        if !opts.window().is_everything() {
            window::check(&opts.window())?;
            let mut sink = Window::new(ProfileBuilder::summed(), opts.window());
            stream_placed(bytes, opts, placed, &mut sink, release)?;
            let (profile, sums) = window::finish_summed(sink, &opts.window())?;
            return Ok(sums.map(|sums| (profile, notes(), sums)));
        }
        let mut builder = ProfileBuilder::summed();
        stream_placed(bytes, opts, placed, &mut builder, release)?;
        let (profile, sums) = builder.finish_summed();
        return Ok(sums.map(|sums| (profile, notes(), sums)));
    }
    if !opts.window().is_everything() {
        window::check(&opts.window())?;
        let mut sink = Window::new(ProfileBuilder::summed(), opts.window());
        let input = Released {
            bytes,
            at: 0,
            release,
        };
        let warnings = hp::read_into(input, &opts.hp, &mut sink)?;
        let (profile, sums) = window::finish_summed(sink, &opts.window())?;
        return Ok(sums.map(|sums| (profile, Notes::Hp(warnings), sums)));
    }
    let mut builder = ProfileBuilder::summed();
    let warnings = hp::read_slice_parallel(bytes, &opts.hp, &mut builder, release)?;
    let (profile, sums) = builder.finish_summed();
    Ok(sums.map(|sums| (profile, Notes::Hp(warnings), sums)))
}

/// The second reading of a long mapped `.hp` for the growth of its bands, which
/// [`read_summed`] of the same bytes and options gave `sums` of: each band's growth, in
/// the profile's order of bands, and their sparklines (`None` for an eventlog not
/// placed). `times` are that profile's.
pub(crate) fn read_slopes(
    bytes: &[u8],
    opts: &LoadOptions,
    times: &[f64],
    sums: &Sums,
    release: &mut dyn FnMut(usize),
) -> Result<Option<Growth>, LoadError> {
    let placed = match (InputKind::of(bytes), &opts.placed) {
        (InputKind::Hp, _) => None,
        (InputKind::Eventlog, Some(placed)) => Some(placed),
        _ => return Ok(None),
    };
    let builder = ProfileBuilder::sloped(times.to_vec(), &sums.values);
    if let Some(placed) = placed {
        if !opts.window().is_everything() {
            let mut sink = Window::new(builder, opts.window());
            stream_placed(bytes, opts, placed, &mut sink, release)?;
            return Ok(sink.into_inner().finish_sloped());
        }
        let mut builder = builder;
        stream_placed(bytes, opts, placed, &mut builder, release)?;
        return Ok(builder.finish_sloped());
    }
    if !opts.window().is_everything() {
        let mut sink = Window::new(builder, opts.window());
        let input = Released {
            bytes,
            at: 0,
            release,
        };
        hp::read_into(input, &opts.hp, &mut sink)?;
        return Ok(sink.into_inner().finish_sloped());
    }
    let mut builder = builder;
    hp::read_slice_parallel(bytes, &opts.hp, &mut builder, release)?;
    Ok(builder.finish_sloped())
}

/// The first reading of a long mapped `.hp` or placed eventlog for its page:
/// [`band_totals`] and [`read_summed`] in one; `None` for an eventlog not placed
/// (`opts.placed`) or a time window.
pub(crate) fn read_totals_summed(
    bytes: &[u8],
    opts: &LoadOptions,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Profile, Notes, Sums, BandTotals)>, LoadError> {
    if !opts.window().is_everything() {
        return Ok(None);
    }
    let mut builder = ProfileBuilder::totals_summed();
    let Some(notes) = read_placed_or_hp(bytes, opts, &mut builder, release)? else {
        return Ok(None);
    };
    let (profile, sums, totals) = builder.finish_totals_summed();
    Ok(sums
        .zip(totals)
        .map(|(sums, totals)| (profile, notes, sums, totals)))
}

/// A whole reading of a mapped `.hp` (on every core), or the second of a placed
/// eventlog, into `builder`: what the reader said; `None` for an eventlog not placed.
fn read_placed_or_hp(
    bytes: &[u8],
    opts: &LoadOptions,
    builder: &mut ProfileBuilder,
    release: &mut dyn FnMut(usize),
) -> Result<Option<Notes>, LoadError> {
    Ok(match (InputKind::of(bytes), &opts.placed) {
        (InputKind::Hp, _) => Some(Notes::Hp(hp::read_slice_parallel(
            bytes, &opts.hp, builder, release,
        )?)),
        (InputKind::Eventlog, Some(placed)) => {
            let report = stream_placed(bytes, opts, placed, builder, release)?;
            Some(Notes::Eventlog(Box::new(report)))
        }
        (InputKind::Eventlog, None) => None,
    })
}

/// The second reading of a long mapped `.hp` for its page, which
/// [`read_totals_summed`] of the same bytes gave `sums` of: the drawn bands' points as
/// `opts.drawn` says ([`read_source`]'s), and the bands' growth ([`read_slopes`]'s) in
/// one; `None` for an eventlog not placed, a time window or without `opts.drawn`.
/// `times` (the first reading's) are lent to the reading, not copied, and are there again
/// after it, whatever its result.
pub(crate) fn read_drawn_sloped(
    bytes: &[u8],
    opts: &LoadOptions,
    times: &mut Vec<f64>,
    sums: &Sums,
    release: &mut dyn FnMut(usize),
) -> Result<Option<(Profile, Notes, Growth)>, LoadError> {
    let Some(drawing) = &opts.drawn else {
        return Ok(None);
    };
    if !opts.window().is_everything() {
        return Ok(None);
    }
    let lent = std::mem::take(times);
    let mut builder = ProfileBuilder::drawn_sloped(drawing.clone(), lent, &sums.values);
    let read = read_placed_or_hp(bytes, opts, &mut builder, release);
    let (profile, growth, back) = builder.finish_drawn_sloped();
    *times = back;
    let Some(notes) = read? else {
        return Ok(None);
    };
    Ok(growth.map(|growth| (profile, notes, growth)))
}

/// The profile that `read` hands to the time window of `opts`, and what `read` returns.
fn windowed<T, E>(
    opts: &LoadOptions,
    read: impl FnOnce(&mut Window<ProfileBuilder>) -> Result<T, E>,
) -> Result<(Profile, T), LoadError>
where
    LoadError: From<E>,
{
    window::check(&opts.window())?;
    let mut sink = Window::new(ProfileBuilder::default(), opts.window());
    let notes = read(&mut sink)?;
    Ok((window::finish(sink, &opts.window())?, notes))
}

/// The profile of an eventlog that `read` hands to the sink it is given, through the
/// time window.
fn eventlog_profile(
    opts: &LoadOptions,
    read: impl FnOnce(&mut dyn Sink) -> Result<EventlogReport, EventlogError>,
) -> Result<(Profile, Notes), LoadError> {
    let (profile, report) = through_window(opts, read)?;
    Ok((profile, Notes::Eventlog(Box::new(report))))
}

/// The profile that `read` hands to the sink it is given: the profile builder itself
/// when the window keeps everything, else the window in front of it; and what `read`
/// returns.
pub(super) fn through_window<T, E>(
    opts: &LoadOptions,
    read: impl FnOnce(&mut dyn Sink) -> Result<T, E>,
) -> Result<(Profile, T), LoadError>
where
    LoadError: From<E>,
{
    if opts.window().is_everything() {
        let mut builder = ProfileBuilder::default();
        let got = read(&mut builder)?;
        return Ok((builder.finish(), got));
    }
    windowed(opts, |sink| read(sink))
}

/// Bytes in memory read as a stream, each part given back once read (`release`).
struct Released<'a> {
    bytes: &'a [u8],
    at: usize,
    release: &'a mut dyn FnMut(usize),
}

impl Read for Released<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.bytes[self.at..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        (self.release)(self.at);
        Ok(n)
    }
}

/// Reads until `buf` is full or the input ends; returns how much was read.
fn read_up_to(input: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
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
