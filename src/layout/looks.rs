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
//!   number in another build, and none in an eventlog (`crate::profile::name_key`).
//!   OTHER has a fixed colour of its own: [`OTHER_COLOUR`] in a named palette, hp2ps's
//!   50 % grey (with `-c`, the grey colour shade) otherwise, a shade no other name
//!   hashes to.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::chart::Fill;
use super::hp2ps_colours::{COLOUR_PALETTE, MONO_PALETTE, SLOT_SHADES};
use super::options::LayoutOptions;
use super::palettes::{slot_for_name, viridis, Palette, OTHER_COLOUR};
use super::patterns::pattern;
use crate::profile::{match_key, name_key};

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
///
/// A named palette's bands without `-c` take the hundredths instead ([`SLOT_SHADES`]:
/// 100 slots, which the `.aux` keeps exactly, where hp2ps's 10 greys would give two bands
/// of a chart of 20 one slot), a new band the first no band has ([`free_slots`]).
pub(super) fn hp2ps_palette(opts: &LayoutOptions) -> &'static [f64] {
    if opts.colour {
        &COLOUR_PALETTE
    } else if free_slots(opts) {
        &SLOT_SHADES
    } else {
        &MONO_PALETTE
    }
}

/// Whether a new band takes a slot no band has (a named palette's hundredths), rather
/// than hp2ps's next shade, taken or not.
pub(super) fn free_slots(opts: &LayoutOptions) -> bool {
    !opts.colour && opts.palette.is_some() && !opts.pattern
}

/// Whether the bands take hp2ps's colour shades rather than its greys.
fn colour_shades(opts: &LayoutOptions) -> bool {
    hp2ps_palette(opts).len() == COLOUR_PALETTE.len()
}

/// The colours of the drawn bands of several runs (each run's band names, bottom band
/// first) in `palette`, each run's as a map from name to colour for
/// [`LayoutOptions::band_colours`]: bands matched across runs ([`match_key`]; the k-th of
/// the bands one key has in a run, by name, with the k-th of another run's) have one
/// colour, and two bands that do not match never share one, in a run or across runs.
/// Colours are handed out biggest band first (the top of each run's stack), run by run,
/// each the first of the palette's that no band has yet. OTHER keeps its own.
pub(crate) fn shared_colours(
    runs: &[Vec<&[u8]>],
    palette: Palette,
) -> Vec<BTreeMap<Vec<u8>, [u8; 3]>> {
    // Each band's colour key: its match key and its place among the run's bands of it.
    type ColourKey<'a> = (&'a [u8], usize);
    let keyed: Vec<Vec<(&[u8], ColourKey)>> = (runs.iter())
        .map(|names| {
            let mut names: Vec<&[u8]> = names.iter().copied().filter(|n| *n != OTHER).collect();
            names.reverse();
            let mut by_name = names.clone();
            by_name.sort();
            names
                .into_iter()
                .map(|n| {
                    let key = match_key(n);
                    let place = (by_name.iter())
                        .filter(|m| match_key(m) == key)
                        .position(|m| *m == n)
                        .unwrap_or(0);
                    (n, (key, place))
                })
                .collect()
        })
        .collect();
    let mut colour_of: HashMap<ColourKey, [u8; 3]> = HashMap::new();
    for run in &keyed {
        for (_, key) in run {
            if colour_of.contains_key(key) {
                continue;
            }
            // Every colour handed out: two bands that do not match never share one, in
            // a run or across runs (the palette's later rounds are lighter and darker).
            let taken: HashSet<[u8; 3]> = colour_of.values().copied().collect();
            let colour = (0..4096)
                .map(|slot| palette.colour(slot))
                .find(|c| !taken.contains(c))
                .unwrap_or(OTHER_COLOUR);
            colour_of.insert(*key, colour);
        }
    }
    (keyed.iter())
        .map(|run| {
            (run.iter())
                .filter_map(|(name, key)| Some((name.to_vec(), *colour_of.get(key)?)))
                .collect()
        })
        .collect()
}

