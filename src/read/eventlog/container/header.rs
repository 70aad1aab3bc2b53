//! The header: the magic, the event-type declarations, and the start of the data.

use super::source::Source;
use super::{u16_at, u32_at};
use crate::read::eventlog::error::EventlogError;

/// `size` value of a variable-size event type.
const VARIABLE: u32 = 0xFFFF;
/// Table entry of an id the header does not declare.
const UNDECLARED: u32 = u32::MAX;

/// The event-type table: id → declared size.
pub(crate) struct Types {
    size: Vec<u32>,
}

impl Types {
    /// An empty table (every id undeclared).
    pub(crate) fn new() -> Self {
        Types {
            size: vec![UNDECLARED; 1 << 16],
        }
    }

    /// Declares `id` with its header size (`0xFFFF` = variable). A later declaration of
    /// the same id replaces the earlier one.
    pub(crate) fn declare(&mut self, id: u16, size: u16) {
        self.size[usize::from(id)] = u32::from(size);
    }

    /// How events of type `id` are sized.
    #[inline(always)]
    pub(crate) fn size(&self, id: u16) -> Size {
        match self.size[usize::from(id)] {
            UNDECLARED => Size::Undeclared,
            VARIABLE => Size::Variable,
            n => Size::Fixed(n as usize),
        }
    }

    /// Whether the header declares `id`.
    pub(crate) fn declares(&self, id: u16) -> bool {
        self.size(id) != Size::Undeclared
    }
}

/// How the header sizes the events of one type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// Not declared: such an id in the data is damage.
    Undeclared,
    /// A u16 length after the timestamp gives each event's payload size.
    Variable,
    /// Every event's payload has this many bytes.
    Fixed(usize),
}

fn quote(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "end of input".to_string()
    } else {
        format!("\"{}\"", bytes.escape_ascii())
    }
}

/// Reads `tag` or fails with what was there.
fn expect<I: Source>(
    input: &mut I,
    tag: &[u8; 4],
    expected: &'static str,
) -> Result<(), EventlogError> {
    let at = input.offset();
    match input.take(4)? {
        Some(b) if b == tag => Ok(()),
        other => Err(EventlogError::BadHeader {
            offset: at,
            found: quote(other.unwrap_or(&[])),
            expected,
        }),
    }
}

/// Reads the header up to and including `datb`.
pub(crate) fn read_header<I: Source>(input: &mut I) -> Result<Types, EventlogError> {
    match input.take(4)? {
        Some(b"hdrb") => {}
        other => {
            return Err(EventlogError::NotEventlog {
                found: quote(other.unwrap_or(&[])),
            })
        }
    }
    expect(input, b"hetb", "\"hetb\" (the event-type list)")?;
    let mut types = Types::new();
    loop {
        let at = input.offset();
        let tag: [u8; 4] = match input.take(4)? {
            Some(b) => [b[0], b[1], b[2], b[3]],
            None => [0; 4],
        };
        match &tag {
            b"hete" => break,
            b"etb\0" => {}
            _ => {
                return Err(EventlogError::BadHeader {
                    offset: at,
                    found: quote(if input.at_end()? && tag == [0; 4] {
                        &[]
                    } else {
                        &tag
                    }),
                    expected: "an event type (\"etb\") or the end of the list (\"hete\")",
                })
            }
        }
        let cut = || EventlogError::BadHeader {
            offset: at,
            found: "end of input".to_string(),
            expected: "a complete event-type declaration",
        };
        let (id, size, desc_len) = match input.take(8)? {
            Some(b) => (u16_at(b, 0), u16_at(b, 2), u32_at(b, 4)),
            None => return Err(cut()),
        };
        if !input.skip(u64::from(desc_len))? {
            return Err(cut());
        }
        let extra_len = match input.take(4)? {
            Some(b) => u32_at(b, 0),
            None => return Err(cut()),
        };
        if !input.skip(u64::from(extra_len))? {
            return Err(cut());
        }
        expect(
            input,
            b"ete\0",
            "\"ete\" (end of an event-type declaration)",
        )?;
        types.declare(id, size);
    }
    expect(input, b"hdre", "\"hdre\" (end of the header)")?;
    expect(input, b"datb", "\"datb\" (start of the data)")?;
    Ok(types)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::read::eventlog::container::source::Input;

    /// A header declaring `(id, size)` pairs, then `datb`.
    pub(crate) fn header(types: &[(u16, u16)]) -> Vec<u8> {
        let mut v = b"hdrbhetb".to_vec();
        for &(id, size) in types {
            v.extend_from_slice(b"etb\0");
            v.extend_from_slice(&id.to_be_bytes());
            v.extend_from_slice(&size.to_be_bytes());
            v.extend_from_slice(&3u32.to_be_bytes());
            v.extend_from_slice(b"abc");
            v.extend_from_slice(&0u32.to_be_bytes());
            v.extend_from_slice(b"ete\0");
        }
        v.extend_from_slice(b"hetehdredatb");
        v
    }

    #[test]
    fn declarations() {
        let v = header(&[(9, 0), (30, 0xFFFF), (7, 3)]);
        let types = read_header(&mut Input::new(&v[..])).unwrap();
        assert_eq!(types.size(9), Size::Fixed(0));
        assert_eq!(types.size(30), Size::Variable);
        assert_eq!(types.size(7), Size::Fixed(3));
        assert_eq!(types.size(8), Size::Undeclared);
        assert!(types.declares(7) && !types.declares(0xFFFF));
    }

    #[test]
    fn header_errors() {
        assert!(matches!(
            read_header(&mut Input::new(&b"hd"[..])),
            Err(EventlogError::NotEventlog { .. })
        ));
        let v = header(&[(9, 0)]);
        for cut in 4..v.len() {
            assert!(matches!(
                read_header(&mut Input::new(&v[..cut])),
                Err(EventlogError::BadHeader { .. })
            ));
        }
        // A description length that lies is skipped by streaming, not allocated.
        let mut v = b"hdrbhetbetb\0\0\x09\0\0\xFF\xFF\xFF\xFF".to_vec();
        v.extend_from_slice(b"short");
        assert!(read_header(&mut Input::new(&v[..])).is_err());
    }
}
