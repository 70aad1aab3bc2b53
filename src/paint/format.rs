//! The output formats and the options of painting, whatever the format (the one place
//! that picks a painter for each is `write.rs`).

use super::census::Census;
use crate::defaults::{self, PAGE_TABLE_ROWS, PAGE_VALUES, VECTOR_MAX_BAND_POINTS};
use crate::needs::{Needs, XLabels};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// PostScript, as hp2ps writes it: a landscape page (portrait with `-g`), or
    /// Encapsulated when [`PaintOptions::eps_width`] is set (hp2ps's `-e`).
    Ps,
    /// Encapsulated PostScript, always: [`PaintOptions::eps_width`] wide, else at the
    /// border box's own width.
    Eps,
    /// One standalone SVG picture, pages stacked top to bottom.
    Svg,
    /// A PDF document, one page per chart page.
    Pdf,
    /// One self-contained interactive HTML page (see `docs/formats.md`).
    Html,
    /// Prometheus's metrics of the profile, in its text exposition format (or
    /// OpenMetrics's, [`PaintOptions::openmetrics`]): for node_exporter's textfile
    /// collector or the Pushgateway. An export of the chart's numbers, not a picture.
    Prometheus,
    /// One census of the profile ([`PaintOptions::census`]) as pprof's gzipped
    /// `profile.proto`, for `go tool pprof`, Pyroscope and Parca. An export of the
    /// chart's numbers, not a picture.
    Pprof,
}

impl Format {
    /// Every format, in the order the help lists them.
    pub const ALL: [Format; 7] = [
        Format::Ps,
        Format::Eps,
        Format::Svg,
        Format::Pdf,
        Format::Html,
        Format::Prometheus,
        Format::Pprof,
    ];

    /// The name: `ps`, `eps`, `svg`, `pdf`, `html`, `prometheus` or `pprof`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ps => "ps",
            Format::Eps => "eps",
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Html => "html",
            Format::Prometheus => "prometheus",
            Format::Pprof => "pprof",
        }
    }

    /// The file extension, without the dot: the name, but `prom` for Prometheus's
    /// metrics (the textfile collector reads `*.prom`) and `pb.gz` for pprof.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Prometheus => "prom",
            Format::Pprof => "pb.gz",
            format => format.name(),
        }
    }

    /// The format a file's name says by its extension (`x.svg`, `x.prom`, `x.pb.gz`), in
    /// any case.
    pub fn from_file_name(name: &[u8]) -> Option<Format> {
        Format::ALL.into_iter().find(|f| {
            let ext = f.extension().as_bytes();
            name.len() > ext.len()
                && name[name.len() - ext.len() - 1] == b'.'
                && name[name.len() - ext.len()..].eq_ignore_ascii_case(ext)
        })
    }

    /// `ps`, `eps`, `svg`, `pdf`, `html`, `prometheus` or `pprof`, in any case.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// Whether the format draws the chart (and a run writes its `.aux`, for the next
    /// run's `-p`), rather than exports its numbers (Prometheus, pprof).
    pub fn draws(self) -> bool {
        !matches!(self, Format::Prometheus | Format::Pprof)
    }

    /// What the format needs of aggregation and layout, in one place:
    /// [`crate::RenderOptions::for_format`] (and the command line) put it in
    /// `RenderOptions::needs`.
    pub(crate) fn needs(self) -> Needs {
        // The formats hp2ps does not have label the x ticks with the decimals the step
        // needs, and keep the samples that can be seen.
        let vector = Needs {
            x_labels: XLabels::ByStep,
            band_points: VECTOR_MAX_BAND_POINTS,
            ..Needs::default()
        };
        match self {
            // hp2ps's own PostScript: every sample, one decimal on the x ticks.
            Format::Ps => Needs::default(),
            // Encapsulated, hp2ps's labels still, and the samples that can be seen.
            Format::Eps => Needs {
                x_labels: XLabels::Hp2ps,
                ..vector
            },
            Format::Svg | Format::Pdf => vector,
            // The page's legend is HTML, beside a graph as wide as the page (hp2ps's
            // graph page when the key is on pages of its own); its table lists every
            // band, and it may carry the values of the bands not drawn.
            Format::Html => Needs {
                data: true,
                band_table: true,
                rest: true,
                key_pages: true,
                page_values: PAGE_VALUES,
                table_rows: PAGE_TABLE_ROWS,
                screen: true,
                lines_apart: true,
                ..vector
            },
            // The exports read every band's numbers at every sample, and the runtime's
            // heap lines where the log has them (on a scale of their own: the bands'
            // is the profile's peak).
            Format::Prometheus | Format::Pprof => Needs {
                data: true,
                every_band: true,
                heap_lines: true,
                lines_apart: true,
                ..Needs::default()
            },
        }
    }
}

/// How a chart is painted, whatever the format.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PaintOptions {
    /// The width in points that the 648 pt border box is scaled to (hp2ps's `-e`): of
    /// the EPS, SVG and PDF pictures, which are otherwise 648 pt wide. With
    /// [`Format::Ps`] it also makes the output Encapsulated, as `-e` does in hp2ps.
    /// Default: `None`.
    pub eps_width: Option<f64>,
    /// The name of the profile the chart is drawn from, for a format that shows it (the
    /// HTML page's heading and its chart's `data-run`). Default: `None`.
    pub source: Option<String>,
    /// What the HTML page's header says about the profile: what its eventlog told
    /// ([`PaintOptions::with_facts_of`]). Default: nothing.
    pub(crate) facts: crate::profile::ProfileFacts,
    /// How many bands Prometheus's metrics name (`-m`), the biggest by area; the others
    /// are summed as `OTHER`. Default: 20 ([`defaults::BAND_LIMIT`]).
    pub metric_bands: usize,
    /// Which census a pprof profile holds. Default: [`Census::Peak`].
    pub census: Census,
    /// Prometheus's metrics as OpenMetrics (`application/openmetrics-text`) rather than
    /// Prometheus's text format (`text/plain; version=0.0.4`). Default: `false`.
    pub openmetrics: bool,
}

impl Default for PaintOptions {
    fn default() -> Self {
        PaintOptions {
            eps_width: None,
            source: None,
            facts: crate::profile::ProfileFacts::default(),
            metric_bands: defaults::BAND_LIMIT as usize,
            census: Census::Peak,
            openmetrics: false,
        }
    }
}

impl PaintOptions {
    /// These options, with what the HTML page's header says of how the profile was made:
    /// what `loaded`'s eventlog told (its breakdown, sampling interval and runtime).
    pub fn with_facts_of(mut self, loaded: &crate::load::Loaded) -> PaintOptions {
        self.facts = loaded.facts();
        self
    }
}
