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

/// What an `.aux` file says: what a run's chart was scaled to and how its bands were
/// ordered and shaded, which the next run's `-p` reuses. [`crate::prepare`] gives the
/// chart's, [`Aux::write`] writes it and [`Aux::read`] reads one back.
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
    /// The `.aux` of a chart scaled to `x_range` and `y_range`, its bands (name, shade)
    /// bottom band first.
    pub(crate) fn of_chart(x_range: f64, y_range: f64, bands: Vec<(Vec<u8>, f64)>) -> Aux {
        Aux {
            x_range: Some(x_range),
            y_range: Some(y_range),
            order: (bands.iter().enumerate())
                .map(|(i, (name, _))| (name.clone(), i32::try_from(i + 1).unwrap_or(i32::MAX)))
                .collect(),
            shades: bands,
        }
    }

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
