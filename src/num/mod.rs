//! C-compatible numbers, in one place: glibc-exact `printf` formatting, `atoi`/`atof`
//! parsing, the values of `.hp` number tokens and C's double-to-integer truncation; and
//! numbers for people (`people.rs`: the summary's text and the tooltips); and where a
//! token stands in a text file (`pos.rs`), for the `.hp` and `.aux` readers' errors.
//!
//! hp2ps's PostScript has to be byte-identical to what the C original prints through glibc,
//! and it has to read numbers the way glibc does. Rust's own formatting differs in the places
//! that matter (`{}` prints the shortest round-trip digits, not the exact decimal value; NaN
//! is spelled `NaN`, and the sign of a NaN is dropped), so every number that hp2ps itself
//! prints or reads goes through here. (The SVG and PDF painters, which have no C original,
//! format some numbers their own way.)

mod c_parse;
mod people;
mod pos;
mod printf;
mod tokens;
mod trunc;

pub use c_parse::{c_atof, c_atoi};
pub(crate) use people::number;
pub use pos::Pos;
pub(crate) use printf::f6_slot;
pub use printf::{fixed, push_f6, push_fixed, push_thousands, thousands};
pub(crate) use tokens::MAX_NUMBER_LEN;
pub use tokens::{float_value, integer_value};
pub use trunc::c_trunc_i64;

#[cfg(test)]
mod tests;
