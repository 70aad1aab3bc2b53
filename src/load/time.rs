//! Reading a time profile ([`TimeProfile::read`]): a `.prof` report, `-pj` JSON or an
//! eventlog's time samples, whichever the input is, from the same [`Source`]s as a heap
//! profile. A stream is read whole first (a report is read in one pass over its bytes);
//! a mapped input is given back as it is read.

use super::Source;
use crate::read::prof::{read_time_profile_bytes, TimeProfileError, TimeProfileOptions};
pub(crate) use crate::read::prof::{Kind as TimeProfileKind, TimeProfile};

impl TimeProfile {
    /// Reads a time profile from `source`: GHC's `+RTS -p` report (`.prof` text, also with
    /// `-P`'s and `-pa`'s columns), its `-pj` JSON, or an eventlog's time samples
    /// (`+RTS -p -l`), whichever its first bytes say.
    ///
    /// ```
    /// use hp2ps::{Source, TimeProfile, TimeProfileOptions};
    ///
    /// let prof = b"\tSat Nov 28 10:38 2026 Time and Allocation Profiling Report  (Final)\n\n\
    ///     \t   prog +RTS -p -RTS\n\n\
    ///     \ttotal time  =        0.10 secs   (100 ticks @ 1000 us, 1 processor)\n\
    ///     \ttotal alloc =       1,000 bytes  (excludes profiling overheads)\n\n\
    ///     COST CENTRE MODULE SRC        no. entries  %time %alloc   %time %alloc\n\n\
    ///     MAIN        MAIN   <built-in>   1       0   40.0   90.0   100.0  100.0\n \
    ///     main       Main   M.hs:1:1     2       1   60.0   10.0    60.0   10.0\n";
    /// let read = TimeProfile::read(Source::Bytes(prof), &TimeProfileOptions::default()).unwrap();
    /// assert!(read.warnings().is_empty());
    /// ```
    pub fn read(
        source: Source<'_>,
        opts: &TimeProfileOptions,
    ) -> Result<TimeProfile, TimeProfileError> {
        match source {
            Source::Stream(input) => {
                let mut bytes = Vec::new();
                input.read_to_end(&mut bytes)?;
                read_time_profile_bytes(&bytes, opts, &mut |_| {})
            }
            Source::Bytes(bytes) => read_time_profile_bytes(bytes, opts, &mut |_| {}),
            Source::Mapped { bytes, release } => read_time_profile_bytes(bytes, opts, release),
        }
    }
}
