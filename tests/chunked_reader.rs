//! The parallel reader cuts its input into chunks that worker threads scan; whatever the
//! cuts, the result (profile, warnings, errors and their positions) is the one-thread
//! reader's. Tiny chunk sizes put a cut at every line of these inputs.

use hp2ps::internals::hp::{read_chunked, read_slice_chunked};
use hp2ps::internals::ProfileBuilder;
use hp2ps::internals::{HeaderField, Sink};
use hp2ps::ReadOptions;

mod support;

use support::gen::realistic::generated;
use support::read_one_thread;

fn chunked(text: &[u8], chunk: usize) -> String {
    let mut b = ProfileBuilder::default();
    let r = read_chunked(text, &ReadOptions::default(), &mut b, chunk);
    format!("{:?}", r.map(|w| (b.finish(), w)))
}

/// The same from bytes in memory (a mapped file); also checks that the released prefix
/// only grows and ends at the input's end.
fn sliced(text: &[u8], chunk: usize) -> String {
    let mut b = ProfileBuilder::default();
    let mut released = 0;
    let r = read_slice_chunked(text, &ReadOptions::default(), &mut b, chunk, &mut |n| {
        assert!(n >= released && n <= text.len());
        released = n;
    });
    if r.is_ok() {
        assert_eq!(released, text.len(), "everything is released at the end");
    }
    format!("{:?}", r.map(|w| (b.finish(), w)))
}

/// A sink that takes the workers' runs statement by statement (the default
/// [`Sink::statements`]), where the profile builder takes them by band.
struct OneByOne(ProfileBuilder);

impl Sink for OneByOne {
    fn header(&mut self, field: HeaderField, text: &[u8]) {
        self.0.header(field, text)
    }
    fn mark(&mut self, time: f64) {
        self.0.mark(time)
    }
    fn begin_sample(&mut self, time: f64) {
        self.0.begin_sample(time)
    }
    fn end_sample(&mut self) {
        self.0.end_sample()
    }
    fn data(&mut self, name: &[u8], value: f64) {
        self.0.data(name, value)
    }
    fn discard_incomplete_sample(&mut self) -> bool {
        self.0.discard_incomplete_sample()
    }
}

fn one_by_one(text: &[u8], chunk: usize) -> String {
    let mut b = OneByOne(ProfileBuilder::default());
    let r = read_chunked(text, &ReadOptions::default(), &mut b, chunk);
    format!("{:?}", r.map(|w| (b.0.finish(), w)))
}

fn check(name: &str, text: &[u8], chunks: &[usize]) {
    let expected = read_one_thread(text);
    for &c in chunks {
        assert_eq!(
            expected,
            one_by_one(text, c),
            "{name}, one by one, chunks of {c}"
        );
        assert_eq!(expected, chunked(text, c), "{name}, chunks of {c} bytes");
        assert_eq!(expected, sliced(text, c), "{name}, slices of {c} bytes");
    }
}

const HEADER: &str = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n";

#[test]
fn every_golden_input_reads_the_same_in_chunks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/inputs");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden inputs")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read(&p).expect("read");
        let name = p.display().to_string();
        check(&name, &text, &[1, 13, 200, 4096]);
        let cut = &text[..text.len() * 2 / 3];
        check(&format!("{name} cut"), cut, &[1, 64, 4096]);
    }
}

#[test]
fn generated_profiles_read_the_same_in_chunks() {
    let text = generated(&["--size", "1M", "--marks", "30"]);
    check("1 MB with marks", &text, &[1000, 65536, 300_000]);
    let wide = generated(&["--bands", "3000", "--samples", "30"]);
    check("wide", &wide, &[100, 10_000]);
    for cut in [text.len() / 3, text.len() / 2 + 7, text.len() - 3] {
        check(&format!("cut at {cut}"), &text[..cut], &[777, 65536]);
    }
}

#[test]
fn errors_and_odd_lines_at_chunk_boundaries() {
    let samples = |body: &str| format!("{HEADER}{body}");
    let cases = [
        // out of sequence, in one chunk and across chunks
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 0.5\na\t2\nEND_SAMPLE 0.5\n"),
        // END_SAMPLE outside a sample
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nEND_SAMPLE 1.0\n"),
        // MARK inside a sample, and between samples
        samples("BEGIN_SAMPLE 1.0\na\t1\nMARK 1.5\nEND_SAMPLE 1.0\n"),
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nMARK 1.5\nMARK 1.7\nBEGIN_SAMPLE 2.0\nb\t3\nEND_SAMPLE 2.0\n"),
        // a repeated BEGIN_SAMPLE, data outside samples, CRLF lines
        samples("BEGIN_SAMPLE 1.0\nBEGIN_SAMPLE 1.5\na\t1\nEND_SAMPLE 1.0\nb\t4\r\nBEGIN_SAMPLE 2.0\r\na\t2\r\nEND_SAMPLE 2.0\r\n"),
        // a statement whose argument is on the next line, a string over two lines
        samples("BEGIN_SAMPLE\n1.0\na\n7\nEND_SAMPLE 1.0\nJOB \"two\nlines\"\nBEGIN_SAMPLE 2.0\na\t1\nEND_SAMPLE 2.0\n"),
        // names with spaces (the TAB rule), keywords as names, odd numbers
        samples("BEGIN_SAMPLE 1.0\na b\t1\nMARK\t2\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0.1\nx\t12345678901234567890123\nEND_SAMPLE 2\n"),
        // a half-written last line, an incomplete last sample
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\na\t2\nb\t3"),
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\na\t2\nnew\t3\n"),
        // a header after the samples, no samples at all, a syntax error late
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nDATE \"later\"\n"),
        HEADER.to_string(),
        samples("BEGIN_SAMPLE 1.0\na\t1\nEND_SAMPLE 1.0\nBEGIN_SAMPLE 2.0\na\t1.5\nEND_SAMPLE 2.0\n"),
    ];
    for (i, text) in cases.iter().enumerate() {
        check(
            &format!("case {i}"),
            text.as_bytes(),
            &[1, 5, 20, 40, 90, 4096],
        );
    }
}

#[test]
fn a_line_longer_than_a_block_is_read_the_same() {
    let mut text = format!("{HEADER}BEGIN_SAMPLE 1.0\n");
    for i in 0..20_000 {
        text.push_str(&format!("n{} {} ", i % 50, i));
    }
    text.push_str("\nEND_SAMPLE 1.0\n");
    check("long line", text.as_bytes(), &[100, 4096]);
}

#[test]
fn names_that_differ_only_in_the_middle_are_told_apart() {
    // The workers' quick hash looks at the first 16 and last 8 bytes of a name: these all
    // collide, which must only make the lookups slower.
    let mut text = String::from(HEADER);
    for s in 0..5 {
        text.push_str(&format!("BEGIN_SAMPLE {s}.0\n"));
        for i in 0..300 {
            let i = (i * 7 + s * 13) % 300;
            text.push_str(&format!("prefix_sixteen__{i:05}_suffix__\t{}\n", 100 + i));
        }
        text.push_str(&format!("END_SAMPLE {s}.0\n"));
    }
    check("colliding names", text.as_bytes(), &[1 << 16, 5000]);
}
