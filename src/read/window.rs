//! Time windows (`--from T`, `--to T`): keep only the samples whose time lies inside the
//! window, exactly as if the other samples had been deleted from the `.hp` file by hand
//! (the GHC manual's recipe for zooming in on part of a profile).
//!
//! The window is applied while reading, by a sink (`Window`) between the reader and the
//! profile builder, so the builder sees the statements of the hand-cut file and nothing
//! else: the identifiers appear in the same order, the first and last kept samples set the
//! x axis, and the area in the title covers the window only.
//!
//! What "deleted by hand" means, precisely (a person cuts whole samples, from the
//! `BEGIN_SAMPLE` line to its `END_SAMPLE` line, at the start and at the end of the file):
//!
//! - A sample is kept when its time (the time of its `BEGIN_SAMPLE`) is inside the closed
//!   interval `[from, to]`. Sample times never decrease, so the kept samples are one run.
//! - A `MARK` is kept when it stands in the file *between* two kept samples. Marks before
//!   the first kept sample or after the last one go with the cut-off parts, whatever their
//!   time (a hand-cut file keeps a `MARK` line only where the person left it).
//! - Header lines (`JOB`, `DATE`, `SAMPLE_UNIT`, `VALUE_UNIT`) are kept wherever they are.
//! - Data lines outside samples (which GHC never writes) belong to the next sample, as in
//!   hp2ps, and are kept or dropped with it.
//!
//! The same holds for an eventlog's samples, which come in time order too.
//!
//! ```
//! use hp2ps::{load, LoadOptions, Source};
//!
//! let hp = b"JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n\
//!            BEGIN_SAMPLE 0.0\na 1\nEND_SAMPLE 0.0\nMARK 0.5\n\
//!            BEGIN_SAMPLE 1.0\na 2\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\nb 3\nEND_SAMPLE 2.0\n";
//! let mut opts = LoadOptions::default();
//! opts.from = Some(1.0);
//! let profile = load(Source::Bytes(hp), &opts).unwrap().profile;
//! assert_eq!(profile.times, [1.0, 2.0]);
//! assert!(profile.marks.is_empty()); // the mark stood before the first kept sample
//! ```

use crate::profile::keep::Sums;
use crate::profile::Profile;
use crate::seam::{HeaderField, ProfileBuilder, Sink};

/// The window, in SAMPLE_UNIT (`LoadOptions`'s `from` and `to`; the command line's). `None`
/// leaves that side open.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WindowOptions {
    /// Keep samples at or after this time. Default: `None`.
    pub from: Option<f64>,
    /// Keep samples at or before this time. Default: `None`.
    pub to: Option<f64>,
}

impl WindowOptions {
    /// The window from `from` to `to`; `None` leaves a side open.
    pub fn new(from: Option<f64>, to: Option<f64>) -> WindowOptions {
        WindowOptions { from, to }
    }

    /// Whether every sample is inside (no `from`, no `to`).
    pub fn is_everything(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }

    /// Whether a sample at `time` is kept.
    pub fn contains(&self, time: f64) -> bool {
        self.from.map_or(true, |f| time >= f) && self.to.map_or(true, |t| time <= t)
    }

    fn describe(&self) -> String {
        let side = |v: Option<f64>, open: &str| v.map_or(open.to_string(), |v| v.to_string());
        format!("[{}, {}]", side(self.from, "start"), side(self.to, "end"))
    }
}

/// Why a window gave no profile (a profile that cannot be read at all is the reader's
/// error).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum WindowError {
    /// `from` is after `to` (or one of them is NaN).
    #[error("the window {window} is empty: its start is after its end")]
    Inverted {
        /// The window, as `[from, to]`.
        window: String,
    },
    /// The profile is fine, but none of its samples lies inside the window.
    #[error("no sample lies in the window {window}: the samples run from {first} to {last}")]
    NoSampleInside {
        /// The window, as `[from, to]`.
        window: String,
        /// The time of the profile's first sample.
        first: f64,
        /// The time of the profile's last sample.
        last: f64,
    },
}

/// The profile a window let through; an error when it holds no sample.
pub(crate) fn finish(
    sink: Window<ProfileBuilder>,
    window: &WindowOptions,
) -> Result<Profile, WindowError> {
    finish_with(sink, window, |b| (b.finish(), ())).map(|(profile, ())| profile)
}

