//! The page's files (`assets/`, built in with `include_str!`) and how they are put
//! together: the page around its runs' sections and data, with the script and style as
//! the page carries them (without comments and needless spaces: `minify.rs`) and the
//! Content-Security-Policy that names them by hash (`digest.rs`).

use super::{digest, minify};

/// The page around the runs, with `{{name}}` holes.
pub(crate) const TEMPLATE: &str = include_str!("assets/page.html");
/// The page's style, as written.
pub(crate) const STYLE: &str = concat!(
    include_str!("assets/page.css"),
    include_str!("assets/flame.css")
);
/// The style of a page of heap profiles only: without the time profile's.
pub(crate) const HEAP_STYLE: &str = include_str!("assets/page.css");

/// The page's script as written: its parts one after the other (see `assets/base.js`),
/// then `$more` (the live page's update path).
macro_rules! page_script {
    ($($more:expr),*) => {
        heap_script!(
            [
                include_str!("assets/flame.js"),
                include_str!("assets/timeprofile.js"),
                include_str!("assets/costcentres.js"),
                include_str!("assets/sandwich.js"),
                include_str!("assets/timelink.js"),
                include_str!("assets/timeshare.js"),
                include_str!("assets/timediff.js")
            ]
            [$($more),*]
        )
    };
}

/// The heap chart's script: the page's without the time profile's parts, which stand
/// in `$time`, then `$more`. (`timelink.js` is among the time profile's: it wraps a heap
/// run's methods to tell a time panel, and needs `timeprofile.js` loaded.)
macro_rules! heap_script {
    ([$($time:expr),*] [$($more:expr),*]) => {
        concat!(
            include_str!("assets/base.js"),
            include_str!("assets/run.js"),
            include_str!("assets/detail.js"),
            include_str!("assets/draw.js"),
            include_str!("assets/heap.js"),
            include_str!("assets/pointer.js"),
            include_str!("assets/controls.js"),
            include_str!("assets/legend.js"),
            include_str!("assets/marks.js"),
            include_str!("assets/overview.js"),
            include_str!("assets/table.js"),
            include_str!("assets/icicle.js"),
            include_str!("assets/compare.js"),
            include_str!("assets/share.js"),
            $($time,)*
            include_str!("assets/access.js"),
            include_str!("assets/start.js"),
            $($more),*
        )
    };
}

/// The page's script, as written.
pub(crate) const SCRIPT: &str = page_script!();
/// The script of a page of heap profiles only (`Page::time` false): the time profile's
/// parts left out.
pub(crate) const HEAP_SCRIPT: &str = heap_script!([] []);
/// The live page's script (`--serve`): the page's, then its update path, which listens
/// to the server's events and puts each new state of the run in the place of the old
/// one, keeping the reader's view.
#[cfg(feature = "cli")]
pub(crate) const LIVE_SCRIPT: &str = page_script!(include_str!("assets/live.js"));
/// The live page's style: the page's, then its bar's.
#[cfg(feature = "cli")]
pub(crate) const LIVE_STYLE: &str = concat!(
    include_str!("assets/page.css"),
    include_str!("assets/flame.css"),
    include_str!("assets/live.css")
);
/// The live page's only request: its own server's events (and the page saved).
#[cfg(feature = "cli")]
pub(crate) const LIVE_CONNECT: &str = "connect-src 'self'; ";

/// The page around `sections` and their `data`, titled `title` (HTML text), with
/// `script` and `style` (as written) and the Content-Security-Policy's `extra` sources.
pub(crate) fn page(
    sections: &str,
    data: &str,
    title: &str,
    script: &str,
    style: &str,
    extra: &str,
) -> String {
    let (script, style) = (minify::script(script), minify::style(style));
    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; {extra}\
         base-uri 'none'; form-action 'none'",
        digest::csp_hash(&script),
        digest::csp_hash(&style)
    );
    fill(
        TEMPLATE,
        &[
            ("csp", &csp),
            ("title", title),
            ("style", &style),
            ("runs", sections),
            ("data", data),
            ("script", &script),
        ],
    )
}

/// `template` with every `{{name}}` replaced by its value; a hole without a value stays
/// as it is (the assets' tests catch one).
pub(crate) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let size = values.iter().map(|(_, v)| v.len()).sum::<usize>() + template.len();
    let mut out = String::with_capacity(size);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let hole = after.find("}}").map(|end| &after[..end]);
        match hole.and_then(|name| values.iter().find(|(n, _)| *n == name)) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &after[name.len() + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
