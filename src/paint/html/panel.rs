//! A run's part of the page is made of panels: each a part of the run's section (its
//! HTML, at its place) and a part of the run's data (keys of the run's JSON object),
//! which the page's script draws from. A panel reads its own model: the heap profile's
//! panels (`heap_panels.rs`) read the [`crate::layout::chart::Chart`]; a time profile's
//! (a flame graph and a cost-centre table of `calltree::CallTree`, issue 30) will read
//! the call tree, and stand beside them with no change here or to the page around.
//!
//! Each panel is painted once: its HTML and its data are written when the page is
//! made, and the page ([`super::page::Page`]) keeps them, for a file, a live update and
//! the whole run's page alike.

use super::json::Json;

/// Where a panel stands in its run's section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// The chart's column: the chart and what is under it (its overview, its marks).
    Column,
    /// Beside the chart: the legend.
    Side,
    /// Under the chart and its legend, the page's whole width: tables, trees.
    Below,
}

/// A part of a run's page.
pub(crate) trait Panel {
    /// Where it stands.
    fn place(&self) -> Place;
    /// Its HTML: a picture, or the elements its script fills.
    fn html(&self, out: &mut String);
    /// Its keys of the run's data object (none for a panel drawn from others' data).
    fn data(&self, j: &mut Json);
    /// Whether its script is the time profile's (`flame.js`, `timeprofile.js`, …: see
    /// `template.rs`): a page without such a panel leaves those parts out.
    fn time_script(&self) -> bool {
        false
    }
}

/// The frame of a run's section, around its panels' places (HTML).
const FRAME: [&str; 4] = [
    "<section class=\"run\" data-run=\"",
    "\">\n<header class=\"run-head\"></header>\n\
     <div class=\"toolbar\" role=\"toolbar\" aria-label=\"Chart\"></div>\n\
     <div class=\"plot\">\n<div class=\"chart-col\">\n",
    "</div>\n",
    "</div>\n",
];

/// A run's section: the frame named `run` (HTML text), its panels at their places, in
/// their order.
pub(crate) fn section(run: &str, panels: &[Box<dyn Panel + '_>]) -> String {
    let mut out = String::new();
    let at = |place: Place, out: &mut String| {
        for p in panels.iter().filter(|p| p.place() == place) {
            p.html(out);
        }
    };
    out.push_str(FRAME[0]);
    out.push_str(run);
    out.push_str(FRAME[1]);
    at(Place::Column, &mut out);
    out.push_str(FRAME[2]);
    at(Place::Side, &mut out);
    out.push_str(FRAME[3]);
    at(Place::Below, &mut out);
    out.push_str("</section>\n");
    out
}

/// The panels' data, in their order, as keys of the run's object.
pub(crate) fn data(panels: &[Box<dyn Panel + '_>], j: &mut Json) {
    for p in panels {
        p.data(j);
    }
}
