//! One render: a file (or stdin) in, the chart and `.aux` out, each written atomically.
//! Nothing here prints: warnings and the summary go back to the caller, so that batch
//! mode can print them past its progress bar and watch mode can quiet them.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::aggregate::PageFacts;
use crate::pipeline::{prepare_known, prepare_spilled};
use crate::profile::spill::SpillHandle;
use crate::profile::Profile;
use crate::summary::{summarize, Summary};
use crate::Chart;
use crate::{
    load, prepare, Aux, EventlogError, Format, LoadError, LoadOptions, Loaded, ReadError, Source,
    Warning,
};

use super::atomic::AtomicFile;
pub use super::done::{Done, Failure};
use super::mapped::Mapped;
use super::names::{check_output, FileNames};
use super::painted::{write_stdout, Painted};
use super::regular::open_regular;
use super::symbols;
use super::two_pass::{self, PageReading};
use super::version::Version;
use crate::cli::Invocation;
use crate::pipeline::prepare_page_known;

fn read_error(name: &str, e: LoadError) -> String {
    match e {
        LoadError::Hp(ReadError::Io(io)) => format!("{name}: read error: {io}"),
        LoadError::Hp(other) => format!("{name}:{other}"),
        other => format!("{name}: {other}"),
    }
}

/// The file an input is read from (`None` for stdin), and its name in messages.
#[derive(Clone, Copy)]
pub(super) struct Origin<'a> {
    pub(super) path: Option<&'a Path>,
    pub(super) name: &'a str,
}

/// The command line's options of loading an input, with the program's binary for a
/// `-hi` profile; and the warnings of finding that binary, each a whole line.
fn load_options(inv: &Invocation, src: Origin<'_>) -> (LoadOptions, Vec<String>) {
    let mut opts = inv.load_options();
    let (binary, warnings) = symbols::binary(inv, src.path, src.name);
    opts.binary = binary;
    (opts, warnings)
}

pub(super) fn read(
    inv: &Invocation,
    input: &mut dyn io::Read,
    src: Origin<'_>,
) -> Result<(Profile, Done), Failure> {
    let (opts, warnings) = load_options(inv, src);
    finish_read(inv, load(Source::Stream(input), &opts), src, warnings, None)
}

/// The one line for a file that changed while it was read (a program writing it again:
/// GHC truncates `prog.hp` and `prog.eventlog` when it starts).
fn changed_while_read(name: &str) -> String {
    format!("{name}: the file changed while it was read")
}

/// [`read`] on an open file: through a map when it is a regular file worth mapping and
/// `may_map`, else as a stream. A read that fails while the file changes under it (a
/// regular file cut or rewritten meanwhile) gives [`changed_while_read`] instead of the
/// damage the reader saw.
fn read_file(
    inv: &Invocation,
    mut input: &File,
    src: Origin<'_>,
    reading: Reading,
) -> Result<(Profile, Done), Failure> {
    let may_map = reading != Reading::Streamed;
    if let Some(map) = may_map.then(|| Mapped::of(input)).flatten() {
        return read_mapped(inv, map, src, reading == Reading::Drawn);
    }
    let version = || {
        input
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .map(|m| Version::of(&m))
    };
    let (opts, warnings) = load_options(inv, src);
    let before = version();
    let read = load(Source::Stream(&mut input), &opts);
    if read.is_err() && before.is_some() && version() != before {
        return Err(changed_while_read(src.name).into());
    }
    finish_read(inv, read, src, warnings, None)
}

/// [`read`] on a regular file through a memory map (see [`Mapped`]), dropping the pages
/// read as the reader goes.
pub(super) fn read_mapped(
    inv: &Invocation,
    map: Mapped,
    src: Origin<'_>,
    drawn: bool,
) -> Result<(Profile, Done), Failure> {
    let ((profile, mut done), page) = read_mapped_parts(inv, &map, src, drawn)?;
    // The page's last reading needs the map.
    done.page = page.map(|(facts, opts, roles)| (facts, PageReading::new(map, &opts, roles)));
    Ok((profile, done))
}

