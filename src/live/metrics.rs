//! A followed run's Prometheus metrics (`--serve`'s `metrics`): made from the samples
//! kept, with the page of the same update and from the same loading, by the painter of
//! `--format prometheus` (`paint::prometheus`), its band series named as the run's
//! earlier expositions named them (`Named`). Both formats are written at once: a scrape
//! only takes the one it asks for.

use super::{page_of, LiveError, LiveOptions, LiveProfile};
use crate::paint::html::Page;
use crate::paint::prometheus::{write_followed, Named};
use crate::paint::Format;
use crate::pipeline::{prepare, RenderOptions};

/// A run's metrics as a scrape takes them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Metrics {
    /// In Prometheus's text exposition format 0.0.4.
    pub(crate) text: Vec<u8>,
    /// In OpenMetrics's text format 1.0.
    pub(crate) openmetrics: Vec<u8>,
}

impl Metrics {
    /// The metrics of a run of which no census was read: none (OpenMetrics's end only).
    pub(crate) fn none() -> Metrics {
        Metrics {
            text: Vec::new(),
            openmetrics: b"# EOF\n".to_vec(),
        }
    }
}

/// What one loading of the samples kept makes.
pub(crate) struct Made {
    /// The page of the run so far, when asked for.
    pub(crate) page: Option<Page>,
    pub(crate) metrics: Metrics,
}

impl LiveProfile {
    /// The metrics of the run so far, its band series named as `named` says, and its
    /// page when `page` (the ordinary page's, as `--format html` draws the samples kept): the samples loaded once.
    pub(crate) fn made(
        self,
        opts: &LiveOptions,
        named: &mut Named,
        page: bool,
    ) -> Result<Made, LiveError> {
        let samples = self.samples;
        // The heap-size lines, which the metrics say where the log has them; the page
        // draws them only when asked to.
        let mut load = opts.load.clone();
        load.heap_size = true;
        let loaded = self.loaded(&load)?;
        let facts = loaded.facts();
        let render = RenderOptions {
            needs: Format::Prometheus.needs(),
            ..opts.render.clone()
        };
        // The page's chart is prepared from the same profile: a copy for the metrics'
        // (the samples kept: of a size that does not grow with the run).
        let (profile, for_page) = match page {
            true => {
                let mut drawn = loaded.profile.clone();
                if !opts.load.heap_size {
                    drawn.series.clear();
                }
                (loaded.profile, Some(drawn))
            }
            false => (loaded.profile, None),
        };
        let (chart, _) = prepare(profile, None, &render);
        let mut paint = opts.paint.clone();
        paint.facts = facts.clone();
        let mut metrics = Metrics::default();
        let before = named.clone();
        for (openmetrics, out) in [(false, &mut metrics.text), (true, &mut metrics.openmetrics)] {
            // Both formats name the same bands.
            *named = before.clone();
            paint.openmetrics = openmetrics;
            write_followed(&chart, &paint, named, samples, out)?;
        }
        let page = match for_page {
            None => None,
            Some(profile) => Some(page_of(profile, samples, &facts, opts)?),
        };
        Ok(Made { page, metrics })
    }
}
