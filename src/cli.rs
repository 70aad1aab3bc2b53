//! The command line: hp2ps's flags, scanned as hp2ps scans them (values glued to the
//! letter, `-p` combining with the next letter), plus long options.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use hp2ps::cfmt::{c_atof, c_atoi};
use hp2ps::aggregate::NameOrder;
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
}

/// A command line we refuse (exit status 2).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum UsageError {
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    #[error("invalid value in '{arg}': {why}")]
    BadValue { arg: String, why: String },
}

pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut inv = Invocation::default();
    for arg in args {
        let bytes = arg.as_bytes();
        let text = String::from_utf8_lossy(bytes).into_owned();
        match bytes {
            b"--help" => return Ok(Command::Help),
            b"--version" | b"-V" => return Ok(Command::Version),
            // hp2ps accepts a lone `-` and ignores it.
            b"-" => {}
            [b'-', b'-', ..] => return Err(UsageError::UnknownOption(text)),
            [b'-', flags @ ..] => {
                if let Some(cmd) = short_flags(flags, &text, &mut inv)? {
                    return Ok(cmd);
                }
            }
            _ => inv.files.push(OsString::from_vec(bytes.to_vec())),
        }
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
            b'm' => agg.band_limit = i64::from(c_atoi(rest)),
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
        assert_eq!(inv(&["-e150mm"]).render.layout.eps_width, Some(150.0 * 2.834646));
        assert_eq!(inv(&["-i-"]).render.aggregate.by_name, Some(NameOrder::Descending));
        assert_eq!(inv(&["-i+"]).render.aggregate.by_name, Some(NameOrder::Ascending));
        assert_eq!(inv(&["-l"]).render.aggregate.band_limit, 0);
        assert_eq!(inv(&["-m3", "-m5"]).render.aggregate.band_limit, 5);
        assert!(inv(&["-"]).files.is_empty());
    }

    #[test]
    fn bad_flags_and_values_are_usage_errors() {
        for bad in ["-t6", "-t-1", "-tnan", "-e1in", "-e144", "-e", "-enan", "-einf", "-x", "--foo", "-pz", "-pt6"] {
            assert!(parse([OsString::from(bad)]).is_err(), "{bad}");
        }
        assert!(parse([OsString::from("-e145")]).is_ok());
    }

    #[test]
    fn help_and_version() {
        for h in ["-?", "-h", "--help", "-p?"] {
            assert_eq!(parse([OsString::from(h)]), Ok(Command::Help), "{h}");
        }
        assert_eq!(parse([OsString::from("--version")]), Ok(Command::Version));
    }
}
