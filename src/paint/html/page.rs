//! The page builder: every HTML page hp2ps writes is made here, once, from its runs
//! ([`RunPage`]): a file's page (`--format html`), the page of several runs compared,
//! the live page of `--serve` and its updates, and the whole run's page at its end. A
//! run is its head (its name, the facts its input told, what its page left out, its
//! JOB, DATE and units: worked out here, once) and its panels (`panel.rs`), each
//! painted once; the [`Page`] keeps what they made (the sections, the data, the notes),
//! and writes it as a file's page or as the live page, or hands it on as a live update.

use std::io::{self, Write};

use super::heap_panels::{heap_panels, HeapParts};
use super::json::Json;
use super::panel::{self, Panel};
use super::picture::{graph_page, picture_of};
use super::template::{page, HEAP_SCRIPT, HEAP_STYLE, SCRIPT, STYLE};
#[cfg(feature = "cli")]
use super::template::{LIVE_CONNECT, LIVE_SCRIPT, LIVE_STYLE};
use super::time_panel::{TimePanel, TimeParts};
use crate::layout::chart::{Chart, LeftOut};
use crate::paint::svg::{escape, helvetica_advance, FONT_FAMILY};
use crate::profile::ProfileFacts;

/// What a run's head says: its name, its facts, what its page left out, its header.
pub(crate) struct Head<'a> {
    /// The input's name as given (a path: the page keeps its file name only).
    pub(crate) source: Option<&'a str>,
    pub(crate) facts: &'a ProfileFacts,
    /// What the page left out, a line each.
    pub(crate) notes: Vec<String>,
    /// The band table's rows summed into one, when it has a limit.
    pub(crate) table_left_out: Option<LeftOut>,
    pub(crate) job: &'a [u8],
    pub(crate) date: &'a [u8],
    pub(crate) sample_unit: &'a [u8],
    pub(crate) value_unit: &'a [u8],
    /// The samples of the whole profile (not only those drawn).
    pub(crate) samples: usize,
}

/// One run of a page, painted.
pub(crate) struct RunPage {
    /// Its file name (the page's title names its runs by it), HTML text unescaped.
    file: Option<String>,
    /// Its JOB (a page of one run is titled by it).
    job: Vec<u8>,
    /// Its part of the page (HTML).
    section: String,
    /// Its data (a JSON object, escaped for the page), when its panels carry data.
    data: Option<String>,
    /// What its page left out, a line each.
    notes: Vec<String>,
    /// Whether a panel of it is drawn by the time profile's script.
    time: bool,
}

