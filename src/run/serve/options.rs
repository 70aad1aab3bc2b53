//! The live stage's options, from the command line's: the server's and the whole run's
//! child's alike.

use super::source::Input;
use crate::cli::{Invocation, ServeOptions};
use crate::live::LiveOptions;
use crate::run::symbols;

/// The library's options for the command line's.
pub(super) fn live_options(
    inv: &Invocation,
    opts: &ServeOptions,
    input: &Input,
    name: &str,
) -> LiveOptions {
    let mut live = LiveOptions::default();
    let path = match input {
        Input::Path(p) => Some(p.as_path()),
        _ => None,
    };
    let (binary, warnings) = symbols::binary(inv, path, name);
    for w in warnings {
        say!("{w}");
    }
    live.load = inv.load_options();
    // Every page of a `-hi` run names its bands again: `symbols` opens a program once
    // per run, whatever argv[0] names it, and looks again for one not there yet.
    live.load.binary = binary;
    live.render = inv.render.clone();
    live.paint = inv.paint.clone();
    live.paint.source = Some(name.to_string());
    if let Some(detail) = opts.detail {
        live.detail = detail;
    }
    live
}
