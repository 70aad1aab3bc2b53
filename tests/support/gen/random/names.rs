//! Random band names.

use super::{Rng, HP_KEYWORDS};

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
