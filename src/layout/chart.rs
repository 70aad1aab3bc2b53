//! The chart: everything to draw, placed in points, shared by every painter.
//!
//! Coordinates are hp2ps's graph coordinates: origin at the lower-left corner of the
//! 648 × 432 pt border box, y upwards. The numbers are computed exactly as hp2ps computes
//! them, so the PostScript painter can print them with `%f` and match byte for byte.

/// Width of the border box.
pub const BORDER_WIDTH: f64 = 648.0;
/// Height of the border box.
pub const BORDER_HEIGHT: f64 = 432.0;
/// Line width of every stroke.
pub const LINE_WIDTH: f64 = 0.5;
/// Font size of the axes and the key.
pub const SMALL_FONT: f64 = 10.0;
/// Font size of the title.
pub const TITLE_FONT: f64 = 12.0;
/// Side of a key box.
pub const KEY_BOX: f64 = 14.0;
/// Half the width (and the depth) of a mark caret.
pub const MARK_HALF_WIDTH: f64 = 4.0;
/// Length of an axis tick.
pub const TICK_LENGTH: f64 = 4.0;

/// A horizontal text alignment relative to the anchor point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Anchor {
    /// The text starts at the anchor.
    Start,
    /// The text is centred on the anchor.
    Middle,
    /// The text ends at the anchor.
    End,
}

/// The title box, drawn on every page.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Title {
    /// Two rows (JOB above, area and date below) instead of one.
    pub big: bool,
    /// Left edge of the box.
    pub x: f64,
    /// Bottom edge of the box.
    pub y: f64,
    /// Width of the box.
    pub width: f64,
    /// Height of the box.
    pub height: f64,
    /// JOB, already cut to what fits (35 or 80 bytes).
    pub job: Vec<u8>,
    /// Where the JOB starts, on its baseline.
    pub job_at: (f64, f64),
    /// `<area> <VALUE_UNIT> x <SAMPLE_UNIT>`: centred (small box) or left-aligned (big).
    pub area_text: Vec<u8>,
    /// The area text's anchor point, on its baseline.
    pub area_at: (f64, f64),
    /// How the area text is aligned at `area_at`.
    pub area_anchor: Anchor,
    /// DATE, right-aligned.
    pub date: Vec<u8>,
    /// Where the DATE ends, on its baseline.
    pub date_at: (f64, f64),
}

/// An axis tick with its label.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Tick {
    /// Position along the axis in page points (x for the x axis, y for the y axis).
    pub at: f64,
    /// The label's text.
    pub label: Vec<u8>,
}

/// The two axes of the graph.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Axes {
    /// x of the graph's origin (where the axes meet).
    pub x0: f64,
    /// y of the graph's origin.
    pub y0: f64,
    /// Length of the x axis (the graph width).
    pub width: f64,
    /// Length of the y axis (the graph height).
    pub height: f64,
    /// SAMPLE_UNIT, right-aligned to the end of the x axis, at baseline `x_legend_y`.
    pub x_legend: Vec<u8>,
    /// Baseline of the x legend and the x tick labels.
    pub x_legend_y: f64,
    /// x ticks: labels centred under the tick at baseline `x_legend_y`.
    pub x_ticks: Vec<Tick>,
    /// VALUE_UNIT, rotated to read upwards, ending at the top of the y axis, baseline at
    /// x = `y_label_x`.
    pub y_legend: Vec<u8>,
    /// y ticks: labels right-aligned to `y_label_x`, baseline on the tick.
    pub y_ticks: Vec<Tick>,
    /// Where the y tick labels end, and the baseline of the turned y legend.
    pub y_label_x: f64,
}

/// How a band and its key box are filled: decided once, in the layout, from the band's
/// hp2ps shade, `-c`, `--palette`, `--colour-by name` and `--pattern` (see
/// `src/layout/looks.rs`), so that every painter, the key and the HTML page's legend
/// fill a band the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Fill {
    /// hp2ps's grey (no `-c`): 0 is black, 1 white; written as hp2ps writes it
    /// (`setgray`), clamped to [0, 1] by painters that must.
    Grey(f64),
    /// hp2ps's colour shade (`-c`): red, green and blue packed as decimal digit pairs,
    /// turned into a colour as hp2ps does ([`Fill::srgb`]; components may exceed 1;
    /// painters clamp, as PostScript does).
    Shade(f64),
    /// An sRGB colour, 8 bits per channel (`--palette`, or OTHER's fixed colour in one).
    Rgb([u8; 3]),
    /// A print pattern (`--pattern`, which wins over colours).
    Pattern(crate::layout::patterns::Pattern),
}

