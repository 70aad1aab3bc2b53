//! Rendering with the external programs: ghostscript (EPS), rsvg-convert (SVG),
//! pdftocairo (PDF), and where failing comparisons keep their images.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::super::run::{Cmd, Sink};
use super::super::scratch::TempDir as Scratch;
use super::{decode_ppm, encode_png, Image, DPI};

/// Runs a tool with stdout/stderr in files of `dir` (chromium's chatter can be large),
/// killing its process group if it outlives `timeout`. Returns its stderr on failure.
pub fn run(cmd: Cmd, dir: &Path, timeout: Duration) -> Result<(), String> {
    let log = |name: &str| std::fs::File::create(dir.join(name)).map_err(|e| e.to_string());
    let program = format!("{:?}", cmd.program());
    let ran = cmd
        .stdout(Sink::File(log("stdout.log")?))
        .stderr(Sink::File(log("stderr.log")?))
        .timeout(timeout)
        .try_run()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if ran.timed_out {
        return Err(format!("{program} timed out after {timeout:?}"));
    }
    if ran.status.success() {
        Ok(())
    } else {
        let stderr = std::fs::read(dir.join("stderr.log")).unwrap_or_default();
        Err(format!(
            "{program} failed ({}): {}",
            ran.status,
            String::from_utf8_lossy(&stderr)
        ))
    }
}

const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

/// A page to render an EPS on: its size, and where the EPS's origin goes, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageGeometry {
    pub width: f64,
    pub height: f64,
    pub origin: (f64, f64),
}

/// The border box itself: the EPS draws it from the origin.
pub const BORDER_PAGE: PageGeometry = PageGeometry {
    width: 648.0,
    height: 432.0,
    origin: (0.0, 0.0),
};

/// Renders an EPS (one image per page) with ghostscript on a 648 × 432 pt page: the EPS
/// draws its border box from the origin, and its bounding box is slightly larger than
/// the border box, so EPSCrop would misalign it.
pub fn eps_to_pngs(eps: &[u8]) -> Result<Vec<Image>, String> {
    eps_to_pngs_on(eps, BORDER_PAGE)
}

/// Renders an EPS (one image per page) with ghostscript on the given page.
///
/// Ghostscript's fill adjustment is turned off on every page: by default it widens every
/// filled and stroked edge by 0.3 pixel (emulating PostScript's "any part of a pixel"
/// rule), so a 0.5 pt line covers a whole pixel black where the exact coverage is 70 %.
/// The other renderers draw exact coverage; with dense strokes (hundreds of spikes in a
/// long run) the widened lines darken whole areas. This changes the rasterisation only,
/// not the picture.
pub fn eps_to_pngs_on(eps: &[u8], page: PageGeometry) -> Result<Vec<Image>, String> {
    let dir = Scratch::in_tmp("gs");
    let input = dir.write("in.eps", eps);
    let (x, y) = page.origin;
    let begin_page =
        format!("<< /BeginPage {{ pop 0 0 .setfilladjust2 {x} {y} translate }} >> setpagedevice");
    let cmd = Cmd::new("gs")
        .args([
            "-q",
            "-dSAFER",
            "-dBATCH",
            "-dNOPAUSE",
            // Raw PPM: decoding PNG is most of the run time in unoptimised test builds.
            "-sDEVICE=ppmraw",
            &format!("-r{DPI}"),
            &format!("-dDEVICEWIDTHPOINTS={}", page.width),
            &format!("-dDEVICEHEIGHTPOINTS={}", page.height),
            "-dFIXEDMEDIA",
            "-dTextAlphaBits=4",
            "-dGraphicsAlphaBits=4",
        ])
        .arg(format!(
            "-sOutputFile={}",
            dir.path().join("page-%04d.ppm").display()
        ))
        .args(["-c", &begin_page, "-f"])
        .arg(&input);
    run(cmd, dir.path(), TOOL_TIMEOUT)?;
    dir.images("page-", ".ppm", decode_ppm)
}

/// Renders an SVG with rsvg-convert at [`DPI`] (its size is in pt).
pub fn svg_to_png(svg: &[u8]) -> Result<Image, String> {
    svg_to_png_at(svg, DPI)
}

pub fn svg_to_png_at(svg: &[u8], dpi: u32) -> Result<Image, String> {
    let dir = Scratch::in_tmp("rsvg");
    let input = dir.write("in.svg", svg);
    let cmd = Cmd::new("rsvg-convert")
        .args(["--dpi-x", &dpi.to_string(), "--dpi-y", &dpi.to_string()])
        .args(["-f", "png", "-o"])
        .arg(dir.path().join("out.png"))
        .arg(&input);
    run(cmd, dir.path(), TOOL_TIMEOUT)?;
    let mut pages = dir.pngs("out")?;
    pages
        .pop()
        .ok_or_else(|| "rsvg-convert wrote no PNG".to_string())
}

/// Renders a PDF (one image per page) with pdftocairo (poppler's cairo backend) at
/// [`DPI`].
///
/// Not pdftoppm: its Splash backend always snaps strokes to whole pixels (stroke
/// adjustment, with no switch to turn it off), which moves every 0.5 pt line by up to half
/// a pixel and draws it solid, so every key box and tick differs from the exact
/// rendering of ghostscript, rsvg or a browser. pdftocairo comes in the same package
/// (poppler-utils) and draws exact coverage, as long as lines are at least one pixel
/// wide (below that poppler widens them to one pixel; at 150 dpi 0.5 pt is 1.04 pixels).
pub fn pdf_to_pngs(pdf: &[u8]) -> Result<Vec<Image>, String> {
    let dir = Scratch::in_tmp("pdftocairo");
    let input = dir.write("in.pdf", pdf);
    let cmd = Cmd::new("pdftocairo")
        .args(["-png", "-r", &DPI.to_string()])
        .arg(&input)
        .arg(dir.path().join("page"));
    run(cmd, dir.path(), TOOL_TIMEOUT)?;
    dir.pngs("page")
}

/// Where failing comparisons leave their images: `<target dir>/same-picture/`.
pub fn failure_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp for integration tests.
    let target = match option_env!("CARGO_TARGET_TMPDIR") {
        Some(tmp) => Path::new(tmp)
            .parent()
            .map_or_else(|| PathBuf::from("target"), Path::to_path_buf),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
    };
    target.join("same-picture")
}

/// Saves images as `<failure dir>/<tag>-<name>.png`; returns the directory.
pub fn save_images(tag: &str, images: &[(&str, &Image)]) -> PathBuf {
    let dir = failure_dir();
    let _ = std::fs::create_dir_all(&dir);
    let safe: String = tag
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    for (name, image) in images {
        let path = dir.join(format!("{safe}-{name}.png"));
        if let Ok(mut f) = std::fs::File::create(&path) {
            let _ = f.write_all(&encode_png(image));
        }
    }
    dir
}
