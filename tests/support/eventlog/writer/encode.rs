//! Serialising: the header, the streams laid out as blocks, and each event encoded as
//! the header declares its type.

use super::{id, EventlogWriter, Item, Stream, TypeDecl};

impl EventlogWriter {
    /// Serialises the file.
    ///
    /// A fixed-size event whose payload is shorter than its declared size (an oversized
    /// declaration) is padded with zero bytes, a longer one is cut to the declared size. A
    /// variable-size payload longer than 65 535 bytes is cut (the u16 length cannot say
    /// more).
    pub fn finish(&self) -> Vec<u8> {
        let mut out = header_bytes(&self.decls);

        // Cut every stream into blocks, then order them: capability blocks round-robin by
        // block index (cap0#0, cap1#0, cap0#1, …), the global buffer's blocks last.
        let chunk = self.layout.max_events_per_block.max(1);
        let mut cap_blocks: Vec<(usize, Stream, &[Item])> = Vec::new();
        let mut global_blocks: Vec<(Stream, &[Item])> = Vec::new();
        let mut streams: Vec<&(Stream, Vec<Item>)> = self.streams.iter().collect();
        streams.sort_by_key(|(s, _)| *s);
        for (stream, items) in streams {
            let chunks: Vec<&[Item]> = if items.is_empty() {
                vec![&items[..]]
            } else {
                items.chunks(chunk).collect()
            };
            for (i, c) in chunks.into_iter().enumerate() {
                match stream {
                    Stream::Global => global_blocks.push((*stream, c)),
                    Stream::Cap(_) => cap_blocks.push((i, *stream, c)),
                }
            }
        }
        cap_blocks.sort_by_key(|(i, s, _)| (*i, *s));
        let mut blocks: Vec<(Stream, &[Item])> =
            cap_blocks.into_iter().map(|(_, s, c)| (s, c)).collect();
        blocks.extend(global_blocks);

        let last = blocks.len().saturating_sub(1);
        for (n, (stream, items)) in blocks.iter().enumerate() {
            let start = out.len();
            let times = items.iter().filter_map(|it| match it {
                Item::Event { ts, .. } => Some(*ts),
                Item::Bytes(_) => None,
            });
            let first_ts = items
                .iter()
                .find_map(|it| match it {
                    Item::Event { ts, .. } => Some(*ts),
                    Item::Bytes(_) => None,
                })
                .unwrap_or(0);
            // end_time = the latest event in the block, so that "latest timestamp in the
            // file" is the same whether a reader counts block end times or not.
            let end_time = times.max().unwrap_or(first_ts);
            // Placeholder marker; the size is patched once the block is written.
            out.extend_from_slice(&id::BLOCK_MARKER.to_be_bytes());
            out.extend_from_slice(&first_ts.to_be_bytes());
            out.extend_from_slice(&0u32.to_be_bytes());
            out.extend_from_slice(&end_time.to_be_bytes());
            out.extend_from_slice(&stream.block_cap().to_be_bytes());
            for it in items.iter() {
                self.write_item(&mut out, it);
            }
            if n == last && self.layout.end_marker_in_block {
                out.extend_from_slice(&0xFFFFu16.to_be_bytes());
            }
            let size = (out.len() - start) as u32;
            out[start + 10..start + 14].copy_from_slice(&size.to_be_bytes());
        }
        if !self.layout.end_marker_in_block || blocks.is_empty() {
            out.extend_from_slice(&0xFFFFu16.to_be_bytes());
        }
        out
    }

    fn write_item(&self, out: &mut Vec<u8>, item: &Item) {
        match item {
            Item::Bytes(b) => out.extend_from_slice(b),
            Item::Event {
                id,
                ts,
                payload,
                overstate,
            } => encode_event(&self.decls, out, (*id, *ts), payload, *overstate),
        }
    }
}

/// The header declaring `decls`, up to and including `datb`.
pub fn header_bytes(decls: &[TypeDecl]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"hdrbhetb");
    for d in decls {
        out.extend_from_slice(b"etb\0");
        out.extend_from_slice(&d.id.to_be_bytes());
        out.extend_from_slice(&d.size.unwrap_or(0xFFFF).to_be_bytes());
        out.extend_from_slice(&(d.desc.len() as u32).to_be_bytes());
        out.extend_from_slice(&d.desc);
        out.extend_from_slice(&(d.extra.len() as u32).to_be_bytes());
        out.extend_from_slice(&d.extra);
        out.extend_from_slice(b"ete\0");
    }
    out.extend_from_slice(b"hetehdredatb");
    out
}

/// One event as `decls` declare its type: a fixed-size payload padded with zero bytes or
/// cut to the declared size, a variable-size one (or an undeclared id's: declared
/// variable-size by [`EventlogWriter::raw_event`]) with its u16 length, cut at 65 535
/// bytes, its length declaring `overstate` bytes more than it holds. [`RawLog::event`]
/// writes an undeclared id's payload with no length.
pub(super) fn encode_event(
    decls: &[TypeDecl],
    out: &mut Vec<u8>,
    (id, ts): (u16, u64),
    payload: &[u8],
    overstate: u16,
) {
    out.extend_from_slice(&id.to_be_bytes());
    out.extend_from_slice(&ts.to_be_bytes());
    match decls.iter().find(|d| d.id == id).map(|d| d.size) {
        Some(Some(n)) => {
            let n = usize::from(n);
            let keep = payload.len().min(n);
            out.extend_from_slice(&payload[..keep]);
            out.resize(out.len() + (n - keep), 0);
        }
        Some(None) => {
            let keep = payload.len().min(usize::from(u16::MAX));
            let declared = (keep as u16).saturating_add(overstate);
            out.extend_from_slice(&declared.to_be_bytes());
            out.extend_from_slice(&payload[..keep]);
        }
        None => out.extend_from_slice(payload),
    }
}
