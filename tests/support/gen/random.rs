//! Random `.hp` profiles and random hp2ps command lines, for differential and
//! property tests. Everything derives from one seed, so a failing case is
//! reproduced by its seed alone.

use super::super::case::Run;
use super::super::hp_quoted as quoted;
use super::super::rng::Rng;
use super::super::scan::has_previous_flag;

/// Identifiers that are keywords of the `.hp` language: never generated as
/// band names (they would change the statement structure).
const HP_KEYWORDS: &[&[u8]] = &[
    b"BEGIN_SAMPLE",
    b"END_SAMPLE",
    b"JOB",
    b"DATE",
    b"SAMPLE_UNIT",
    b"VALUE_UNIT",
    b"MARK",
];

/// One random differential case.
#[derive(Clone, Debug)]
pub struct RandomCase {
    pub seed: u64,
    pub input: Vec<u8>,
    /// File-mode `-p` cases first run this (without `-p`) to write `t.aux`.
    pub first: Option<Run>,
    pub run: Run,
}

impl RandomCase {
    /// Everything needed to reproduce the case by hand.
    pub fn label(&self) -> String {
        match &self.first {
            Some(first) => format!(
                "seed={:#018x}: {} then {}",
                self.seed,
                first.describe(),
                self.run.describe()
            ),
            None => format!("seed={:#018x}: {}", self.seed, self.run.describe()),
        }
    }
}

/// The seed of the `i`-th case of a named series (fixed, so tests are deterministic).
pub fn case_seed(series: u64, i: u64) -> u64 {
    series
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(i.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// A random profile with a random command line; 15 % filter mode; file-mode
/// cases with `-p` get a first run that writes the aux file.
pub fn random_case(seed: u64) -> RandomCase {
    let mut rng = Rng::new(seed);
    let input = random_profile(&mut rng);
    let flags = random_flags(&mut rng, true);
    if rng.chance(15, 100) {
        return RandomCase {
            seed,
            input,
            first: None,
            run: Run::filter(&flags),
        };
    }
    let first = has_previous_flag(&flags).then(|| Run::file(&random_flags(&mut rng, false)));
    RandomCase {
        seed,
        input,
        first,
        run: Run::file(&flags),
    }
}

// ---------------------------------------------------------------- flags --

/// 0–4 options drawn from spec §1.2, with glued `-p` spellings (`-pc`,
/// `-pm5`), ignored trailing letters (`-bz`) and, rarely, invalid values
/// (those make hp2ps print usage, which the comparison skips).
pub fn random_flags(rng: &mut Rng, allow_p: bool) -> Vec<String> {
    let count = *rng.pick(&[0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4]);
    let mut flags = Vec::new();
    for _ in 0..count {
        let mut flag = random_option(rng, allow_p);
        if allow_p && rng.chance(1, 6) {
            // `-p` continues scanning the same argument: `-pc`, `-pm5`, `-pp`.
            flag = format!("-p{}", &flag[1..]);
        }
        flags.push(flag);
    }
    flags
}

fn random_option(rng: &mut Rng, allow_p: bool) -> String {
    let letters: &[&str] = if allow_p {
        &[
            "b", "s", "c", "d", "g", "y", "i", "M", "m", "m", "t", "t", "e", "p", "p",
        ]
    } else {
        &[
            "b", "s", "c", "d", "g", "y", "i", "M", "m", "m", "t", "t", "e",
        ]
    };
    match *rng.pick(letters) {
        "i" => rng
            .pick(&["-i", "-i", "-i-", "-i-", "-i+", "-ix"])
            .to_string(),
        "m" => format!(
            "-m{}",
            rng.pick(&[
                "0", "1", "2", "3", "5", "10", "19", "20", "21", "25", "30", "45", "-3", "", "7x",
                "abc"
            ])
        ),
        "t" => format!(
            "-t{}",
            rng.pick(&[
                "0", "0", "0.5", "1", "2.5", "5", "0.1", "1e-1", "", "3", "4.99", "abc", "6"
            ])
        ),
        "e" => format!(
            "-e{}",
            rng.pick(&[
                "6in", "150mm", "400", "145", "500pt", "8.5in", "2.5in", "1e3", "300mm", "10in",
                "7IN", "2in"
            ])
        ),
        letter @ ("b" | "s" | "c" | "d" | "g" | "y" | "M") if rng.chance(1, 12) => {
            // Every letter but `p` takes the rest of the argument: ignored here.
            format!("-{letter}{}", rng.pick(&["z", "p", "c", "x1"]))
        }
        letter => format!("-{letter}"),
    }
}

// -------------------------------------------------------------- profile --

/// How statements and their parts are separated in one generated file.
struct Layout {
    eol: &'static [u8],
    /// Probability (in %) of an unusual separator.
    oddness: u64,
}

/// Accumulates statements with varied whitespace.
struct Writer {
    out: Vec<u8>,
    layout: Layout,
    /// How many over-long numbers may still be written (about 1 % of files).
    long_number_budget: u32,
}

impl Writer {
    fn statement(&mut self, rng: &mut Rng, parts: &[&[u8]]) {
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                let sep: &[u8] = if rng.chance(self.layout.oddness, 100) {
                    rng.choose(&[b"\t" as &[u8], b"  ", b" \t ", b"\n", b"\r\n "])
                } else {
                    b" "
                };
                self.out.extend_from_slice(sep);
            }
            self.out.extend_from_slice(part);
        }
        let end: &[u8] = if rng.chance(self.layout.oddness, 100) {
            // Several statements on one line, blank lines, VT/FF, trailing blanks.
            rng.choose(&[
                b" " as &[u8],
                b"\t",
                b"\n\n",
                b"\r\n\r\n",
                b" \n",
                b"\x0b",
                b"\x0c\n",
            ])
        } else {
            self.layout.eol
        };
        self.out.extend_from_slice(end);
    }
}

