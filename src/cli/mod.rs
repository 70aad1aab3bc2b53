//! The command line: hp2ps's flags, scanned as hp2ps scans them (values glued to the
//! letter, `-p` combining with the next letter), plus long options.
//!
//! One definition ([`definition::command`]) describes every flag and option for `--help`,
//! the man page and the shell completions. The hp2ps short flags cannot be parsed by clap (a
//! value glued to its letter, `-p` bundling, a letter swallowing the rest of its argument),
//! so [`parse`] scans them by hand ([`short_flags`]); every other option goes to clap, which
//! parses it from that same definition. [`rules`] refuses the combinations that cannot work;
//! [`gate`] has the options of the CI gate (`--check`) and of a pprof export's census,
//! [`serve_options`] those of the live page (`--serve`).

mod definition;
mod gate;
mod parse;
mod rules;
mod serve_options;
mod short_flags;

pub(crate) use definition::{command, help};
pub use parse::parse;

use std::ffi::OsString;
use std::time::Duration;

use crate::check::Rules;
use crate::read::window::WindowOptions;
use crate::summary::SummaryOptions;
use crate::symbolize::SymbolizeOptions;
use crate::{
    defaults, BandFilter, EventlogOptions, Format, LoadOptions, PaintOptions, RenderOptions,
    SharedAxes,
};

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Draw, summarise, watch or serve.
    Render(Box<Invocation>),
    /// `--help`.
    Help,
    /// `--version`.
    Version,
    /// `--generate KIND [DIR]`: the man page or a shell's completions.
    Generate(Generate),
}

/// A render request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Invocation {
    /// Aggregation, layout and what the format needs.
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
    /// `--serve`.
    pub serve: Option<ServeOptions>,
    /// `--from`, `--to`.
    pub window: WindowOptions,
    /// `--summary[=FORMAT]`.
    pub summary: Option<SummaryFormat>,
    /// `--top`.
    pub summary_options: SummaryOptions,
    /// `--uniform-scale`: which axes the charts of a batch share.
    pub uniform_scale: Option<SharedAxes>,
    /// `--time`, `--full-names`: how an eventlog becomes a profile.
    pub eventlog: EventlogOptions,
    /// `--heap-size`: draw an eventlog's heap size and live bytes over the bands.
    pub heap_size: bool,
    /// `--ipe-names`: how `-hi` bands are named.
    pub symbolize: SymbolizeOptions,
    /// `--binary`: the program that wrote a `-hi` profile, for its symbols.
    pub binary: Option<OsString>,
    /// `--include`, `--exclude`: the bands kept.
    pub filter: BandFilter,
    /// `--check[=RULES]`: judge the profile instead of drawing it.
    pub check: Option<CheckRequest>,
}

/// `--check[=RULES] [--baseline OLD] [--check-format json]`.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckRequest {
    pub rules: Rules,
    pub baseline: Option<OsString>,
    /// The verdict as JSON rather than text.
    pub json: bool,
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
            interval: Duration::from_millis(defaults::WATCH_INTERVAL_MS),
            max_renders: None,
        }
    }
}

/// `--serve`: where the live page is served.
#[derive(Debug, Clone, PartialEq)]
pub struct ServeOptions {
    /// `--bind`: the address listened on.
    pub bind: std::net::IpAddr,
    /// `--port`: 0 for any free port.
    pub port: u16,
    /// Censuses kept per level of detail (a hidden option for tests).
    pub detail: Option<usize>,
    /// Instead of serving, write the whole run's page to stdout, from the file or from
    /// stdin (the server runs itself so for `-o` and the page's save).
    pub whole_run: bool,
    /// `--spool`: where a run read from a stream is kept (`None`: the temporary
    /// directory).
    pub spool: Option<std::path::PathBuf>,
    /// `--spool-max`: the most bytes of a run kept in its spool file.
    pub spool_max: Option<u64>,
    /// The run the whole run's child reads stops at `--spool-max`: its page says so.
    pub whole_run_capped: bool,
    /// The run the whole run's child reads is the first this many bytes of the regular
    /// file on its stdin (which grows on after them): mapped where it can be.
    pub whole_run_bytes: Option<u64>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            bind: std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
            port: 0,
            detail: None,
            whole_run: false,
            spool: None,
            spool_max: None,
            whole_run_capped: false,
            whole_run_bytes: None,
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
    PowerShell,
}

impl GenerateKind {
    pub const NAMES: [&'static str; 5] = ["man", "bash", "zsh", "fish", "powershell"];

    fn from_name(name: &str) -> Option<GenerateKind> {
        match name {
            "man" => Some(GenerateKind::Man),
            "bash" => Some(GenerateKind::Bash),
            "zsh" => Some(GenerateKind::Zsh),
            "fish" => Some(GenerateKind::Fish),
            "powershell" => Some(GenerateKind::PowerShell),
            _ => None,
        }
    }

    /// The conventional file name: `hp2ps.1`, `hp2ps.bash`, `_hp2ps`, `hp2ps.fish`,
    /// `_hp2ps.ps1` (clap_complete's names).
    pub fn file_name(self) -> &'static str {
        match self {
            GenerateKind::Man => "hp2ps.1",
            GenerateKind::Bash => "hp2ps.bash",
            GenerateKind::Zsh => "_hp2ps",
            GenerateKind::Fish => "hp2ps.fish",
            GenerateKind::PowerShell => "_hp2ps.ps1",
        }
    }
}

impl Invocation {
    /// The output format: `--format`, else the `-o` file's extension, else PostScript.
    pub fn format(&self) -> Format {
        let from_output = || Format::from_file_name(self.output.as_ref()?.as_encoded_bytes());
        self.format.or_else(from_output).unwrap_or(Format::Ps)
    }

    /// How an input is loaded: the window, the eventlog's options, the names of `-hi`
    /// bands, the heap-size lines and the band filter (the program's binary is the
    /// edge's to add: `run/symbols.rs`).
    pub fn load_options(&self) -> LoadOptions {
        LoadOptions {
            from: self.window.from,
            to: self.window.to,
            eventlog: self.eventlog.clone(),
            ipe_names: self.symbolize.names,
            // An export reports the heap lines where the log has them.
            heap_size: self.heap_size || self.render.needs.heap_lines,
            filter: self.filter.clone(),
            ..LoadOptions::default()
        }
    }

    /// Whether charts are drawn: always, except for `--summary` without any output option
    /// (`-o`, `--format`, `--output-dir`).
    pub fn renders(&self) -> bool {
        self.summary.is_none()
            || self.output.is_some()
            || self.format.is_some()
            || self.output_dir.is_some()
    }

    /// Whether every input goes into one page (`--format html -o FILE` with several
    /// inputs: the runs compared), rather than a chart each.
    pub fn one_page(&self) -> bool {
        self.files.len() > 1 && self.output.is_some() && self.format() == Format::Html
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
    #[error("-o/--output names one output file, but {0} input files were given (only an HTML page holds several: --format html)")]
    OutputForManyFiles(usize),
    /// A long option or `-o`/`-j` that clap refused; its first line.
    #[error("{0}")]
    Option(String),
    #[error("{0}")]
    Conflict(&'static str),
}

#[cfg(test)]
mod tests;