/// What a page read in parts keeps for its last reading: every band's numbers and
/// heights, the options and the bands' roles.
type PageParts = (PageFacts, LoadOptions, Vec<crate::profile::keep::Role>);

/// [`read_mapped`] of `map`, with what a page read in parts needs besides.
fn read_mapped_parts(
    inv: &Invocation,
    map: &Mapped,
    src: Origin<'_>,
    drawn: bool,
) -> Result<((Profile, Done), Option<PageParts>), Failure> {
    let (mut opts, warnings) = load_options(inv, src);
    let file = Some(src.name).filter(|&name| name != "stdin");
    // A summary alone may be made keeping no point; else a chart may need only some.
    let summed = match drawn {
        true => two_pass::summary_reading(inv, &opts, map, file),
        false => Ok(None),
    };
    // Else a page may be made of the drawn bands' points and sums of the rest.
    let read_in_parts = matches!(summed, Ok(None)) && drawn;
    let paged = match read_in_parts {
        true => two_pass::page_reading(inv, &mut opts, map),
        false => Ok(None),
    };
    let mut page = None;
    let (read, summary, totals) = match (summed, paged) {
        (Err(e), _) | (_, Err(e)) => (Err(e), None, None),
        (Ok(Some((loaded, summary))), _) => (Ok(loaded), Some(summary), None),
        (Ok(None), Ok(Some(p))) => {
            page = Some((p.facts, opts.clone(), p.roles));
            (Ok(p.loaded), None, Some((p.totals, p.spill)))
        }
        (Ok(None), Ok(None)) => {
            let first = match drawn {
                true => two_pass::first_reading(inv, &mut opts, map),
                false => None,
            };
            let spill = first
                .as_ref()
                .and_then(|(drawing, _)| drawing.spill.clone());
            let totals = first.map(|(drawing, totals)| {
                opts.drawn = Some(drawing);
                totals
            });
            let source = Source::Mapped {
                bytes: map.bytes(),
                release: &mut |n| map.release(n),
            };
            (load(source, &opts), None, totals.map(|t| (t, spill)))
        }
    };
    if map.changed_while_read(read.is_err()) {
        return Err(changed_while_read(src.name).into());
    }
    let (profile, mut done) = finish_read(inv, read, src, warnings, summary)?;
    let (totals, spill) = totals.unzip();
    done.spill = spill.flatten();
    if let Some(spill) = &done.spill {
        // A write refused meanwhile (TMPDIR full) is said now: the chart would miss it.
        (spill.lock().finish()).map_err(|e| Failure {
            warnings: done.warning_lines().collect(),
            ..Failure::from(super::spill_file::failed(src.name, &e))
        })?;
    }
    done.totals = totals;
    Ok(((profile, done), page))
}

/// How a file is read: mapped or as a stream (a file being written), and when mapped,
/// whether a chart that needs only the drawn bands may read it twice ([`two_pass`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reading {
    /// As a stream.
    Streamed,
    /// Mapped, every point kept.
    Whole,
    /// Mapped, twice when the chart allows: only the drawn bands' points kept.
    Drawn,
}

