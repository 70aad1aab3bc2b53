//! The tree's rows of a large report, cut into their cells on every core: a report of a
//! million stacks is a hundred megabytes of rows, and cutting them is most of its
//! reading. The rows from where the tree starts to the end of the input are cut into
//! chunks at line ends; each chunk's lines are counted, the builder makes room for all
//! of them, and each chunk's rows are parsed on a thread of its own straight into its
//! part of the tree's columns ([`crate::calltree::RowsMut`]), each naming its cost
//! centre by the chunk's own number of it. Then the report's reader goes over the rows
//! in order ([`super::report`]): it turns each chunk's numbers into the tree's cost
//! centres, settles what a row needs of the rows before it (a module glued to its number
//! is told apart by the modules met before, `columns.rs`), drops the lines that were no
//! rows and everything from where the tree's rows stop (a blank line, or the next
//! table), and links the rows into the tree. The result is the one-thread reading's,
//! whatever the chunks.

use super::cc_table::CcTable;
use super::columns::{Cells, Fit, Layout, Num};
use crate::calltree::{CcId, Row, RowsMut, NONE};

/// How many bytes of rows make a chunk worth a thread of its own.
pub(super) const CHUNK: usize = 4 << 20;

/// What a chunk's parsing found besides its rows: the names of its cost centres, and
/// what went wrong where. Lines and rows are counted from the chunk's first, from 0.
pub(super) struct Chunk<'a> {
    /// Each chunk cost centre's label, module and location.
    pub(super) names: Vec<[&'a [u8]; 3]>,
    /// The rows whose module was glued to its number: the token, to be told apart
    /// again by the modules met before it.
    pub(super) glued: Vec<(usize, &'a [u8])>,
    /// The line where the tree's rows stop, and its byte in the chunk (`None`: they go
    /// on past the chunk).
    pub(super) stop: Option<(usize, usize)>,
    /// Lines left out: the first and why; how many.
    pub(super) damaged: Option<(usize, &'static str)>,
    pub(super) damaged_count: usize,
    /// Rows read by their spaces: the first; how many.
    pub(super) loose: Option<usize>,
    pub(super) loose_count: usize,
    /// A last row without its line end (the input is cut there).
    pub(super) cut: Option<usize>,
}

/// Whether a line ends the tree's rows: a blank one, or the next table's.
fn ends_rows(line: &[u8]) -> bool {
    line.iter().all(|c| c.is_ascii_whitespace())
        || line.starts_with(b"COST CENTRE")
        || line.starts_with(b"Retainer sets")
}

/// `bytes` cut into about `parts` chunks at line ends.
pub(super) fn chunks(bytes: &[u8], parts: usize) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..parts {
        let guess = (bytes.len() * k / parts).max(start);
        let Some(nl) = memchr::memchr(b'\n', &bytes[guess..]) else {
            break;
        };
        let end = guess + nl + 1;
        if end > start {
            out.push(&bytes[start..end]);
            start = end;
        }
    }
    out.push(&bytes[start..]);
    out
}

/// How many lines `bytes` holds (the last one perhaps without its line end).
pub(super) fn count_lines(bytes: &[u8]) -> usize {
    // Byte counters over runs of 255 bytes (which cannot overflow them): a loop the
    // compiler makes vector instructions of, where counting with a filter was a tenth of
    // the whole reading.
    let ends: usize = (bytes.chunks(255))
        .map(|run| usize::from(run.iter().fold(0u8, |n, &c| n + u8::from(c == b'\n'))))
        .sum();
    ends + usize::from(bytes.last().is_some_and(|&c| c != b'\n'))
}

/// Parses the lines of one chunk into `rows` (one row a line, a line that is no row
/// marked to be dropped). A module glued to its number is cut before its trailing digits
/// here; the report's reader cuts it again, knowing the modules before it.
pub(super) fn parse_chunk<'a>(
    layout: &Layout,
    bytes: &'a [u8],
    rows: &mut RowsMut<'_>,
) -> Chunk<'a> {
    let mut c = Chunk {
        names: Vec::new(),
        glued: Vec::new(),
        stop: None,
        damaged: None,
        damaged_count: 0,
        loose: None,
        loose_count: 0,
        cut: None,
    };
    let mut table = CcTable::default();
    let mut cells = Cells::default();
    let mut at = 0;
    let mut number = 0;
    while at < bytes.len() && number < rows.len() {
        let (line, ended) = match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => (&bytes[at..at + i], true),
            None => (&bytes[at..], false),
        };
        let start = at;
        at += line.len() + usize::from(ended);
        let k = number;
        number += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if ends_rows(line) {
            c.stop = Some((k, start));
            break;
        }
        if !ended {
            c.cut = Some(k);
            rows.drop_row(k);
            break;
        }
        match layout.split_into(line, &|_| false, &mut cells) {
            Ok(()) => take(&mut c, &mut table, layout, rows, k, &cells),
            Err(why) => {
                c.damaged.get_or_insert((k, why));
                c.damaged_count += 1;
                rows.drop_row(k);
            }
        }
    }
    c
}

