//! The fast paths give exactly what the plain paths give: the two-thread reader against
//! the one-thread reader, and the one-pass data-line reading against the general
//! tokenizer, on a generated profile and on every golden input.

use hp2ps::internals::hp::read_into_parallel;
use hp2ps::internals::ProfileBuilder;
use hp2ps::ReadOptions;

mod support;

use support::gen::realistic::generated;
use support::golden_inputs;
use support::read_one_thread;

fn two_threads(text: &[u8]) -> String {
    let mut b = ProfileBuilder::default();
    let r = read_into_parallel(text, &ReadOptions::default(), &mut b);
    format!("{:?}", r.map(|w| (b.finish(), w)))
}

#[test]
fn two_thread_reader_equals_one_thread_reader() {
    let mut inputs = golden_inputs();
    inputs.push((
        "generated 3 MB".into(),
        generated(&["--size", "3M", "--marks", "20"]),
    ));
    inputs.push((
        "generated wide".into(),
        generated(&["--bands", "500", "--samples", "200"]),
    ));
    for (name, text) in inputs {
        assert_eq!(read_one_thread(&text), two_threads(&text), "{name}");
        // A cut in the middle exercises the truncation path too.
        let cut = &text[..text.len() * 2 / 3];
        assert_eq!(read_one_thread(cut), two_threads(cut), "{name} cut");
    }
}

#[test]
fn one_pass_data_lines_equal_the_general_tokenizer() {
    let mut inputs = golden_inputs();
    // These need the TAB line rule, where a space before the TAB is part of the name.
    inputs.retain(|(name, _)| {
        !["edge-ident-keyword", "edge-ident-space", "edge-ident-tab"]
            .iter()
            .any(|n| name.contains(n))
    });
    inputs.push(("generated 2 MB".into(), generated(&["--size", "2M"])));
    for (name, text) in inputs {
        // A space before the TAB keeps every data line off the one-pass path without
        // changing what hp2ps's tokens read.
        let mut slow = Vec::with_capacity(text.len() * 11 / 10);
        for &b in &text {
            if b == b'\t' {
                slow.push(b' ');
            }
            slow.push(b);
        }
        let fast = support::read_profile(text.as_slice()).map(|(p, _)| p);
        let general = support::read_profile(slow.as_slice()).map(|(p, _)| p);
        match (fast, general) {
            (Ok(a), Ok(b)) => assert!(a == b, "{name}"),
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{name}: {:?} vs {:?}", a.is_ok(), b.is_ok()),
        }
    }
}
