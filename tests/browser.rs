//! A real browser draws our SVG as rsvg-convert does: headless Chromium takes a
//! screenshot of the SVG file opened directly, and it must match rsvg-convert's rendering
//! at the same pixel size under the comparison of `support::raster`.
//!
//! Needs `chromium` (Debian: `apt-get install chromium`) and `rsvg-convert`
//! (`librsvg2-bin`). Without them the test is skipped loudly, or fails when `CI=true`.

mod support;

use support::raster;
use support::tools::{find_tool, require};
use support::{Cmd, TempDir};

use std::path::PathBuf;
use std::time::Duration;

use hp2ps::internals::chart::Chart;
use hp2ps::internals::paint::{write_svg, SvgOptions};
use hp2ps::{prepare, RenderOptions};

/// CSS pixels per inch: a standalone SVG of 648 × 432 pt is 864 × 576 CSS pixels, which
/// rsvg-convert gives at 96 dpi.
const CSS_DPI: u32 = 96;

/// A cold Chromium start on a loaded machine takes seconds; this only stops a hang.
const CHROMIUM_TIMEOUT: Duration = Duration::from_secs(120);

fn chart_of(input: &str, multipage: bool) -> Chart {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden/inputs")
        .join(input);
    let hp = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (profile, _) = support::read_profile(&hp[..]).expect("profile reads");
    let mut opts = RenderOptions::default();
    opts.layout.colour = true;
    opts.layout.multipage = multipage;
    prepare(profile, None, &opts).0
}

/// The browser's executable: Debian calls it `chromium`, some distributions
/// `chromium-browser`; GitHub's Ubuntu runners come with Google Chrome.
fn chromium() -> Option<&'static str> {
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .into_iter()
    .find(|name| find_tool(name).is_some())
}

/// Screenshots `svg` opened directly as a file, in a window of its CSS size.
fn screenshot(
    svg: &[u8],
    browser: &str,
    (width, height): (u32, u32),
) -> Result<raster::Image, String> {
    let dir = TempDir::in_tmp("chromium");
    let page = dir.write("chart.svg", svg);
    let shot = dir.path().join("shot.png");
    let profile = dir.path().join("profile");
    let cmd = Cmd::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        // Keep the browser's caches and settings out of the real home directory.
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("XDG_CACHE_HOME", dir.path().join("cache"));
    raster::run(cmd, dir.path(), CHROMIUM_TIMEOUT)?;
    let bytes = std::fs::read(&shot).map_err(|e| format!("no screenshot: {e}"))?;
    raster::decode_png(&bytes)
}

fn compare_in_browser(input: &str, multipage: bool) {
    let Some(browser) = chromium() else {
        require("chromium");
        return;
    };
    if !require("rsvg-convert") {
        return;
    }
    let chart = chart_of(input, multipage);
    let mut svg = Vec::new();
    write_svg(&chart, &SvgOptions::default(), &mut svg).expect("write SVG");
    let reference = raster::svg_to_png_at(&svg, CSS_DPI).expect("rsvg-convert");
    let size = (reference.width, reference.height);
    assert_eq!(size, (864, 576 * chart.pages.len() as u32), "rsvg's size");
    let shot = screenshot(&svg, browser, size).expect("chromium screenshot");
    assert_eq!((shot.width, shot.height), size, "screenshot size");
    assert!(shot.ink() > 0.05, "the screenshot is (nearly) blank");
    let c = raster::compare(&reference, &shot).expect("same size");
    eprintln!("chromium vs rsvg, {input}: {}", c.summary());
    if !c.same_picture() || std::env::var_os("SAME_PICTURE_SAVE").is_some() {
        let tag = format!("browser-{input}");
        let images = [
            ("rsvg", &reference),
            ("chromium", &shot),
            ("diff", &c.diff_image(&reference)),
        ];
        let dir = raster::save_images(&tag, &images);
        eprintln!("images in {}", dir.display());
    }
    assert!(
        c.same_picture(),
        "chromium and rsvg differ on {input}: {}",
        c.summary()
    );
}

#[test]
fn chromium_draws_a_real_profile_like_rsvg() {
    // A GHC profile with UTF-8 names: Latin ones placed glyph by glyph, CJK and Greek
    // ones laid out by the renderer.
    compare_in_browser("unicode-O0-hc.hp", false);
}

#[test]
fn chromium_draws_stacked_pages_like_rsvg() {
    // -M: the key page above the graph page.
    compare_in_browser("spec7-01-manpage.hp", true);
}
