//! A band's own numbers over every sample, as aggregation works them out for the summary
//! and the HTML page's band table, and what became of the band in the chart.

use serde::Serialize;

/// What became of a band in the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Fate {
    /// Drawn as a band of its own.
    Drawn,
    /// Merged into OTHER by the band limit (`-m`).
    Other,
    /// Dropped as a trace (`-t`).
    Trace,
    /// Dropped with every other band by a negative band limit.
    Dropped,
}

/// One band's numbers over every sample of the profile.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BandNumbers {
    /// The band's identifier.
    pub name: Vec<u8>,
    /// Its highest value in one sample (0 when it never rises above 0).
    pub peak: f64,
    /// The time of the first sample with that value (the first sample's when 0).
    pub peak_time: f64,
    /// Its own trapezoid integral over time, in VALUE_UNIT x SAMPLE_UNIT.
    pub area: f64,
    /// `area` as a share of the area of all bands together, 0 to 1 (0 when that is 0).
    pub share: f64,
    /// The slope of the least-squares line through its values (`--sort growth`'s), in
    /// VALUE_UNIT per SAMPLE_UNIT; 0 when not asked for.
    pub slope: f64,
    /// Its highest value in each of `SPARK_POINTS` (40) slices of the samples, equal in
    /// number of samples (all its values when there are fewer samples); empty when not
    /// asked for.
    pub spark: Vec<f64>,
    /// What became of it in the chart ([`Fate::Drawn`] until the aggregation says).
    pub fate: Fate,
}
