//! Files a stranger could send, built for the tests of issue 27 and for
//! `examples/hostile_inputs.rs` (which mounts this file with `#[path]`, beside the
//! eventlog writer: so it only uses `super::eventlog::writer` and std).

use super::eventlog::writer::{breakdown, EventlogWriter, HeapProfBegin, Layout};

/// The terminal escapes a profile's text may carry: OSC 52 (write the clipboard), OSC 0
/// (the window title), clear screen, a CSI sequence in its one-byte C1 form, and a
/// line end followed by what looks like a summary line.
pub const ESCAPES: &str =
    "\x1b]52;c;cm0gLXJmIH4K\x07\x1b]0;pwned\x07\x1b[2J\u{9b}31m\r\n  peak     0 bytes at 0 seconds";

/// The bytes of a terminal escape that must never reach a terminal raw: ESC, BEL, the
/// C1 CSI, CR and NUL.
pub fn raw_control(text: &[u8]) -> Option<usize> {
    let c1_csi = "\u{9b}".as_bytes();
    (text
        .iter()
        .position(|&b| matches!(b, 0x1b | 0x07 | b'\r' | 0)))
    .or_else(|| text.windows(2).position(|w| w == c1_csi))
}

/// A `-hc` eventlog of four cost centres whose labels are `label_len` bytes each, and
/// `stacks` distinct stacks 255 deep made of them, in `censuses` censuses. The file is
/// small (four labels, and about a kilobyte a stack); with `--full-names` each band's
/// name would be 255 labels long (15 MB for labels of 60,000 bytes).
pub fn long_names_eventlog(stacks: u32, censuses: u64, label_len: u32) -> Vec<u8> {
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    w.program_args(0, &["./prog", "+RTS", "-hc", "-l", "-RTS"]);
    w.rts_identifier(0, "GHC-9.2.8 rts_p");
    w.wall_clock(0, 1_700_000_000, 0);
    w.heap_prof_begin(0, &HeapProfBegin::new(breakdown::COST_CENTRE, 100_000_000));
    for cc in 0..4 {
        let label: Vec<u8> = (0..label_len)
            .map(|i| b'a' + ((i + cc) % 26) as u8)
            .collect();
        w.cost_centre(0, cc + 1, &label, b"Main", b"Main.hs:1:1", false);
    }
    // Level l of stack s is the cost centre of s's base-4 digit l mod 8: up to 65,536
    // distinct stacks.
    let stack = |s: u32| -> Vec<u32> { (0..255).map(|l| (s >> (2 * (l % 8))) % 4 + 1).collect() };
    let stacks: Vec<Vec<u32>> = (0..stacks).map(stack).collect();
    for c in 1..=censuses {
        let t = c * 100_000_000;
        let bands: Vec<(&[u32], u64)> = (stacks.iter().enumerate())
            .map(|(s, stack)| (&stack[..], 1000 * c * (s as u64 + 1)))
            .collect();
        w.cost_centre_census(t, &bands);
    }
    w.finish()
}

/// A `.hp` profile whose JOB, DATE, units and band names hold [`ESCAPES`], and a mark.
pub fn terminal_hp() -> Vec<u8> {
    let text = ESCAPES.replace('"', "");
    let mut hp = format!(
        "JOB \"job{text}\"\nDATE \"date{text}\"\nSAMPLE_UNIT \"s{text}\"\nVALUE_UNIT \"b{text}\"\n\
         MARK 0.5\nBEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    );
    // A band name is one word: the escapes without their spaces and line ends.
    let word: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    for (i, t) in ["1.0", "2.0"].iter().enumerate() {
        hp.push_str(&format!(
            "BEGIN_SAMPLE {t}\nband{word}\t{}\nother\t10\nEND_SAMPLE {t}\n",
            100 * (i + 1)
        ));
    }
    hp.into_bytes()
}

/// A `-hT` eventlog whose argv, band labels and marker texts hold [`ESCAPES`] (a
/// marker also a NUL).
pub fn terminal_eventlog() -> Vec<u8> {
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    let argv0 = format!("./prog{ESCAPES}");
    w.program_args(0, &[argv0.as_str(), "+RTS", "-hT", "-l", "-RTS"]);
    w.rts_identifier(0, "GHC-9.2.8 rts_thr");
    w.wall_clock(0, 1_700_000_000, 0);
    w.heap_prof_begin(0, &HeapProfBegin::new(breakdown::CLOSURE_TYPE, 100_000_000));
    let band = format!("band{ESCAPES}");
    let marker = format!("mark\0{ESCAPES}");
    w.marker(0, 150_000_000, marker.as_bytes());
    for c in 1..=3u64 {
        let t = c * 100_000_000;
        w.string_census(t, &[(band.as_bytes(), 1000 * c), (b"ARR_WORDS", 500)]);
    }
    w.finish()
}

/// A `.hp` profile whose DATE is `date_len` bytes and whose units and 20 band names are
/// 60,000 bytes (within the `.hp` reader's limits): text that no chart can show whole.
pub fn huge_text_hp(date_len: usize) -> Vec<u8> {
    let long = |n: usize, seed: u8| -> String {
        (0..n)
            .map(|i| (b'a' + ((i as u8).wrapping_add(seed)) % 26) as char)
            .collect()
    };
    let mut hp = format!(
        "JOB \"{}\"\nDATE \"{}\"\nSAMPLE_UNIT \"{}\"\nVALUE_UNIT \"{}\"\n",
        long(60_000, 0),
        long(date_len, 1),
        long(60_000, 2),
        long(60_000, 3)
    );
    hp.push_str("BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n");
    for s in 1..=3 {
        hp.push_str(&format!("BEGIN_SAMPLE {s}.0\n"));
        for b in 0..20u8 {
            let name = format!("{b:02}{}", long(60_000, b));
            hp.push_str(&format!("{name}\t{}\n", 100 * (u32::from(b) + 1) * s));
        }
        hp.push_str(&format!("END_SAMPLE {s}.0\n"));
    }
    hp.into_bytes()
}

/// A `-hd` eventlog (for the exports' tests) whose closure descriptions hold what a label value must escape
/// (`"`, `\`, a line end), control characters, Latin-1 (not UTF-8), Japanese, and the
/// name OTHER.
pub fn names_eventlog() -> Vec<u8> {
    let names: [&[u8]; 9] = [
        b"say \"hi\"",
        b"back\\slash",
        b"two\nlines",
        b"tab\tand\rreturn",
        b"\x1b]0;pwned\x07",
        b"caf\xe9",
        "日本語".as_bytes(),
        b"OTHER",
        b"{band=\"x\"} 1",
    ];
    let mut w = EventlogWriter::new(Layout::ghc_9_2());
    w.startup(0, 1)
        .program_args(1, &["./hos\"t\\ile", "+RTS", "-hd", "-l", "-RTS"])
        .heap_prof_begin(
            2,
            &HeapProfBegin::new(breakdown::CLOSURE_DESCR, 100_000_000),
        );
    for c in 1..=3u64 {
        let bands: Vec<(&[u8], u64)> = (names.iter().enumerate())
            .map(|(i, &n)| (n, 1000 * c * (i as u64 + 1)))
            .collect();
        w.string_census(c * 100_000_000, &bands);
    }
    w.shutdown(400_000_000, 1);
    w.finish()
}
