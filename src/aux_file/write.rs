//! Writing an `.aux` file, byte-identical to hp2ps's.

use std::io::{self, Write};

use super::Aux;
use crate::num;

impl Aux {
    /// Writes the `.aux` text: a chart's (as [`crate::prepare`] gives it) byte-identical
    /// to hp2ps's. A range not known is left out.
    pub fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let mut buf = Vec::new();
        for (key, range) in [
            (&b"X_RANGE "[..], self.x_range),
            (b"Y_RANGE ", self.y_range),
        ] {
            if let Some(range) = range {
                buf.extend_from_slice(key);
                num::push_fixed(&mut buf, range, 2);
                buf.push(b'\n');
            }
        }
        for (name, order) in &self.order {
            buf.extend_from_slice(b"ORDER ");
            buf.extend_from_slice(name);
            buf.extend_from_slice(format!(" {order}\n").as_bytes());
        }
        write_shades(&mut buf, &self.shades);
        out.write_all(&buf)
    }
}

/// The SHADE lines of `shades` (name, shade).
fn write_shades(buf: &mut Vec<u8>, shades: &[(Vec<u8>, f64)]) {
    for (name, shade) in shades {
        buf.extend_from_slice(b"SHADE ");
        buf.extend_from_slice(name);
        buf.push(b' ');
        num::push_fixed(buf, *shade, 2);
        buf.push(b'\n');
    }
}
