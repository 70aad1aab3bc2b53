//! A random `.hp` profile: its header, bands, values, times, marks, and the layout of
//! its statements.

use super::{quoted, random_name, Rng};

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
