//! hp2ps: render GHC heap profiles (`.hp`) and eventlogs as PostScript, byte-identical to
//! GHC's hp2ps 0.25, plus EPS, SVG, PDF and an interactive HTML page.
//!
//! The public names are chosen here, and only here. Data flows one way: [`load`] reads
//! either input format into a [`profile::Profile`] with the steps the command applies
//! after reading; [`prepare`] aggregates it (hp2ps's band order and limits, the samples
//! drawn) and lays it out as a format-neutral [`Chart`] ([`prepare_runs`] for several
//! runs on one page), with the [`RenderOptions::for_format`] of the [`Format`] that
//! [`Chart::write`] paints it in; [`summary::Summary::of`] gives the numbers
//! `--summary` prints; [`TimeProfile::read`] reads a time profile (`.prof`), which
//! [`TimeProfile::write_flame`] draws; [`Aux::read`] and [`Aux::write`] read and write the `.aux` file
//! that `-p` reuses. The readers, aggregation, layout, the painters and the command
//! (the default feature `cli`) are the crate's own (`docs/architecture.md`).
#![doc = include_str!("../docs/library.md")]
// No `unsafe` but in the command's four files that allow it, each for a system call the
// standard library does not make: the memory map of an input (`run/mapped/map.rs`), the
// SIGBUS handler that survives a mapped file cut meanwhile (`run/mapped/fault.rs`),
// glibc's allocator setting (`run/heap.rs`), and the SIGABRT handler that removes the
// temporary files of a run that aborts (`run/abort.rs`). `tests/layers.rs` keeps it to
// those.
#![deny(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
// Without the command (`default-features = false`), what only its live page uses (the
// readers' following of a log as it is written, and what they tell) is compiled and
// unused: dead code is what the default build finds.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

/// Writes one line to stderr (the command's: the library prints nothing). Unlike
/// `eprintln!`, it does not panic when stderr cannot be written (`2>/dev/full`, a closed
/// pipe): the exit status still tells what happened. Control characters (from file names
/// or arguments) are escaped, so a message is always exactly one line.
#[cfg(feature = "cli")]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", crate::one_line(&text));
    }};
}

/// `text` with every control character written as an escape (`\n`, `\x1b`, …), as
/// `--summary` writes the texts of a profile.
#[cfg(feature = "cli")]
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    crate::summary::printable(text)
}

// The command (`cli` feature): its modules keep the visibility words they had as the
// binary's.
#[cfg(feature = "cli")]
#[allow(unreachable_pub)]
mod cli;
#[cfg(feature = "cli")]
#[allow(unreachable_pub)]
mod run;

/// The `hp2ps` command, as `src/main.rs` runs it: the arguments and stdin of this
/// process, its output files and exit status. Not part of the API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub fn command_main() -> std::process::ExitCode {
    run::entry::main()
}

mod aggregate;
mod aux_file;
mod calltree;
mod check;
mod defaults;
mod fonts;
mod intern;
mod layout;
#[cfg(feature = "cli")]
mod live;
mod load;
mod needs;
mod num;
mod paint;
mod pipeline;
pub mod profile;
mod read;
mod seam;
pub mod summary;
mod symbolize;
#[cfg(test)]
mod test_rng;

// Reading: one way in, and what it takes and tells.
pub use load::{
    load, BandFilter, Binary, FilteredOut, LoadError, LoadOptions, Loaded, Program, Source, Warning,
};
pub use read::eventlog::{
    Breakdown, EventlogError, EventlogOptions, EventlogReport, EventlogWarning, Marker, TimeAxis,
};
pub use read::hp::{Pos, ReadError, ReadOptions};
pub use read::prof::{TimeProfile, TimeProfileError, TimeProfileOptions, TimeProfileWarning};
pub use symbolize::{IpeNames, Naming};