/// A profile from spec §2's language: 1–45 bands, 1–30 samples, odd names,
/// marks, ties, big and zero values, absent bands, duplicates, equal times,
/// and varied whitespace. Mostly inputs hp2ps renders; a few percent exercise
/// the documented skip cases.
pub fn random_profile(rng: &mut Rng) -> Vec<u8> {
    let layout = Layout {
        eol: if rng.chance(1, 6) { b"\r\n" } else { b"\n" },
        oddness: *rng.pick(&[0, 0, 0, 2, 5, 15]),
    };
    let mut w = Writer {
        out: Vec::new(),
        layout,
        long_number_budget: u32::from(rng.chance(1, 100)),
    };
    let header = random_header(rng);
    let header_late = rng.chance(1, 20);
    if !header_late {
        write_header(&mut w, rng, &header);
    }
    let bands = random_bands(rng);
    let times = random_times(rng);
    write_samples(&mut w, rng, &bands, &times);
    if header_late {
        write_header(&mut w, rng, &header);
    }
    if rng.chance(1, 30) {
        // A trailing BEGIN_SAMPLE with nothing after it is ignored (spec #25).
        let t = format!("{:.2}", times.last().copied().unwrap_or(0.0) + 1.0);
        w.statement(rng, &[b"BEGIN_SAMPLE", t.as_bytes()]);
    }
    if rng.chance(1, 100) {
        // Incomplete last sample with data: a deliberate difference (skipped).
        let t = format!("{:.2}", times.last().copied().unwrap_or(0.0) + 1.0);
        w.statement(rng, &[b"BEGIN_SAMPLE", t.as_bytes()]);
        w.statement(rng, &[&bands[0].name, b"5"]);
    }
    w.out
}

struct Header {
    job: Vec<u8>,
    date: Vec<u8>,
    sample_unit: Vec<u8>,
    value_unit: Vec<u8>,
}

fn write_header(w: &mut Writer, rng: &mut Rng, h: &Header) {
    let mut items: Vec<(&[u8], &[u8])> = vec![
        (b"JOB", &h.job),
        (b"DATE", &h.date),
        (b"SAMPLE_UNIT", &h.sample_unit),
        (b"VALUE_UNIT", &h.value_unit),
    ];
    if rng.chance(1, 5) {
        shuffle(rng, &mut items);
    }
    for (keyword, text) in items {
        if rng.chance(1, 25) {
            // A repeated header statement: the last one wins.
            w.statement(rng, &[keyword, &quoted(b"overwritten")]);
        }
        w.statement(rng, &[keyword, &quoted(text)]);
    }
}

