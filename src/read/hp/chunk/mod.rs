//! The worker side of the parallel reader: a run of complete lines, read without the
//! statement machine when every line is one GHC writes in the usual way
//! (`name<TAB>digits`, `BEGIN_SAMPLE <time>`, `END_SAMPLE <time>`), with each identifier
//! interned once per chunk (one hash per new name; a guess of the band that followed the
//! previous one last time before that).
//!
//! A scan stops at the first line it cannot read this way (a header, an odd spelling,
//! an error): everything from there on is read by the statement machine on the
//! driver thread, which also decides whether the scanned prefix fits the state the file is
//! in at the chunk's start (see [`super::parser::Parser::admits`]). So the result is the
//! statement machine's by construction; this is only a faster way to get it.

mod names;
mod record;
#[cfg(test)]
mod record_tests;
mod split;

use super::byte_masks::WIDTH;
use super::data_line::{line_in_window, scan_data_line, WHOLE_BELOW};
use super::tokens::MAX_NUMBER_LEN;
use crate::num::float_value;
use crate::profile::keep::{Role, RunRoles};
use crate::profile::Point;
use crate::seam::{BandSum, RunEntry, RunSplit, RunSums, StatementRun, BEGIN, END, MARK};

/// Values from here on are not added up in [`Form::Sums`] (a double holds every whole
/// number below it exactly): the scan stops before them, and the statement machine
/// hands them over one by one.
const SUMMED_BELOW: f64 = WHOLE_BELOW as f64;

/// How far ahead of the line being read the scan asks for the text to be loaded into
/// the cache. Without it, the loads of each line's window waited for memory (a fifth of
/// the scan's samples were on two of them): -4% on the 400 MB profile's `-c`, the same
/// at 4 KiB ahead, less at 256 bytes (`docs/performance.md`).
const PREFETCH_AHEAD: usize = 1024;

/// [`Form`]s as the codes of [`ChunkScan::scan`]'s loops (a const generic of each).
const ENTRIES: u8 = 0;
const BY_BAND: u8 = 1;
const SUMS: u8 = 2;
const SPLIT: u8 = 3;

/// How a scan hands the data points over (see [`crate::seam::Sink`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Form {
    /// Each point an entry, in file order.
    #[default]
    Entries,
    /// Each band's points together ([`ChunkScan::by_band`]).
    ByBand,
    /// Each band's points added up ([`ChunkScan::sums`]), and every census's.
    Sums,
    /// Split by the bands' roles ([`RunRoles`]): the drawn bands' points by band, the
    /// merged bands' added up by census ([`ChunkScan::split`]), the dropped bands' not
    /// kept.
    Split,
}

/// What a worker found in a chunk: the statements of its readable prefix, in file order
/// (data points of local band ids, sample boundaries and marks), and what the driver
/// needs to check and apply them.
#[derive(Debug, Default)]
pub(crate) struct ChunkScan {
    /// Local band id → the name's `(start, len)` in the chunk's bytes, in order of first
    /// appearance.
    pub(crate) names: Vec<(u32, u32)>,
    pub(crate) entries: Vec<RunEntry>,
    /// In by-band mode, each local band's points (sample = `END_SAMPLE`s before it in the
    /// chunk); only the first `names.len()` are this chunk's.
    pub(crate) by_band: Vec<Vec<Point>>,
    /// In sums mode, each local band's points added up; only the first `names.len()`
    /// are this chunk's.
    pub(crate) sums: Vec<BandSum>,
    /// In sums mode, every census's values added up, by `END_SAMPLE`s before it.
    pub(crate) census_sums: Vec<u64>,
    /// In sums mode, the census being taken's values added up so far, and whether it
    /// has any: put in [`Self::census_sums`] once, when the census ends, rather than
    /// at each point (the bounds and length checks of every point's add were about two
    /// percent of the scan).
    census_open: (u64, bool),
    /// In split mode, each local band's role, and what [`RunSplit`] hands over.
    roles: Vec<Role>,
    pub(crate) split: Split,
    pub(crate) form: Form,
    /// Bytes of the readable prefix (whole lines).
    pub(crate) fast_len: usize,
    /// Lines in the prefix.
    pub(crate) lines: u64,
    /// `END_SAMPLE`s in the prefix.
    pub(crate) ends: u64,
    /// Whether the prefix needs the chunk to start inside a sample (it starts with an
    /// `END_SAMPLE` before any `BEGIN_SAMPLE`) or outside one (a `MARK` first).
    pub(crate) needs_inside: Option<bool>,
    pub(crate) first_begin: Option<f64>,
    pub(crate) last_begin: Option<f64>,
    /// Whether the prefix ends inside a sample (`None`: it has no sample boundary).
    pub(crate) end_in_sample: Option<bool>,
    /// Open-addressing index: per slot, the name's hash's top half (a tag) above local
    /// id + 1; 0 for an empty slot. With the tag in the slot, a lookup compares names
    /// only when the tags agree.
    table: Vec<u64>,
    hashes: Vec<u64>,
    /// The full hash ([`hash_bytes`]) of every name, for the profile's own index.
    full_hashes: Vec<u64>,
    /// The quick hash (a few words of the name) met too many collisions in this chunk:
    /// every byte is hashed instead.
    full_hash: bool,
    /// `successor[i + 1]`: the band that followed band `i` last time (slot 0: first band
    /// of a sample).
    successor: Vec<u32>,
    /// Guesses right minus guesses wrong lately, at most `names::GUESS_CREDIT_MAX`: at zero
    /// and below, names are looked up without guessing (see [`ChunkScan::intern`]).
    guess_credit: i32,
    /// Whether the scan writes its lines down in [`Self::record`] (`record.rs`).
    recording: bool,
    /// The lines the scan read, as codes (`record.rs`), when [`Self::recording`].
    record: Vec<u8>,
}

