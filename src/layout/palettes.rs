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
    /// Colours for screens, the HTML page's default: 24 mid-tones, neither white nor
    /// black nor grey (OTHER's), any two of them (and the lines the page draws of them
    /// on a light or a dark background) at least 14 apart in CIEDE2000.
    Screen,
    /// Okabe and Ito's colours for colour-blind readers: seven, without their black (and
    /// without the grey that stood for it: grey is OTHER's).
    OkabeIto,
    /// Paul Tol's "bright" scheme, distinct for colour-blind readers: six colours (its
    /// grey is OTHER's).
    TolBright,
    /// Paul Tol's "muted" scheme, softer, distinct for colour-blind readers: nine colours
    /// (its pale grey is OTHER's).
    TolMuted,
    /// The viridis colour map, sampled at spread-out points so neighbours differ.
    Viridis,
}

/// The colour OTHER takes in every named palette: a neutral grey no palette uses.
pub const OTHER_COLOUR: [u8; 3] = [0xc8, 0xc8, 0xc8];

/// The screen palette: Observable's ten categorical colours (d3-scale-chromatic's
/// `schemeObservable10`, ISC licence) without their grey, then 15 more, each the colour
/// of a grid over Oklab (lightness 0.5 to 0.82, chroma 0.06 to 0.18) farthest in
/// CIEDE2000 from those before it, from OTHER's grey and from the lines of each on a
/// light and a dark page (see [`line_colour`]).
const SCREEN: [u32; 24] = [
    0x4269D0, 0xEFB118, 0xFF725C, 0x6CC5B0, 0x3CA951, 0xFF8AB7, 0xA463F2, 0x97BBF5, 0x9C6B4E,
    0x62691B, 0x775774, 0x176F7C, 0xB21F41, 0x1F744F, 0xB2BF2F, 0x01AAC6, 0xA48EB4, 0xBD330B,
    0x7E8D65, 0xF7791A, 0xBB8A86, 0x9D3CA4, 0xBFA780, 0x815C0A,
];
const OKABE_ITO: [u32; 7] = [
    0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7,
];
const TOL_BRIGHT: [u32; 6] = [0x4477AA, 0xEE6677, 0x228833, 0xCCBB44, 0x66CCEE, 0xAA3377];
const TOL_MUTED: [u32; 9] = [
    0x332288, 0x88CCEE, 0x44AA99, 0x117733, 0x999933, 0xDDCC77, 0xCC6677, 0x882255, 0xAA4499,
];

/// The page's background in its light and dark schemes, which every line of its Lines
/// view stands out from by at least [`LINE_CONTRAST`].
pub(crate) const LIGHT_BACKGROUND: [u8; 3] = [0xff, 0xff, 0xff];
/// See [`LIGHT_BACKGROUND`].
pub(crate) const DARK_BACKGROUND: [u8; 3] = [0x16, 0x18, 0x1d];
/// WCAG's contrast for graphical objects: 3 to 1.
pub(crate) const LINE_CONTRAST: f64 = 3.0;
/// Viridis at 0, 1/8, …, 1 (the published map's values at those points).
const VIRIDIS: [u32; 9] = [
    0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725,
];

/// The fractional part of the golden ratio: stepping by it visits [0, 1) evenly without
/// ever putting two consecutive steps close together.
const GOLDEN: f64 = 0.618_033_988_749_894_9;

impl Palette {
    /// Every palette, in the order `--help` lists them.
    pub const ALL: [Palette; 5] = [
        Palette::Screen,
        Palette::OkabeIto,
        Palette::TolBright,
        Palette::TolMuted,
        Palette::Viridis,
    ];

    /// The palette's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Screen => "screen",
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
            Palette::Screen => &SCREEN,
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
        // Rounds alternate lighter and darker, the third and later further away (the
        // steps that keep 19 slots and OTHER of the colour-blind palettes furthest apart).
        let step = if round < 3 { 0.35 } else { 0.55 };
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
            Palette::Screen => SCREEN.len(),
            Palette::OkabeIto => OKABE_ITO.len(),
            Palette::TolBright => TOL_BRIGHT.len(),
            Palette::TolMuted => TOL_MUTED.len(),
            Palette::Viridis => usize::MAX,
        }
    }
}

/// Viridis at `t` in [0, 1], interpolated in Oklab between the published points.
pub(super) fn viridis(t: f64) -> [u8; 3] {
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

/// The sRGB colour of Oklab lightness `l`, chroma `c` and hue `hue` (degrees), clamped
/// into sRGB: the flame graph's fills, one lightness for every hue.
pub(crate) fn oklch(l: f32, c: f32, hue: f32) -> [u8; 3] {
    let h = hue.to_radians();
    to_rgb(Oklab::new(l, c * h.cos(), c * h.sin()))
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

/// The relative luminance of an sRGB colour (WCAG 2).
fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let linear: LinSrgb<f64> = Srgb::new(r, g, b).into_format::<f64>().into_linear();
    0.2126 * linear.red + 0.7152 * linear.green + 0.0722 * linear.blue
}

/// WCAG 2's contrast ratio of two colours, 1 to 21.
pub(crate) fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The colour the page draws a band of colour `fill` as a line in, over `background`:
/// the fill itself when it stands out by [`LINE_CONTRAST`], else the fill made darker
/// (on a light background) or lighter (on a dark one) in Oklab, its hue kept and its
/// chroma eased, in steps of a hundredth, until it does.
pub(crate) fn line_colour(fill: [u8; 3], background: [u8; 3]) -> [u8; 3] {
    // A hair over the limit, so that rounding to 8 bits cannot fall below it.
    let enough = |c: [u8; 3]| contrast(c, background) >= LINE_CONTRAST + 0.02;
    if enough(fill) {
        return fill;
    }
    let [r, g, b] = fill;
    let start: Oklab = Srgb::new(r, g, b)
        .into_format::<f32>()
        .into_linear()
        .into_color();
    let dark = luminance(background) < 0.5;
    for step in 1..=100 {
        let t = step as f32 / 100.0;
        let (l, ease) = if dark {
            (start.l + (1.0 - start.l) * t, 1.0 - 0.5 * t)
        } else {
            (start.l * (1.0 - t), 1.0 - 0.3 * t)
        };
        let c = to_rgb(Oklab::new(l, start.a * ease, start.b * ease));
        if enough(c) {
            return c;
        }
    }
    if dark {
        [0xff; 3]
    } else {
        [0; 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_round_is_the_published_palette() {
        assert_eq!(Palette::OkabeIto.colour(0), [0xE6, 0x9F, 0x00]);
        assert_eq!(Palette::TolBright.colour(1), [0xEE, 0x66, 0x77]);
        assert_eq!(Palette::TolMuted.colour(8), [0xAA, 0x44, 0x99]);
        assert_eq!(Palette::Screen.colour(0), [0x42, 0x69, 0xD0]);
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
