//! Eventlogs for the tests: a writer that makes the eventlog a run would have written
//! ([`writer`], including layouts GHC 9.0.2 cannot write), and ghc-events, GHC's reference
//! parser, as an independent oracle ([`oracle`]).

pub mod oracle;
pub mod writer;