/// [`finish`] of a window in front of a builder that keeps no point
/// (`ProfileBuilder::summed`): the profile and the sums the builder made instead.
pub(crate) fn finish_summed(
    sink: Window<ProfileBuilder>,
    window: &WindowOptions,
) -> Result<(Profile, Option<Sums>), WindowError> {
    finish_with(sink, window, ProfileBuilder::finish_summed)
}

/// What `end` makes of the builder behind the window; an error when the profile holds
/// no sample.
fn finish_with<T>(
    sink: Window<ProfileBuilder>,
    window: &WindowOptions,
    end: impl FnOnce(ProfileBuilder) -> (Profile, T),
) -> Result<(Profile, T), WindowError> {
    let (first, last) = (sink.first_time, sink.last_time);
    let (profile, made) = end(sink.into_inner());
    if profile.times.is_empty() {
        return Err(WindowError::NoSampleInside {
            window: window.describe(),
            first: first.unwrap_or(0.0),
            last: last.unwrap_or(0.0),
        });
    }
    Ok((profile, made))
}

/// Checks that the window can hold a sample at all.
pub(crate) fn check(window: &WindowOptions) -> Result<(), WindowError> {
    let nan = window.from.is_some_and(f64::is_nan) || window.to.is_some_and(f64::is_nan);
    match (window.from, window.to) {
        (Some(f), Some(t)) if f > t => Err(WindowError::Inverted {
            window: window.describe(),
        }),
        _ if nan => Err(WindowError::Inverted {
            window: window.describe(),
        }),
        _ => Ok(()),
    }
}

/// A [`Sink`] that passes on the statements of the samples inside a window and drops the
/// rest, as a hand cut of the file would (see the module docs). Each sample is held back
/// until its `END_SAMPLE`, so a repeated `BEGIN_SAMPLE` decides with its final time.
pub(crate) struct Window<S> {
    inner: S,
    window: WindowOptions,
    /// The time of the sample being read, once its `BEGIN_SAMPLE` was seen.
    time: Option<f64>,
    /// The data of the sample being read: names end to end, and (end of name, value).
    names: Vec<u8>,
    data: Vec<(usize, f64)>,
    /// Marks read since the last complete sample, with their texts.
    marks: Vec<(f64, Option<Vec<u8>>)>,
    kept: usize,
    first_time: Option<f64>,
    last_time: Option<f64>,
}

impl<S: Sink> Window<S> {
    /// A window in front of `inner`.
    pub(crate) fn new(inner: S, window: WindowOptions) -> Window<S> {
        Window {
            inner,
            window,
            time: None,
            names: Vec::new(),
            data: Vec::new(),
            marks: Vec::new(),
            kept: 0,
            first_time: None,
            last_time: None,
        }
    }

    /// The sink behind the window.
    pub(crate) fn into_inner(self) -> S {
        self.inner
    }

    fn clear_sample(&mut self) {
        self.time = None;
        self.names.clear();
        self.data.clear();
    }
}

