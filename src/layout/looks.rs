//! How a band is filled ([`fill_of`]: hp2ps's grey or colour shade, a palette colour, or
//! a pattern under `--palette`, `--colour-by name` and `--pattern`), and its hp2ps shade
//! under `--colour-by name`.
//!
//! Every band still has an hp2ps shade: it goes to the `.aux` file as always. A band's
//! *slot* (its place in a palette) comes from that shade, so a later `-p` run, which
//! preloads the shades, gives every band the colour and pattern it had:
//!
//! * first come, first served (the default): the slot is the shade's index in hp2ps's
//!   palette (its 27 colour shades with `-c`, else its 10 greys). The `.aux` keeps two
//!   decimals of a shade, which tell the 10 greys apart but not the colour shades (so
//!   hp2ps's own `-p -c` loses colours too): without `-c`, `-p` gives every band of a
//!   named palette its previous colour; with `-c`, the palette has 27 slots before it
//!   repeats instead of 10;
//! * `--colour-by name`: the slot is a hash of the name ([`slot_for_name`]), and so is
//!   the shade (hp2ps's palette entry of the slot), whatever the `.aux` said. The number a
//!   `.hp` puts in front of a cost-centre stack (`(296)main/Main.CAF`) is left out of the
//!   hash: the runtime numbers the stacks as it meets them, so the same stack has another
//!   number in another build, and none in an eventlog ([`name_key`]). OTHER has a
//!   fixed colour of its own: [`OTHER_COLOUR`] in a named palette, hp2ps's 50 % grey
//!   (with `-c`, the grey colour shade) otherwise, a shade no other name hashes to.

use super::chart::Fill;
use super::palettes::{slot_for_name, Palette, OTHER_COLOUR};
use super::patterns::pattern;
use super::shade::{COLOUR_PALETTE, MONO_PALETTE};
use super::LayoutOptions;

/// The name of the band that holds what the band limit left out.
const OTHER: &[u8] = b"OTHER";

/// The slots a named palette's colours are hashed into under `--colour-by name`: three
/// rounds of a discrete palette (its colours, then lighter and darker ones), so that
/// fewer names share a colour; 64 points along viridis.
fn name_slots(palette: Palette) -> usize {
    match palette.round_length() {
        usize::MAX => 64,
        n => 3 * n,
    }
}

/// hp2ps's shades, which are handed out to the bands and give their slots: the colour
/// shades with `-c`, else the greys. The one place that asks "colour or grey": the
/// shades, the slots and the fills ([`fill_of`]) all follow from it.
pub(super) fn hp2ps_palette(opts: &LayoutOptions) -> &'static [f64] {
    if opts.colour {
        &COLOUR_PALETTE
    } else {
        &MONO_PALETTE
    }
}

/// Whether the bands take hp2ps's colour shades rather than its greys.
fn colour_shades(opts: &LayoutOptions) -> bool {
    hp2ps_palette(opts).len() == COLOUR_PALETTE.len()
}

/// What `--colour-by name` hashes of a band's name: the name without the stack number a
/// `.hp` puts in front of a cost-centre stack (`(296)main/Main.CAF` is `main/Main.CAF`).
pub(crate) fn name_key(name: &[u8]) -> &[u8] {
    let digits = name
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    match (name.first(), name.get(1 + digits)) {
        (Some(b'('), Some(b')')) if digits > 0 => &name[digits + 2..],
        _ => name,
    }
}

/// The shade of `name` under `--colour-by name`: OTHER takes the palette's last entry
/// (the 50 % grey of either palette), every other name one of the rest, by a hash.
pub(crate) fn shade_by_name(name: &[u8], opts: &LayoutOptions) -> f64 {
    let shades = hp2ps_palette(opts);
    // The 50 % grey: the colour shades' last entry, the greys' entry 8.
    let other = if colour_shades(opts) {
        shades.len() - 1
    } else {
        8
    };
    if name == OTHER {
        return shades[other];
    }
    let slot = slot_for_name(name_key(name), shades.len() - 1);
    shades[if slot >= other { slot + 1 } else { slot }]
}

