//! [`LayoutOptions`]: the layout's choices, from the command line's flags.

use std::collections::BTreeMap;

use super::palettes::Palette;
use super::value_units::ValueUnits;

/// Layout choices, from the command-line flags. (`-m` and `-t` matter here too: the layout
/// reads them from [`crate::aggregate::Aggregated`], which was made with them.)
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct LayoutOptions {
    /// `-c`: colours instead of greys. Default: `false`.
    pub colour: bool,
    /// `-b`: the big title box (wins over `-s`). Default: `false`.
    pub big_title: bool,
    /// `-s`: the small title box even for a long JOB. Default: `false`.
    pub small_title: bool,
    /// `-g`: portrait, unrotated page. Default: `false`.
    pub portrait: bool,
    /// `-M`: the key on pages of its own. Default: `false`.
    pub multipage: bool,
    /// `-y` clears this: no marks. Default: `true`.
    pub marks: bool,
    /// `--key-labels fit`: key labels that would leave the page are shortened by eliding
    /// their middle. Default: `false` (as hp2ps: cut at the estimated width).
    pub fit_key_labels: bool,
    /// `--palette`: fill the bands with this palette's colours rather than hp2ps's
    /// shades (see `looks.rs`). Default: `None` (hp2ps's own palette).
    pub palette: Option<Palette>,
    /// `--colour-by name`: a band's colour (and shade) follows from its name alone, the
    /// same in every chart. Default: `false`.
    pub colour_by_name: bool,
    /// `--pattern`: fill the bands with print patterns over light greys (wins over the
    /// palette). Default: `false`.
    pub pattern: bool,
    /// `--units`: how the y tick labels write values. Default: [`ValueUnits::Hp2ps`].
    pub value_units: ValueUnits,
    /// Colours fixed by band name, which win over the palette's (the charts of several
    /// runs on one page give a band one colour in every run: `looks::shared_colours`).
    /// Only with a named palette. Default: none.
    pub band_colours: BTreeMap<Vec<u8>, [u8; 3]>,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            colour: false,
            big_title: false,
            small_title: false,
            portrait: false,
            multipage: false,
            marks: true,
            fit_key_labels: false,
            palette: None,
            colour_by_name: false,
            pattern: false,
            value_units: ValueUnits::Hp2ps,
            band_colours: BTreeMap::new(),
        }
    }
}
