//! Output: the `.hp` text, sample by sample.

use std::io::{self, Write};

use super::bands::{make_bands, Band};
use super::{mix, parse_args, Options, Rng};

/// Appends the decimal digits of `v` without going through `fmt`.
#[inline]
fn push_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends a time given in microseconds as C's `%f` would print it.
fn push_time(out: &mut Vec<u8>, us: u64) {
    push_u64(out, us / 1_000_000);
    out.push(b'.');
    let frac = us % 1_000_000;
    let mut div = 100_000;
    while div > 0 {
        out.push(b'0' + (frac / div % 10) as u8);
        div /= 10;
    }
}

struct Generator<'a> {
    opts: &'a Options,
    bands: Vec<Band>,
    /// Reused between samples to avoid allocation in the hot loop.
    live: Vec<(u32, u64)>,
}

impl Generator<'_> {
    /// Time of sample `i`: GHC's first (empty) sample is at exactly 0, later
    /// ones drift around i·interval by up to ±20 % (never out of order).
    fn time_us(&self, i: u64) -> u64 {
        if i == 0 {
            return 0;
        }
        let iv = self.opts.interval_us;
        let jitter = mix(self.opts.seed ^ mix(i ^ 0x7173)) % (2 * (iv / 5) + 1);
        i * iv + jitter - iv / 5
    }

    /// Appends the data lines of a sample at run fraction `t`; `key`
    /// selects its random stream.
    fn data_lines(&mut self, t: f64, key: u64, out: &mut Vec<u8>) {
        let mut rng = Rng::new(mix(
            self.opts.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ mix(key)
        ));
        self.live.clear();
        for (b, band) in self.bands.iter().enumerate() {
            let v = band.value(t, &mut rng);
            if v != 0 {
                self.live.push((b as u32, v));
            }
        }
        // GHC writes a census in hash-table order, which changes as the
        // table changes; a per-sample shuffle stands in for that.
        for i in (1..self.live.len()).rev() {
            self.live.swap(i, rng.below(i + 1));
        }
        for &(b, v) in &self.live {
            out.extend_from_slice(&self.bands[b as usize].prefix);
            push_u64(out, v);
            out.push(b'\n');
        }
    }

    /// Average bytes of a sample's data lines over the run, from evenly
    /// spaced probes (with their own random streams).
    fn mean_data_bytes(&mut self) -> f64 {
        const PROBES: u64 = 4096;
        let mut scratch = Vec::new();
        let mut total = 0usize;
        for k in 0..PROBES {
            scratch.clear();
            self.data_lines((k as f64 + 0.5) / PROBES as f64, !k, &mut scratch);
            total += scratch.len();
        }
        total as f64 / PROBES as f64
    }
}

/// The profile written for the command-line arguments `args`, in memory: how the tests
/// and benchmarks make their inputs.
///
/// # Panics
///
/// If `args` are not the generator's.
#[allow(dead_code)] // not used by the example
pub fn generated<S: AsRef<str>>(args: &[S]) -> Vec<u8> {
    let args: Vec<String> = args.iter().map(|s| s.as_ref().to_string()).collect();
    let opts = parse_args(&args)
        .expect("generator arguments")
        .expect("not --help");
    let mut text = Vec::new();
    generate(&opts, &mut text).expect("generate");
    text
}

pub fn generate(opts: &Options, out: &mut impl Write) -> io::Result<()> {
    let mut g = Generator {
        opts,
        bands: make_bands(opts.bands, opts.seed, opts.name_limit),
        live: Vec::new(),
    };

    let mut job = String::from("gen_profile");
    match opts.samples {
        Some(n) => job.push_str(&format!(" --samples {n}")),
        None => job.push_str(&format!(" --size {}", opts.size_text)),
    }
    job.push_str(&format!(
        " --bands {} --seed {} --interval {} --marks {} --name-limit {} +RTS -hc -L{} -i{}",
        opts.bands,
        opts.seed,
        opts.interval_text,
        opts.marks,
        opts.name_limit,
        opts.name_limit,
        opts.interval_text
    ));
    let header = format!(
        "JOB \"{job}\"\nDATE \"Sat Nov 21 05:19 2026\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    );
    out.write_all(header.as_bytes())?;
    let mut written = header.len() as u64;

    // How many samples the run is planned for: shapes are laid out over
    // this many. With --size it is an estimate and the loop below stops on
    // the byte count instead.
    let planned = match opts.samples {
        Some(n) => n,
        None => {
            let data = g.mean_data_bytes();
            // BEGIN_SAMPLE/END_SAMPLE lines: 13 + 11 bytes of keyword and
            // space, twice the time text, two newlines.
            let time_len = |n: u64| {
                let secs = n * opts.interval_us / 1_000_000;
                let mut digits = 1;
                let mut s = secs;
                while s >= 10 {
                    digits += 1;
                    s /= 10;
                }
                (digits + 7) as f64
            };
            let body = opts.size.saturating_sub(written) as f64;
            let mut n = (body / (data + 26.0 + 2.0 * time_len(1))).max(1.0);
            // Times get longer as the run goes on; one refinement with the
            // average time length is enough.
            let avg_time = (time_len(1) + time_len(n as u64)) / 2.0;
            n = (body / (data + 26.0 + 2.0 * avg_time)).max(1.0);
            n.round() as u64
        }
    };

    let mut next_mark = 1u64;
    let mut sample = Vec::with_capacity(1 << 16);
    let mut i = 0u64;
    loop {
        let done = match opts.samples {
            Some(n) => i >= n,
            None => written >= opts.size,
        };
        if done {
            break;
        }
        sample.clear();
        let us = g.time_us(i);
        sample.extend_from_slice(b"BEGIN_SAMPLE ");
        push_time(&mut sample, us);
        sample.push(b'\n');
        if i > 0 {
            g.data_lines(i as f64 / planned as f64, i, &mut sample);
        }
        sample.extend_from_slice(b"END_SAMPLE ");
        push_time(&mut sample, us);
        sample.push(b'\n');
        // Marks go between samples (hp2ps rejects them inside one), at the
        // midpoint to the next sample, evenly spread over the planned run.
        if next_mark <= opts.marks && i + 1 >= next_mark * planned / (opts.marks + 1) {
            sample.extend_from_slice(b"MARK ");
            push_time(&mut sample, us + opts.interval_us / 2);
            sample.push(b'\n');
            next_mark += 1;
        }
        out.write_all(&sample)?;
        written += sample.len() as u64;
        i += 1;
    }
    Ok(())
}
