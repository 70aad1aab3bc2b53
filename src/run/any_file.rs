//! One file argument rendered, whatever it holds: a heap profile as its chart
//! (`render.rs`), a time profile as its flame graph (`time_render.rs`). Batch mode and
//! `--watch` render through here.

use std::ffi::OsString;

use super::names::FileNames;
use super::render::{render_file, Done, Failure};
use super::time_read::is_time_profile_file;
use super::time_render::render_time_file;
use crate::cli::Invocation;

/// Renders one file argument as a single-file run would.
pub(crate) fn render_any(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    if is_time_profile_file(names.input.as_os_str()) {
        return render_time_file(inv, &names);
    }
    render_file(inv, arg)
}
