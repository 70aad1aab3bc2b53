//! What is known of how a profile was made, besides its JOB: what an eventlog tells (its
//! breakdown, its interval, its runtime) and what reading the input warned of, for the
//! page's header. Worked out once, by [`crate::load::Loaded::facts`], and read by every
//! page of the profile.

/// What the page's header says about a profile that its JOB may not: how it was made,
/// when the input (an eventlog) told. The page also reads the JOB's RTS options.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub(crate) struct ProfileFacts {
    /// The RTS flag of the heap profile's breakdown: `-hc`, `-hT`, `-hi`, …. Default:
    /// `None`.
    pub(crate) breakdown: Option<String>,
    /// The sampling interval (`-i`), in seconds. Default: `None`.
    pub(crate) interval: Option<f64>,
    /// The runtime that wrote the profile, as it names itself (`GHC-9.10.3 rts_thr`).
    /// Default: `None`.
    pub(crate) runtime: Option<String>,
    /// What reading the input warned of (a damaged eventlog's bytes skipped and censuses
    /// lost, a `.hp`'s unfinished last sample), a line each without the input's name:
    /// the page says them under its header, as the command says them on stderr, so that
    /// a reader of the page alone knows too. Default: none.
    #[serde(default)]
    pub(crate) warnings: Vec<String>,
}
