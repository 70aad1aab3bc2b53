//! The default of every option that is a number, in one place: the `Default` impls of the
//! option structs and the command line's `--help` text both read them, so they cannot
//! disagree. (An option that is a choice has its default in its enum: `#[default]`.)

/// The longest band name a reader keeps, in bytes: the `.hp` reader refuses a longer
/// identifier, the eventlog reader cuts a longer name (hp2ps itself splits at 4,999 bytes).
pub const MAX_NAME_LEN: usize = 64 * 1024;

/// `-t`: trace bands that together stay below this percentage of the total are dropped.
pub const TRACE_PERCENT: f64 = 1.0;

/// `-m`: at most this many bands are drawn; the rest merge into OTHER.
pub const BAND_LIMIT: i64 = 20;

/// A key of more entries than this goes on pages of its own (hp2ps's `-m` above 20 turns
/// multi-page on).
pub const KEYS_PER_PAGE: usize = 20;

/// `--top`: how many bands `--summary` lists.
pub const SUMMARY_TOP: usize = 10;

/// `--max-points` when it is not given, for SVG, PDF, EPS and the HTML page
/// ([`crate::needs::Needs::band_points`]), in band vertices (samples drawn × bands drawn): 2,000 samples of the 21
/// bands hp2ps draws at most by default, an SVG of about 1.3 MB. A chart of fewer bands
/// keeps more samples in the same size (7,000 of 6 bands). hp2ps's own PostScript keeps
/// every sample unless asked.
pub const VECTOR_MAX_BAND_POINTS: usize = 42_000;

/// The fewest samples the default limit keeps, however many bands are drawn (`-m0` may
/// draw hundreds): about four samples per point of a full-width graph.
pub const VECTOR_MAX_POINTS: usize = 2000;

/// The most band values (samples carried × bands carried, over the drawn samples and
/// every level of detail) an HTML page carries besides those it draws: about 4 MB of
/// JSON. The 400 MB profile's page (20 drawn bands, 2,100 drawn samples) carries one
/// level of 10 tiles of 2,100 samples. A page of several runs shares twice this.
pub const PAGE_VALUES: usize = 600_000;

/// The most bands an HTML page's table lists (about 1.5 MB of JSON): every band it draws
/// or carries the values of, then the biggest by area; the rest are summed in one row. A
/// page of several runs shares twice this among them.
pub const PAGE_TABLE_ROWS: usize = 5000;

/// A static flame graph's row: the height of a stack's frame, in points (its label is
/// [`FLAME_FONT`] high).
pub const FLAME_ROW: f64 = 13.0;

/// The size of a static flame graph's labels, in points.
pub const FLAME_FONT: f64 = 8.0;

/// A static flame graph leaves out the frames narrower than this, in points (and the
/// stacks under them): a third of a point is no mark on paper nor on a screen.
pub const FLAME_MIN_WIDTH: f64 = 0.3;

/// A static flame graph's tallest height, in points: PDF's largest page (200 inches).
/// The rows below it are left out, which its caption says.
pub const FLAME_MAX_HEIGHT: f64 = 14_400.0;

/// The most stacks an HTML page carries of one time profile (its flame graph, sandwich
/// and search read them): about 4 MB of JSON. A larger tree keeps its widest stacks (a
/// stack's caller is always kept) and merges the others into their caller's remainder,
/// which the page says.
pub const PAGE_STACKS: usize = 100_000;

/// The most bytes of JSON an HTML page gives one time profile's stacks: a tree whose
/// stacks take more (a `-P` report's five measures, each own and inherited) is thinned
/// further, so that the 100 MB report's page stays under 6 MB.
pub const PAGE_STACK_BYTES: usize = 4_500_000;

/// The most time samples an HTML page carries one by one (an eventlog's, for the time
/// profile of a window of the heap chart); more are counted by stack in as many bins of
/// time.
pub const PAGE_SAMPLES: usize = 100_000;

/// `--interval`: how often `--watch` looks at the file, in milliseconds.
pub const WATCH_INTERVAL_MS: u64 = 200;

/// Whether a band limit puts the key on pages of its own, as hp2ps's `-m` does above 20
/// (the one place this rule lives; the command line keeps it on for good once seen).
pub fn key_needs_own_pages(band_limit: i64) -> bool {
    band_limit > KEYS_PER_PAGE as i64
}
