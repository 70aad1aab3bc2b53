//! The command line: hp2ps's flags, scanned as hp2ps scans them (values glued to the
//! letter, `-p` combining with the next letter), plus long options.
//!
//! One definition, [`command`], describes every flag and option for `--help`, the man
//! page and the shell completions. The hp2ps short flags cannot be parsed by clap (a
//! value glued to its letter, `-p` bundling, a letter swallowing the rest of its
//! argument), so [`parse`] scans them by hand; every other option goes to clap, which
//! parses it from that same definition.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use clap::{value_parser, Arg, ArgAction, ArgMatches, ValueHint};
use hp2ps::aggregate::NameOrder;
use hp2ps::cfmt::{c_atof, c_atoi};
use hp2ps::paint::{Format, PaintOptions};
use hp2ps::render::RenderOptions;
use hp2ps::summary::SummaryOptions;
use hp2ps::window::WindowOptions;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Render(Invocation),
    Help,
    Version,
    /// `--generate KIND [DIR]`: the man page or a shell's completions.
    Generate(Generate),
}

/// A render request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Invocation {
    pub render: RenderOptions,
    /// How the chart is painted (`-e`).
    pub paint: PaintOptions,
    /// `-p`: reuse the previous run's `.aux`.
    pub use_aux: bool,
    /// Input files; none means filter mode (stdin to stdout).
    pub files: Vec<OsString>,
    /// `--format`.
    pub format: Option<Format>,
    /// `-o`/`--output`: the output file, `-` for stdout.
    pub output: Option<OsString>,
    /// `--output-dir`: where file mode writes, instead of the current directory.
    pub output_dir: Option<OsString>,
    /// `-j`/`--jobs`: how many files render at once (default: one per core).
    pub jobs: Option<usize>,
    /// `--watch`.
    pub watch: Option<WatchOptions>,
    /// `--from`, `--to`.
    pub window: WindowOptions,
    /// `--summary[=FORMAT]`.
    pub summary: Option<SummaryFormat>,
    /// `--top`.
    pub summary_options: SummaryOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WatchOptions {
    /// How often the file is looked at.
    pub interval: Duration,
    /// Stop after this many renders (a hidden option for tests and scripts).
    pub max_renders: Option<u64>,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            interval: Duration::from_millis(200),
            max_renders: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Generate {
    pub kind: GenerateKind,
    /// Write the file into this directory instead of stdout.
    pub dir: Option<OsString>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenerateKind {
    Man,
    Bash,
    Zsh,
    Fish,
}

impl GenerateKind {
    pub const NAMES: [&'static str; 4] = ["man", "bash", "zsh", "fish"];

    fn from_name(name: &str) -> Option<GenerateKind> {
        match name {
            "man" => Some(GenerateKind::Man),
            "bash" => Some(GenerateKind::Bash),
            "zsh" => Some(GenerateKind::Zsh),
            "fish" => Some(GenerateKind::Fish),
            _ => None,
        }
    }

    /// The conventional file name: `hp2ps.1`, `hp2ps.bash`, `_hp2ps`, `hp2ps.fish`.
    pub fn file_name(self) -> &'static str {
        match self {
            GenerateKind::Man => "hp2ps.1",
            GenerateKind::Bash => "hp2ps.bash",
            GenerateKind::Zsh => "_hp2ps",
            GenerateKind::Fish => "hp2ps.fish",
        }
    }
}

impl Invocation {
    /// The output format: `--format`, else the `-o` file's extension, else PostScript.
    pub fn format(&self) -> Format {
        let from_output = || {
            let name = self.output.as_ref()?.as_bytes();
            let dot = name.iter().rposition(|&b| b == b'.')?;
            Format::from_name(std::str::from_utf8(&name[dot + 1..]).ok()?)
        };
        self.format.or_else(from_output).unwrap_or(Format::Ps)
    }

    /// Whether charts are drawn: always, except for `--summary` without any output option
    /// (`-o`, `--format`, `--output-dir`).
    pub fn renders(&self) -> bool {
        self.summary.is_none()
            || self.output.is_some()
            || self.format.is_some()
            || self.output_dir.is_some()
    }

    /// Whether the chart goes to stdout (filter mode, or `-o -`).
    pub fn chart_on_stdout(&self) -> bool {
        self.renders()
            && match self.output.as_deref() {
                Some(o) => o == "-",
                None => self.files.is_empty(),
            }
    }
}

/// A command line we refuse (exit status 2).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum UsageError {
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    #[error("invalid value in '{arg}': {why}")]
    BadValue { arg: String, why: String },
    #[error("option '{0}' needs a value")]
    MissingValue(String),
    #[error("-o/--output names one output file, but {0} input files were given")]
    OutputForManyFiles(usize),
    /// A long option or `-o`/`-j` that clap refused; its first line.
    #[error("{0}")]
    Option(String),
    #[error("{0}")]
    Conflict(&'static str),
}

const HP2PS: &str = "hp2ps flags";
const OUTPUT: &str = "Output";
const BATCH: &str = "Batch and watch";
const SELECTION: &str = "Selection";
const SUMMARY: &str = "Summary";
const OTHER: &str = "Other";

/// Every flag and option, for `--help`, the man page, the completions, and for parsing
/// the options that are not hp2ps short flags.
pub fn command() -> clap::Command {
    let flag = |id: &'static str, short: char, help: &'static str| {
        Arg::new(id)
            .short(short)
            .action(ArgAction::SetTrue)
            .help(help)
            .help_heading(HP2PS)
    };
    clap::Command::new("hp2ps")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Render GHC heap profiles (.hp) as PostScript, EPS, SVG or PDF.")
        .long_about(
            "Render GHC heap profiles (.hp) as PostScript, EPS, SVG or PDF: a drop-in \
             replacement for GHC's hp2ps (its output is byte-identical), plus batch \
             rendering, watch mode, time windows and summaries for scripts.",
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
             Exit status: 0 success, 1 a file failed, 2 a bad command line.",
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
                "-m<N>: at most N bands, the rest merge into OTHER (default 20); -m0: no limit, no key",
            ),
            flag("l", 'l', "No band limit and no key (the same as -m0)"),
            flag("p", 'p', "Reuse scaling, order and shades from the previous run's .aux"),
            flag(
                "t",
                't',
                "-t<F>: drop trace bands that together stay below F% (default 1, at most 5)",
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
                .help("ps, eps, svg or pdf (default: from the -o extension, else ps)")
                .help_heading(OUTPUT),
            Arg::new("output")
                .short('o')
                .long("output")
                .value_name("FILE")
                .value_parser(value_parser!(OsString))
                .allow_hyphen_values(true)
                .value_hint(ValueHint::FilePath)
                .help("Write the chart to FILE (- for stdout) instead of ./file.<format>")
                .help_heading(OUTPUT),
            Arg::new("output-dir")
                .long("output-dir")
                .value_name("DIR")
                .value_parser(value_parser!(OsString))
                .value_hint(ValueHint::DirPath)
                .help("Write file.<format> and file.aux into DIR (created if missing)")
                .help_heading(OUTPUT),
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
                .help("How often --watch looks at the file (default 0.2)")
                .help_heading(BATCH),
            Arg::new("watch-max-renders")
                .long("watch-max-renders")
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..))
                .hide(true)
                .help("Stop watching after N renders"),
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
                .help("How many bands the summary lists (default 10)")
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
                .help("Write the man page or a shell's completions (to DIR if a FILE is given)"),
        ])
}

