//! The one definition of every flag and option: `--help`, the man page, the completions,
//! and clap's parsing of the long options all come from [`command`].

use std::ffi::OsString;
use std::time::Duration;

use crate::{defaults, Format, IpeNames, Palette, ValueUnits};
use clap::{value_parser, Arg, ArgAction, ValueHint};

use super::GenerateKind;

const HP2PS: &str = "hp2ps flags";
const OUTPUT: &str = "Output";
const COLOURS: &str = "Colours and patterns";
const BATCH: &str = "Batch and watch";
const SELECTION: &str = "Selection";
const SUMMARY: &str = "Summary";
const EVENTLOG: &str = "Eventlogs (prog +RTS -h -l)";
const OTHER: &str = "Other";

/// Every flag and option, for `--help`, the man page, the completions, and for parsing
/// the options that are not hp2ps short flags.
pub(crate) fn command() -> clap::Command {
    let flag = |id: &'static str, short: char, help: &str| {
        Arg::new(id)
            .short(short)
            .action(ArgAction::SetTrue)
            .help(help.to_string())
            .help_heading(HP2PS)
    };
    clap::Command::new("hp2ps")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Render GHC heap profiles (.hp and eventlogs) as PostScript, EPS, SVG, PDF or HTML.")
        .long_about(
            "Render GHC heap profiles (.hp files and GHC eventlogs) as PostScript, EPS, SVG, \
             PDF or an interactive HTML page: a drop-in replacement for GHC's hp2ps (its \
             PostScript and .aux are byte-identical), plus batch rendering, watch mode, time \
             windows and summaries for scripts.",
        )
        .override_usage("hp2ps [flags] [file[.hp] ...]")
        .help_template(
            "usage: {usage}\n{about}\n\n\
             With no file, reads stdin and writes the chart to stdout. Otherwise renders\n\
             each file.hp (or file) to ./file.ps and ./file.aux; several files render in\n\
             parallel.\n\n{all-args}{after-help}",
        )
        .after_help(
            "hp2ps flags take their value glued to the letter (-e6in -m5 -t0.5), and -p\n\
             combines with the letter after it (-pc), exactly as in GHC's hp2ps.\n\
             Exit status: 0 success, 1 a file failed (or a --check rule), 2 a bad\n\
             command line.",
        )
        .disable_help_flag(true)
        .disable_version_flag(true)
        // As with the hp2ps flags, a repeated option's last value wins.
        .args_override_self(true)
        .args([
            Arg::new("files")
                .value_name("FILE")
                .num_args(0..)
                .action(ArgAction::Append)
                .value_parser(value_parser!(OsString))
                .value_hint(ValueHint::FilePath)
                .help("Profiles to render: FILE and FILE.hp both read FILE.hp"),
            flag("b", 'b', "Big title box (automatic when the JOB is over 35 bytes)"),
            flag("s", 's', "Small title box"),
            flag("c", 'c', "Colour instead of greys"),
            flag("d", 'd', "Order bands by standard deviation"),
            flag("i", 'i', "-i[+|-]: order bands by name (-i- descending)"),
            flag("g", 'g', "Portrait page, not rotated (for ghostscript previewers)"),
            flag(
                "e",
                'e',
                "-e<W>[in|mm|pt]: Encapsulated PostScript W wide (above 2in), e.g. -e6in",
            ),
            flag("M", 'M', "Key on pages of its own"),
            flag(
                "m",
                'm',
                &format!(
                    "-m<N>: at most N bands, the rest merge into OTHER (default {}); -m0: no limit, no key",
                    defaults::BAND_LIMIT
                ),
            ),
            flag("l", 'l', "No band limit and no key (the same as -m0)"),
            flag("p", 'p', "Reuse scaling, order and shades from the previous run's .aux"),
            flag(
                "t",
                't',
                &format!(
                    "-t<F>: drop trace bands that together stay below F% (default {}, at most 5)",
                    defaults::TRACE_PERCENT
                ),
            ),
            flag("y", 'y', "Do not draw marks"),
            Arg::new("format")
                .long("format")
                .value_name("FORMAT")
                .value_parser(clap::builder::PossibleValuesParser::new(
                    Format::ALL.map(Format::name),
                ))
                .ignore_case(true)
                .hide_possible_values(true)
                .help(
                    "ps, eps, svg, pdf, html (an interactive page), prometheus (metrics,\n\
                     .prom) or pprof (a census, .pb.gz) (default: from the -o extension,\n\
                     else ps)",
                )
                .help_heading(OUTPUT),
            Arg::new("max-points")
                .long("max-points")
                .value_name("N")
                .value_parser(value_parser!(usize))
                .help(format!(
                    "Draw at most N samples, the least visible dropped first; 0 keeps all\n\
                     (default for svg, pdf, eps and html: {} / bands drawn, at least {};\n\
                     all for ps)",
                    defaults::VECTOR_MAX_BAND_POINTS,
                    defaults::VECTOR_MAX_POINTS
                ))
                .help_heading(OUTPUT),
            Arg::new("output")
                .short('o')
                .long("output")
                .value_name("FILE")
                .value_parser(value_parser!(OsString))
                .allow_hyphen_values(true)
                .value_hint(ValueHint::FilePath)
                .help(
                    "Write the chart to FILE (- for stdout) instead of ./file.<format>; with\n\
                     --format html and several files, one page comparing them",
                )
                .help_heading(OUTPUT),
            Arg::new("output-dir")
                .long("output-dir")
                .value_name("DIR")
                .value_parser(value_parser!(OsString))
                .value_hint(ValueHint::DirPath)
                .help("Write file.<format> and file.aux into DIR (created if missing)")
                .help_heading(OUTPUT),
            Arg::new("palette")
                .long("palette")
                .value_name("NAME")
                .value_parser(clap::builder::PossibleValuesParser::new(
                    std::iter::once("hp2ps").chain(Palette::ALL.map(Palette::name)),
                ))
                .hide_possible_values(true)
                .help(
                    "Band colours: hp2ps (its own, the default but for html; greys without\n\
                     -c), screen (for screens, html's default), or the colour-blind-safe\n\
                     okabe-ito, tol-bright, tol-muted or viridis",
                )
                .help_heading(COLOURS),
            Arg::new("colour-by")
                .long("colour-by")
                .alias("color-by")
                .value_name("KEY")
                .value_parser(["order", "name"])
                .hide_possible_values(true)
                .help(
                    "name: a band's colour follows from its name alone, the same in every\n\
                     file and run (OTHER keeps a fixed colour); order: first come, first\n\
                     served, as hp2ps (the default)",
                )
                .help_heading(COLOURS),
            Arg::new("pattern")
                .long("pattern")
                .action(ArgAction::SetTrue)
                .help(
                    "Fill the bands with hatches and dots over light greys, for\n\
                     black-and-white printers",
                )
                .help_heading(COLOURS),
            Arg::new("uniform-scale")
                .long("uniform-scale")
                .value_name("AXES")
                .value_parser(["time", "memory", "both"])
                .hide_possible_values(true)
                .help(
                    "Give every chart of the run the same time, memory or both axes, so\n\
                     charts of several files can be compared side by side",
                )
                .help_heading(BATCH),
            Arg::new("jobs")
                .short('j')
                .long("jobs")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..))
                .help("Render at most N files at once (default: one per core)")
                .help_heading(BATCH),
            Arg::new("watch")
                .long("watch")
                .action(ArgAction::SetTrue)
                .help("Render the file, then again whenever it grows or is replaced")
                .help_heading(BATCH),
            Arg::new("interval")
                .long("interval")
                .value_name("SECONDS")
                .value_parser(positive_seconds)
                .help(format!(
                    "How often --watch looks at the file (default {})",
                    defaults::WATCH_INTERVAL_MS as f64 / 1000.0
                ))
                .help_heading(BATCH),
            Arg::new("watch-max-renders")
                .long("watch-max-renders")
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..))
                .hide(true)
                .help("Stop watching after N renders"),
        ])
        // The live page's options, at their place in --help.
        .args(super::serve_options::args())
        .args([
            Arg::new("from")
                .long("from")
                .value_name("T")
                .value_parser(time)
                .allow_negative_numbers(true)
                .help("Keep only the samples at or after time T (in SAMPLE_UNIT)")
                .help_heading(SELECTION),
            Arg::new("to")
                .long("to")
                .value_name("T")
                .value_parser(time)
                .allow_negative_numbers(true)
                .help("Keep only the samples at or before time T (in SAMPLE_UNIT)")
                .help_heading(SELECTION),
            Arg::new("include")
                .long("include")
                .value_name("REGEX")
                .action(ArgAction::Append)
                .help("Draw only the bands whose name matches REGEX (repeatable: any of them)")
                .help_heading(SELECTION),
            Arg::new("exclude")
                .long("exclude")
                .value_name("REGEX")
                .action(ArgAction::Append)
                .help("Leave out the bands whose name matches REGEX (repeatable)")
                .help_heading(SELECTION),
            Arg::new("sort")
                .long("sort")
                .value_name("KEY")
                .value_parser(["size", "stddev", "name", "growth"])
                .hide_possible_values(true)
                .help(
                    "Order the bands by size (hp2ps's default), stddev (-d), name (as -i,\n\
                     but numbers by value: -he era 2 before era 10) or growth (the slope\n\
                     of each band, the fastest-growing on top)",
                )
                .help_heading(SELECTION),
            Arg::new("reverse")
                .long("reverse")
                .action(ArgAction::SetTrue)
                .help("Stack the bands the other way up (OTHER stays at the bottom)")
                .help_heading(SELECTION),
            Arg::new("time")
                .long("time")
                .value_name("AXIS")
                .value_parser(["mutator", "elapsed"])
                .hide_possible_values(true)
                .help(
                    "An eventlog's x axis: mutator seconds as the .hp has them (default), or\n\
                     elapsed seconds since the program started",
                )
                .help_heading(EVENTLOG),
            Arg::new("full-names")
                .long("full-names")
                .action(ArgAction::SetTrue)
                .help("Name -hc bands by their whole cost-centre stack, not cut at -L")
                .help_heading(EVENTLOG),
            Arg::new("ipe-names")
                .long("ipe-names")
                .value_name("HOW")
                .value_parser(IpeNames::NAMES)
                .hide_possible_values(true)
                .help(
                    "Name -hi bands by source (the default: each info table's IPE entry, else\n\
                     the binary's symbol at it) or by address (as the .hp, unrenamed)",
                )
                .help_heading(EVENTLOG),
            Arg::new("binary")
                .long("binary")
                .value_name("PROGRAM")
                .value_parser(value_parser!(OsString))
                .value_hint(ValueHint::ExecutablePath)
                .help(
                    "The program that wrote a -hi profile (.hp or eventlog): names its\n\
                     info tables by the program's symbols (default for an eventlog: the\n\
                     program it names, if found beside it or in the current directory)",
                )
                .help_heading(EVENTLOG),
            Arg::new("heap-size")
                .long("heap-size")
                .action(ArgAction::SetTrue)
                .help(
                    "Draw the heap size, live bytes and (GHC 9.2+) blocks size of an eventlog\n\
                     over the bands",
                )
                .help_heading(EVENTLOG),
            Arg::new("x-labels")
                .long("x-labels")
                .value_name("HOW")
                .value_parser(["hp2ps", "exact"])
                .hide_possible_values(true)
                .help(
                    "x tick labels: hp2ps (one decimal, repeated on a run shorter than a few\n\
                     seconds; the default for ps and eps, byte-identical to GHC's hp2ps) or\n\
                     exact (as many decimals as the tick step needs; the default for svg,\n\
                     pdf and html)",
                )
                .help_heading(OUTPUT),
            Arg::new("key-labels")
                .long("key-labels")
                .value_name("HOW")
                .value_parser(["cut", "fit"])
                .hide_possible_values(true)
                .help("Key labels too long for the page: cut (as hp2ps) or fit (elide the middle)")
                .help_heading(OUTPUT),
            Arg::new("units")
                .long("units")
                .value_name("UNITS")
                .value_parser(clap::builder::PossibleValuesParser::new(
                    ValueUnits::ALL.map(ValueUnits::name),
                ))
                .hide_possible_values(true)
                .help(
                    "Values on the y axis: hp2ps (35M; the default but for html), binary\n\
                     (KiB, MiB, GiB; html's default) or decimal (kB, MB, GB)",
                )
                .help_heading(OUTPUT),
            Arg::new("summary")
                .long("summary")
                .value_name("FORMAT")
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("text")
                .value_parser(["text", "json"])
                .hide_possible_values(true)
                .help(
                    "Print sample count, peak, area and the biggest bands, as text or as\n\
                     one JSON line per file; draws no chart unless -o, --format or\n\
                     --output-dir is given",
                )
                .help_heading(SUMMARY),
            Arg::new("top")
                .long("top")
                .value_name("N")
                .value_parser(value_parser!(usize))
                .help(format!(
                    "How many bands the summary lists (default {})",
                    defaults::SUMMARY_TOP
                ))
                .help_heading(SUMMARY),
            Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::SetTrue)
                .help("Print this help (also -?)")
                .help_heading(OTHER),
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::SetTrue)
                .help("Print the version")
                .help_heading(OTHER),
            Arg::new("generate")
                .long("generate")
                .value_name("KIND")
                .value_parser(GenerateKind::NAMES)
                .hide(true)
                .help(
                    "Write the man page or a shell's completions (bash, zsh, fish, powershell;\n\
                     to DIR if a FILE is given)",
                ),
        ])
        .args(super::gate::args())
}

/// The `--help` text.
pub(crate) fn help() -> String {
    command().render_help().to_string()
}

fn positive_seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .trim()
        .parse()
        .map_err(|_| "not a number".to_string())?;
    if s.is_finite() && (0.001..=86_400.0).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err("the interval must be between 0.001 and 86400 seconds".to_string())
    }
}

fn time(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if !t.is_nan() => Ok(t),
        _ => Err("not a number".to_string()),
    }
}