impl Fill {
    /// The colour a viewer sees, in 8-bit sRGB: for a pattern, its background grey. NaN
    /// (only from a damaged `.aux`) is black.
    pub fn srgb(&self) -> [u8; 3] {
        match *self {
            Fill::Grey(g) => [channel(g); 3],
            Fill::Shade(s) => crate::layout::hp2ps_colours::rgb(s).map(channel),
            Fill::Rgb(rgb) => rgb,
            Fill::Pattern(p) => [channel(p.background); 3],
        }
    }
}

/// A colour component clamped to [0, 1] as PostScript clamps it, in 8 bits. NaN (only
/// possible from a damaged `.aux`) is black.
fn channel(c: f64) -> u8 {
    let c = if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) };
    (c * 255.0).round() as u8
}

/// One entry of the key: a filled box and the band's name.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct KeyEntry {
    /// Left edge of the box (its side is [`KEY_BOX`]).
    pub box_x: f64,
    /// Bottom edge of the box.
    pub box_y: f64,
    /// What the box is filled with (unused for a line's entry).
    pub fill: Fill,
    /// The band's name.
    pub label: Vec<u8>,
    /// Where the name starts, on its baseline: x.
    pub label_x: f64,
    /// Where the name starts, on its baseline: y.
    pub label_y: f64,
    /// The full name when `label` is shortened (`--key-labels fit`), for a tooltip.
    pub full_label: Option<Vec<u8>>,
    /// For the key entry of a [`SeriesLine`]: its style, drawn as a line sample across
    /// the box's middle instead of a filled box.
    pub line: Option<LineStyle>,
}

/// How a [`SeriesLine`] is stroked.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct LineStyle {
    /// Line width in points.
    pub width: f64,
    /// Stroke colour, red, green and blue from 0 to 1.
    pub rgb: [f64; 3],
    /// Dash pattern (on, off) in points; `None` for a solid line.
    pub dash: Option<(f64, f64)>,
}

impl LineStyle {
    /// The stroke colour in 8-bit sRGB.
    pub fn srgb(&self) -> [u8; 3] {
        self.rgb.map(channel)
    }
}

/// A line drawn over the bands (the heap size, live bytes), in page points.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SeriesLine {
    /// What it is, as the key shows it.
    pub name: Vec<u8>,
    /// A tooltip: the name and the line's peak.
    pub tooltip: Vec<u8>,
    /// How it is stroked.
    pub style: LineStyle,
    /// The vertices, clipped to the graph's x range.
    pub points: Vec<(f64, f64)>,
}

/// A drawn band's numbers over the drawn samples, which its tooltip states.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct BandStats {
    /// Its highest value in one drawn sample.
    pub peak: f64,
    /// The time of the first drawn sample with that value.
    pub peak_time: f64,
    /// Its area as a share of the drawn area (the title's), 0 to 1.
    pub share: f64,
}

/// One band: the area between the previous band's top (or the x axis) and its own top.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BandShape {
    /// The band's name.
    pub name: Vec<u8>,
    /// What the band is filled with.
    pub fill: Fill,
    /// The top edge, one y per sample time, in page points.
    pub top: Vec<f64>,
    /// A tooltip (SVG `<title>`): the name, its peak and when, its share of the area.
    pub tooltip: Vec<u8>,
    /// The numbers the tooltip states.
    pub stats: BandStats,
}

#[cfg(test)]
impl BandShape {
    /// A band for painters' tests: named `b`, with this top edge and fill.
    pub(crate) fn test_band(top: Vec<f64>, fill: Fill) -> BandShape {
        BandShape {
            name: b"b".to_vec(),
            fill,
            top,
            tooltip: Vec::new(),
            stats: BandStats::default(),
        }
    }
}

/// How the graph's points stand for data: time along x, values up y. What a painter
/// needs to turn a pointer into a sample and a value, or to redraw the graph for another
/// window of time or another view (the HTML page) by the layout's own rules:
///
/// * a sample at time `t` is at x = `((t - t0) / t_span) * width + x0`, and a stack of
///   height `v` reaches y = `v * (height / v_span) + y0` (summed band by band from y0);
/// * x ticks step by hp2ps's 1-2-5 `round_step(t_span / target_ticks)` from `t0`,
///   stopping before `t_end`, each at `x0 + (t - t0) * (width / t_span)` if that is less
///   than `x_tick_room` from `x0`, labelled with `x_label_decimals` decimals;
/// * y ticks step by `round_step(max(v_span / target_ticks, 1))` from 0 up to `v_span`,
///   each at `y0 + v * (height / v_span)` if less than `y_tick_room` above `y0`, labelled
///   in thousands (`k`) or millions (`M`) when the step is at least that, rounded.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct DataScale {
    /// x of the graph's origin.
    pub x0: f64,
    /// y of the graph's origin (the x axis).
    pub y0: f64,
    /// The graph's width in points.
    pub width: f64,
    /// The graph's height in points.
    pub height: f64,
    /// The time at `x0`: the first sample's.
    pub t0: f64,
    /// The time across the graph's width (at least 1 when the samples span none).
    pub t_span: f64,
    /// The value at the top of the graph.
    pub v_span: f64,
    /// Where the x ticks stop: the last sample, or the end of a range shared with other
    /// charts (`--uniform-scale`).
    pub t_end: f64,
    /// How far right of `x0` an x tick may be: the x legend takes the rest.
    pub x_tick_room: f64,
    /// How far above `y0` a y tick may be: the y legend takes the rest.
    pub y_tick_room: f64,
    /// How many steps the ticks aim at along an axis.
    pub target_ticks: f64,
    /// The decimals of the x tick labels ([`crate::needs::XLabels`]).
    pub x_label_decimals: usize,
    /// How the y tick labels write values ([`crate::layout::ValueUnits`]).
    pub value_units: crate::layout::ValueUnits,
}