/// The `--help` text.
pub fn help() -> String {
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

pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut inv = Invocation::default();
    let definition = command();
    // The options clap parses, in order, after the program name.
    let mut for_clap: Vec<OsString> = vec![OsString::from("hp2ps")];
    let mut args = args.into_iter();
    let mut after_summary = false;
    while let Some(arg) = args.next() {
        let bytes = arg.as_bytes();
        let follows_summary = std::mem::replace(&mut after_summary, bytes == b"--summary");
        let text = String::from_utf8_lossy(bytes).into_owned();
        match bytes {
            b"--help" => return Ok(Command::Help),
            b"--version" | b"-V" => return Ok(Command::Version),
            // hp2ps accepts a lone `-` and ignores it.
            b"-" => {}
            // A long option: clap parses it, with the next argument as its value when
            // the definition says it takes one and none is glued on with `=`.
            [b'-', b'-', name @ ..] if !name.is_empty() => {
                for_clap.push(arg.clone());
                let glued = name.contains(&b'=');
                let takes_separate_value = definition
                    .get_arguments()
                    .find(|a| a.get_long().is_some_and(|l| l.as_bytes() == name))
                    .is_some_and(|a| {
                        a.get_action().takes_values()
                            && !a.is_require_equals_set()
                            && a.get_num_args().map_or(true, |n| n.min_values() > 0)
                    });
                if !glued && takes_separate_value {
                    let value = args
                        .next()
                        .ok_or_else(|| UsageError::MissingValue(text.clone()))?;
                    for_clap.push(value);
                }
            }
            // `-o` and `-j` are not hp2ps letters: clap parses them too, value glued on
            // (`-ox.svg`, `-j4`) or in the next argument.
            [b'-', b'o' | b'j', rest @ ..] => {
                for_clap.push(arg.clone());
                if rest.is_empty() {
                    let value = args
                        .next()
                        .ok_or_else(|| UsageError::MissingValue(text.clone()))?;
                    for_clap.push(value);
                }
            }
            [b'-', flags @ ..] => {
                if let Some(cmd) = short_flags(flags, &text, &mut inv)? {
                    return Ok(cmd);
                }
            }
            // `--summary json` would read `json.hp`: the format needs `=`.
            b"json" | b"text" if follows_summary => {
                return Err(UsageError::BadValue {
                    arg: format!("--summary {text}"),
                    why: format!("write --summary={text} (the format is joined with =)"),
                })
            }
            _ => inv.files.push(arg),
        }
    }
    let matches = definition
        .try_get_matches_from(for_clap)
        .map_err(|e| UsageError::Option(first_line(&e.to_string())))?;
    if let Some(cmd) = apply_options(&matches, &mut inv)? {
        return Ok(cmd);
    }
    check(&inv)?;
    Ok(Command::Render(inv))
}

