//! Eventlogs for the tests: a writer that makes the eventlog a run would have written
//! ([`writer`], including layouts GHC 9.0.2 cannot write), ghc-events, GHC's reference
//! parser, as an independent oracle ([`oracle`]), and a sink that records what the
//! reader says with the corpus pairs and a small raw writer ([`recorder`]).

pub mod oracle;
pub mod recorder;
pub mod writer;
