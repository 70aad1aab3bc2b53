//! The one place that picks a painter for each format: a chart, or the page of several
//! runs. Its own file so that the painters, which read [`PaintOptions`], do not use the
//! file that uses them.

use std::io::{self, Write};

use super::format::{Format, PaintOptions};
use super::html::write_html_page;
use super::pdf::{write_pdf, PdfOptions};
use super::pprof::write_pprof;
use super::prometheus::write_prometheus;
use super::ps::{write_ps, PsOptions};
use super::svg::{write_svg, SvgOptions};
use crate::layout::chart::{Chart, BORDER_WIDTH};

impl Chart {
    /// Paints the chart in `format` (a picture, the HTML page or an export of its
    /// numbers) to `out`.
    pub fn write<W: Write>(
        &self,
        format: Format,
        opts: &PaintOptions,
        out: &mut W,
    ) -> io::Result<()> {
        let chart = self;
        let width = opts.eps_width.unwrap_or(BORDER_WIDTH);
        match format {
            Format::Ps | Format::Eps => {
                let eps_width = match format {
                    Format::Eps => Some(width),
                    _ => opts.eps_width,
                };
                let ps = PsOptions {
                    eps_width,
                    ..PsOptions::default()
                };
                write_ps(chart, &ps, out)
            }
            Format::Svg => write_svg(chart, &SvgOptions { width }, out),
            Format::Pdf => {
                let pdf = PdfOptions {
                    width,
                    ..PdfOptions::default()
                };
                write_pdf(chart, &pdf, out)
            }
            Format::Html => write_html_page(&[(chart, opts.source.as_deref(), &opts.facts)], out),
            Format::Prometheus => write_prometheus(chart, opts, out),
            Format::Pprof => write_pprof(chart, opts, out),
        }
    }

    /// Writes one HTML page of several charts (the runs of [`crate::prepare_runs`]),
    /// each named by its [`PaintOptions::source`], with a view of their differences.
    pub fn write_runs_page<W: Write>(
        runs: &[(&Chart, &PaintOptions)],
        out: &mut W,
    ) -> io::Result<()> {
        let charts: Vec<_> = (runs.iter())
            .map(|(chart, opts)| (*chart, opts.source.as_deref(), &opts.facts))
            .collect();
        write_html_page(&charts, out)
    }
}
