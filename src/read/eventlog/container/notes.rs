//! What the framer tolerated, counted for the reader's warnings.

/// Framing that needed a rule other than the declared size: the first case and how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Note {
    /// The first case: its offset and type.
    pub(crate) first: Option<(u64, u16)>,
    pub(crate) count: u64,
}

impl Note {
    pub(super) fn add(&mut self, offset: u64, id: u16) {
        self.first.get_or_insert((offset, id));
        self.count += 1;
    }

    fn merge(&mut self, later: &Note) {
        if self.first.is_none() {
            self.first = later.first;
        }
        self.count += later.count;
    }
}

/// What the framer tolerated, for the reader's warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Notes {
    /// IPE events (169) that declare one byte more than their fields hold, as GHC
    /// 9.10's runtime writes every one of them: read by their fields, with no warning
    /// (the count is in the report).
    pub(crate) ipe_one_byte_long: Note,
    /// Other events read by their fields, not their declared size.
    pub(crate) by_fields: Note,
    /// Events with bytes after their known fields, skipped with them.
    pub(crate) extra_bytes: Note,
    /// Block markers whose span or size does not hold their events.
    pub(crate) marker_lies: Note,
    /// Events whose timestamps are out of their blocks' order, read with the time of the
    /// event before them.
    pub(crate) retimed: Note,
}

impl Notes {
    /// Adds what was noted later in the file.
    pub(crate) fn merge(&mut self, later: &Notes) {
        self.ipe_one_byte_long.merge(&later.ipe_one_byte_long);
        self.by_fields.merge(&later.by_fields);
        self.extra_bytes.merge(&later.extra_bytes);
        self.marker_lies.merge(&later.marker_lies);
        self.retimed.merge(&later.retimed);
    }
}
