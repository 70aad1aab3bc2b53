//! Writing an `.aux` file, byte-identical to hp2ps's.

use std::io::{self, Write};

use super::AuxOut;
use crate::num;

impl AuxOut {
    /// Writes the `.aux` text, byte-identical to hp2ps's.
    pub fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let bands: Vec<(&[u8], f64)> = self.bands.iter().map(|(n, s)| (n.as_slice(), *s)).collect();
        write_aux(out, self.x_range, self.y_range, &bands)
    }
}

/// Writes an `.aux` file: `bands` are (name, shade) bottom band first.
pub(super) fn write_aux<W: Write>(
    out: &mut W,
    x_range: f64,
    y_range: f64,
    bands: &[(&[u8], f64)],
) -> io::Result<()> {
    let mut buf = Vec::new();
    buf.extend_from_slice(b"X_RANGE ");
    num::push_fixed(&mut buf, x_range, 2);
    buf.extend_from_slice(b"\nY_RANGE ");
    num::push_fixed(&mut buf, y_range, 2);
    buf.push(b'\n');
    for (i, (name, _)) in bands.iter().enumerate() {
        buf.extend_from_slice(b"ORDER ");
        buf.extend_from_slice(name);
        buf.extend_from_slice(format!(" {}\n", i + 1).as_bytes());
    }
    for (name, shade) in bands {
        buf.extend_from_slice(b"SHADE ");
        buf.extend_from_slice(name);
        buf.push(b' ');
        num::push_fixed(&mut buf, *shade, 2);
        buf.push(b'\n');
    }
    out.write_all(&buf)
}