// From a profile to a chart, and the `.aux` file between runs.
pub use aggregate::{AggregateOptions, NameOrder};
pub use aux_file::Aux;
pub use layout::{LayoutOptions, Palette, ValueUnits};
pub use pipeline::{prepare, prepare_runs, RenderOptions, SharedAxes};

pub use layout::chart::Chart;
pub use layout::ChartBand;

// Writing a chart.
pub use paint::{Census, Format, PaintOptions};

// Drawing a time profile: its flame graph, or two runs' differential one.
pub use calltree::Measure;
pub use layout::flame::FlameOptions;

impl TimeProfile {
    /// Writes the flame graph of this time profile (an icicle of its cost-centre stacks,
    /// each as wide as its [`FlameOptions::measure`] with its callees, under a title box
    /// of the program, its total time and allocation) as SVG, PDF, PS or EPS
    /// ([`Format::draws_flame`]); another format is refused
    /// ([`std::io::ErrorKind::InvalidInput`]).
    pub fn write_flame<W: std::io::Write>(
        &self,
        format: Format,
        opts: &FlameOptions,
        out: &mut W,
    ) -> std::io::Result<()> {
        let chart = layout::flame::flame_chart(&self.tree, opts);
        paint::write_flame(&chart, format, out)
    }

    /// Writes the differential flame graph of two runs (`names` for its title): the
    /// second run's flame graph, each stack coloured by the change of its own share of
    /// the measure (red more, blue less), stacks matched by their path of cost centres'
    /// names, modules and source locations.
    pub fn write_flame_diff<W: std::io::Write>(
        runs: [&TimeProfile; 2],
        names: [&str; 2],
        format: Format,
        opts: &FlameOptions,
        out: &mut W,
    ) -> std::io::Result<()> {
        let diff = calltree::TreeDiff::of(&runs[0].tree, &runs[1].tree);
        let chart = layout::flame::diff_flame_chart(&diff, names, opts);
        paint::write_flame(&chart, format, out)
    }
}

/// Internals that the tests, benchmarks and fuzz targets exercise directly. Not part of the
/// API: anything here may change without notice.
#[doc(hidden)]
pub mod internals {
    /// The CI gate (`--check`): a profile's numbers judged by rules, alone or against a
    /// baseline's. The command's; its tests reach it here.
    pub mod check {
        pub use crate::check::*;
    }

    /// The time profile's model: the cost-centre tree and its derived views.
    pub mod calltree {
        pub use crate::calltree::*;
    }

    /// A time profile's tree and (an eventlog's) samples, as read.
    pub mod prof {
        use crate::calltree::{CallTree, Sampled};
        use crate::read::prof::TimeProfile;

        /// The cost-centre tree of a time profile.
        pub fn tree(p: &TimeProfile) -> &CallTree {
            &p.tree
        }

        /// An eventlog's samples in time order (`None` for a report or `-pj`).
        pub fn sampled(p: &TimeProfile) -> Option<&Sampled> {
            p.sampled.as_ref()
        }

        /// A time profile read with its report's tree cut into chunks of `chunk_bytes`,
        /// each parsed on a thread of its own (as a large report is on a machine of many
        /// cores), to compare with the one-thread reading.
        pub fn read_chunked(
            bytes: &[u8],
            chunk_bytes: usize,
        ) -> Result<TimeProfile, crate::read::prof::TimeProfileError> {
            let opts = crate::read::prof::TimeProfileOptions {
                chunk_bytes: Some(chunk_bytes),
                ..Default::default()
            };
            crate::read::prof::read_time_profile_bytes(bytes, &opts, &mut |_| {})
        }

        /// The time samples an eventlog's heap reading carried along (`load` of a
        /// `+RTS -p -hc -l` log), as a tree with its samples.
        pub fn sampled_of_heap(report: &crate::EventlogReport) -> Option<Sampled> {
            report
                .time_samples
                .as_ref()
                .map(crate::read::prof::sampled_of)
        }
    }

    /// The command line's parser, for the tests and fuzz targets that feed it arguments.
    #[cfg(feature = "cli")]
    pub mod cli {
        pub use crate::cli::{parse, Command, Invocation};
    }

