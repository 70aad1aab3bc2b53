//! The live page (`--serve`): the interactive page of the run so far, whose script
//! also follows the run ([`assets/live.js`]): it listens to the server's events and puts
//! each new state of the run in the place of the old one, keeping the reader's view.
//! An update is what the page is made of: the run's section (its picture) and the page's
//! data, as the static page carries them ([`live_parts`]).

use std::io::{self, Write};

use super::{page, page_script, sections_and_data, title, HtmlOptions};
use crate::layout::chart::Chart;

/// The live page's script: the page's, then its update path.
const LIVE_SCRIPT: &str = page_script!(include_str!("assets/live.js"));
/// The live page's style: the page's, then its bar's.
const LIVE_STYLE: &str = concat!(
    include_str!("assets/page.css"),
    include_str!("assets/live.css")
);

/// The live page's only request: its own server's events (and the page saved).
const CONNECT: &str = "connect-src 'self'; ";

/// One chart as a live page's update: the run's section (its picture) and the page's
/// data (JSON) for it.
pub(crate) fn live_parts(chart: &Chart, opts: &HtmlOptions) -> io::Result<(String, String)> {
    sections_and_data(&[(chart, opts)])
}

/// Writes the live page: the run so far (its [`live_parts`]; none before its first
/// census), titled `title` (HTML text).
pub(crate) fn write_live_page<W: Write>(
    parts: Option<(&str, &str)>,
    title: &str,
    out: &mut W,
) -> io::Result<()> {
    let (sections, data) = parts.unwrap_or(("", "null"));
    let page = page(sections, data, title, LIVE_SCRIPT, LIVE_STYLE, CONNECT);
    out.write_all(page.as_bytes())
}

/// The page title of one chart (HTML text): its JOB, else the profile's name.
pub(crate) fn page_title(chart: &Chart, opts: &HtmlOptions) -> String {
    title(&[(chart, opts)])
}
