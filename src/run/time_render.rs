//! A time profile drawn (`hp2ps prog.prof`, `-o flame.svg`, `--output-dir`, batch,
//! `--watch`): its flame graph, in the format asked (SVG, PDF, PS or EPS), named as a
//! heap profile's chart is (`dir/prog.prof` writes `./prog.ps`), written atomically; or
//! its costs by stack as a pprof profile (`--format pprof`). A time profile has no
//! `.aux` (`-p` is refused), and Prometheus's metrics are of a heap profile's numbers
//! (refused too: a finished time profile's two totals are `--summary=json`'s).

use std::io::{self, Write};
use std::path::PathBuf;

use crate::layout::flame::{flame_chart, FlameOptions};
use crate::paint::{write_flame, write_time_pprof};
use crate::summary::TimeSummary;
use crate::{Format, TimeProfile};

use super::atomic::write_output;
use super::names::{check_output, FileNames};
use super::render::{Done, Failure};
use super::time_read::read_time;
use crate::cli::Invocation;

/// Why `inv` cannot draw a time profile, or `Ok`.
pub(crate) fn refusal(inv: &Invocation) -> Result<(), String> {
    let format = inv.format();
    if inv.use_aux && inv.renders() {
        return Err(String::from(
            "-p reads the .aux of a heap profile's chart: a time profile has none",
        ));
    }
    if inv.renders() && !format.draws_flame() && !matches!(format, Format::Html | Format::Pprof) {
        return Err(format!(
            "a time profile is drawn as a flame graph (--format svg, pdf, ps, eps) or a \
             page (--format html), or exported as pprof, not as {}",
            format.name()
        ));
    }
    Ok(())
}

/// The flame graph's options of the command line: the `-e` width, when given.
fn flame_options(inv: &Invocation) -> FlameOptions {
    let mut opts = FlameOptions::default();
    if let Some(w) = inv.paint.eps_width.filter(|w| w.is_finite() && *w > 100.0) {
        opts.width = w;
    }
    opts
}

/// Renders the time profile of one file argument as a single-file run would.
pub(crate) fn render_time_file(inv: &Invocation, names: &FileNames) -> Result<Done, Failure> {
    check_output(inv, names)?;
    refusal(inv)?;
    let read = read_time(names.input.as_os_str(), inv.watch.is_none())?;
    render_time_read(inv, names, read)
}

/// [`render_time_file`] of a time profile already `read` (with its warnings' lines).
pub(crate) fn render_time_read(
    inv: &Invocation,
    names: &FileNames,
    (profile, warnings): (TimeProfile, Vec<String>),
) -> Result<Done, Failure> {
    check_output(inv, names)?;
    refusal(inv)?;
    let name = names.input.display().to_string();
    let done = Done {
        warnings,
        time_summary: (inv.summary)
            .map(|_| TimeSummary::of(&profile, Some(&name), &inv.summary_options)),
        stacks: Some(profile.stacks()),
        ..Done::default()
    };
    if !inv.renders() {
        return Ok(done);
    }
    let drawn = draw(inv, names, profile);
    done.drawn(drawn)
}

/// Writes the profile's picture to `-o`, stdout (`-o -`) or its own name; the file
/// written.
fn draw(
    inv: &Invocation,
    names: &FileNames,
    profile: TimeProfile,
) -> Result<Option<PathBuf>, String> {
    let name = names.input.display().to_string();
    write_output(inv.output.as_deref(), &names.output, |out| {
        paint(inv, profile, &name, out)
    })
}

/// Paints `profile` (of the input `name`) as `inv` asks: its page, its flame graph, or
/// its costs by stack for pprof.
pub(crate) fn paint(
    inv: &Invocation,
    profile: TimeProfile,
    name: &str,
    mut out: &mut dyn Write,
) -> io::Result<()> {
    let format = inv.format();
    if format == Format::Html {
        let read = super::time_page::TimeRead {
            profile,
            name: name.to_string(),
            warnings: Vec::new(),
        };
        let page = super::time_page::time_only(&read);
        for n in page.notes.iter().flatten() {
            say!("hp2ps: warning: {}: {n}", read.name);
        }
        return page.write(&mut out);
    }
    if format == Format::Pprof {
        return write_time_pprof(&profile.tree, &mut out);
    }
    let chart = flame_chart(&profile.tree, &flame_options(inv));
    write_flame(&chart, format, &mut out)
}