impl<S: Sink> Sink for Window<S> {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.inner.header(field, text);
    }

    fn mark(&mut self, time: f64) {
        self.marks.push((time, None));
    }

    fn labelled_mark(&mut self, time: f64, text: &[u8]) {
        self.marks.push((time, Some(text.to_vec())));
    }

    fn begin_sample(&mut self, time: f64) {
        self.time = Some(time);
    }

    fn end_sample(&mut self) {
        // The reader only ends a sample it began; a missing time cannot be kept.
        let Some(time) = self.time else {
            self.clear_sample();
            return;
        };
        self.first_time.get_or_insert(time);
        self.last_time = Some(time);
        if self.window.contains(time) {
            if self.kept > 0 {
                for (time, text) in &self.marks {
                    match text {
                        Some(text) => self.inner.labelled_mark(*time, text),
                        None => self.inner.mark(*time),
                    }
                }
            }
            self.inner.begin_sample(time);
            let mut start = 0;
            for &(end, value) in &self.data {
                self.inner.data(&self.names[start..end], value);
                start = end;
            }
            self.inner.end_sample();
            self.kept += 1;
        }
        self.marks.clear();
        self.clear_sample();
    }

    fn data(&mut self, name: &[u8], value: f64) {
        self.names.extend_from_slice(name);
        self.data.push((self.names.len(), value));
    }

    fn discard_incomplete_sample(&mut self) -> bool {
        let held = self.time.is_some() || !self.data.is_empty();
        self.clear_sample();
        self.marks.clear();
        self.inner.discard_incomplete_sample() || held
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load, LoadError, LoadOptions, Loaded, Source};
    use crate::read::hp::ReadOptions;

    const HEAD: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n";

    fn load_window(text: &str, from: Option<f64>, to: Option<f64>) -> Result<Loaded, LoadError> {
        let opts = LoadOptions {
            from,
            to,
            ..LoadOptions::default()
        };
        load(Source::Bytes(text.as_bytes()), &opts)
    }

    fn read(body: &str, from: Option<f64>, to: Option<f64>) -> Result<Profile, LoadError> {
        load_window(&format!("{HEAD}{body}"), from, to).map(|l| l.profile)
    }

    fn plain(body: &str) -> Profile {
        let text = format!("{HEAD}{body}");
        Profile::read(text.as_bytes(), &ReadOptions::default())
            .expect("valid profile")
            .0
    }

    const BODY: &str = "MARK 0.1\nBEGIN_SAMPLE 0.0\na 1\nb 2\nEND_SAMPLE 0.0\nMARK 0.5\n\
                        BEGIN_SAMPLE 1.0\nb 3\nc 4\nEND_SAMPLE 1.0\nMARK 1.5\n\
                        BEGIN_SAMPLE 2.0\nc 5\na 6\nEND_SAMPLE 2.0\nMARK 2.5\n";

    #[test]
    fn an_open_window_is_the_plain_reader() {
        assert_eq!(read(BODY, None, None).unwrap(), plain(BODY));
    }

    #[test]
    fn the_window_equals_the_hand_cut_file() {
        let cut = "BEGIN_SAMPLE 1.0\nb 3\nc 4\nEND_SAMPLE 1.0\nMARK 1.5\n\
                   BEGIN_SAMPLE 2.0\nc 5\na 6\nEND_SAMPLE 2.0\n";
        assert_eq!(read(BODY, Some(0.5), None).unwrap(), plain(cut));
        assert_eq!(read(BODY, Some(1.0), Some(2.0)).unwrap(), plain(cut));
        let middle = "BEGIN_SAMPLE 1.0\nb 3\nc 4\nEND_SAMPLE 1.0\n";
        assert_eq!(read(BODY, Some(1.0), Some(1.9)).unwrap(), plain(middle));
        let head = "MARK 0.1\nBEGIN_SAMPLE 0.0\na 1\nb 2\nEND_SAMPLE 0.0\nMARK 0.5\n\
                    BEGIN_SAMPLE 1.0\nb 3\nc 4\nEND_SAMPLE 1.0\n";
        // The first MARK stands before the first sample: dropped like every mark outside
        // the kept run.
        let mut expected = plain(head);
        expected.marks.remove(0);
        assert_eq!(read(BODY, None, Some(1.0)).unwrap(), expected);
    }

    #[test]
    fn identifiers_appear_in_the_order_of_the_kept_samples() {
        let p = read(BODY, Some(1.0), None).unwrap();
        let names: Vec<&[u8]> = p.bands.iter().map(|b| b.name.as_slice()).collect();
        assert_eq!(names, [b"b", b"c", b"a"]);
    }

    #[test]
    fn empty_and_inverted_windows_are_errors() {
        assert!(matches!(
            read(BODY, Some(3.0), None),
            Err(LoadError::NoSampleInWindow { first, last, .. })
                if first == 0.0 && last == 2.0
        ));
        assert!(matches!(
            read(BODY, Some(0.2), Some(0.8)),
            Err(LoadError::NoSampleInWindow { .. })
        ));
        assert!(matches!(
            read(BODY, Some(2.0), Some(1.0)),
            Err(LoadError::EmptyWindow { .. })
        ));
        assert!(matches!(
            read(BODY, Some(f64::NAN), None),
            Err(LoadError::EmptyWindow { .. })
        ));
        assert!(matches!(
            read("BEGIN_SAMPLE 0.0\n", Some(0.0), None),
            Err(LoadError::Hp(_))
        ));
    }

    #[test]
    fn an_incomplete_last_sample_is_still_dropped_with_a_warning() {
        let text = format!("{HEAD}{BODY}BEGIN_SAMPLE 3.0\na 7\n");
        let loaded = load_window(&text, Some(1.0), None).unwrap();
        assert_eq!(loaded.profile.times, [1.0, 2.0]);
        assert_eq!(loaded.warnings.len(), 1);
    }

    #[test]
    fn a_repeated_begin_sample_decides_with_its_last_time() {
        let body = "BEGIN_SAMPLE 0.0\na 1\nBEGIN_SAMPLE 1.0\nb 2\nEND_SAMPLE 1.0\n";
        let p = read(body, Some(0.5), None).unwrap();
        assert_eq!(p, plain(body));
    }
}
