//! What a library user reads of a [`Chart`]: its header, its pages, and each drawn band
//! (name, colour, its top edge in points, its numbers), through getters and one small
//! view type, [`ChartBand`]. The chart's parts themselves (pages of boxes, ticks, text
//! and bands placed in points, with their fills) are the painters' and may change.

use super::chart::{BandShape, Chart, Graph};

impl Chart {
    /// The profile's JOB, as the title shows it in full.
    pub fn job(&self) -> &[u8] {
        &self.job
    }

    /// The profile's DATE.
    pub fn date(&self) -> &[u8] {
        &self.date
    }

    /// How many pages it has: one, or more when its key has pages of its own.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Whether it is drawn upright on its page (`-g`), rather than turned to landscape.
    pub fn is_portrait(&self) -> bool {
        self.portrait
    }

    /// The x of every drawn sample, in points.
    pub fn sample_xs(&self) -> &[f64] {
        self.graph().map_or(&[], |g| &g.xs)
    }

    /// The drawn bands, bottom band first.
    pub fn bands(&self) -> impl ExactSizeIterator<Item = ChartBand<'_>> + '_ {
        let bands = self.graph().map_or(&[][..], |g| &g.bands);
        bands.iter().map(|shape| ChartBand { shape })
    }

    fn graph(&self) -> Option<&Graph> {
        self.pages.iter().find_map(|p| p.graph.as_ref())
    }
}

/// One drawn band of a [`Chart`].
#[derive(Debug, Clone, Copy)]
pub struct ChartBand<'a> {
    shape: &'a BandShape,
}

impl<'a> ChartBand<'a> {
    /// Its name (OTHER for the bands gathered in one).
    pub fn name(&self) -> &'a [u8] {
        &self.shape.name
    }

    /// The colour it is filled with, in 8-bit sRGB (a pattern's background for
    /// `--pattern`).
    pub fn colour(&self) -> [u8; 3] {
        self.shape.fill.srgb()
    }

    /// Its top edge, one y per drawn sample ([`Chart::sample_xs`]), in points.
    pub fn top(&self) -> &'a [f64] {
        &self.shape.top
    }

    /// Its highest value in one drawn sample, and that sample's time.
    pub fn peak(&self) -> (f64, f64) {
        (self.shape.stats.peak, self.shape.stats.peak_time)
    }

    /// Its share of the drawn area (the title's), 0 to 1.
    pub fn share(&self) -> f64 {
        self.shape.stats.share
    }
}
