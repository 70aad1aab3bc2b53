//! hp2ps: render GHC heap profiles (`.hp`) and eventlogs as PostScript, byte-identical to
//! GHC's hp2ps 0.25, plus EPS, SVG, PDF and an interactive HTML page.
//!
//! The public names are chosen here, and only here. Data flows one way: [`load`] reads
//! either input format into a [`profile::Profile`] with the steps the command applies
//! after reading; [`prepare`] aggregates it (hp2ps's band order and limits, the samples
//! drawn) and lays it out as a format-neutral [`chart::Chart`] ([`prepare_runs`] for
//! several runs on one page); [`write_chart_with`] paints the chart in a [`Format`], whose
//! [`Format::needs`] says what it needs of the stages before it; [`summary::summarize`]
//! gives the numbers `--summary` prints, and [`check::check`] judges them (the CI
//! gate, `--check`); [`read_aux`] and [`AuxOut::write`] read and write
//! the `.aux` file that `-p` reuses. The readers, aggregation, layout and the painters
//! are the crate's own (`docs/architecture.md`).
#![doc = include_str!("../docs/library.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod aggregate;
mod aux_file;
mod calltree;
pub mod check;
pub mod defaults;
mod fonts;
mod intern;
mod layout;
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
    load, read_time_profile, BandFilter, Binary, FilteredOut, FindProgram, LoadError, LoadOptions,
    Loaded, Program, Source, Warning,
};
pub use read::eventlog::{
    is_eventlog, Breakdown, DamagedRegion, EventlogError, EventlogOptions, EventlogReport,
    EventlogWarning, FramingRule, Marker, TimeAxis,
};
pub use read::hp::{Pos, ReadError, ReadOptions, Warning as ReadWarning};
pub use read::prof::{
    is_time_profile, TimeProfile, TimeProfileError, TimeProfileOptions, TimeProfileWarning,
};
pub use read::window::{WindowError, WindowOptions};
pub use symbolize::{Agreement, IpeNames, Naming, SymbolizeOptions};

// From a profile to a chart, and the `.aux` file between runs.
pub use aggregate::{AggregateOptions, NameOrder};
pub use aux_file::{read_aux, Aux, AuxError, AuxOut};
pub use layout::{LayoutOptions, Palette, ValueUnits};
pub use needs::{Needs, XLabels};
pub use pipeline::{prepare, prepare_runs, RenderOptions, SharedAxes};

// Following a run as it is written (`--serve`).
pub use live::{
    live_page, write_live, LiveError, LiveOptions, LivePage, LiveProfile, LiveReader, LiveRun,
};

// Writing a chart.
pub use paint::{
    write_chart, write_chart_with, write_runs_page, Census, ExportOptions, Format, PaintOptions,
    ProfileFacts,
};

// Drawing a time profile: its flame graph, or two runs' differential one.
pub use calltree::Measure;
pub use layout::flame::FlameOptions;

/// Writes the flame graph of a time profile (an icicle of its cost-centre stacks, each
/// as wide as its [`FlameOptions::measure`] with its callees, under a title box of the
/// program, its total time and allocation) as SVG, PDF, PS or EPS; another format is
/// refused ([`std::io::ErrorKind::InvalidInput`]).
pub fn write_flame_graph<W: std::io::Write>(
    profile: &TimeProfile,
    format: Format,
    opts: &FlameOptions,
    out: &mut W,
) -> std::io::Result<()> {
    let chart = layout::flame::flame_chart(&profile.tree, opts);
    paint::write_flame(&chart, format, out)
}

/// Writes the differential flame graph of two runs (`names` for its title): the second
/// run's flame graph, each stack coloured by the change of its own share of the
/// measure (red more, blue less), stacks matched by their path of cost centres' names,
/// modules and source locations.
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

/// Whether [`write_flame_graph`] draws in `format` (SVG, PDF, PS, EPS).
pub fn draws_flame(format: Format) -> bool {
    paint::draws_flame(format)
}

/// hp2ps's way of reading the numbers of its flags (`-t`, `-m`, `-e`): C's `atoi` and
/// `atof`, bit for bit.
pub use num::{c_atof, c_atoi};

/// The chart: everything to draw, placed in points, shared by every painter (see
/// [`prepare`]). A painter of one's own reads it page by page.
pub mod chart {
    pub use crate::layout::chart::*;
    pub use crate::layout::patterns::{Dots, Hatch, Pattern};
}

/// Internals that the tests, benchmarks and fuzz targets exercise directly. Not part of the
/// API: anything here may change without notice. The command does not use it.
#[doc(hidden)]
pub mod internals {
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
    pub use crate::aggregate::{
        aggregate, apply_band_limit, band_total, eliminate_traces, samples_within, Aggregated,
    };
    pub use crate::fonts::{ps_text_width, to_winansi};
    pub use crate::layout::palettes::{difference, OTHER_COLOUR};
    pub use crate::num::{
        c_trunc_i64, fixed, float_value, integer_value, push_f6, push_fixed, push_thousands,
        thousands,
    };
    pub use crate::pipeline::finish;
    pub use crate::profile::stack::stack_heights;
    /// The seam between the readers and the model, for sinks of the tests' own.
    pub use crate::seam::{
        BlockMark, HeaderField, ProfileBuilder, SampleBlock, Sink, StatementRun,
    };
    pub use crate::symbolize::{name_bands, SymbolTable};

    /// The `.hp` reader's ways in: one thread, and on every core with chunks of a
    /// chosen size.
    pub mod hp {
        pub use crate::read::hp::pipeline::{read_chunked, read_into_parallel, read_slice_chunked};
        pub use crate::read::hp::serial::read_into;
    }

    /// The eventlog reader's ways in: one pass over a stream, and bytes on every core
    /// with runs of a chosen size.
    pub mod eventlog {
        pub use crate::read::eventlog::entry::{read_eventlog, read_eventlog_slice_chunked};
        pub use crate::read::eventlog::is_eventlog;
    }

    /// The painters, each with its options.
    pub mod paint {
        pub use crate::paint::html::{write_html, write_html_page, HtmlOptions};
        pub use crate::paint::pdf::{write_pdf, PdfOptions};
        pub use crate::paint::ps::{escape as ps_escape, write_ps, Escape as PsEscape, PsOptions};
        pub use crate::paint::svg::{escape as svg_escape, write_svg, SvgOptions};
    }
}