/// The warnings (`warnings`, then the load's) and the summary of what was loaded (`made`
/// when it is made already).
fn finish_read(
    inv: &Invocation,
    read: Result<Loaded, LoadError>,
    src: Origin<'_>,
    mut warnings: Vec<String>,
    made: Option<Summary>,
) -> Result<(Profile, Done), Failure> {
    let name = src.name;
    let loaded = read.map_err(|e| Failure {
        time_profile_only: matches!(
            e,
            LoadError::Eventlog(EventlogError::NoSamples {
                time_profile: true,
                ..
            })
        ),
        ..Failure::from(read_error(name, e))
    })?;
    let asked = |w: &&Warning| inv.heap_size || !w.only_when_asked();
    warnings.extend(
        (loaded.warnings.iter().filter(asked)).map(|w| format!("hp2ps: warning: {}", w.line(name))),
    );
    let file = Some(name).filter(|&name| name != "stdin");
    let summary =
        made.or_else(|| (inv.summary).map(|_| summarize(&loaded, file, &inv.summary_options)));
    // The log chose that file (its argv[0]): say which named the bands.
    let used = (loaded.naming.as_ref()).and_then(|n| n.binary.as_ref());
    let found = used.filter(|_| inv.binary.is_none());
    let notes = (found.iter())
        .map(|program| {
            format!(
                "hp2ps: {name}: -hi names from the symbols of {program}, the program the log \
                 names (--binary to give another, --ipe-names address for none)"
            )
        })
        .collect();
    let done = Done {
        warnings,
        notes,
        summary,
        output: None,
        samples: loaded.profile.times.len(),
        facts: loaded.facts(),
        // A page shows the time profile of an eventlog's samples beside its heap.
        sampled: (inv.format() == Format::Html)
            .then(|| loaded.eventlog.as_ref()?.time_samples.as_ref())
            .flatten()
            .map(crate::read::prof::sampled_of),
        ..Done::default()
    };
    Ok((loaded.profile, done))
}

/// The x and y ranges the chart of one file argument would have, for `--uniform-scale`;
/// `None` when the file cannot be read (its render reports why).
pub(crate) fn ranges(inv: &Invocation, arg: &OsString) -> Option<(f64, f64)> {
    let names = FileNames::of(inv, arg);
    let mut input = File::open(&names.input).ok()?;
    let src = Origin {
        path: Some(&names.input),
        name: "",
    };
    let (profile, _) = read(inv, &mut input, src).ok()?;
    let previous = if inv.use_aux {
        Some(load_aux(&names.aux).ok()?)
    } else {
        None
    };
    let (_, aux) = prepare(profile, previous.as_ref(), &inv.render);
    Some((aux.x_range?, aux.y_range?))
}

/// Renders one file argument as a single-file run would.
pub fn render_file(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    let (profile, mut done) = read_named_as(inv, &names, Reading::Drawn)?;
    if !inv.renders() {
        return Ok(done);
    }
    let drawn = draw_file(inv, &names, profile, &mut done);
    done.drawn(drawn)
}

/// Reads the profile of one file argument, once `-o` is known not to name it.
pub(super) fn read_named(inv: &Invocation, names: &FileNames) -> Result<(Profile, Done), Failure> {
    read_named_as(inv, names, Reading::Whole)
}

/// [`read_named`], read as `reading` says (a watched file always as a stream).
fn read_named_as(
    inv: &Invocation,
    names: &FileNames,
    reading: Reading,
) -> Result<(Profile, Done), Failure> {
    check_output(inv, names)?;
    let input_name = names.input.display().to_string();
    // A watched file must be a regular one, and its open must not wait (a FIFO's would).
    let input = match inv.watch {
        Some(_) => open_regular(&names.input),
        None => File::open(&names.input),
    }
    .map_err(|e| format!("cannot open {input_name}: {e}"))?;
    // A file being written (--watch) is read as a stream, where its growth cannot fault.
    let src = Origin {
        path: Some(&names.input),
        name: &input_name,
    };
    let reading = match inv.watch {
        Some(_) => Reading::Streamed,
        None => reading,
    };
    read_file(inv, &input, src, reading)
}

