//! hp2ps's glued short flags (`-e6in`, `-m5`, `-pc`), scanned exactly as hp2ps scans them.

use crate::num::{c_atof, c_atoi};
use crate::{defaults, NameOrder};

use super::{Command, Invocation, UsageError};

/// Scans one `-xyz` argument. `p` combines with the letter after it; every other letter
/// takes the rest of the argument as its value (or ignores it), as in hp2ps.
pub(super) fn short_flags(
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
                if defaults::key_needs_own_pages(agg.band_limit) {
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