impl ChunkScan {
    fn reset(&mut self) {
        self.names.clear();
        self.entries.clear();
        self.fast_len = 0;
        self.lines = 0;
        self.ends = 0;
        self.needs_inside = None;
        self.first_begin = None;
        self.last_begin = None;
        self.end_in_sample = None;
        self.census_sums.clear();
        self.census_open = (0, false);
        self.roles.clear();
        self.split.clear();
        self.record.clear();
        self.reset_names();
    }

    /// Makes ready for a scan in `form` (with `roles`, in split mode), writing the
    /// lines down when `recording`.
    fn begin(&mut self, form: Form, roles: Option<&RunRoles>, recording: bool) {
        self.reset();
        self.form = match (form, roles) {
            (Form::Split, None) => Form::ByBand,
            (form, _) => form,
        };
        self.recording = recording;
    }

    /// Scans `bytes` (whole lines, except perhaps the last) from its start.
    ///
    /// In [`Form::ByBand`], the data points go to [`Self::by_band`] (per band, with the
    /// number of `END_SAMPLE`s before them in the chunk as their sample), in
    /// [`Form::Sums`] they are added up into [`Self::sums`] and [`Self::census_sums`];
    /// `entries` then only holds the sample boundaries and marks.
    /// In [`Form::Split`], `roles` gives each band's role by name (without them, the
    /// scan is [`Form::ByBand`]'s). With `recording`, the lines are written down for
    /// [`Self::recorded`] (unless a value is past what a record holds: then nothing).
    pub(crate) fn scan(
        &mut self,
        bytes: &[u8],
        max_name_len: usize,
        form: Form,
        roles: Option<&RunRoles>,
        recording: bool,
    ) {
        self.begin(form, roles, recording);
        // A loop for each form, so that each line's step is known in it (a jump on the
        // form at every line, and the registers the other forms' steps needed, were
        // about a tenth of the scan).
        match self.form {
            Form::Entries => self.scan_lines::<ENTRIES>(bytes, max_name_len, roles),
            Form::ByBand => self.scan_lines::<BY_BAND>(bytes, max_name_len, roles),
            Form::Sums => self.scan_lines::<SUMS>(bytes, max_name_len, roles),
            Form::Split => self.scan_lines::<SPLIT>(bytes, max_name_len, roles),
        }
    }