/// The shade of `name` under `--colour-by name`: OTHER takes the palette's last entry
/// (the 50 % grey of either palette), every other name one of the rest, by a hash.
pub(crate) fn shade_by_name(name: &[u8], opts: &LayoutOptions) -> f64 {
    let shades = hp2ps_palette(opts);
    // The 50 % grey: the colour shades' last entry, the greys' entry 8, the hundredths'
    // 50.
    let other = match shades.len() {
        n if n == COLOUR_PALETTE.len() => n - 1,
        n if n == SLOT_SHADES.len() => 50,
        _ => 8,
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

/// How each drawn band of a chart (name and hp2ps shade, bottom band first) is filled:
/// as [`fill_of`] says, but in a named palette no two bands of the chart share a colour.
/// A colour the caller fixed for a name ([`LayoutOptions::band_colours`]) is that name's;
/// unless `--colour-by name`, the screen palette hands out its colours from the top of
/// the stack down (the biggest bands get the first), and viridis, which is a map and not
/// a set of colours, is spread evenly over the bands; any other band takes its slot, or
/// the next slot whose colour no band below it has.
pub(crate) fn fills(bands: &[(&[u8], f64)], opts: &LayoutOptions) -> Vec<Fill> {
    let Some(palette) = opts.palette.filter(|_| !opts.pattern) else {
        return (bands.iter())
            .map(|&(name, shade)| fill_of(name, shade, opts))
            .collect();
    };
    let mut used: HashSet<[u8; 3]> = bands
        .iter()
        .filter_map(|(name, _)| opts.band_colours.get(*name).copied())
        .collect();
    let ranked = bands.iter().filter(|(name, _)| *name != OTHER).count();
    let mut rank = 0;
    (bands.iter())
        .map(|&(name, shade)| {
            if name == OTHER {
                return Fill::Rgb(OTHER_COLOUR);
            }
            if let Some(&fixed) = opts.band_colours.get(name) {
                return Fill::Rgb(fixed);
            }
            rank += 1;
            let colour = if palette == Palette::Viridis && !opts.colour_by_name {
                viridis(match ranked {
                    1 => 0.5,
                    n => (rank - 1) as f64 / (n - 1) as f64,
                })
            } else if palette == Palette::Screen && !opts.colour_by_name {
                let first = ranked - rank;
                (first..first + 4096)
                    .map(|s| palette.colour(s))
                    .find(|c| !used.contains(c))
                    .unwrap_or_else(|| palette.colour(first))
            } else {
                let first = slot(name, shade, name_slots(palette), opts);
                (first..first + 4096)
                    .map(|s| palette.colour(s))
                    .find(|c| !used.contains(c))
                    .unwrap_or_else(|| palette.colour(first))
            };
            used.insert(colour);
            Fill::Rgb(colour)
        })
        .collect()
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

    /// The fills of a chart of OTHER (at the bottom) and 19 bands, given the shades first
    /// come, first served (as [`crate::layout::shade::ShadeMap`] hands them out).
    fn twenty(palette: Palette, colour: bool) -> Vec<[u8; 3]> {
        let names: Vec<String> = (0..19).map(|i| format!("band{i}")).collect();
        let o = opts(colour, Some(palette), false);
        let slots = hp2ps_palette(&o);
        let mut bands: Vec<(&[u8], f64)> = vec![(OTHER, slots[0])];
        for (i, n) in names.iter().enumerate() {
            bands.push((n.as_bytes(), slots[(i + 1) % slots.len()]));
        }
        fills(&bands, &o).iter().map(Fill::srgb).collect()
    }

    /// The least CIEDE2000 difference of two of `colours`.
    fn least_difference(colours: &[[u8; 3]]) -> f32 {
        let mut least = f32::INFINITY;
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                least = least.min(super::super::palettes::difference(*a, *b));
            }
        }
        least
    }

    #[test]
    fn twenty_bands_are_told_apart_and_their_lines_stand_out_in_every_palette() {
        use super::super::palettes::{contrast, line_colour, DARK_BACKGROUND, LIGHT_BACKGROUND};
        // The stated minima (docs/formats.md), for OTHER and 19 bands, with -c or without:
        // the screen palette's fills and the lines the page draws of them on either
        // background (15.8 measured, 14.5 for the lines on white); the colour-blind
        // palettes' fills (7, 6 and 9 colours, then lighter and darker rounds: 6.6, 7.2 and
        // 6.7); viridis, a map along one path of hue and lightness, least (4.55).
        for (palette, least) in [
            (Palette::Screen, 14.0),
            (Palette::OkabeIto, 6.5),
            (Palette::TolBright, 7.0),
            (Palette::TolMuted, 6.5),
            (Palette::Viridis, 4.5),
        ] {
            for colour in [false, true] {
                let fills = twenty(palette, colour);
                assert_eq!(fills[0], OTHER_COLOUR);
                let d = least_difference(&fills);
                assert!(
                    d >= least,
                    "{} (-c {colour}): {d} < {least}",
                    palette.name()
                );
                for &c in &fills[1..] {
                    assert!(c != [0; 3] && c != [0xff; 3], "{}: {c:?}", palette.name());
                }
                for background in [LIGHT_BACKGROUND, DARK_BACKGROUND] {
                    let lines: Vec<[u8; 3]> =
                        fills.iter().map(|&c| line_colour(c, background)).collect();
                    for (&line, &fill) in lines.iter().zip(&fills) {
                        let ratio = contrast(line, background);
                        assert!(
                            ratio >= 3.0,
                            "{}: {fill:?} as {line:?}: {ratio}",
                            palette.name()
                        );
                    }
                    if palette == Palette::Screen {
                        let d = least_difference(&lines);
                        assert!(d >= least, "screen lines on {background:?}: {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_screen_palette_gives_the_biggest_bands_its_first_colours() {
        let o = opts(false, Some(Palette::Screen), false);
        let bands: Vec<(&[u8], f64)> = vec![(OTHER, 0.0), (b"small", 0.2), (b"big", 0.6)];
        let got = fills(&bands, &o);
        assert_eq!(got[2], Fill::Rgb(Palette::Screen.colour(0)), "the top band");
        assert_eq!(got[1], Fill::Rgb(Palette::Screen.colour(1)));
        assert_eq!(got[0], Fill::Rgb(OTHER_COLOUR));
    }

    #[test]
    fn matched_bands_share_a_colour_and_unmatched_ones_never_do() {
        assert_eq!(
            match_key(b"(302)countWords.step/count..."),
            b"countWords.step/count..."
        );
        assert_eq!(
            match_key(b"countWords.step/count... #2"),
            b"countWords.step/count..."
        );
        assert_eq!(match_key(b"a #b"), b"a #b");
        let one: Vec<&[u8]> = vec![
            b"OTHER",
            b"(310)countWords.step/count...",
            b"(302)countWords.step/count...",
            b"(306)lazySum/main/Main.CAF",
            b"(301)wordStream/main.m/main",
        ];
        let two: Vec<&[u8]> = vec![
            b"SYSTEM",
            b"countWords.step/count... #2",
            b"countWords.step/count... #1",
            b"lazySum/main/Main.CAF",
            b"main",
        ];
        let maps = shared_colours(&[one.clone(), two.clone()], Palette::Screen);
        let c = |run: usize, name: &[u8]| maps[run][name];
        assert_eq!(
            c(0, b"(306)lazySum/main/Main.CAF"),
            c(1, b"lazySum/main/Main.CAF")
        );
        assert_eq!(
            c(0, b"(302)countWords.step/count..."),
            c(1, b"countWords.step/count... #1")
        );
        assert_eq!(
            c(0, b"(310)countWords.step/count..."),
            c(1, b"countWords.step/count... #2")
        );
        for (run, names) in [one.clone(), two].iter().enumerate() {
            let colours: HashSet<[u8; 3]> = (names.iter())
                .filter(|n| **n != OTHER)
                .map(|n| c(run, n))
                .collect();
            assert_eq!(colours.len(), names.iter().filter(|n| **n != OTHER).count());
        }
        // SYSTEM and main match nothing in run 1: no colour of run 1 is theirs.
        for name in [&b"SYSTEM"[..], b"main"] {
            assert!(
                one.iter().all(|n| maps[0].get(*n) != Some(&c(1, name))),
                "{name:?}"
            );
        }
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