/// The stacked bands and marks of the graph.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Graph {
    /// x of every sample, in page points.
    pub xs: Vec<f64>,
    /// y of the x axis, where the bottom band starts.
    pub y0: f64,
    /// The bands, bottom band first.
    pub bands: Vec<BandShape>,
    /// x of every mark, in page points (drawn as a caret on the x axis).
    pub marks: Vec<f64>,
    /// The text of every mark, in the order of `marks`, when any has one; else empty.
    /// An empty text means no tooltip.
    pub mark_texts: Vec<Vec<u8>>,
    /// Lines drawn over the bands (before the marks), first series first.
    pub lines: Vec<SeriesLine>,
    /// How the graph's points stand for times and values.
    pub scale: DataScale,
    /// When the bands' points are in a spill file (`-c` of a long `.hp` as PostScript):
    /// where each band's are; the bands' `top`s are then empty, and the painter works
    /// each out as it draws it.
    pub(crate) spilled: Option<SpilledBands>,
}

/// Where the points of a graph's bands are when they are in a spill file
/// ([`Graph::spilled`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SpilledBands {
    /// The spill.
    pub(crate) spill: crate::profile::spill::SpillHandle,
    /// Each band's number in it, bottom band first (`None`: no points).
    pub(crate) bands: Vec<Option<u32>>,
    /// Page points per value unit, as the layout scales a band's values.
    pub(crate) scale: f64,
}

impl Graph {
    /// The bottom edge of band `i`: the top of the band below it, or the x axis.
    pub fn bottom_of(&self, i: usize) -> Bottom<'_> {
        match i.checked_sub(1) {
            Some(b) => Bottom::Band(&self.bands[b].top),
            None => Bottom::Axis(self.y0),
        }
    }
}

/// The bottom edge of a band: the x axis, or the top of the band below.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Bottom<'a> {
    /// The x axis, at this y.
    Axis(f64),
    /// The top of the band below, one y per sample.
    Band(&'a [f64]),
}

impl Bottom<'_> {
    /// The bottom's y at sample `i`.
    pub fn at(&self, i: usize) -> f64 {
        match self {
            Bottom::Axis(y) => *y,
            Bottom::Band(top) => top[i],
        }
    }
}

/// One page: the border and title always, then what the page holds, painted in this
/// order: axes, key, bands, lines, marks.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Page {
    /// The axes, on the page with the graph.
    pub axes: Option<Axes>,
    /// The key entries on this page (none without a key).
    pub key: Vec<KeyEntry>,
    /// The graph, on one page only.
    pub graph: Option<Graph>,
}

/// A chart: everything to draw, placed in points, shared by every painter (see
/// [`crate::prepare`]); [`Chart::write`] paints it. What a library user
/// reads of it are its getters (its header, pages and drawn bands: `view.rs`); its
/// parts are the painters', and may change.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Chart {
    /// The page is portrait, the chart unrotated (`-g`); otherwise the chart is turned
    /// to landscape. Only PostScript pages have an orientation: the other formats and
    /// EPS are pictures the size of the chart.
    #[doc(hidden)]
    pub portrait: bool,
    /// The full JOB, for document metadata.
    #[doc(hidden)]
    pub job: Vec<u8>,
    /// The full DATE, for document metadata.
    #[doc(hidden)]
    pub date: Vec<u8>,
    /// The title box, the same on every page.
    #[doc(hidden)]
    pub title: Title,
    /// The pages, in order.
    #[doc(hidden)]
    pub pages: Vec<Page>,
    /// The numbers behind the picture, when the format needs them
    /// ([`crate::needs::Needs::data`]).
    #[doc(hidden)]
    pub data: Option<Box<ChartData>>,
}

