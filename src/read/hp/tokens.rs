//! The words of the `.hp` language: keywords, whitespace, and the longest number token.

use crate::seam::HeaderField;

/// C's `isspace` in the "C" locale, which hp2ps's tokens split on.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

pub(crate) use crate::num::MAX_NUMBER_LEN;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    Header(HeaderField),
    Mark,
    Begin,
    End,
}

impl Keyword {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Keyword::Header(f) => f.keyword(),
            Keyword::Mark => "MARK",
            Keyword::Begin => "BEGIN_SAMPLE",
            Keyword::End => "END_SAMPLE",
        }
    }
}

pub(crate) fn keyword(word: &[u8]) -> Option<Keyword> {
    // (LONGEST_KEYWORD below is the longest of these.)
    // Only words starting with an upper-case letter can be keywords (as in hp2ps).
    if !word.first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    Some(match word {
        b"BEGIN_SAMPLE" => Keyword::Begin,
        b"END_SAMPLE" => Keyword::End,
        b"JOB" => Keyword::Header(HeaderField::Job),
        b"DATE" => Keyword::Header(HeaderField::Date),
        b"SAMPLE_UNIT" => Keyword::Header(HeaderField::SampleUnit),
        b"VALUE_UNIT" => Keyword::Header(HeaderField::ValueUnit),
        b"MARK" => Keyword::Mark,
        _ => return None,
    })
}

/// The length of the longest keyword (`BEGIN_SAMPLE`): a longer word is none, which
/// the data-line fast path knows without a call.
pub(crate) const LONGEST_KEYWORD: usize = 12;

/// Where the word that starts at `i` ends.
pub(crate) fn word_end(seg: &[u8], i: usize) -> usize {
    seg[i..]
        .iter()
        .position(|&b| is_space(b))
        .map_or(seg.len(), |k| i + k)
}

/// Where the number that starts at `i` ends (digits and dots, as hp2ps reads them).
pub(crate) fn number_end(seg: &[u8], i: usize) -> usize {
    seg[i..]
        .iter()
        .position(|&b| !(b.is_ascii_digit() || b == b'.'))
        .map_or(seg.len(), |k| i + k)
}

/// hp2ps stores names only up to a NUL byte.
pub(crate) fn cut_at_nul(name: &[u8]) -> &[u8] {
    match name.iter().position(|&b| b == 0) {
        Some(k) => &name[..k],
        None => name,
    }
}

impl HeaderField {
    /// The order in which hp2ps reports missing header fields.
    pub(crate) const ALL_IN_CHECK_ORDER: [HeaderField; 4] = [
        HeaderField::Job,
        HeaderField::Date,
        HeaderField::ValueUnit,
        HeaderField::SampleUnit,
    ];
}
