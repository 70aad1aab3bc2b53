//! A chart as the command paints it ([`Painted`]): in its format, or as the HTML page
//! the page builder makes once (which says what it left out), and its writing to stdout.
//! Apart from `render.rs` because painting is the step after a render's reading and
//! preparing, which filter mode (`stdin_filter.rs`) takes too.

use std::io::{self, Write};

use crate::paint::html::Page;
use crate::Chart;
use crate::{Format, PaintOptions};

use super::done::Done;
use crate::cli::Invocation;

/// A chart as the command paints it, in its format: an HTML page is made once, by the
/// page builder, which says what it left out (on the page, and in `done`'s warnings).
pub(super) struct Painted<'a> {
    chart: &'a Chart,
    format: Format,
    paint: PaintOptions,
    page: Option<Page>,
}

impl<'a> Painted<'a> {
    /// `chart` of the input named `source` (`input` in messages), painted as `inv` asks,
    /// with the facts `done` has of it.
    pub(super) fn new(
        inv: &Invocation,
        chart: &'a Chart,
        source: Option<&str>,
        input: &str,
        done: &mut Done,
        time: Option<&super::time_page::TimeRead>,
    ) -> Result<Painted<'a>, String> {
        let mut paint = inv.paint.clone();
        paint.source = source.map(str::to_string).or(paint.source);
        paint.facts = done.facts.clone();
        let format = inv.format();
        let page = match format {
            Format::Html => {
                let (source, sampled) = (paint.source.as_deref(), done.sampled.as_ref());
                let run = super::time_page::heap_run(chart, source, &paint.facts, time, sampled)
                    .map_err(|e| format!("cannot paint the page: {e}"))?;
                let page = Page::of(&[run]);
                let notes = page.notes.iter().flatten();
                let lines = notes.map(|n| format!("hp2ps: warning: {input}: {n}"));
                done.warnings.extend(lines);
                Some(page)
            }
            _ => None,
        };
        Ok(Painted {
            chart,
            format,
            paint,
            page,
        })
    }

    pub(super) fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        match &self.page {
            Some(page) => page.write(out),
            None => self.chart.write(self.format, &self.paint, out),
        }
    }
}

pub(super) fn write_stdout(painted: &Painted<'_>) -> Result<(), String> {
    super::atomic::write_stdout(|out| painted.write(out))
}
