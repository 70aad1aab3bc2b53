//! What an input is, told by its first bytes: the one place that decides which reader
//! reads it, for a whole reading ([`crate::load::load`]), a log followed as it is
//! written (the live stage) and the command's naming of outputs.

/// The kinds of input the readers read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputKind {
    /// A GHC eventlog: it starts with its magic, `hdrb`.
    Eventlog,
    /// A `.hp` file: anything else (its reader says what is wrong with one that is not).
    Hp,
}

impl InputKind {
    /// How many first bytes tell the kind.
    pub(crate) const HEAD: usize = 4;

    /// The kind of an input that starts with `head` (its first [`Self::HEAD`] bytes, or
    /// all of a shorter input).
    pub(crate) fn of(head: &[u8]) -> InputKind {
        match head.starts_with(b"hdrb") {
            true => InputKind::Eventlog,
            false => InputKind::Hp,
        }
    }

    /// Whether `head` starts a profile, rather than its middle: an eventlog's header or a
    /// `.hp`'s JOB line (a stream joined while its writer was mid-run has neither).
    pub(crate) fn starts_a_profile(head: &[u8]) -> bool {
        head.starts_with(b"hdrb") || head.starts_with(b"JOB")
    }
}

/// Whether `first_bytes` start like an eventlog (the tests' and the fuzz targets' way to
/// ask `InputKind::of`).
pub fn is_eventlog(first_bytes: &[u8]) -> bool {
    InputKind::of(first_bytes) == InputKind::Eventlog
}
