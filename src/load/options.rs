//! [`LoadOptions`]: how an input becomes the profile the command draws.

use std::sync::Arc;

use super::binary::Binary;
use super::filter::BandFilter;
use crate::profile::keep::Drawing;
use crate::read::eventlog::bounded::Placement;
use crate::read::eventlog::EventlogOptions;
use crate::read::hp::ReadOptions;
use crate::read::window::WindowOptions;
use crate::symbolize::IpeNames;

/// How an input becomes the profile the command draws.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct LoadOptions {
    /// The `.hp` reader's limits. Default: [`ReadOptions::default`].
    pub hp: ReadOptions,
    /// How an eventlog becomes a profile (`--time`, `--full-names`).
    /// Default: [`EventlogOptions::default`].
    pub eventlog: EventlogOptions,
    /// `--from`: keep the samples at or after this time, in SAMPLE_UNIT, as if the
    /// earlier ones had been cut from the file by hand (`docs/guide.md`). Default:
    /// `None`, from the first sample.
    pub from: Option<f64>,
    /// `--to`: keep the samples at or before this time. Default: `None`, to the last.
    pub to: Option<f64>,
    /// `--ipe-names`: how the bands of a `-hi` profile are named. Default:
    /// [`IpeNames::Source`].
    pub ipe_names: IpeNames,
    /// `--binary`, or how to find the program an eventlog names: its symbols name the
    /// `-hi` bands that have no IPE entry. Default: [`Binary::None`].
    pub binary: Binary,
    /// `--heap-size`: an eventlog's heap size, live bytes and blocks size (GHC ≥ 9.2) as
    /// lines over the bands
    /// ([`crate::profile::Profile::series`]); a `.hp` has none, and gets a warning. Default: `false`.
    pub heap_size: bool,
    /// `--include`, `--exclude`: the bands kept. Default: every band.
    pub filter: BandFilter,
    /// For the second reading of a long mapped `.hp` (`crate::profile::keep`): each
    /// band's role, which the first decided; the profile then holds the drawn bands'
    /// points only. Default: `None`, every point.
    pub(crate) drawn: Option<Drawing>,
    /// For the second reading of a long mapped eventlog
    /// (`crate::read::eventlog::bounded`): where the first placed its censuses; each
    /// census then goes to the profile as it completes, none kept by the reader.
    /// Default: `None`, read whole.
    pub(crate) placed: Option<Arc<Placement>>,
}

impl LoadOptions {
    /// The time window `from` and `to` make.
    pub(crate) fn window(&self) -> WindowOptions {
        WindowOptions::new(self.from, self.to)
    }
}
