//! Named palettes for the bands, beside hp2ps's own (`--palette`), and the colour maths
//! they need: a colour per slot, a stable slot per name (`--colour-by name`), and the
//! perceptual difference between two colours (CIEDE2000), with the `palette` crate.
//!
//! A *slot* is the position a band takes in its palette. hp2ps hands them out first come,
//! first served (the n-th new name gets slot n); `--colour-by name` derives the slot from
//! the name alone, so a name has the same colour in every chart.

use palette::color_difference::Ciede2000;
use palette::{Clamp, IntoColor, Lab, LinSrgb, Mix, Oklab, Srgb};

/// A palette other than hp2ps's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    /// Okabe and Ito's eight colours for colour-blind readers (black replaced by a grey,
    /// which reads better as a fill).
    OkabeIto,
    /// Paul Tol's "bright" scheme: seven colours, distinct for colour-blind readers.
    TolBright,
    /// Paul Tol's "muted" scheme: ten softer colours, distinct for colour-blind readers.
    TolMuted,
    /// The viridis colour map, sampled at spread-out points so neighbours differ.
    Viridis,
}

/// The colour OTHER takes in every named palette: a neutral grey no palette uses.
pub const OTHER_COLOUR: [u8; 3] = [0xc8, 0xc8, 0xc8];

const OKABE_ITO: [u32; 8] = [
    0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7, 0x999999,
];
const TOL_BRIGHT: [u32; 7] = [
    0x4477AA, 0xEE6677, 0x228833, 0xCCBB44, 0x66CCEE, 0xAA3377, 0xBBBBBB,
];
const TOL_MUTED: [u32; 10] = [
    0x332288, 0x88CCEE, 0x44AA99, 0x117733, 0x999933, 0xDDCC77, 0xCC6677, 0x882255, 0xAA4499,
    0xDDDDDD,
];
/// Viridis at 0, 1/8, …, 1 (the published map's values at those points).
const VIRIDIS: [u32; 9] = [
    0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725,
];

/// The fractional part of the golden ratio: stepping by it visits [0, 1) evenly without
/// ever putting two consecutive steps close together.
const GOLDEN: f64 = 0.618_033_988_749_894_9;

impl Palette {
    /// Every palette, in the order `--help` lists them.
    pub const ALL: [Palette; 4] = [
        Palette::OkabeIto,
        Palette::TolBright,
        Palette::TolMuted,
        Palette::Viridis,
    ];

    /// The palette's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Palette::OkabeIto => "okabe-ito",
            Palette::TolBright => "tol-bright",
            Palette::TolMuted => "tol-muted",
            Palette::Viridis => "viridis",
        }
    }

    /// The palette of that name.
    pub fn from_name(name: &str) -> Option<Palette> {
        Palette::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The colour of slot `slot`. A discrete palette cycles through its colours, each
    /// round lighter or darker than the last so that no two slots share a colour;
    /// viridis walks along its map by the golden ratio.
    pub fn colour(self, slot: usize) -> [u8; 3] {
        let base: &[u32] = match self {
            Palette::OkabeIto => &OKABE_ITO,
            Palette::TolBright => &TOL_BRIGHT,
            Palette::TolMuted => &TOL_MUTED,
            Palette::Viridis => return viridis((slot as f64 * GOLDEN).fract()),
        };
        let colour = oklab(base[slot % base.len()]);
        let round = slot / base.len();
        if round == 0 {
            return to_rgb(colour);
        }
        // Rounds alternate lighter and darker, each pair of rounds further away.
        let step = (0.3 + 0.15 * ((round - 1) / 2) as f32).min(0.6);
        // A colour that is light already goes darker first.
        let lighter = (round % 2 == 1) != (colour.l > 0.8);
        let target = if lighter {
            Oklab::new(1.0, 0.0, 0.0)
        } else {
            Oklab::new(0.0, 0.0, 0.0)
        };
        to_rgb(colour.mix(target, step))
    }

    /// How many slots the palette has before its colours repeat in a lighter or darker
    /// round (viridis: as many as there are names, in practice).
    pub fn round_length(self) -> usize {
        match self {
            Palette::OkabeIto => OKABE_ITO.len(),
            Palette::TolBright => TOL_BRIGHT.len(),
            Palette::TolMuted => TOL_MUTED.len(),
            Palette::Viridis => usize::MAX,
        }
    }
}

