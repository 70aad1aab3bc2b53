//! The `.aux` format, both ways.

use super::*;
use crate::read::hp::ReadError;

#[test]
fn writes_the_hp2ps_layout() {
    let mut out = Vec::new();
    let bands = vec![(b"a".to_vec(), 0.0), (b"b(c".to_vec(), 0.2)];
    Aux::of_chart(2.82, 348.0, bands).write(&mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "X_RANGE 2.82\nY_RANGE 348.00\nORDER a 1\nORDER b(c 2\nSHADE a 0.00\nSHADE b(c 0.20\n"
    );
}

#[test]
fn reads_back_what_it_writes_even_odd_names() {
    let mut out = Vec::new();
    let names: [&[u8]; 3] = [b"1abc", b"with space", b"ORDER"];
    let bands: Vec<(Vec<u8>, f64)> = names.iter().map(|n| (n.to_vec(), 0.6)).collect();
    Aux::of_chart(1.0, 2.0, bands).write(&mut out).unwrap();
    let aux = Aux::read(&out).unwrap();
    assert_eq!(aux.order_of(b"with space"), 2);
    assert_eq!(aux.order_of(b"1abc"), 1);
    assert_eq!(aux.shades.len(), 3);
    assert_eq!(aux.x_range, Some(1.0));
}

#[test]
fn token_form_and_its_errors() {
    let aux = Aux::read(b"X_RANGE 1.5 Y_RANGE 2.0 ORDER a 3 SHADE a 0.5").unwrap();
    assert_eq!(aux.order_of(b"a"), 3);
    assert_eq!(aux.order_of(b"zzz"), 0);
    let e = Aux::read(b"Y_RANGE 100\n").unwrap_err();
    let ReadError::Syntax { pos, expected, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!((pos.line, pos.col), (1, 9));
    assert!(expected.contains("Y_RANGE"), "{e}");
    let e = Aux::read(b"X_RANGE 1.0\nJOB 1.0\n").unwrap_err();
    assert_eq!(e.pos().map(|p| p.line), Some(2));
}

#[test]
fn first_order_entry_wins() {
    let aux = Aux::read(b"ORDER a 2\nORDER a 5\n").unwrap();
    assert_eq!(aux.order_of(b"a"), 2);
}