    /// The live stage (`--serve`), for the example that measures its latency.
    #[cfg(feature = "cli")]
    pub mod live {
        pub use crate::live::{LiveOptions, LiveReader, LiveRun};
    }

    /// The command's file handling that the fuzz targets exercise.
    #[cfg(feature = "cli")]
    pub mod run {
        pub use crate::run::{names, outputs, regular, watched};
    }

    pub use crate::aggregate::{
        aggregate, apply_band_limit, band_total, eliminate_traces, samples_within, Aggregated,
    };
    /// The chart's parts, which the painters read.
    pub mod chart {
        pub use crate::layout::chart::*;
        pub use crate::layout::patterns::{Dots, Hatch, Pattern};
    }
    /// The default of every numeric option.
    pub mod defaults {
        pub use crate::defaults::*;
    }
    pub use crate::fonts::{ps_text_width, to_winansi};
    pub use crate::layout::palettes::{difference, OTHER_COLOUR};
    pub use crate::needs::{Needs, XLabels};
    /// hp2ps's way of reading the numbers of its flags (`-t`, `-m`, `-e`): C's `atoi`
    /// and `atof`, bit for bit.
    pub use crate::num::{c_atof, c_atoi};
    pub use crate::profile::info::closure_type_name;
    pub use crate::profile::numbers::{BandNumbers, Fate};
    pub use crate::read::kind::is_eventlog;
    /// A time window (`--from`, `--to`), as the command line holds it; library users set
    /// `LoadOptions::from` and `to`.
    pub use crate::read::window::WindowOptions;
    /// What `opts` says its format needs (`RenderOptions::for_format`).
    pub fn needs(opts: &crate::RenderOptions) -> &Needs {
        &opts.needs
    }
    /// What `opts` says its format needs, to change.
    pub fn needs_mut(opts: &mut crate::RenderOptions) -> &mut Needs {
        &mut opts.needs
    }
    /// Paints `chart` in `format` with the default painting options.
    pub fn write_chart<W: std::io::Write>(
        chart: &crate::Chart,
        format: crate::Format,
        out: &mut W,
    ) -> std::io::Result<()> {
        chart.write(format, &crate::PaintOptions::default(), out)
    }
    pub use crate::num::{
        c_trunc_i64, fixed, float_value, integer_value, push_f6, push_fixed, push_thousands,
        thousands,
    };
    pub use crate::pipeline::finish;
    /// The bands' roles by name that a sink may give the `.hp` reader's workers.
    pub use crate::profile::keep::RunRoles;
    pub use crate::profile::stack::stack_heights;
    /// The seam between the readers and the model, for sinks of the tests' own.
    pub use crate::seam::{
        BlockMark, HeaderField, ProfileBuilder, SampleBlock, Sink, StatementRun,
    };
    pub use crate::symbolize::{name_bands, SymbolTable, SymbolizeOptions};

    /// The `.hp` reader's ways in: one thread, and on every core with chunks of a
    /// chosen size.
    pub mod hp {
        pub use crate::read::hp::pipeline::{read_chunked, read_into_parallel, read_slice_chunked};
        pub use crate::read::hp::serial::read_into;
        pub use crate::read::hp::Warning;
    }

    /// The eventlog reader's ways in: one pass over a stream, and bytes on every core
    /// with runs of a chosen size.
    pub mod eventlog {
        pub use crate::read::eventlog::entry::{read_eventlog, read_eventlog_slice_chunked};
        pub use crate::read::kind::is_eventlog;
    }

    /// The painters, each with its options.
    pub mod paint {
        pub use crate::paint::pdf::{write_pdf, PdfOptions};
        pub use crate::paint::ps::{escape as ps_escape, write_ps, Escape as PsEscape, PsOptions};
        pub use crate::paint::svg::{escape as svg_escape, write_svg, SvgOptions};
    }
}
