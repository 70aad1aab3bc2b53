//! The text report of `+RTS -p`, `-P` and `-pa`, in every layout GHC has written: its
//! head (`facts.rs`), its table of the costliest cost centres, the tree (one row per
//! cost-centre stack, indented by depth), and a `-p -hr` run's `Retainer Profiling:`
//! lines before it and `Retainer sets created during profiling:` table after it.
//!
//! A damaged row is left out and the rows after it read on (a child then hangs from the
//! nearest shallower row before it); a report cut short gives what it holds. Each kind
//! of trouble is one warning, naming the first line it was met on.

use super::cc_table::CcTable;
use super::columns::{parse_integer, Cells, Fit, Layout, Num};
use super::error::{Tally, TimeProfileError, TimeProfileWarning};
use super::facts::{head_line, title_date, TITLE};
use super::lines::{quoted, Line, Lines};
use super::rows::{self, CHUNK};
use super::TimeProfileOptions;
use crate::calltree::{CallTree, CcId, Columns, FlatRow, RetainerSet, TreeBuilder, DROPPED, NONE};

/// What the reader met, for the warnings.
#[derive(Default)]
struct Trouble {
    damaged: Tally<(usize, String)>,
    glued: Tally<(usize, String, String)>,
    loose: Tally<usize>,
    cut_names: Tally<usize>,
    cut: Option<(usize, &'static str)>,
}

/// Reads a text report.
pub(super) fn read_report(
    bytes: &[u8],
    opts: &TimeProfileOptions,
    release: &mut dyn FnMut(usize),
) -> Result<(CallTree, Vec<TimeProfileWarning>), TimeProfileError> {
    let mut lines = Lines::new(bytes, release);
    let mut builder = TreeBuilder::new(Columns::report(false));
    builder.set_name_limit(opts.max_name_len);
    let mut r = Reader {
        opts,
        builder,
        trouble: Trouble::default(),
        ccs: CcTable::default(),
    };
    let title = title(&mut lines)?;
    r.builder.header_mut().date = title_date(&title);
    // The head, up to the first table.
    let mut next = loop {
        match lines.next() {
            None => {
                r.trouble.cut = Some((lines.number(), "before its tables"));
                break None;
            }
            Some(l) if l.bytes.starts_with(b"COST CENTRE") => break Some(l),
            Some(l) => head_line(r.builder.header_mut(), &l.text()),
        }
    };
    let mut tree_seen = false;
    while let Some(line) = next.take() {
        let text = line.text();
        let text = text.trim_end();
        if text.starts_with("COST CENTRE") {
            match Layout::of(text) {
                Ok(layout) if layout.has(Num::No) => {
                    tree_seen = true;
                    next = r.tree(&mut lines, &layout);
                    continue;
                }
                Ok(layout) => next = r.listed(&mut lines, &layout),
                Err(word) => {
                    let why = format!("a column the reader does not know ({})", quoted(&word));
                    r.damaged(line.number, why);
                    next = lines.next();
                }
            }
            continue;
        }
        if text.starts_with("Retainer sets created during profiling") {
            next = r.retainer_sets(&mut lines);
            continue;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if !words.is_empty() && words != ["individual", "inherited"] {
            r.damaged(line.number, format!("found {}", quoted(text)));
        }
        next = lines.next();
    }
    if !tree_seen && r.trouble.cut.is_none() {
        r.trouble.cut = Some((lines.number(), "before its cost-centre tree"));
    }
    Ok(r.finish())
}

/// The title line, after any `Retainer Profiling:` lines of a `-p -hr` run.
fn title(lines: &mut Lines<'_, '_>) -> Result<String, TimeProfileError> {
    let mut retainer = false;
    loop {
        let Some(line) = lines.next() else {
            return Err(not_a_profile(lines.number() + 1, 1, "the end of the input"));
        };
        let text = line.text();
        if text.contains(TITLE) {
            return Ok(text.to_string());
        }
        if text.starts_with("Retainer Profiling:") {
            retainer = true;
        } else if !(text.trim().is_empty() || retainer && text.starts_with('\t')) {
            let column = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
            return Err(not_a_profile(line.number, column, &quoted(text.trim())));
        }
    }
}

fn not_a_profile(line: usize, column: usize, found: &str) -> TimeProfileError {
    TimeProfileError::NotAProfile {
        line,
        column,
        found: found.to_string(),
        expected: "a GHC time profile (its title \"… Time and Allocation Profiling Report  \
                   (Final)\", or -pj JSON)",
    }
}

struct Reader<'o> {
    opts: &'o TimeProfileOptions,
    builder: TreeBuilder,
    trouble: Trouble,
    /// The cost centres met, by their names' bytes (and the modules, to tell a glued
    /// module from its number).
    ccs: CcTable,
}

impl Reader<'_> {
    fn damaged(&mut self, line: usize, why: String) {
        self.trouble.damaged.add(|| (line, why));
    }

