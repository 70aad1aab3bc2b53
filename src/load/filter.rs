//! `--include` and `--exclude`: keep or drop bands by name, the last step of loading,
//! after the bands have their final names and before anything of aggregation is decided
//! (trace elimination, OTHER), so a filtered chart is the chart of a profile that never
//! had those bands, and the summary describes what the chart shows.

use regex::bytes::Regex;

use crate::profile::area;
use crate::profile::{Band, Profile};

/// Which bands to keep, by regular expressions over their names (searched anywhere in the
/// name, as `grep` does; anchor with `^` and `$`).
///
/// A band is kept when it matches at least one `include` pattern (or there is none) and no
/// `exclude` pattern. The empty filter keeps everything.
#[derive(Debug, Clone, Default)]
pub struct BandFilter {
    include: Vec<Regex>,
    exclude: Vec<Regex>,
}

impl PartialEq for BandFilter {
    fn eq(&self, other: &BandFilter) -> bool {
        fn same(a: &[Regex], b: &[Regex]) -> bool {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.as_str() == y.as_str())
        }
        same(&self.include, &other.include) && same(&self.exclude, &other.exclude)
    }
}

impl BandFilter {
    /// Adds a pattern that keeps the bands it matches.
    pub fn include(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.include.push(Regex::new(pattern)?);
        Ok(())
    }

    /// Adds a pattern that drops the bands it matches.
    pub fn exclude(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.exclude.push(Regex::new(pattern)?);
        Ok(())
    }

    /// Whether the filter keeps every band.
    pub fn is_empty(&self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    /// Whether a band of this name is kept.
    pub fn keeps(&self, name: &[u8]) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(name)))
            && !self.exclude.iter().any(|r| r.is_match(name))
    }

    /// Drops the bands the filter does not keep, leaving the others in their order.
    fn apply(&self, bands: &mut Vec<Band>) {
        if !self.is_empty() {
            bands.retain(|b| self.keeps(&b.name));
        }
    }

    /// What the filter takes out of `profile`: the number of bands and their share of the
    /// area (the trapezoid integral of the stacked bands, as in the chart's title).
    pub fn filtered_out(&self, profile: &Profile) -> FilteredOut {
        let n = profile.times.len();
        let (dropped, kept): (Vec<&Band>, Vec<&Band>) =
            profile.bands.iter().partition(|b| !self.keeps(&b.name));
        let area_of = |bands: &[&Band]| {
            let mut heights = vec![0.0; n];
            for band in bands {
                for p in &band.points {
                    if let Some(h) = heights.get_mut(p.sample as usize) {
                        *h += p.value;
                    }
                }
            }
            area(&profile.times, &heights)
        };
        let (out, all) = (area_of(&dropped), area_of(&dropped) + area_of(&kept));
        FilteredOut {
            bands: dropped.len(),
            area: out,
            share: if all > 0.0 { out / all } else { 0.0 },
        }
    }
}

impl BandFilter {
    /// Takes the bands the filter drops out of `profile`, and says what they were.
    pub fn take_out(&self, profile: &mut Profile) -> FilteredOut {
        let out = self.filtered_out(profile);
        self.apply(&mut profile.bands);
        out
    }
}

/// The bands a [`BandFilter`] dropped.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct FilteredOut {
    /// How many bands.
    pub bands: usize,
    /// Their area, in VALUE_UNIT x SAMPLE_UNIT.
    pub area: f64,
    /// Their share of the whole profile's area, 0 to 1.
    pub share: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Point;

    fn band(name: &str, value: f64) -> Band {
        Band {
            name: name.as_bytes().to_vec(),
            points: vec![Point { sample: 0, value }, Point { sample: 1, value }],
        }
    }

    #[test]
    fn include_and_exclude_keep_exactly_the_named_bands() {
        let mut f = BandFilter::default();
        f.include("^Data\\.Map").unwrap();
        f.exclude("Internal$").unwrap();
        assert!(f.keeps(b"Data.Map.insert"));
        assert!(!f.keeps(b"Data.Map.Internal"));
        assert!(!f.keeps(b"main"));
        let mut bands = vec![
            band("main", 1.0),
            band("Data.Map.x", 2.0),
            band("Data.Map.Internal", 3.0),
        ];
        f.apply(&mut bands);
        assert_eq!(bands.len(), 1);
        assert_eq!(bands[0].name, b"Data.Map.x");
    }

    #[test]
    fn the_empty_filter_keeps_everything_and_bad_patterns_are_refused() {
        let f = BandFilter::default();
        assert!(f.is_empty() && f.keeps(b"anything"));
        assert!(BandFilter::default().include("(").is_err());
    }

    #[test]
    fn filtered_out_counts_bands_and_area() {
        let mut f = BandFilter::default();
        f.exclude("^b$").unwrap();
        let profile = Profile {
            times: vec![0.0, 2.0],
            bands: vec![band("a", 3.0), band("b", 1.0)],
            ..Profile::default()
        };
        let out = f.filtered_out(&profile);
        assert_eq!(out.bands, 1);
        assert_eq!(out.area, 2.0);
        assert_eq!(out.share, 0.25);
    }
}