/// The numbers behind a chart's picture, for a painter that shows them or redraws the
/// graph from them (the HTML page): the drawn samples in data units, and every band of
/// the profile with its numbers.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ChartData {
    /// The profile's SAMPLE_UNIT.
    pub sample_unit: Vec<u8>,
    /// The profile's VALUE_UNIT.
    pub value_unit: Vec<u8>,
    /// How many samples the profile has (more than `times` when some were not drawn).
    pub samples: usize,
    /// The time of every drawn sample (where the graph's `xs` are).
    pub times: Vec<f64>,
    /// Each drawn band's value at every drawn sample, in the order of the graph's bands.
    pub values: Vec<Vec<f64>>,
    /// Each drawn band's row in `table`; `None` for OTHER.
    pub rows: Vec<Option<usize>>,
    /// Every band of the profile, drawn or not, with its numbers over every sample
    /// (aggregation's band table, [`crate::profile::BandNumbers`]); at most
    /// [`crate::needs::Needs::table_rows`] of them, the others in `left_out`.
    pub table: Vec<crate::profile::BandNumbers>,
    /// The bands the table leaves out, together; `None` when it lists every band.
    pub left_out: Option<LeftOut>,
    /// The time of every mark drawn (as the graph's `marks`).
    pub marks: Vec<f64>,
    /// The lines over the bands, in data units, as the graph's `lines`.
    pub lines: Vec<crate::profile::Series>,
    /// What is known of each row's band besides its values, as lines of text (for a
    /// `-hi` band, its IPE entry and symbol: [`crate::profile::BandInfo::detail_lines`]):
    /// empty when no band has any, else one list per row of `table`.
    pub info: Vec<Vec<String>>,
    /// Names too long for a key are to lose their middle rather than their end
    /// (`--key-labels fit`, [`crate::layout::LayoutOptions::fit_key_labels`]).
    pub fit_key_labels: bool,
    /// The rows of `table` whose bands are not drawn on their own (traces, and those
    /// merged into OTHER) when the chart carries their values (see
    /// `src/aggregate/page.rs`); else empty.
    pub rest_rows: Vec<usize>,
    /// Each of those bands' value at every drawn sample (or at `rest_samples`), in the
    /// order of `rest_rows`.
    pub rest: Vec<Vec<f64>>,
    /// When the budget of the page's values thinned `rest`: the places among the drawn
    /// samples it is given at (see `src/aggregate/page.rs`); else `None` (every one).
    pub rest_samples: Option<Vec<usize>>,
    /// Every band's total (traces and OTHER's bands included: `--summary`'s) at every
    /// drawn sample; its highest is the profile's peak (that sample is always drawn).
    pub totals: Vec<f64>,
    /// Colours no drawn band has, in the order the chart's palette would hand them out,
    /// for the bands a reader adds to the chart (the HTML page's table draws a band of
    /// OTHER or a trace on its own).
    pub spare_colours: Vec<[u8; 3]>,
    /// Finer levels of detail for a window of the run (see
    /// `src/aggregate/page.rs`): level by level (10 tiles, 100, …), tile by
    /// tile, the samples a chart of that tile alone would draw; empty when every sample
    /// is drawn.
    pub detail: Vec<DetailLevel>,
    /// With [`crate::needs::Needs::every_band`] (a format that exports each band's
    /// numbers): every band of the profile with its own points, which index `times`
    /// (every sample is drawn then), the bands drawn on their own first (OTHER, made of
    /// the others, is none of them); else empty.
    pub every_band: Vec<crate::profile::Band>,
    /// With [`crate::needs::Needs::every_band`]: what is known of the bands besides their
    /// values, by name (a `-hi` band's IPE entry and symbol); else empty.
    pub band_info: std::collections::BTreeMap<Vec<u8>, crate::profile::BandInfo>,
}

/// The bands a chart's table leaves out ([`ChartData::left_out`]), together.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LeftOut {
    /// How many.
    pub bands: usize,
    /// Their areas added.
    pub area: f64,
    /// Their shares of the area added, 0 to 1.
    pub share: f64,
    /// The highest of their peaks.
    pub peak: f64,
}

/// One level of detail ([`ChartData::detail`]).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct DetailLevel {
    /// Its tiles, in time order.
    pub tiles: Vec<DetailTile>,
    /// Whether its tiles hold every sample.
    pub whole: bool,
    /// Whether its tiles hold the values of `rest_rows`' bands too.
    pub rest: bool,
}

/// The samples of one stretch of the run at one level of detail ([`ChartData::detail`]).
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct DetailTile {
    /// Their times.
    pub times: Vec<f64>,
    /// Each drawn band's values at them, then those of `rest_rows`' bands (when its
    /// level carries them).
    pub values: Vec<Vec<f64>>,
    /// Every band's total at them (as [`ChartData::totals`]).
    pub totals: Vec<f64>,
}