    /// [`Self::scan`]'s loop, in the form whose code ([`ENTRIES`] ...) is `FORM`.
    #[inline(always)]
    fn scan_lines<const FORM: u8>(
        &mut self,
        bytes: &[u8],
        max_name_len: usize,
        roles: Option<&RunRoles>,
    ) {
        let mut recording = self.recording;
        let mut i = 0;
        let mut previous = 0usize;
        while i < bytes.len() {
            super::byte_masks::prefetch(bytes, i + PREFETCH_AHEAD);
            let rest = &bytes[i..];
            // The line's first WIDTH bytes, taken once for the line and for its name.
            let window: Option<&[u8; WIDTH]> = rest.get(..WIDTH).and_then(|w| w.try_into().ok());
            // Most lines are data lines that end within the window: those first, so that
            // a name's first letter (B, E or M like the markers) costs no guess.
            let in_window = window.and_then(line_in_window);
            if in_window.is_none() && matches!(rest[0], b'B' | b'E' | b'M') {
                if let Some((kind, t, len)) = marker_line(rest) {
                    if !self.marker(kind, t) {
                        break;
                    }
                    if matches!(kind, Marker::End) {
                        previous = 0;
                    }
                    if recording {
                        self.record_marker(kind, t);
                    }
                    i += len;
                    self.lines += 1;
                    continue;
                }
            }
            let (line, name_window) = match in_window {
                Some(line) => (line, window),
                None => match scan_data_line(rest, false) {
                    Some(line) => (line, window.filter(|_| line.name_len < WIDTH)),
                    None => break,
                },
            };
            if line.name_len > max_name_len {
                break;
            }
            if (FORM == SUMS || FORM == SPLIT) && line.whole >= WHOLE_BELOW {
                break;
            }
            let id = self.intern_with(bytes, i, line.name_len, previous, roles, name_window);
            previous = id as usize + 1;
            self.take_as::<FORM>(id, line.value, line.whole);
            if recording {
                recording = self.record_point(id, line.whole);
            }
            i += line.len;
            self.lines += 1;
        }
        if FORM == SPLIT {
            self.split.close_census();
        }
        self.close_census_sum();
        self.fast_len = i;
    }

    /// Takes a marker line at time `t` as the scan's form does; `false` when it does not
    /// fit what came before (the scan stops before it).
    fn marker(&mut self, kind: Marker, t: f64) -> bool {
        match kind {
            Marker::Begin => {
                if self.last_begin.is_some_and(|last| t < last) {
                    return false;
                }
                self.first_begin.get_or_insert(t);
                self.last_begin = Some(t);
                self.end_in_sample = Some(true);
                self.entries.push(RunEntry {
                    tag: BEGIN,
                    value: t,
                });
            }
            Marker::End => {
                let fits = match self.end_in_sample {
                    Some(inside) => inside,
                    None => self.require_start(true),
                };
                if !fits {
                    return false;
                }
                self.close_census_sum();
                self.end_in_sample = Some(false);
                self.ends += 1;
                self.entries.push(RunEntry { tag: END, value: t });
            }
            Marker::Mark => {
                let fits = match self.end_in_sample {
                    Some(inside) => !inside,
                    None => self.require_start(false),
                };
                if !fits {
                    return false;
                }
                self.entries.push(RunEntry {
                    tag: MARK,
                    value: t,
                });
            }
        }
        true
    }

    /// Takes a point of band `id` as the scan's form does.
    #[inline(always)]
    fn take(&mut self, id: u32, value: f64) {
        let whole = match value < SUMMED_BELOW {
            true => whole(value),
            false => u64::MAX,
        };
        self.take_line(id, value, whole);
    }

    /// [`Self::take`] of a value whose whole number is known (`DataLine::whole`): the
    /// forms that add values up take that, the others the double.
    #[inline(always)]
    fn take_line(&mut self, id: u32, value: f64, whole: u64) {
        match self.form {
            Form::Entries => self.take_as::<ENTRIES>(id, value, whole),
            Form::ByBand => self.take_as::<BY_BAND>(id, value, whole),
            Form::Sums => self.take_as::<SUMS>(id, value, whole),
            Form::Split => self.take_as::<SPLIT>(id, value, whole),
        }
    }

    /// [`Self::take_line`] in the form whose code is `FORM`.
    #[inline(always)]
    fn take_as<const FORM: u8>(&mut self, id: u32, value: f64, whole: u64) {
        match FORM {
            BY_BAND => self.by_band[id as usize].push(Point {
                sample: self.ends as u32,
                value,
            }),
            SUMS => self.add_to_sums(id, whole),
            SPLIT => self.split_point(id, whole),
            _ => self.entries.push(RunEntry { tag: id, value }),
        }
    }

    /// Adds a point of band `id` (whole, below 2^53) to its sum and its census's.
    #[inline(always)]
    fn add_to_sums(&mut self, id: u32, value: u64) {
        self.sums[id as usize].add(value, self.ends as u32);
        self.census_open = (self.census_open.0.saturating_add(value), true);
    }