/// The slot of a band: from its name under `--colour-by name` (in `len` slots), else
/// from its shade's place in hp2ps's palette (a shade not in it, from a hand-edited
/// `.aux`, falls back to the name).
fn slot(name: &[u8], shade: f64, len: usize, opts: &LayoutOptions) -> usize {
    if opts.colour_by_name {
        return slot_for_name(name_key(name), len);
    }
    hp2ps_palette(opts)
        .iter()
        .position(|&s| s == shade)
        .unwrap_or_else(|| slot_for_name(name, len))
}

/// How a band with this name and shade is filled: a pattern (`--pattern`, which wins),
/// else a colour of the named palette, else hp2ps's colour shade (`-c`) or grey. Every
/// painter fills with this, so the key, the bands and every format agree.
pub(crate) fn fill_of(name: &[u8], shade: f64, opts: &LayoutOptions) -> Fill {
    if opts.pattern {
        let n = super::patterns::PATTERNS.len();
        return Fill::Pattern(pattern(slot(name, shade, n, opts)));
    }
    if let Some(palette) = opts.palette {
        return Fill::Rgb(if name == OTHER {
            OTHER_COLOUR
        } else {
            palette.colour(slot(name, shade, name_slots(palette), opts))
        });
    }
    if colour_shades(opts) {
        Fill::Shade(shade)
    } else {
        Fill::Grey(shade)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(colour: bool, palette: Option<Palette>, by_name: bool) -> LayoutOptions {
        LayoutOptions {
            colour,
            palette,
            colour_by_name: by_name,
            ..LayoutOptions::default()
        }
    }

    #[test]
    fn by_name_shades_are_stable_and_other_has_its_own() {
        for o in [opts(false, None, true), opts(true, None, true)] {
            let other = shade_by_name(b"OTHER", &o);
            assert_eq!(other, if o.colour { 0.050505 } else { 0.5 });
            for i in 0..100 {
                let name = format!("Data.Map.Internal{i}");
                let s = shade_by_name(name.as_bytes(), &o);
                assert_eq!(s, shade_by_name(name.as_bytes(), &o));
                assert_ne!(s, other, "{name}");
                assert!(hp2ps_palette(&o).contains(&s));
            }
        }
    }

    #[test]
    fn by_name_a_stack_keeps_its_colour_whatever_its_number() {
        assert_eq!(name_key(b"(296)main/Main.CAF"), b"main/Main.CAF");
        for name in [&b"(x)a"[..], b"()a", b"(12a", b"a(1)", b"(1)"] {
            let want: &[u8] = if name == b"(1)" { b"" } else { name };
            assert_eq!(name_key(name), want);
        }
        for o in [
            opts(true, None, true),
            opts(true, Some(Palette::TolMuted), true),
        ] {
            let a = fill_of(
                b"(296)main/Main.CAF",
                shade_by_name(b"(296)main/Main.CAF", &o),
                &o,
            );
            let b = fill_of(
                b"(351)main/Main.CAF",
                shade_by_name(b"(351)main/Main.CAF", &o),
                &o,
            );
            let c = fill_of(b"main/Main.CAF", shade_by_name(b"main/Main.CAF", &o), &o);
            assert_eq!((a, b), (c, c));
        }
    }

    #[test]
    fn named_palettes_follow_the_shade_slot_and_other_is_fixed() {
        let o = opts(true, Some(Palette::TolMuted), false);
        assert_eq!(
            fill_of(b"x", COLOUR_PALETTE[3], &o),
            Fill::Rgb(Palette::TolMuted.colour(3))
        );
        assert_eq!(fill_of(b"OTHER", 0.0, &o), Fill::Rgb(OTHER_COLOUR));
        assert_eq!(
            fill_of(b"x", 0.3, &LayoutOptions::default()),
            Fill::Grey(0.3)
        );
        assert_eq!(
            fill_of(b"x", COLOUR_PALETTE[5], &opts(true, None, false)),
            Fill::Shade(COLOUR_PALETTE[5])
        );
    }

    #[test]
    fn patterns_win_over_colours() {
        let mut o = opts(true, Some(Palette::Viridis), false);
        o.pattern = true;
        assert_eq!(
            fill_of(b"x", COLOUR_PALETTE[1], &o),
            Fill::Pattern(pattern(1))
        );
    }
}