impl RunPage {
    /// A run of `panels` under `head` (`data`: whether the panels carry the data the
    /// page's script draws from; else the page shows their pictures alone).
    pub(crate) fn of(head: Head<'_>, panels: &[Box<dyn Panel + '_>], data: bool) -> RunPage {
        let file = head.source.map(file_name);
        let section = panel::section(&escape(file.unwrap_or("").as_bytes()), panels);
        let data = data.then(|| {
            let mut j = Json::new();
            j.object(|j| {
                write_head(j, &head, file);
                panel::data(panels, j);
            });
            j.into_script_text()
        });
        RunPage {
            file: file.map(str::to_string),
            job: head.job.to_vec(),
            section,
            data,
            notes: head.notes,
            time: panels.iter().any(|p| p.time_script()),
        }
    }

    /// A heap profile's run: `chart` (laid out with `Format::Html`'s needs) of the input
    /// named `source`, whose input told `facts`, one of `runs` runs of its page.
    pub(crate) fn heap(
        chart: &Chart,
        source: Option<&str>,
        facts: &ProfileFacts,
        runs: usize,
    ) -> io::Result<RunPage> {
        RunPage::heap_with(chart, source, facts, runs, Vec::new())
    }

    /// [`RunPage::heap`] with `more` panels of the same run (its time profile's) under
    /// its chart, before its band table.
    pub(crate) fn heap_with<'a>(
        chart: &'a Chart,
        source: Option<&'a str>,
        facts: &'a ProfileFacts,
        runs: usize,
        more: Vec<Box<dyn Panel + 'a>>,
    ) -> io::Result<RunPage> {
        RunPage::heap_noted(chart, source, facts, runs, more, Vec::new())
    }

    /// [`RunPage::heap_with`] whose notes begin with `first` (the whole run's page of
    /// `--serve`: where the run's record stopped).
    pub(crate) fn heap_noted<'a>(
        chart: &'a Chart,
        source: Option<&'a str>,
        facts: &'a ProfileFacts,
        runs: usize,
        more: Vec<Box<dyn Panel + 'a>>,
        first: Vec<String>,
    ) -> io::Result<RunPage> {
        let svg = picture_of(chart)?;
        let page = chart.pages.get(graph_page(chart));
        let graph = page.and_then(|p| p.graph.as_ref());
        let (data, axes) = (chart.data.as_deref(), page.and_then(|p| p.axes.as_ref()));
        let mut notes = first;
        notes.extend(super::notes::left_out(chart, runs));
        let Some((graph, data)) = graph.zip(data) else {
            // The picture alone.
            let head = Head {
                source,
                facts,
                notes,
                table_left_out: None,
                job: &chart.job,
                date: &chart.date,
                sample_unit: b"",
                value_unit: b"",
                samples: 0,
            };
            let panels = heap_panels(None, &svg);
            return Ok(RunPage::of(head, &panels, false));
        };
        let parts = HeapParts {
            chart,
            graph,
            axes,
            data,
        };
        let head = Head {
            source,
            facts,
            notes,
            table_left_out: data.left_out,
            job: &chart.job,
            date: &chart.date,
            sample_unit: &data.sample_unit,
            value_unit: &data.value_unit,
            samples: data.samples,
        };
        let mut panels = heap_panels(Some(parts), &svg);
        let table = panels.len().saturating_sub(1);
        panels.splice(table..table, more);
        Ok(RunPage::of(head, &panels, true))
    }

    /// A time profile's run alone (a `.prof`, `-pj` or an eventlog's time samples):
    /// its panel, under a head of its command line and date.
    pub(crate) fn time(parts: TimeParts<'_>) -> RunPage {
        let header = parts.tree.header();
        let facts = ProfileFacts::default();
        let head = Head {
            source: parts.file,
            facts: &facts,
            notes: super::time_panel::left_out(&parts),
            table_left_out: None,
            job: header.command_line.as_deref().unwrap_or("").as_bytes(),
            date: header.date.as_deref().unwrap_or("").as_bytes(),
            sample_unit: b"",
            value_unit: b"",
            samples: 0,
        };
        let panels: Vec<Box<dyn Panel + '_>> = vec![Box::new(TimePanel { parts })];
        RunPage::of(head, &panels, true)
    }
}

/// A page, made once from its runs: what a file's page, the live page and a live update
/// are written from.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Page {
    /// The page's title (HTML text).
    pub(crate) title: String,
    /// The runs' sections (HTML).
    pub(crate) sections: String,
    /// The page's data (JSON, escaped for the page): `null` unless every run carries
    /// its data.
    pub(crate) data: String,
    /// What each run's page left out, a line each.
    pub(crate) notes: Vec<Vec<String>>,
    /// Whether it carries the time profile's script and style (a run of it has a time
    /// profile); a page of heap profiles only is the smaller without them.
    #[serde(default)]
    pub(crate) time: bool,
}

impl Page {
    /// The page of `runs`.
    pub(crate) fn of(runs: &[RunPage]) -> Page {
        let every = !runs.is_empty() && runs.iter().all(|r| r.data.is_some());
        let data = match every {
            true => document(runs.iter().filter_map(|r| r.data.as_deref())),
            false => String::from("null"),
        };
        Page {
            title: title(runs),
            sections: runs.iter().map(|r| r.section.as_str()).collect(),
            data,
            notes: runs.iter().map(|r| r.notes.clone()).collect(),
            time: runs.iter().any(|r| r.time),
        }
    }

    /// Writes it as a page of its own (`--format html`).
    pub(crate) fn write<W: Write>(&self, out: &mut W) -> io::Result<()> {
        let (script, style) = match self.time {
            true => (SCRIPT, STYLE),
            false => (HEAP_SCRIPT, HEAP_STYLE),
        };
        let page = page(&self.sections, &self.data, &self.title, script, style, "");
        out.write_all(page.as_bytes())
    }

