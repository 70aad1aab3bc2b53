//! Band shades: hp2ps's two palettes, the name → shade map, shade → colour, and the
//! shade of every band of a chart ([`shades_of`]).

use std::collections::HashMap;

use super::looks;
use super::options::LayoutOptions;
use crate::aux_file::Aux;
use crate::profile::Band;

/// The shade of each of `bands`, bottom band first: handed out first come, first served
/// from the bottom band up, after the shades the previous `.aux` fixed (`-p`); or by
/// name (`--colour-by name`, see [`looks`]).
pub(crate) fn shades_of(bands: &[Band], previous: Option<&Aux>, opts: &LayoutOptions) -> Vec<f64> {
    if opts.colour_by_name {
        // The name alone decides; the previous `.aux` gave the same shades anyway.
        return (bands.iter())
            .map(|b| looks::shade_by_name(&b.name, opts))
            .collect();
    }
    let mut shades = ShadeMap::new(looks::hp2ps_palette(opts));
    if looks::free_slots(opts) {
        // A named palette's new band takes a slot no band has; OTHER, whose colour is its
        // own, takes the 50 % grey, not a band's slot.
        shades.skip_taken = true;
        shades.preload(b"OTHER", looks::shade_by_name(b"OTHER", opts));
    }
    if let Some(aux) = previous {
        for (name, shade) in &aux.shades {
            shades.preload(name, *shade);
        }
    }
    bands.iter().map(|b| shades.shade_of(&b.name)).collect()
}

/// Hands out shades by band name, first come first served, like hp2ps: a name keeps its
/// shade, names new to the map take the next palette entry.
#[derive(Debug, Clone)]
pub(crate) struct ShadeMap {
    /// The first shade given to each name (later entries for a name are never found).
    entries: HashMap<Vec<u8>, f64>,
    palette: &'static [f64],
    next: usize,
    /// A new name skips the shades names already have (a named palette's slots, where a
    /// band `-p` gave its shade again keeps it and a new one takes a free one); hp2ps's
    /// own palettes hand theirs out in turn, taken or not.
    skip_taken: bool,
}

impl ShadeMap {
    /// An empty map handing out the shades of `palette` ([`COLOUR_PALETTE`] with `-c`,
    /// else [`MONO_PALETTE`]) in turn.
    pub(crate) fn new(palette: &'static [f64]) -> Self {
        ShadeMap {
            entries: HashMap::new(),
            palette,
            next: 0,
            skip_taken: false,
        }
    }

    /// Preloads a shade (from an `.aux` SHADE line); it does not move the palette cursor.
    /// Later entries for a name already present are never found, as in hp2ps.
    pub(crate) fn preload(&mut self, name: &[u8], shade: f64) {
        self.entries.entry(name.to_vec()).or_insert(shade);
    }

    /// The shade of `name`: its own if it has one, else the next palette entry, which
    /// becomes its own.
    pub(crate) fn shade_of(&mut self, name: &[u8]) -> f64 {
        if let Some(&s) = self.entries.get(name) {
            return s;
        }
        let n = self.palette.len();
        if self.skip_taken {
            let taken = |s: f64| self.entries.values().any(|&t| t == s);
            if let Some(k) = (0..n).find(|k| !taken(self.palette[(self.next + k) % n])) {
                self.next += k;
            }
        }
        let s = self.palette[self.next % n];
        self.next += 1;
        self.entries.insert(name.to_vec(), s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::hp2ps_colours::{rgb, COLOUR_PALETTE, MONO_PALETTE};
    use super::*;

    #[test]
    fn colour_palette_gives_the_observed_rgb_including_entry_15() {
        let expect: [[f64; 3]; 27] = [
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0],
            [0.0, 1.0, 1.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0],
            [0.0, 0.0, 0.5],
            [0.0, 0.5, 0.0],
            [0.0, 0.5, 1.0],
            [0.0, 1.0, 0.5],
            [0.5, 0.0, 0.0],
            [0.5, 0.0, 1.0],
            [0.5, 0.9, 0.0],
            [0.5, 1.0, 1.0],
            [1.0, 0.0, 0.5],
            [1.0, 0.5, 0.0],
            [1.0, 0.5, 1.0],
            [1.0, 1.0, 0.5],
            [0.0, 0.5, 0.5],
            [0.5, 0.0, 0.5],
            [0.5, 0.5, 0.0],
            [0.5, 0.5, 1.0],
            [0.5, 1.0, 0.5],
            [1.0, 0.5, 0.5],
            [0.5, 0.5, 0.5],
        ];
        for (s, e) in COLOUR_PALETTE.iter().zip(expect) {
            assert_eq!(rgb(*s), e, "shade {s}");
        }
    }

    #[test]
    fn aux_shades_go_through_the_formula() {
        assert_eq!(rgb(0.2), [2.0, 0.0, 0.0]);
        assert_eq!(rgb(1.0), [0.0, 0.0, 0.0]);
        assert_eq!(rgb(0.05), [0.5, 0.0, 0.0]);
    }

    #[test]
    fn names_keep_their_shade_and_the_palette_cycles() {
        let mut m = ShadeMap::new(&MONO_PALETTE);
        let got: Vec<f64> = (0..12)
            .map(|i| m.shade_of(format!("b{i}").as_bytes()))
            .collect();
        assert_eq!(&got[..10], &MONO_PALETTE);
        assert_eq!(got[10], 0.0);
        assert_eq!(m.shade_of(b"b3"), 0.3);
    }

    #[test]
    fn preloaded_shades_do_not_move_the_cursor() {
        let mut m = ShadeMap::new(&MONO_PALETTE);
        m.preload(b"x", 0.7);
        m.preload(b"x", 0.1);
        assert_eq!(m.shade_of(b"x"), 0.7);
        assert_eq!(m.shade_of(b"y"), 0.0);
    }
}
