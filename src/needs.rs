//! What an output format needs of the stages before its painter: [`Needs`]. Each format
//! states its needs in one place, beside the format (`Format::needs` in
//! `src/paint/format.rs`); the command line reads them, and aggregation and layout receive
//! them as data. No stage asks which format it works for, so a new format is its painter
//! and a line of needs.

/// What a format needs of aggregation and layout. `Default` is what hp2ps's PostScript
/// needs: nothing beyond hp2ps's chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Needs {
    /// The chart carries the numbers behind its picture (the layout's `ChartData`: the
    /// drawn values, and the levels of detail of a zoomed window), for a painter that
    /// shows them or redraws the graph from them. Default: `false`.
    pub data: bool,
    /// Every band's own numbers, drawn or not (a band table), in the chart's data.
    /// Default: `false`.
    pub band_table: bool,
    /// The bands that are not drawn on their own (traces, and those merged into OTHER)
    /// are kept with their values, for a chart whose data may carry them. Default:
    /// `false`.
    pub rest: bool,
    /// The key goes on pages of its own, leaving the graph the page's whole width (as
    /// `-M` does): for a format whose legend is not part of the picture. Default:
    /// `false`.
    pub key_pages: bool,
    /// How the x tick labels are written. Default: [`XLabels::Hp2ps`].
    pub x_labels: XLabels,
    /// Unless `--max-points` says otherwise, draw at most this many band vertices
    /// (samples drawn × bands drawn), but never fewer than
    /// [`crate::defaults::VECTOR_MAX_POINTS`] samples; 0 draws every sample, as hp2ps
    /// does. Default: 0.
    pub band_points: usize,
    /// For a chart that carries its data: the most band values it carries besides those
    /// it draws (its levels of detail, and the bands not drawn on their own); 0 carries
    /// none. Default: 0.
    pub page_values: usize,
    /// The most bands the chart's band table lists: every band drawn or whose values the
    /// chart carries, then the biggest by area; the others are summed in one row of the
    /// chart's data (`ChartData::left_out`). 0 lists every band. Default: 0.
    pub table_rows: usize,
    /// The format is read on a screen: unless asked, its bands take the palette made for
    /// screens (`--palette screen`) and its values binary units (`--units binary`).
    /// Default: `false`.
    pub screen: bool,
    /// The lines over the bands (`--heap-size`: heap size, live bytes, blocks size) are
    /// drawn apart, on a scale of their own (the page's panel under the bands): the
    /// bands' scale leaves them out, and the chart's value range is every band's total
    /// at its highest, traces included (the profile's peak, as `--summary` says it).
    /// Default: `false` (hp2ps's: the drawn stack's highest, or a line's above it).
    pub lines_apart: bool,
    /// The chart carries every band of the profile with its own points, drawn or not
    /// (`ChartData::every_band`), and every sample: for a format that exports each
    /// band's numbers (Prometheus's metrics, a pprof profile) rather than draws them.
    /// Default: `false`.
    pub every_band: bool,
    /// The format reports the runtime's heap size, live bytes and blocks size where the
    /// log has them, as `--heap-size` loads them: the command loads them for it.
    /// Default: `false`.
    pub heap_lines: bool,
}

impl Needs {
    /// What each of `runs` runs on one page needs: up to two, what a page of its own
    /// does; beyond, two pages' worth shared (each run's values and table rows a share,
    /// at least 20,000 values and 200 rows).
    pub fn shared_by(self, runs: usize) -> Needs {
        if runs <= 2 {
            return self;
        }
        let share = |whole: usize, least: usize| match whole {
            0 => 0,
            whole => (2 * whole / runs).max(least),
        };
        Needs {
            page_values: share(self.page_values, FEWEST_VALUES),
            table_rows: share(self.table_rows, FEWEST_ROWS),
            ..self
        }
    }
}

/// The fewest band values a run of a page of many runs carries for zooming.
pub(crate) const FEWEST_VALUES: usize = 20_000;
/// The fewest table rows a run of a page of many runs lists.
pub(crate) const FEWEST_ROWS: usize = 200;

/// How the x tick labels are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum XLabels {
    /// One decimal, as hp2ps (its PostScript stays byte-identical), though a run shorter
    /// than a second then repeats labels ("0.0 0.0 0.1").
    #[default]
    Hp2ps,
    /// As many decimals as the tick step needs to tell neighbouring ticks apart (step
    /// 0.05: "0.00 0.05"; step 20: "0 20"), none for a whole step.
    ByStep,
}