fn random_header(rng: &mut Rng) -> Header {
    Header {
        job: random_job(rng),
        date: random_date(rng),
        sample_unit: random_unit(rng, b"seconds"),
        value_unit: random_unit(rng, b"bytes"),
    }
}

/// JOB texts around the 35-byte small-box limit and up to 100 bytes, with
/// parentheses and quotes; rarely a backslash or newline.
fn random_job(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.chance(15, 100) {
        rng.usize_in(0, 29)
    } else if rng.chance(1, 3) {
        rng.usize_in(33, 38)
    } else {
        rng.usize_in(30, 100)
    };
    let mut job = Vec::new();
    let specials: &[&[u8]] = &[
        b"(",
        b")",
        b"\"",
        b" +RTS ",
        b" -hc",
        b"\xc3\xa9",
        b"\xe2\x82\xac",
    ];
    while job.len() < len {
        if rng.chance(1, 10) {
            job.extend_from_slice(rng.choose(specials));
        } else {
            job.push(*rng.pick(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 -_./=,:"));
        }
    }
    job.truncate(len);
    if rng.chance(3, 100) {
        job.insert(rng.usize_in(0, job.len()), b'\\');
    }
    if rng.chance(1, 100) {
        job.insert(rng.usize_in(0, job.len()), b'\n');
    }
    job
}

fn random_date(rng: &mut Rng) -> Vec<u8> {
    let mut date = match rng.below(10) {
        0 => Vec::new(),
        1 => b"Fri Apr 17 11:43:45 1992 (UTC)".to_vec(),
        2 => b"2026-11-21 05:17:00 \xe2\x82\xac".to_vec(),
        3 => b"a (nested (balanced)) date".to_vec(),
        _ => format!(
            "{} {} {:2} {:02}:{:02} {}",
            rng.pick(&["Mon", "Tue", "Sat", "Sun"]),
            rng.pick(&["Jan", "Apr", "Nov"]),
            rng.range(1, 28),
            rng.range(0, 23),
            rng.range(0, 59),
            rng.range(1990, 2030)
        )
        .into_bytes(),
    };
    if rng.chance(2, 100) {
        // Broken PostScript from hp2ps: a deliberate difference (skipped).
        date.extend_from_slice(rng.choose(&[b"(" as &[u8], b")", b"\\"]));
    }
    date
}

fn random_unit(rng: &mut Rng, usual: &[u8]) -> Vec<u8> {
    if rng.chance(3, 4) {
        return usual.to_vec();
    }
    let mut unit = rng
        .pick(&[
            b"" as &[u8],
            b"ms",
            b"words",
            b"bytes (x2)",
            b"s(1)",
            b"\xe2\x82\xac",
            b"a rather long unit name for the axis legend",
            b"I",
        ])
        .to_vec();
    if rng.chance(1, 50) {
        unit.push(b'\\');
    }
    unit
}

/// One band's name and how its values are drawn.
struct Band {
    name: Vec<u8>,
    values: Vec<u64>,
    /// Probability (%) that the band appears in a given sample.
    presence: u64,
}

fn random_bands(rng: &mut Rng) -> Vec<Band> {
    let count = match rng.below(20) {
        0..=7 => rng.usize_in(1, 8),
        8..=14 => rng.usize_in(9, 25),
        _ => rng.usize_in(26, 45),
    };
    let samples = 30; // values for up to 30 samples, indexed by sample number
    let mut bands: Vec<Band> = Vec::with_capacity(count);
    for _ in 0..count {
        let name = random_name(rng);
        let values = if !bands.is_empty() && rng.chance(1, 10) {
            // A copy of another band: equal totals and deviations (ties).
            bands[rng.below(bands.len() as u64) as usize].values.clone()
        } else {
            random_values(rng, samples)
        };
        let presence = *rng.pick(&[100, 100, 100, 90, 50, 20]);
        bands.push(Band {
            name,
            values,
            presence,
        });
    }
    bands
}

fn random_values(rng: &mut Rng, n: usize) -> Vec<u64> {
    let (lo, hi): (u64, u64) = match rng.below(12) {
        0 => (0, 0),
        1..=2 => (0, 100),
        3..=6 => (100, 100_000),
        7..=8 => (100_000, 1_000_000_000),
        9 => (1 << 32, 1 << 45),
        10 => (1 << 50, 1 << 52),
        _ => {
            let v = rng.range(0, 5000) as u64;
            (v, v)
        }
    };
    (0..n)
        .map(|_| {
            if rng.chance(1, 15) {
                0
            } else {
                lo + rng.below(hi - lo + 1)
            }
        })
        .collect()
}

fn random_times(rng: &mut Rng) -> Vec<f64> {
    let count = match rng.below(10) {
        0 => 1,
        1 => 2,
        _ => rng.usize_in(3, 30),
    };
    let (start, step) = if rng.chance(3, 1000) {
        // Huge times on which hp2ps never terminates (spec #31): skipped.
        (1e17, 16.0)
    } else {
        (
            *rng.pick(&[0.0, 0.0, 0.0, 0.05, 3.3, 100.0, 123_456.789, 1e6]),
            *rng.pick(&[0.01, 0.02, 0.05, 0.1, 0.25, 1.0, 2.5, 10.0, 1000.0]),
        )
    };
    let mut t = start;
    let mut times = Vec::with_capacity(count);
    for _ in 0..count {
        times.push(t);
        if !rng.chance(1, 12) {
            // Otherwise the next sample has the same time.
            t += step * (0.5 + rng.unit());
        }
    }
    times
}

/// Sample times are printed with one precision per file, so rounding keeps
/// them non-decreasing.
fn write_samples(w: &mut Writer, rng: &mut Rng, bands: &[Band], times: &[f64]) {
    let decimals = *rng.pick(&[1usize, 2, 2, 2, 3, 6]);
    let fmt = |t: f64| format!("{t:.decimals$}").into_bytes();
    let with_marks = rng.chance(3, 10);
    let (first, last) = (times[0], times[times.len() - 1]);
    for (k, &t) in times.iter().enumerate() {
        if with_marks && rng.chance(1, 3) {
            write_marks(w, rng, first, last, &fmt);
        }
        if k > 0 && rng.chance(1, 40) {
            // A data point between samples belongs to the next sample.
            let band = &bands[rng.below(bands.len() as u64) as usize];
            w.statement(rng, &[&band.name, b"7"]);
        }
        let stamp = fmt(t);
        w.statement(rng, &[b"BEGIN_SAMPLE", &stamp]);
        let mut order: Vec<usize> = (0..bands.len()).collect();
        if rng.chance(1, 2) {
            shuffle(rng, &mut order);
        }
        for (n, &b) in order.iter().enumerate() {
            let band = &bands[b];
            if !rng.chance(band.presence, 100) {
                continue;
            }
            write_point(w, rng, &band.name, band.values[k]);
            if rng.chance(1, 40) {
                // Duplicate identifier inside one sample: values add up.
                write_point(w, rng, &band.name, band.values[(k + n) % band.values.len()]);
            }
        }
        if rng.chance(1, 50) {
            // A repeated BEGIN_SAMPLE overwrites the time; data merges.
            w.statement(rng, &[b"BEGIN_SAMPLE", &stamp]);
        }
        // END_SAMPLE's value is ignored by hp2ps.
        let end_stamp = if rng.chance(1, 20) {
            fmt(t + 0.5)
        } else {
            stamp
        };
        w.statement(rng, &[b"END_SAMPLE", &end_stamp]);
    }
    if with_marks && rng.chance(1, 2) {
        write_marks(w, rng, first, last, &fmt);
    }
}

fn write_point(w: &mut Writer, rng: &mut Rng, name: &[u8], value: u64) {
    let text = if w.long_number_budget > 0 && rng.chance(1, 20) {
        // More than 32 digits: a deliberate difference (skipped).
        w.long_number_budget -= 1;
        format!("{value}{}", "0".repeat(33))
    } else if rng.chance(1, 40) {
        format!("000{value}")
    } else {
        value.to_string()
    };
    w.statement(rng, &[name, text.as_bytes()]);
}

/// 1–3 MARK statements, inside and outside the sampled time range.
fn write_marks(w: &mut Writer, rng: &mut Rng, first: f64, last: f64, fmt: &dyn Fn(f64) -> Vec<u8>) {
    for _ in 0..rng.usize_in(1, 3) {
        let t = match rng.below(4) {
            0 => last + 1.0 + rng.unit() * 10.0,
            1 => first * rng.unit(),
            _ => first + (last - first) * rng.unit(),
        };
        w.statement(rng, &[b"MARK", &fmt(t)]);
    }
}

fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

// ---------------------------------------------------------------- names --

/// A band name: cost-centre-like, punctuation, digits first, aux keywords,
/// non-ASCII, control bytes, long. Never whitespace or NUL, never starting
/// with `"` (a string) and never a `.hp` keyword.
pub fn random_name(rng: &mut Rng) -> Vec<u8> {
    loop {
        let name = name_candidate(rng);
        let valid = !name.is_empty()
            && name[0] != b'"'
            && !name.iter().any(|b| b" \t\n\x0b\x0c\r\0".contains(b))
            && !HP_KEYWORDS.contains(&name.as_slice());
        if valid {
            return name;
        }
    }
}

fn name_candidate(rng: &mut Rng) -> Vec<u8> {
    const WORDS: &[&str] = &[
        "Main", "Data", "Map", "insert", "go", "foldr", "leak", "CAF", "main", "elim", "reduce",
        "Text", "Array", "x", "y", "sum", "worker",
    ];
    match rng.below(20) {
        0..=4 => {
            let parts: Vec<&str> = (0..rng.usize_in(1, 4)).map(|_| *rng.pick(WORDS)).collect();
            parts.join(*rng.pick(&[".", "/", "."])).into_bytes()
        }
        5 => rng
            .pick(&[
                "[]",
                "(,)",
                ":",
                "ARR_WORDS",
                "THUNK_1_0",
                "*",
                "->",
                "MUT_ARR_PTRS_CLEAN",
            ])
            .as_bytes()
            .to_vec(),
        6..=7 => punctuated(rng),
        // Digit-first names and aux keywords are fine in a .hp file but make
        // hp2ps fail to read its own aux back (-p), so keep them rare.
        8 if rng.chance(1, 4) => {
            format!("{}{}", rng.range(0, 999), rng.pick(&["", "abc", ".x", "_"])).into_bytes()
        }
        9 if rng.chance(1, 3) => rng
            .pick(&[
                "ORDER",
                "SHADE",
                "X_RANGE",
                "Y_RANGE",
                "OTHER",
                "MAIN",
                "SYSTEM",
                "begin_sample",
                "Job",
                "MARKER",
            ])
            .as_bytes()
            .to_vec(),
        10 => rng
            .pick(&["λx", "café", "€uro", "日本語", "Ünïcödé.名前"])
            .as_bytes()
            .to_vec(),
        11 => (0..rng.usize_in(1, 6))
            .map(|_| rng.range(0x80, 0xff) as u8)
            .collect(),
        12 if rng.chance(1, 3) => {
            let mut name = b"ctl".to_vec();
            name.push(*rng.pick(&[
                0x01, 0x14, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x7f,
            ]));
            name.extend_from_slice(b"x");
            name
        }
        13 => {
            let len = rng.usize_in(40, 300);
            (0..len)
                .map(|_| *rng.pick(b"abcdefghijklmnopqrstuvwxyz.ABC"))
                .collect()
        }
        14 if rng.chance(1, 200) => vec![b'w'; 5000 + rng.usize_in(0, 20)],
        _ => {
            let len = rng.usize_in(0, 7);
            let mut name = vec![*rng.pick(b"abcdefghijklmnopqrstuvwxyz")];
            name.extend((0..len).map(|_| *rng.pick(b"abcdefghijklmnopqrstuvwxyz_0123456789")));
            name
        }
    }
}

fn punctuated(rng: &mut Rng) -> Vec<u8> {
    const PUNCT: &[u8] = b"()\\\"./:,;[]{}<>!@#$%^&*-+=|~?'`";
    let len = rng.usize_in(1, 10);
    (0..len)
        .map(|_| {
            if rng.chance(1, 2) {
                *rng.pick(PUNCT)
            } else {
                *rng.pick(b"abcXYZ019")
            }
        })
        .collect()
}
