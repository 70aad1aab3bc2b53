//! The command line: hp2ps's flags, scanned as hp2ps scans them (values glued to the
//! letter, `-p` combining with the next letter), plus long options.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use hp2ps::aggregate::NameOrder;
use hp2ps::cfmt::{c_atof, c_atoi};
use hp2ps::paint::Format;
use hp2ps::render::RenderOptions;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Render(Invocation),
    Help,
    Version,
}

/// A render request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Invocation {
    pub render: RenderOptions,
    /// `-p`: reuse the previous run's `.aux`.
    pub use_aux: bool,
    /// Input files; none means filter mode (stdin to stdout).
    pub files: Vec<OsString>,
    /// `--format`.
    pub format: Option<Format>,
    /// `-o`/`--output`: the output file, `-` for stdout.
    pub output: Option<OsString>,
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
}

pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut inv = Invocation::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_bytes();
        let text = String::from_utf8_lossy(bytes).into_owned();
        let (long, inline_value) = match text.split_once('=') {
            Some((l, v)) if text.starts_with("--") => (l.to_string(), Some(OsString::from(v))),
            _ => (text.clone(), None),
        };
        let mut value = |name: &str| match inline_value.clone() {
            Some(v) => Ok(v),
            None => args
                .next()
                .ok_or_else(|| UsageError::MissingValue(name.to_string())),
        };
        match long.as_str() {
            "--help" => return Ok(Command::Help),
            "--version" | "-V" => return Ok(Command::Version),
            "--format" => {
                let v = value("--format")?;
                let name = v.to_string_lossy();
                inv.format =
                    Some(
                        Format::from_name(&name).ok_or_else(|| UsageError::BadValue {
                            arg: format!("--format {name}"),
                            why: "the format must be ps, eps, svg or pdf".to_string(),
                        })?,
                    );
                continue;
            }
            "--output" | "-o" => {
                inv.output = Some(value(&long)?);
                continue;
            }
            _ => {}
        }
        match bytes {
            // hp2ps accepts a lone `-` and ignores it.
            b"-" => {}
            [b'-', b'o', rest @ ..] => inv.output = Some(OsString::from_vec(rest.to_vec())),
            [b'-', b'-', ..] => return Err(UsageError::UnknownOption(text)),
            [b'-', flags @ ..] => {
                if let Some(cmd) = short_flags(flags, &text, &mut inv)? {
                    return Ok(cmd);
                }
            }
            _ => inv.files.push(OsString::from_vec(bytes.to_vec())),
        }
    }
    if inv.output.is_some() && inv.files.len() > 1 {
        return Err(UsageError::OutputForManyFiles(inv.files.len()));
    }
    if inv.format() == Format::Eps && inv.render.layout.eps_width.is_none() {
        // EPS without -e is hp2ps's graph box at scale 1, the same as -e648pt.
        inv.render.layout.eps_width = Some(hp2ps::chart::BORDER_WIDTH);
    }
    Ok(Command::Render(inv))
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
            b'e' => lay.eps_width = Some(eps_width(rest, arg)?),
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

pub const USAGE: &str = "\
usage: hp2ps [flags] [file[.hp] ...]
Renders GHC heap profiles. With no file, reads stdin and writes PostScript to stdout;
otherwise renders each file.hp to ./file.ps and ./file.aux.

  -b        use the big title box
  -s        use the small title box
  -c        colour output
  -d        sort bands by standard deviation
  -i[+|-]   sort bands by identifier (-i- gives the greatest at the bottom)
  -g        portrait page for ghostscript previewers (not rotated)
  -e<f>[in|mm|pt]
            Encapsulated PostScript, f units wide (f > 2 inches; default unit pt)
  -M        multi-page output: the key on pages of its own
  -m<n>     at most n bands (default 20); -m0 removes the limit and the key
  -l        no band limit and no key (same as -m0)
  -p        reuse scaling, shading and ordering from ./file.aux
  -t<f>     drop trace bands that sum below f% (default 1, at most 5)
  -y        do not draw marks

Beyond hp2ps:
  --format ps|eps|svg|pdf
            output format (default: from the -o extension, else ps); EPS, SVG and PDF
            are one unrotated picture, -e wide (default 648pt)
  -o, --output FILE
            write to FILE (- for stdout) instead of ./file.<format>
  -?, -h, --help
            show this help
  --version show the version
";

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
        assert_eq!(i.render.layout.eps_width, Some(576.0));
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
        assert_eq!(inv(&["-e200IN"]).render.layout.eps_width, Some(200.0));
        assert_eq!(
            inv(&["-e150mm"]).render.layout.eps_width,
            Some(150.0 * 2.834646)
        );
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
        assert_eq!(
            inv(&["--format", "eps"]).render.layout.eps_width,
            Some(648.0)
        );
        assert_eq!(
            inv(&["--format", "eps", "-e6in"]).render.layout.eps_width,
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
}