/// clap's message without its `error: ` prefix, usage and tips, on one line.
fn first_line(message: &str) -> String {
    let line = message.lines().next().unwrap_or("bad option");
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

fn apply_options(m: &ArgMatches, inv: &mut Invocation) -> Result<Option<Command>, UsageError> {
    if let Some(kind) = m.get_one::<String>("generate") {
        let kind = GenerateKind::from_name(kind).unwrap_or(GenerateKind::Man);
        if inv.files.len() > 1 {
            return Err(UsageError::Conflict(
                "--generate writes into at most one directory",
            ));
        }
        return Ok(Some(Command::Generate(Generate {
            kind,
            dir: inv.files.first().cloned(),
        })));
    }
    if let Some(f) = m.get_one::<String>("format") {
        inv.format = Format::from_name(f);
    }
    inv.output = m.get_one::<OsString>("output").cloned();
    inv.output_dir = m.get_one::<OsString>("output-dir").cloned();
    inv.jobs = m.get_one::<u32>("jobs").map(|&j| j as usize);
    if m.get_flag("watch") {
        let mut watch = WatchOptions::default();
        if let Some(&i) = m.get_one::<Duration>("interval") {
            watch.interval = i;
        }
        watch.max_renders = m.get_one::<u64>("watch-max-renders").copied();
        inv.watch = Some(watch);
    } else if m.contains_id("interval") || m.contains_id("watch-max-renders") {
        return Err(UsageError::Conflict(
            "--interval and --watch-max-renders only go with --watch",
        ));
    }
    inv.window = WindowOptions {
        from: m.get_one::<f64>("from").copied(),
        to: m.get_one::<f64>("to").copied(),
    };
    inv.summary = m.get_one::<String>("summary").map(|s| match s.as_str() {
        "json" => SummaryFormat::Json,
        _ => SummaryFormat::Text,
    });
    if let Some(&top) = m.get_one::<usize>("top") {
        inv.summary_options.top = top;
    }
    Ok(None)
}

/// Combinations that cannot work.
fn check(inv: &Invocation) -> Result<(), UsageError> {
    if inv.output.is_some() && inv.files.len() > 1 {
        return Err(UsageError::OutputForManyFiles(inv.files.len()));
    }
    if inv.output.is_some() && inv.output_dir.is_some() {
        return Err(UsageError::Conflict(
            "-o/--output and --output-dir cannot be used together",
        ));
    }
    if inv.files.is_empty() && inv.output_dir.is_some() {
        return Err(UsageError::Conflict(
            "--output-dir names where files go, but no input file was given (filter mode)",
        ));
    }
    if inv.watch.is_some() && inv.files.len() != 1 {
        return Err(UsageError::Conflict("--watch needs exactly one input file"));
    }
    if inv.watch.is_some() && inv.chart_on_stdout() {
        return Err(UsageError::Conflict(
            "--watch writes the chart again and again: name a file, not stdout",
        ));
    }
    if let (Some(from), Some(to)) = (inv.window.from, inv.window.to) {
        if from > to {
            return Err(UsageError::Conflict(
                "the time window is empty: --from is after --to",
            ));
        }
    }
    if inv.summary.is_some() && inv.chart_on_stdout() {
        return Err(UsageError::Conflict(
            "--summary and the chart cannot both go to stdout: name an output file with -o",
        ));
    }
    Ok(())
}

/// Scans one `-xyz` argument. `p` combines with the letter after it; every other letter
/// takes the rest of the argument as its value (or ignores it), as in hp2ps.
fn short_flags(
    flags: &[u8],
    arg: &str,
    inv: &mut Invocation,
) -> Result<Option<Command>, UsageError> {
    let agg = &mut inv.render.aggregate;
    let lay = &mut inv.render.layout;
    let mut i = 0;
    while let Some(&letter) = flags.get(i) {
        let rest = &flags[i + 1..];
        match letter {
            b'p' => {
                inv.use_aux = true;
                i += 1;
                continue;
            }
            b'b' => lay.big_title = true,
            b's' => lay.small_title = true,
            b'c' => lay.colour = true,
            b'd' => agg.by_deviation = true,
            b'g' => lay.portrait = true,
            b'y' => lay.marks = false,
            b'M' => lay.multipage = true,
            b'i' => {
                agg.by_name = Some(if rest.first() == Some(&b'-') {
                    NameOrder::Descending
                } else {
                    NameOrder::Ascending
                })
            }
            b'm' => {
                agg.band_limit = i64::from(c_atoi(rest));
                // As in hp2ps, a limit above 20 switches multi-page output on for good:
                // a later `-m5` does not switch it off.
                if agg.band_limit > 20 {
                    lay.multipage = true;
                }
            }
            // The GHC manual's `-l`: no band limit and no key, like `-m0`.
            b'l' => agg.band_limit = 0,
            b't' => agg.trace_percent = trace_percent(rest, arg)?,
            b'e' => inv.paint.eps_width = Some(eps_width(rest, arg)?),
            b'?' | b'h' => return Ok(Some(Command::Help)),
            _ => return Err(UsageError::UnknownOption(arg.to_string())),
        }
        break;
    }
    Ok(None)
}

fn trace_percent(value: &[u8], arg: &str) -> Result<f64, UsageError> {
    let t = c_atof(value);
    if (0.0..=5.0).contains(&t) {
        Ok(t)
    } else {
        Err(UsageError::BadValue {
            arg: arg.to_string(),
            why: "the trace threshold must be a percentage from 0 to 5".to_string(),
        })
    }
}

/// `-e<f>[in|mm|pt]`: the unit is the last two characters; anything else is points.
fn eps_width(value: &[u8], arg: &str) -> Result<f64, UsageError> {
    let number = c_atof(value);
    let scale = match value {
        [.., b'i', b'n'] => 72.0,
        [.., b'm', b'm'] => 2.834646,
        _ => 1.0,
    };
    let width = number * scale;
    if width.is_finite() && width > 144.0 {
        Ok(width)
    } else {
        Err(UsageError::BadValue {
            arg: arg.to_string(),
            why: "the EPS width must be a number above 2 inches (144pt), with an optional unit in, mm or pt".to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(args: &[&str]) -> Invocation {
        match parse(args.iter().map(OsString::from)) {
            Ok(Command::Render(inv)) => inv,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn glued_values_and_p_bundling() {
        let i = inv(&["-e8in", "-m5", "-t0.5", "-pc", "x.hp"]);
        assert_eq!(i.paint.eps_width, Some(576.0));
        assert_eq!(i.render.aggregate.band_limit, 5);
        assert_eq!(i.render.aggregate.trace_percent, 0.5);
        assert!(i.use_aux && i.render.layout.colour);
        assert_eq!(i.files, vec![OsString::from("x.hp")]);
    }

    #[test]
    fn a_letter_other_than_p_swallows_the_rest() {
        let i = inv(&["-cp", "-bz", "-dy"]);
        assert!(!i.use_aux && i.render.layout.colour && i.render.layout.big_title);
        assert!(i.render.aggregate.by_deviation && i.render.layout.marks);
    }

    #[test]
    fn atoi_and_atof_values() {
        assert_eq!(inv(&["-m3x"]).render.aggregate.band_limit, 3);
        assert_eq!(inv(&["-mabc"]).render.aggregate.band_limit, 0);
        assert_eq!(inv(&["-m"]).render.aggregate.band_limit, 0);
        assert_eq!(inv(&["-m-3"]).render.aggregate.band_limit, -3);
        assert_eq!(inv(&["-t"]).render.aggregate.trace_percent, 0.0);
        assert_eq!(inv(&["-t1e-1"]).render.aggregate.trace_percent, 0.1);
        // Units are case-sensitive: "IN" is not inches, so this is 200 points.
        assert_eq!(inv(&["-e200IN"]).paint.eps_width, Some(200.0));
        assert_eq!(inv(&["-e150mm"]).paint.eps_width, Some(150.0 * 2.834646));
        assert_eq!(
            inv(&["-i-"]).render.aggregate.by_name,
            Some(NameOrder::Descending)
        );
        assert_eq!(
            inv(&["-i+"]).render.aggregate.by_name,
            Some(NameOrder::Ascending)
        );
        assert_eq!(inv(&["-l"]).render.aggregate.band_limit, 0);
        assert_eq!(inv(&["-m3", "-m5"]).render.aggregate.band_limit, 5);
        let sticky = inv(&["-m30", "-m5"]).render;
        assert!(sticky.layout.multipage && sticky.aggregate.band_limit == 5);
        assert!(inv(&["-"]).files.is_empty());
    }

    #[test]
    fn bad_flags_and_values_are_usage_errors() {
        for bad in [
            "-t6", "-t-1", "-tnan", "-e1in", "-e144", "-e", "-enan", "-einf", "-x", "--foo", "-pz",
            "-pt6",
        ] {
            assert!(parse([OsString::from(bad)]).is_err(), "{bad}");
        }
        assert!(parse([OsString::from("-e145")]).is_ok());
    }

    #[test]
    fn format_and_output() {
        let i = inv(&["--format", "svg", "a.hp"]);
        assert_eq!(i.format(), Format::Svg);
        assert_eq!(inv(&["--format=PDF"]).format(), Format::Pdf);
        assert_eq!(inv(&["-o", "x.pdf"]).format(), Format::Pdf);
        assert_eq!(inv(&["-ox.svg"]).format(), Format::Svg);
        assert_eq!(inv(&["--output=x.eps"]).format(), Format::Eps);
        assert_eq!(inv(&["--format", "ps", "-o", "x.svg"]).format(), Format::Ps);
        assert_eq!(inv(&["-o", "-"]).format(), Format::Ps);
        assert_eq!(inv(&["-e6in", "x.hp"]).format(), Format::Ps);
        assert_eq!(inv(&["--format", "eps"]).paint.eps_width, None);
        assert_eq!(
            inv(&["--format", "eps", "-e6in"]).paint.eps_width,
            Some(432.0)
        );
        assert!(parse(["--format", "gif"].map(OsString::from)).is_err());
        assert!(parse(["--format"].map(OsString::from)).is_err());
        assert!(parse(["-o", "x.ps", "a.hp", "b.hp"].map(OsString::from)).is_err());
    }

    #[test]
    fn help_and_version() {
        for h in ["-?", "-h", "--help", "-p?"] {
            assert_eq!(parse([OsString::from(h)]), Ok(Command::Help), "{h}");
        }
        assert_eq!(parse([OsString::from("--version")]), Ok(Command::Version));
    }

    #[test]
    fn long_options_take_separate_or_glued_values() {
        let i = inv(&[
            "--output-dir",
            "out",
            "-j3",
            "--from=1.5",
            "--to",
            "4",
            "--top",
            "3",
            "--summary=json",
            "a.hp",
            "b",
        ]);
        assert_eq!(i.output_dir, Some(OsString::from("out")));
        assert_eq!(i.jobs, Some(3));
        assert_eq!(
            i.window,
            WindowOptions {
                from: Some(1.5),
                to: Some(4.0)
            }
        );
        assert_eq!(i.summary, Some(SummaryFormat::Json));
        assert_eq!(i.summary_options.top, 3);
        assert_eq!(i.files, ["a.hp", "b"].map(OsString::from));
        assert!(i.renders(), "--output-dir draws the charts too");
        assert_eq!(inv(&["-j", "2"]).jobs, Some(2));
        assert_eq!(inv(&["-j2", "--jobs=3"]).jobs, Some(3));
        assert_eq!(
            inv(&["--format=svg", "--format", "pdf"]).format(),
            Format::Pdf
        );
        assert_eq!(inv(&["--from", "-1"]).window.from, Some(-1.0));
        let s = inv(&["--summary", "x.hp"]);
        assert_eq!(s.summary, Some(SummaryFormat::Text));
        assert_eq!(s.files, [OsString::from("x.hp")]);
        assert!(!s.renders());
        assert!(inv(&["--summary", "--format", "pdf", "x.hp"]).renders());
        // hp2ps flags mix freely with the long options.
        let m = inv(&["-pc", "--watch", "--interval", "0.05", "-m5", "x"]);
        assert!(m.use_aux && m.render.layout.colour && m.render.aggregate.band_limit == 5);
        assert_eq!(
            m.watch,
            Some(WatchOptions {
                interval: Duration::from_millis(50),
                max_renders: None
            })
        );
        assert_eq!(
            inv(&["--watch", "--watch-max-renders=2", "x"])
                .watch
                .and_then(|w| w.max_renders),
            Some(2)
        );
    }

    #[test]
    fn bad_long_options_and_combinations_are_usage_errors() {
        for bad in [
            &["--summary", "json", "x.hp"][..],
            &["--summary=xml"],
            &["-j0", "a"],
            &["-j"],
            &["--jobs", "many"],
            &["--from", "nan"],
            &["--from", "3", "--to", "2"],
            &["--interval", "1", "x"],
            &["--watch", "--interval", "0", "x"],
            &["--watch"],
            &["--watch", "a", "b"],
            &["--watch", "-o", "-", "a"],
            &["--output-dir", "d"],
            &["--output-dir", "d", "-o", "x.ps", "a"],
            &["--summary", "-o", "-", "a"],
            &["--summary", "--format", "svg"],
            &["--output-dir"],
            &["--generate", "csh"],
            &["--top", "-1"],
        ] {
            let args = bad.iter().map(OsString::from);
            assert!(parse(args).is_err(), "{bad:?}");
        }
        // A summary on stdout with the chart in a file is fine, in filter mode too.
        assert!(parse(["--summary", "-o", "x.ps"].map(OsString::from)).is_ok());
        // A summary of stdin, without a chart.
        assert!(!inv(&["--summary=text"]).renders());
    }

    #[test]
    fn generate_takes_a_kind_and_an_optional_directory() {
        let g = |args: &[&str]| parse(args.iter().map(OsString::from));
        assert_eq!(
            g(&["--generate", "man"]),
            Ok(Command::Generate(Generate {
                kind: GenerateKind::Man,
                dir: None
            }))
        );
        assert_eq!(
            g(&["--generate=zsh", "out"]),
            Ok(Command::Generate(Generate {
                kind: GenerateKind::Zsh,
                dir: Some(OsString::from("out"))
            }))
        );
        assert!(g(&["--generate", "bash", "a", "b"]).is_err());
    }

    #[test]
    fn help_comes_from_the_definition_and_lists_every_flag() {
        let text = help();
        assert!(
            text.starts_with("usage: hp2ps [flags] [file[.hp] ...]\n"),
            "{text}"
        );
        for heading in [
            "hp2ps flags:",
            "Output:",
            "Batch and watch:",
            "Selection:",
            "Summary:",
        ] {
            assert!(text.contains(heading), "{heading}");
        }
        for flag in "bscdigeMmlpty".chars() {
            assert!(text.contains(&format!("  -{flag}  ")), "-{flag}");
        }
        let cmd = command();
        for a in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = a.get_long() {
                assert!(text.contains(&format!("--{long}")), "--{long}");
            }
        }
        assert!(!text.contains("--generate") && !text.contains("--watch-max-renders"));
        command().debug_assert();
    }
}