/// The chart and `.aux` of `profile` as read into `done` (its bands' totals when read
/// twice, with the spill of the drawn bands' points when the second reading put them
/// there, and a page's last reading when read in parts: `two_pass`), `name` the input's
/// in messages; an error when the page's last reading fails.
pub(super) fn prepare_done(
    inv: &Invocation,
    profile: Profile,
    done: &mut Done,
    name: &str,
    previous: Option<&Aux>,
) -> Result<(Chart, Aux), String> {
    let totals = done.totals.take();
    let spill = done.spill.take();
    if totals.is_some() {
        // A long profile read in parts: what its readings freed goes back first.
        super::heap::give_back();
    }
    // A failure to read the spill back (thinning's) is said once the chart is made.
    let read_back = |spill: Option<&SpillHandle>| match spill.and_then(|s| s.lock().read_failure())
    {
        Some(e) => Err(super::spill_file::unreadable(name, &e)),
        None => Ok(()),
    };
    if let (Some((facts, reading)), Some(totals)) = (done.page.take(), totals.as_deref()) {
        let mut fill = |wanted: &[bool]| {
            let read = reading.rest(wanted);
            if reading.changed_while_read(read.is_err()) {
                return Err(changed_while_read(name));
            }
            read.map(Some).map_err(|e| read_error(name, e))
        };
        let render = &inv.render;
        let made = prepare_page_known(
            profile,
            totals,
            facts,
            spill.as_ref(),
            &mut fill,
            previous,
            render,
        )?;
        read_back(spill.as_ref())?;
        return Ok(made);
    }
    if let (Some(spill), Some(totals)) = (spill, totals.as_deref()) {
        let painted = two_pass::painted_from_spill(inv.format(), &inv.render);
        let made = prepare_spilled(profile, totals, &spill, painted, &inv.render);
        read_back(Some(&spill))?;
        return Ok(made);
    }
    Ok(prepare_known(
        profile,
        totals.as_deref(),
        previous,
        &inv.render,
    ))
}

/// Draws the chart and writes it and the `.aux` (an export has none); returns the
/// chart's file.
fn draw_file(
    inv: &Invocation,
    names: &FileNames,
    profile: Profile,
    done: &mut Done,
) -> Result<Option<PathBuf>, String> {
    let previous = if inv.use_aux {
        Some(load_aux(&names.aux)?)
    } else {
        None
    };
    let (chart, aux) = prepare_done(
        inv,
        profile,
        done,
        &names.input.display().to_string(),
        previous.as_ref(),
    )?;

    let write_failed = |path: &Path, e: io::Error| format!("cannot write {}: {e}", path.display());
    let aux_file = match inv.format().draws() {
        true => {
            let mut file =
                AtomicFile::create(&names.aux).map_err(|e| write_failed(&names.aux, e))?;
            aux.write(file.writer())
                .map_err(|e| write_failed(&names.aux, e))?;
            Some(file)
        }
        false => None,
    };
    // The page names its profile (by its file name: the page holds no directory), says
    // what its eventlog told of it, and what it left out.
    let input = names.input.display().to_string();
    // The time profile of the same run beside a bare name, on its page.
    let time = match (&names.time, inv.format()) {
        (Some(path), Format::Html) => Some(super::time_page::TimeRead::of(path)?),
        _ => None,
    };
    if let Some(t) = &time {
        done.warnings.extend(t.warnings.iter().cloned());
    }
    let painted = Painted::new(inv, &chart, Some(&input), &input, done, time.as_ref())?;
    // The chart and its .aux are replaced together (see AtomicFile::commit_together).
    match inv.output.as_deref() {
        Some(o) if o == "-" => {
            write_stdout(&painted)?;
            if let Some(aux_file) = aux_file {
                aux_file.commit().map_err(|e| write_failed(&names.aux, e))?;
            }
            Ok(None)
        }
        target => {
            let path = target.map_or_else(|| names.output.clone(), PathBuf::from);
            let mut out = AtomicFile::create(&path).map_err(|e| write_failed(&path, e))?;
            (painted.write(out.writer())).map_err(|e| write_failed(&path, e))?;
            AtomicFile::commit_together(std::iter::once(out).chain(aux_file).collect())
                .map_err(|(failed, e)| write_failed(&failed, e))?;
            Ok(Some(path))
        }
    }
}

fn load_aux(path: &Path) -> Result<Aux, String> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| format!("cannot open {name}: {e}"))?;
    Aux::read(&text).map_err(|e| format!("{name}:{e}"))
}
