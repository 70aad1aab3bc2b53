//! One file argument rendered, whatever it holds: a heap profile as its chart
//! (`render.rs`), a time profile as its flame graph (`time_render.rs`), and an eventlog
//! of a `+RTS -p -l` run, which holds a time profile and no heap profile, as that time
//! profile. Batch mode and `--watch` render through here.

use std::ffi::OsString;

use super::names::FileNames;
use super::render::{render_file, Done, Failure};
use super::time_read::{is_time_profile_file, read_time};
use super::time_render::{render_time_file, render_time_read};
use crate::cli::Invocation;

/// Renders one file argument as a single-file run would.
pub(crate) fn render_any(inv: &Invocation, arg: &OsString) -> Result<Done, Failure> {
    let names = FileNames::of(inv, arg);
    if is_time_profile_file(names.input.as_os_str()) {
        return render_time_file(inv, &names);
    }
    // Whether an eventlog holds a heap profile is known only once it is read (GHC's
    // header declares every event type, used or not): its time profile is drawn when
    // the heap's reading finds none. When the time profile cannot be read either, the
    // heap's error is the one said (it names what the run should have been given); once
    // read, what goes wrong in drawing it is said as it is.
    match render_file(inv, arg) {
        Err(heap) if heap.time_profile_only => {
            let Ok(read) = read_time(names.input.as_os_str(), inv.watch.is_none()) else {
                return Err(heap);
            };
            let mut done = render_time_read(inv, &names, read)?;
            let done_with = if inv.renders() { "drawn" } else { "summarised" };
            done.notes.push(format!(
                "hp2ps: {}: the log holds no heap profile (run the program with +RTS -hc -l \
                 for one): its time profile is {done_with}",
                names.input.display()
            ));
            Ok(done)
        }
        rendered => rendered,
    }
}
