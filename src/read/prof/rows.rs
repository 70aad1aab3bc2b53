//! The tree's rows of a report, cut into their cells on every core: a report of a
//! million stacks is a hundred megabytes of rows, and cutting them is most of its
//! reading. The rows from where the tree starts to the end of the input are cut into
//! chunks at line ends; each chunk's rows are parsed on a thread of their own, each row
//! naming its cost centre by the chunk's own number of it; then the report's reader
//! takes the chunks in order ([`super::report`]), turning the chunks' numbers into the
//! tree's cost centres and handing the rows to the builder, until the chunk whose rows
//! ended (a blank line, or the next table) — the chunks after it, cut from what is not
//! the tree, are dropped. What a row needs of the rows before it (a module glued to its
//! number is told apart by the modules met before, `columns.rs`) is settled then, in
//! order, so that the result is the one-thread reading's whatever the chunks.

use super::cc_table::CcTable;
use super::columns::{Cells, Fit, Layout, Num};
use crate::calltree::{CcId, Row, NONE};

/// How many bytes of rows make a chunk worth a thread of its own.
pub(super) const CHUNK: usize = 4 << 20;

/// A row cut into its cells, its cost centre by the chunk's number of it.
pub(super) struct Parsed {
    /// Its line in the chunk, from 0.
    pub(super) line: u32,
    pub(super) indent: u32,
    pub(super) cc: u32,
    /// The file's `no.` ([`NONE`] for none).
    pub(super) no: u32,
    pub(super) row: Row,
}

/// A chunk's rows, the names of its cost centres, and what went wrong where.
pub(super) struct Chunk<'a> {
    pub(super) rows: Vec<Parsed>,
    /// Each chunk cost centre's label, module and location.
    pub(super) names: Vec<[&'a [u8]; 3]>,
    /// The rows (by index) whose module was glued to its number: the token, to be told
    /// apart again by the modules met before it.
    pub(super) glued: Vec<(usize, &'a [u8])>,
    /// Lines the chunk holds (that of the stop included), and the byte where the tree's
    /// rows stop in it (`None`: they go on past it).
    pub(super) lines: usize,
    pub(super) stop: Option<usize>,
    /// Rows left out: the first's line (in the chunk) and why; how many.
    pub(super) damaged: Option<(usize, &'static str)>,
    pub(super) damaged_count: usize,
    /// Rows read by their spaces: the first's line; how many.
    pub(super) loose: Option<usize>,
    pub(super) loose_count: usize,
    /// The line of a last row without its line end (the input is cut there).
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

/// Parses the rows of one chunk (lines of `bytes`, each ended by `\n` but perhaps the
/// last). A module glued to its number is cut before its trailing digits here; the
/// report's reader cuts it again, knowing the modules before it.
pub(super) fn parse_chunk<'a>(layout: &Layout, bytes: &'a [u8]) -> Chunk<'a> {
    let mut c = Chunk {
        rows: Vec::with_capacity(bytes.len() / 64),
        names: Vec::new(),
        glued: Vec::new(),
        lines: 0,
        stop: None,
        damaged: None,
        damaged_count: 0,
        loose: None,
        loose_count: 0,
        cut: None,
    };
    let mut table = CcTable::default();
    let mut at = 0;
    while at < bytes.len() {
        let (line, ended) = match memchr::memchr(b'\n', &bytes[at..]) {
            Some(i) => (&bytes[at..at + i], true),
            None => (&bytes[at..], false),
        };
        let start = at;
        at += line.len() + usize::from(ended);
        let number = c.lines;
        c.lines += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if ends_rows(line) {
            c.stop = Some(start);
            c.lines -= 1;
            break;
        }
        if !ended {
            c.cut = Some(number);
            break;
        }
        match layout.split(line, &|_| false) {
            Ok(cells) => take(&mut c, &mut table, layout, number, &cells),
            Err(why) => {
                c.damaged.get_or_insert((number, why));
                c.damaged_count += 1;
            }
        }
    }
    c
}

/// Adds a row's cells to its chunk.
#[inline]
fn take<'a>(
    c: &mut Chunk<'a>,
    table: &mut CcTable,
    layout: &Layout,
    line: usize,
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
            c.loose.get_or_insert(line);
            c.loose_count += 1;
        }
        Fit::Glued => c.glued.push((c.rows.len(), cells.glued)),
    }
    let (no, row) = numbers(layout, cells);
    c.rows.push(Parsed {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        indent: u32::try_from(cells.indent).unwrap_or(u32::MAX),
        cc: cc.0,
        no,
        row,
    });
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

/// Parses every chunk, each on a thread of its own when there are several.
pub(super) fn parse_all<'a>(layout: &Layout, chunks: &[&'a [u8]]) -> Vec<Chunk<'a>> {
    if chunks.len() == 1 {
        return vec![parse_chunk(layout, chunks[0])];
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = (chunks.iter())
            .map(|&bytes| scope.spawn(move || parse_chunk(layout, bytes)))
            .collect();
        // A worker that panicked (a bug) is its chunk parsed again here, where the
        // panic is the caller's.
        (workers.into_iter().zip(chunks))
            .map(|(w, &bytes)| w.join().unwrap_or_else(|_| parse_chunk(layout, bytes)))
            .collect()
    })
}