    #[cfg(feature = "cli")]
    /// Writes the live page (`--serve`): `page`, the run so far (`None` before its first
    /// census: the page waits for it, titled by `name`, the input's name).
    pub(crate) fn write_live<W: Write>(
        page: Option<&Page>,
        name: &str,
        out: &mut W,
    ) -> io::Result<()> {
        let (sections, data, title) = match page {
            Some(p) => (p.sections.as_str(), p.data.as_str(), p.title.clone()),
            None => ("", "null", escape(name.as_bytes())),
        };
        let html = self::page(
            sections,
            data,
            &title,
            LIVE_SCRIPT,
            LIVE_STYLE,
            LIVE_CONNECT,
        );
        out.write_all(html.as_bytes())
    }
}

/// The last part of a path as the command line gave it (after any `/`, or `\\` as
/// Windows writes them): what the page holds of it.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The page's title: the JOB of one run (else its file), or the files of several.
fn title(runs: &[RunPage]) -> String {
    if let [run] = runs {
        let file = run.file.as_deref().unwrap_or("");
        return match (run.job.is_empty(), file) {
            (false, _) => escape(&run.job),
            (true, "") => String::from("hp2ps"),
            (true, file) => escape(file.as_bytes()),
        };
    }
    let files: Vec<&str> = (runs.iter())
        .map(|r| r.file.as_deref().unwrap_or("stdin"))
        .collect();
    escape(files.join(" · ").as_bytes())
}

/// The document: `{"format":"hp2ps-page","version":1,"font":…,"runs":[…]}`, with the
/// runs' objects as they were written.
fn document<'a>(runs: impl Iterator<Item = &'a str>) -> String {
    let mut j = Json::new();
    j.object(|j| {
        j.key("format");
        j.string("hp2ps-page");
        j.key("version");
        j.number(1.0);
        j.key("font");
        font(j);
        j.key("runs");
    });
    let mut text = j.into_script_text();
    // The object's closing brace: the runs go before it.
    text.pop();
    text.push('[');
    for (i, run) in runs.enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(run);
    }
    text.push_str("]}");
    text
}

/// What the script needs to place tick labels glyph by glyph as the SVG does: the SVG's
/// font family and the Helvetica advance (1/1000 em) of every printable ASCII character.
fn font(j: &mut Json) {
    const FIRST: u8 = b' ';
    j.object(|j| {
        j.key("family");
        j.string(FONT_FAMILY);
        j.key("firstCode");
        j.number(f64::from(FIRST));
        j.key("widths");
        let widths = (FIRST..=b'~').map(|b| helvetica_advance(char::from(b)).unwrap_or(0));
        j.numbers(widths.map(f64::from));
    });
}

/// The run's head: its name, facts, notes, what its table left out, JOB, DATE, units
/// and samples.
fn write_head(j: &mut Json, h: &Head<'_>, file: Option<&str>) {
    j.key("file");
    optional(j, file);
    j.key("facts");
    j.object(|j| {
        let f = h.facts;
        j.key("breakdown");
        optional(j, f.breakdown.as_deref());
        j.key("interval");
        j.number(f.interval.unwrap_or(f64::NAN));
        j.key("runtime");
        optional(j, f.runtime.as_deref());
        j.key("warnings");
        j.list(&f.warnings, |j, w| j.string(w));
    });
    j.key("notes");
    j.list(&h.notes, |j, n| j.string(n));
    j.key("tableLeftOut");
    match h.table_left_out {
        Some(left) => j.object(|j| {
            for (key, v) in [
                ("bands", left.bands as f64),
                ("area", left.area),
                ("share", left.share),
                ("peak", left.peak),
            ] {
                j.key(key);
                j.number(v);
            }
        }),
        None => j.raw("null"),
    }
    j.key("job");
    j.bytes(h.job);
    j.key("date");
    j.bytes(h.date);
    j.key("sampleUnit");
    j.bytes(h.sample_unit);
    j.key("valueUnit");
    j.bytes(h.value_unit);
    j.key("samples");
    j.number(h.samples as f64);
}

/// A string, or `null`.
fn optional(j: &mut Json, s: Option<&str>) {
    match s {
        Some(s) => j.string(s),
        None => j.raw("null"),
    }
}