    /// Puts the census being taken's sum in [`Self::census_sums`], if it has points
    /// (so that the list ends at the last census with one, as when each point was added
    /// there), at its end and at the scan's.
    fn close_census_sum(&mut self) {
        if let (sum, true) = std::mem::take(&mut self.census_open) {
            let census = self.ends as usize;
            if self.census_sums.len() <= census {
                self.census_sums.resize(census + 1, 0);
            }
            // Every point of the census was added into `sum`, in the same order.
            self.census_sums[census] = sum;
        }
    }

    /// [`Self::intern`], with a new band's role looked up in `roles` in split mode.
    #[inline(always)]
    fn intern_with(
        &mut self,
        bytes: &[u8],
        start: usize,
        len: usize,
        previous: usize,
        roles: Option<&RunRoles>,
        window: Option<&[u8; WIDTH]>,
    ) -> u32 {
        let id = self.intern(bytes, start, len, previous, window);
        if let Some(roles) = roles.filter(|_| self.roles.len() < self.names.len()) {
            self.roles.push(roles.of(&bytes[start..start + len]));
        }
        id
    }

    /// Records what the state at the chunk's start must be; false if it contradicts an
    /// earlier need.
    fn require_start(&mut self, inside: bool) -> bool {
        *self.needs_inside.get_or_insert(inside) == inside
    }
}

impl ChunkScan {
    /// The scanned prefix as the seam's run of statements, `bytes` being the chunk the
    /// scan read and `progress` the share of the input read once it is applied.
    pub(crate) fn run<'a>(&'a self, bytes: &'a [u8], progress: Option<f64>) -> StatementRun<'a> {
        StatementRun {
            bytes,
            names: &self.names,
            hashes: &self.full_hashes,
            entries: &self.entries,
            by_band: matches!(self.form, Form::ByBand | Form::Split)
                .then(|| &self.by_band[..self.names.len()]),
            split: (self.form == Form::Split).then(|| RunSplit {
                heights: &self.split.heights,
                merged: &self.split.merged,
                last: self.split.last,
            }),
            sums: (self.form == Form::Sums).then(|| RunSums {
                bands: &self.sums[..self.names.len()],
                censuses: &self.census_sums,
            }),
            progress,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Marker {
    Begin,
    End,
    Mark,
}

/// `BEGIN_SAMPLE <time>`, `END_SAMPLE <time>` or `MARK <time>` with one space and the
/// line end right after the number, the number read exactly as the statement machine
/// reads it. Returns the keyword, the time and the line's length.
fn marker_line(rest: &[u8]) -> Option<(Marker, f64, usize)> {
    let (kind, after) = if rest.starts_with(b"BEGIN_SAMPLE ") {
        (Marker::Begin, 13)
    } else if rest.starts_with(b"END_SAMPLE ") {
        (Marker::End, 11)
    } else if rest.starts_with(b"MARK ") {
        (Marker::Mark, 5)
    } else {
        return None;
    };
    let tail = &rest[after..];
    let n = tail
        .iter()
        .position(|&b| !(b.is_ascii_digit() || b == b'.'))
        .unwrap_or(tail.len());
    let text = &tail[..n];
    if n == 0 || n > MAX_NUMBER_LEN || !text[0].is_ascii_digit() || !text.contains(&b'.') {
        return None;
    }
    let len = match &tail[n..] {
        [b'\n', ..] => after + n + 1,
        [b'\r', b'\n', ..] => after + n + 2,
        _ => return None,
    };
    Some((kind, float_value(text), len))
}

/// A value below [`SUMMED_BELOW`] as the whole number it is: through `i64`, one
/// instruction on x86-64 where `u64` takes several (this runs for every point).
#[inline(always)]
fn whole(value: f64) -> u64 {
    value as i64 as u64
}

/// What a scan in [`Form::Split`] adds up besides the drawn bands' points (see
/// [`crate::seam::RunSplit`]), by the steps in `split.rs`.
#[derive(Debug, Default)]
pub(crate) struct Split {
    heights: Vec<u64>,
    merged: Vec<u64>,
    last: Option<u32>,
    /// The census being taken, its sums added up here and put in `heights` and `merged`
    /// once, when the census is over, rather than at each point.
    open: OpenCensus,
}

/// The census being taken: whether it has points, and its height's and merged bands'
/// sums so far (with whether any point was added).
#[derive(Debug, Default)]
struct OpenCensus {
    census: u32,
    any: bool,
    height: (u64, bool),
    merged: (u64, bool),
}