/// Writes a row's cells as row `k` of its chunk.
#[inline]
fn take<'a>(
    c: &mut Chunk<'a>,
    table: &mut CcTable,
    layout: &Layout,
    rows: &mut RowsMut<'_>,
    k: usize,
    cells: &Cells<'a>,
) {
    let cc = match table.find(cells.label, cells.module, cells.src) {
        Some(cc) => cc,
        None => {
            let cc = CcId(c.names.len() as u32);
            c.names.push([cells.label, cells.module, cells.src]);
            table.insert(cells.label, cells.module, cells.src, cc);
            cc
        }
    };
    match cells.fit {
        Fit::Aligned => {}
        Fit::Loose => {
            c.loose.get_or_insert(k);
            c.loose_count += 1;
        }
        Fit::Glued => c.glued.push((k, cells.glued)),
    }
    let (no, row) = numbers(layout, cells);
    let level = u32::try_from(cells.indent).unwrap_or(u32::MAX);
    rows.set(k, level, cc.0, no, &row);
}

/// A tree row's `no.` ([`NONE`] for none) and numbers.
#[inline]
pub(super) fn numbers(layout: &Layout, cells: &Cells<'_>) -> (u32, Row) {
    let mut row = Row::default();
    let mut no = NONE;
    for (i, &num) in layout.numbers.iter().enumerate() {
        let (int, float) = (cells.ints[i], cells.floats[i]);
        match num {
            Num::No => no = u32::try_from(int).unwrap_or(NONE),
            Num::Entries => row.entries = int,
            Num::Time => row.time = float,
            Num::Alloc => row.alloc = float,
            Num::InheritedTime => row.inherited_time = float,
            Num::InheritedAlloc => row.inherited_alloc = float,
            Num::Ticks => row.ticks = int,
            Num::Bytes => row.bytes = int,
        }
    }
    (no, row)
}

/// Counts the lines of every chunk, each on a thread of its own.
pub(super) fn count_all(chunks: &[&[u8]]) -> Vec<usize> {
    std::thread::scope(|scope| {
        let workers: Vec<_> = (chunks.iter())
            .map(|&bytes| scope.spawn(move || count_lines(bytes)))
            .collect();
        (workers.into_iter().zip(chunks))
            .map(|(w, &bytes)| w.join().unwrap_or_else(|_| count_lines(bytes)))
            .collect()
    })
}

/// Parses every chunk into its rows, each on a thread of its own.
pub(super) fn parse_all<'a>(
    layout: &Layout,
    chunks: &[&'a [u8]],
    rows: Vec<RowsMut<'_>>,
) -> Vec<Chunk<'a>> {
    std::thread::scope(|scope| {
        let workers: Vec<_> = (chunks.iter().zip(rows))
            .map(|(&bytes, mut rows)| scope.spawn(move || parse_chunk(layout, bytes, &mut rows)))
            .collect();
        // A panic in a worker (a bug) is the caller's.
        (workers.into_iter())
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