/// Viridis at `t` in [0, 1], interpolated in Oklab between the published points.
fn viridis(t: f64) -> [u8; 3] {
    let scaled = t.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(VIRIDIS.len() - 2);
    let f = (scaled - i as f64) as f32;
    to_rgb(oklab(VIRIDIS[i]).mix(oklab(VIRIDIS[i + 1]), f))
}

fn oklab(hex: u32) -> Oklab {
    let [_, r, g, b] = hex.to_be_bytes();
    Srgb::new(r, g, b)
        .into_format::<f32>()
        .into_linear()
        .into_color()
}

fn to_rgb(colour: Oklab) -> [u8; 3] {
    let linear: LinSrgb = colour.into_color();
    let srgb: Srgb<u8> = Srgb::from_linear(linear.clamp());
    [srgb.red, srgb.green, srgb.blue]
}

/// The slot a name takes under `--colour-by name` in a palette of `len` slots: a hash of
/// the name's bytes (FNV-1a, the same on every machine and in every release), so the name
/// alone decides it.
pub(crate) fn slot_for_name(name: &[u8], len: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // Fold the high bits in: the low bits of FNV alone cluster for similar names.
    h ^= h >> 29;
    (h % len.max(1) as u64) as usize
}

/// How different two colours look: CIEDE2000 in CIELAB (about 2 is "just noticeable",
/// above 10 clearly different).
pub fn difference(a: [u8; 3], b: [u8; 3]) -> f32 {
    let lab = |[r, g, bl]: [u8; 3]| -> Lab {
        Srgb::new(r, g, bl)
            .into_format::<f32>()
            .into_linear()
            .into_color()
    };
    lab(a).difference(lab(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_round_is_the_published_palette() {
        assert_eq!(Palette::OkabeIto.colour(0), [0xE6, 0x9F, 0x00]);
        assert_eq!(Palette::TolBright.colour(1), [0xEE, 0x66, 0x77]);
        assert_eq!(Palette::TolMuted.colour(9), [0xDD, 0xDD, 0xDD]);
        assert_eq!(Palette::Viridis.colour(0), [0x44, 0x01, 0x54]);
    }

    #[test]
    fn neighbouring_slots_differ_clearly_in_every_palette() {
        for p in Palette::ALL {
            // Clearly in the first two rounds (hp2ps draws at most 20 bands by default),
            // and still visibly beyond.
            for slot in 0..40 {
                let d = difference(p.colour(slot), p.colour(slot + 1));
                let least = if slot < 2 * p.round_length().min(10) {
                    10.0
                } else {
                    6.0
                };
                assert!(
                    d > least,
                    "{}: slots {slot} and {} differ by {d}",
                    p.name(),
                    slot + 1
                );
            }
        }
    }

    #[test]
    fn later_rounds_are_new_colours() {
        for p in [Palette::OkabeIto, Palette::TolBright, Palette::TolMuted] {
            let n = p.round_length();
            for slot in 0..n {
                let d = difference(p.colour(slot), p.colour(slot + n));
                assert!(
                    d > 5.0,
                    "{}: slot {slot} repeats in round 2 ({d})",
                    p.name()
                );
            }
        }
    }

    #[test]
    fn a_name_always_takes_the_same_slot() {
        assert_eq!(
            slot_for_name(b"Data.Map.Internal", 27),
            slot_for_name(b"Data.Map.Internal", 27)
        );
        let slots: std::collections::HashSet<usize> = (0..200)
            .map(|i| slot_for_name(format!("band{i}").as_bytes(), 27))
            .collect();
        assert!(
            slots.len() > 20,
            "names spread over the slots: {}",
            slots.len()
        );
        assert_eq!(slot_for_name(b"x", 0), 0);
    }

    #[test]
    fn names_round_trip() {
        for p in Palette::ALL {
            assert_eq!(Palette::from_name(p.name()), Some(p));
        }
        assert_eq!(Palette::from_name("rainbow"), None);
    }
}