    /// The rows of a table until a blank line (blank lines before the first skipped):
    /// each line, cut into its cells, handed to `take`; returns the line after them.
    fn rows<'a>(
        &mut self,
        lines: &mut Lines<'a, '_>,
        layout: &Layout,
        mut take: impl FnMut(&mut Self, &Line<'a>, &Cells<'a>),
    ) -> Option<Line<'a>> {
        let mut started = false;
        let mut cells = Cells::default();
        loop {
            let line = lines.next()?;
            if line.bytes.iter().all(|c| c.is_ascii_whitespace()) {
                if started {
                    return lines.next();
                }
                continue;
            }
            if line.bytes.starts_with(b"COST CENTRE") || line.bytes.starts_with(b"Retainer sets") {
                return Some(line);
            }
            started = true;
            if !line.ended {
                self.trouble.cut = Some((line.number, "inside its last line (left out)"));
                return None;
            }
            let ccs = &self.ccs;
            let known = |m: &[u8]| ccs.knows_module(m);
            match layout.split_into(line.bytes, &known, &mut cells) {
                Ok(()) => {
                    match cells.fit {
                        Fit::Aligned => {}
                        Fit::Loose => self.trouble.loose.add(|| line.number),
                        Fit::Glued => {
                            let n = cells.ints[0].to_string();
                            let m = String::from_utf8_lossy(cells.module).into_owned();
                            self.trouble.glued.add(|| (line.number, m, n));
                        }
                    }
                    take(self, &line, &cells);
                }
                Err(why) => self.damaged(line.number, why.to_string()),
            }
        }
    }

    /// The cost centre of a row's names (label, module, location).
    #[inline]
    fn cost_centre(&mut self, line: usize, names: [&[u8]; 3]) -> CcId {
        match self.ccs.find(names[0], names[1], names[2]) {
            Some(cc) => cc,
            None => self.new_cost_centre(line, names),
        }
    }

    /// The cost centre of names met the first time (the builder cuts long ones).
    #[inline(never)]
    fn new_cost_centre(&mut self, line: usize, names: [&[u8]; 3]) -> CcId {
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let (label, module, src) = (text(names[0]), text(names[1]), text(names[2]));
        let is_caf = label == "CAF" || label.starts_with("CAF:");
        let cut = self.builder.names_cut();
        let cc = self.builder.cost_centre(&label, &module, &src, is_caf);
        if self.builder.names_cut() > cut {
            self.trouble.cut_names.add(|| line);
        }
        self.ccs.insert(names[0], names[1], names[2], cc);
        cc
    }

    /// A table of the costliest cost centres (kept as listed).
    fn listed<'a>(&mut self, lines: &mut Lines<'a, '_>, layout: &Layout) -> Option<Line<'a>> {
        self.rows(lines, layout, |r, line, cells| {
            let cc = r.cost_centre(line.number, [cells.label, cells.module, cells.src]);
            let mut row = FlatRow::empty(cc, layout.has(Num::Ticks), layout.has(Num::Bytes));
            for (i, &num) in layout.numbers.iter().enumerate() {
                match num {
                    Num::Time => row.time = cells.floats[i],
                    Num::Alloc => row.alloc = cells.floats[i],
                    Num::Ticks => row.ticks = Some(cells.ints[i]),
                    Num::Bytes => row.bytes = Some(cells.ints[i]),
                    _ => {}
                }
            }
            (row.inherited_ticks, row.inherited_bytes) = (None, None);
            r.builder.listed(row);
        })
    }

    /// The tree's rows.
    fn tree<'a>(&mut self, lines: &mut Lines<'a, '_>, layout: &Layout) -> Option<Line<'a>> {
        let counts = layout.has(Num::Ticks) || layout.has(Num::Bytes);
        if self.builder.is_empty() {
            // The columns are the tree's; the head and the listed rows stay.
            let mut columns = Columns::report(counts);
            columns.ticks = layout.has(Num::Ticks);
            columns.bytes = layout.has(Num::Bytes);
            self.builder.set_columns(columns);
            // Room for the rows at once (a row is longer than the header's numbers), so
            // that a million rows are not copied as the columns grow: capacity that is
            // never written is no memory.
            let shortest_row = 16 + 6 * layout.numbers.len();
            self.builder.reserve(lines.left() / shortest_row);
        }
        // A tree of a few megabytes is read here, row by row; a larger one on every core
        // (`rows.rs`).
        let parts = match self.opts.chunk_bytes {
            Some(bytes) => (lines.left() / bytes.max(1)).max(1),
            None => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                (lines.left() / CHUNK).clamp(1, cores.min(8))
            }
        };
        if parts == 1 {
            return self.rows(lines, layout, |r, line, cells| {
                let cc = r.cost_centre(line.number, [cells.label, cells.module, cells.src]);
                let (no, row) = rows::numbers(layout, cells);
                r.builder
                    .push(cells.indent, cc, (no != NONE).then_some(no), row);
            });
        }
        // Past the blank lines before the first row.
        let first = loop {
            let line = lines.next()?;
            if !line.bytes.iter().all(|c| c.is_ascii_whitespace()) {
                lines.rewind(&line);
                break line.number;
            }
        };
        let pieces = rows::chunks(lines.rest(), parts);
        let counts = rows::count_all(&pieces);
        let from = self.builder.len();
        let total: usize = counts.iter().sum();
        // Each chunk's part of the new rows, in order.
        let mut parts_of_rows = Vec::with_capacity(counts.len());
        let mut rest = self.builder.new_rows(total);
        for &n in &counts {
            let (part, after) = rest.split_at(n);
            parts_of_rows.push(part);
            rest = after;
        }
        let parsed = rows::parse_all(layout, &pieces, parts_of_rows);
        let (mut bytes, mut row, mut until) = (0, from, from + total);
        for ((chunk, piece), &n) in parsed.iter().zip(&pieces).zip(&counts) {
            let stop = chunk.stop.map_or(n, |(k, _)| k);
            self.merge_chunk(layout, chunk, row, stop, first + row - from);
            if let Some((k, at)) = chunk.stop {
                bytes += at;
                until = row + k;
                row += k;
                break;
            }
            if let Some(k) = chunk.cut {
                self.trouble.cut =
                    Some((first + row - from + k, "inside its last line (left out)"));
            }
            bytes += piece.len();
            row += n;
        }
        self.builder.keep_rows(from, until);
        self.builder.link_rows(from);
        lines.skip(bytes, row - from);
        // The line that ended the rows: a blank one is passed, the next table's given.
        let line = lines.next()?;
        match line.bytes.iter().all(|c| c.is_ascii_whitespace()) {
            true => lines.next(),
            false => Some(line),
        }
    }

    /// Gives the `rows` rows of a chunk written from row `from` on the tree's cost
    /// centres, in order; `line` is the line number of the chunk's first line.
    fn merge_chunk(
        &mut self,
        layout: &Layout,
        chunk: &rows::Chunk<'_>,
        from: usize,
        rows: usize,
        line: usize,
    ) {
        let mut global: Vec<Option<CcId>> = vec![None; chunk.names.len()];
        let mut glued = chunk.glued.iter().peekable();
        for k in 0..rows {
            let local = *self.builder.raw_cc_mut(from + k);
            if local == DROPPED {
                continue;
            }
            let mut names = chunk.names[local as usize];
            if let Some(&(_, token)) = glued.next_if(|g| g.0 == k) {
                // A glued module is cut again, knowing the modules met before it; a
                // glued location is cut after its `>` or `)`, as it was.
                let (cut, module) = match layout.has_src() {
                    false => {
                        let ccs = &self.ccs;
                        let cut = layout.unglue(token, &|m| ccs.knows_module(m));
                        (cut.unwrap_or(names[1].len()), None)
                    }
                    true => (
                        layout.unglue(token, &|_| false).unwrap_or(token.len()),
                        Some(names[1]),
                    ),
                };
                let (prefix, number) = token.split_at(cut.min(token.len()));
                // At most 19 digits (`unglue`): it fits, as the one-thread reading reads it.
                let value = parse_integer(number).unwrap_or(0);
                let m = String::from_utf8_lossy(module.unwrap_or(prefix)).into_owned();
                self.trouble.glued.add(|| (line + k, m, value.to_string()));
                if module.is_none() {
                    names[1] = prefix;
                    *self.builder.raw_no_mut(from + k) = u32::try_from(value).unwrap_or(NONE);
                    let cc = self.cost_centre(line + k, names);
                    *self.builder.raw_cc_mut(from + k) = cc.0;
                    continue;
                }
            }
            let cc = match global[local as usize] {
                Some(cc) => cc,
                None => {
                    let cc = self.cost_centre(line + k, names);
                    global[local as usize] = Some(cc);
                    cc
                }
            };
            *self.builder.raw_cc_mut(from + k) = cc.0;
        }
        if let Some((k, why)) = chunk.damaged {
            for _ in 0..chunk.damaged_count {
                self.trouble.damaged.add(|| (line + k, why.to_string()));
            }
        }
        if let Some(k) = chunk.loose {
            for _ in 0..chunk.loose_count {
                self.trouble.loose.add(|| line + k);
            }
        }
    }

    /// `SET 68 = {<Main.f,Main.main>, <SYSTEM.SYSTEM>}` lines.
    fn retainer_sets<'a>(&mut self, lines: &mut Lines<'a, '_>) -> Option<Line<'a>> {
        loop {
            let line = lines.next()?;
            let text = line.text();
            let text = text.trim_end();
            if text.is_empty() {
                continue;
            }
            let set = (text.strip_prefix("SET "))
                .and_then(|rest| rest.split_once(" = "))
                .and_then(|(id, members)| {
                    Some(RetainerSet {
                        id: id.trim().parse().ok()?,
                        members: RetainerSet::parse_members(members)?,
                    })
                });
            match set {
                Some(set) if line.ended => self.builder.retainer_set(set),
                Some(_) => {
                    self.trouble.cut = Some((line.number, "inside its last line (left out)"))
                }
                None if text.starts_with("COST CENTRE") => return Some(line),
                None => self.damaged(
                    line.number,
                    format!("found {}, expected a retainer set", quoted(text)),
                ),
            }
        }
    }

    fn finish(self) -> (CallTree, Vec<TimeProfileWarning>) {
        let t = self.trouble;
        let mut warnings = Vec::new();
        if let Some((line, what)) = t.cut {
            warnings.push(TimeProfileWarning::Cut { line, what });
        }
        if let Some((line, why)) = t.damaged.first {
            warnings.push(TimeProfileWarning::Damaged {
                line,
                count: t.damaged.count,
                why,
            });
        }
        if let Some((line, module, number)) = t.glued.first {
            warnings.push(TimeProfileWarning::Glued {
                line,
                count: t.glued.count,
                module,
                number,
            });
        }
        if let Some(line) = t.loose.first {
            warnings.push(TimeProfileWarning::Misaligned {
                line,
                count: t.loose.count,
            });
        }
        if let Some(line) = t.cut_names.first {
            warnings.push(TimeProfileWarning::NamesCut {
                line,
                count: t.cut_names.count,
                to: self.opts.max_name_len,
            });
        }
        (self.builder.finish(), warnings)
    }
}
