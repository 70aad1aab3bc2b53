//! The `.aux` file (§3.12 of `docs/reference/hp2ps-behaviour.md`): ranges, band order and
//! shades, written after every file-mode run and read back with `-p`. Both directions live
//! here, beside the types they read and write, so the format is defined once.
//!
//! (The module is not called `aux`: Windows reserves that name for a device, so no file
//! or folder of a checkout may carry it.)

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{read_aux, AuxError};

/// What an `.aux` file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aux {
    /// `X_RANGE`: the time span of the earlier chart, if the file gives one.
    pub x_range: Option<f64>,
    /// `Y_RANGE`: the stack height of the earlier chart, if the file gives one.
    pub y_range: Option<f64>,
    /// (name, position) in file order; lookups take the first entry of a name.
    pub order: Vec<(Vec<u8>, i32)>,
    /// (name, shade) in file order; lookups take the first entry of a name.
    pub shades: Vec<(Vec<u8>, f64)>,
}

impl Aux {
    /// The ORDER key of a band: its first ORDER entry, or 0 for names the file lacks.
    pub fn order_of(&self, name: &[u8]) -> i32 {
        self.order
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, k)| *k)
    }

    /// Every name's first ORDER entry, for looking up many bands.
    pub fn order_map(&self) -> std::collections::HashMap<&[u8], i32> {
        let mut map = std::collections::HashMap::with_capacity(self.order.len());
        for (name, k) in &self.order {
            map.entry(name.as_slice()).or_insert(*k);
        }
        map
    }
}

/// What the next run's `-p` reuses: the ranges, and each band's name and shade, bottom
/// band first. [`AuxOut::write`] writes it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AuxOut {
    /// The time span the chart was scaled to.
    pub x_range: f64,
    /// The stack height the chart was scaled to.
    pub y_range: f64,
    /// Every drawn band's name and shade, bottom band first.
    pub bands: Vec<(Vec<u8>, f64)>,
}
