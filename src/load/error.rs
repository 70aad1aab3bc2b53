//! [`LoadError`]: why an input gave no profile.

use crate::read::eventlog::EventlogError;
use crate::read::hp::ReadError;
use crate::read::window::WindowError;

/// Why an input gave no profile.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A `.hp` file that could not be read (a positioned error, or the input's).
    #[error(transparent)]
    Hp(#[from] ReadError),
    /// An eventlog that could not be read.
    #[error(transparent)]
    Eventlog(#[from] EventlogError),
    /// `--from` is after `--to` (or one of them is NaN): the window cannot hold a
    /// sample.
    #[error("the window {window} is empty: its start is after its end")]
    EmptyWindow {
        /// The window, as `[from, to]`.
        window: String,
    },
    /// The profile is fine, but none of its samples lies inside the window.
    #[error("no sample lies in the window {window}: the samples run from {first} to {last}")]
    NoSampleInWindow {
        /// The window, as `[from, to]`.
        window: String,
        /// The time of the profile's first sample.
        first: f64,
        /// The time of the profile's last sample.
        last: f64,
    },
}

impl From<WindowError> for LoadError {
    fn from(e: WindowError) -> LoadError {
        match e {
            WindowError::Inverted { window } => LoadError::EmptyWindow { window },
            WindowError::NoSampleInside {
                window,
                first,
                last,
            } => LoadError::NoSampleInWindow {
                window,
                first,
                last,
            },
        }
    }
}
