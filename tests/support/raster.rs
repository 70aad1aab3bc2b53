//! Rasterising the painters' outputs with external programs (ghostscript for EPS,
//! rsvg-convert for SVG, pdftocairo for PDF, chromium in `tests/browser.rs`) and deciding
//! whether two renderings are the same picture.
//!
//! `support::raster`; its own tests (of the comparison) are in `tests/same_picture.rs`.
//!
//! # The renderings
//!
//! Everything is rendered at 150 dpi (a 648 × 432 pt page is 1350 × 900 pixels). At
//! 100 dpi a 0.5 pt line is thinner than a pixel, and poppler then widens it to a whole
//! pixel, so PDF renderings could not match; at 150 dpi it is 1.04 pixels. Ghostscript's
//! fill adjustment is turned off and pdftocairo is used instead of pdftoppm (see
//! [`eps_to_pngs_on`] and [`pdf_to_pngs`]): both other choices widen or snap thin lines,
//! which is rasterisation, not picture.
//!
//! # The comparison
//!
//! The renderers differ in anti-aliasing and glyph rasterisation, so a pixel-exact
//! comparison is useless, while a blurred one hides moved text. [`compare`] marks a pixel
//! as differing when either test fails:
//!
//! 1. **Shape.** The distance of a pixel of A from the range (per channel min … max) of
//!    B's 3 × 3 neighbourhood at the same place, and of B's pixel from A's range, in
//!    the worst channel. A one-pixel shift of an edge or different anti-aliasing stays
//!    inside the range (distance 0); a missing or added stroke, glyph or colour does
//!    not. The distances are averaged over 3 × 3 pixels, so an isolated pixel (a glyph
//!    stem drawn a little darker) fades while a cluster (a moved glyph) stays; a mean
//!    above [`Tolerance::shape`] (40 of 255) differs.
//! 2. **Colour.** Where both images are flat (3 × 3 range at most 6 per channel: the
//!    inside of a band, a key box, the background), the colours must agree within 12
//!    per channel. Test 1 alone would let a whole fill change by up to 40 levels (a
//!    grey 0.2 → 0.3 is 26).
//!
//! Two numbers decide: the share of differing pixels in the image (at most 0.05 %), and
//! the most differing pixels in any 24 × 24 square (at most 40). Rasteriser noise is a
//! sprinkling of isolated pixels; a moved label or a changed fill is a dense cluster,
//! which the window count catches even when the share stays tiny. Measured scores are
//! in `tests/same_picture.rs`.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::run::{Cmd, Sink};
use super::scratch::TempDir as Scratch;

/// Resolution of every rendering: 648 × 432 pt becomes 1350 × 900 pixels.
pub const DPI: u32 = 150;
/// Pixel size of one 648 × 432 pt page at [`DPI`].
pub const PAGE_WIDTH_PX: u32 = 648 * DPI / 72;
pub const PAGE_HEIGHT_PX: u32 = 432 * DPI / 72;

/// An 8-bit RGB image, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Image {
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y as usize * self.width as usize + x as usize);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Rows `top .. top + height` (clipped to the image).
    pub fn rows(&self, top: u32, height: u32) -> Image {
        let top = top.min(self.height);
        let height = height.min(self.height - top);
        let row = 3 * self.width as usize;
        let start = top as usize * row;
        Image {
            width: self.width,
            height,
            rgb: self.rgb[start..start + height as usize * row].to_vec(),
        }
    }

    /// The part `x0 .. x0 + w`, `y0 .. y0 + h` (clipped to the image).
    pub fn crop(&self, x0: u32, y0: u32, w: u32, h: u32) -> Image {
        let (x0, y0) = (x0.min(self.width), y0.min(self.height));
        let (w, h) = (w.min(self.width - x0), h.min(self.height - y0));
        let mut rgb = Vec::with_capacity(3 * (w * h) as usize);
        for y in y0..y0 + h {
            let start = 3 * (y as usize * self.width as usize + x0 as usize);
            rgb.extend_from_slice(&self.rgb[start..start + 3 * w as usize]);
        }
        Image {
            width: w,
            height: h,
            rgb,
        }
    }

    /// Share of pixels that are not white: a sanity check that something was drawn.
    pub fn ink(&self) -> f64 {
        let dark = self
            .rgb
            .chunks_exact(3)
            .filter(|p| p.iter().any(|&c| c < 250))
            .count();
        dark as f64 / (self.width as f64 * self.height as f64).max(1.0)
    }
}

/// Decodes a PNG to RGB, compositing any alpha onto white (rsvg-convert leaves the
/// background transparent; paper is white).
pub fn decode_png(bytes: &[u8]) -> Result<Image, String> {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("PNG header: {e}"))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("PNG data: {e}"))?;
    let channels = info.color_type.samples();
    let pixels = (info.width * info.height) as usize;
    let mut rgb = Vec::with_capacity(3 * pixels);
    for p in buf[..info.buffer_size()].chunks_exact(channels) {
        let (c, alpha) = match channels {
            1 => ([p[0]; 3], 255),
            2 => ([p[0]; 3], p[1]),
            3 => ([p[0], p[1], p[2]], 255),
            _ => ([p[0], p[1], p[2]], p[3]),
        };
        let over_white = |v: u8| {
            let a = u32::from(alpha);
            ((u32::from(v) * a + 255 * (255 - a) + 127) / 255) as u8
        };
        rgb.extend(c.map(over_white));
    }
    Ok(Image {
        width: info.width,
        height: info.height,
        rgb,
    })
}

/// Decodes a binary PPM (`P6`, 8 bits), as ghostscript's `ppmraw` device writes it.
pub fn decode_ppm(bytes: &[u8]) -> Result<Image, String> {
    // The header: "P6", width, height, maxval, separated by whitespace and `#` comments
    // (ghostscript writes one), then one whitespace byte and the pixels.
    let mut fields = Vec::with_capacity(4);
    let mut at = 0;
    while fields.len() < 4 {
        loop {
            match bytes.get(at) {
                Some(b) if b.is_ascii_whitespace() => at += 1,
                Some(b'#') => {
                    while bytes.get(at).is_some_and(|&b| b != b'\n') {
                        at += 1;
                    }
                }
                _ => break,
            }
        }
        let start = at;
        while bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
            at += 1;
        }
        if start == at {
            return Err("PPM header ends early".into());
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    let number = |s: &str| {
        s.parse::<u32>()
            .map_err(|e| format!("PPM header {s:?}: {e}"))
    };
    if fields[0] != "P6" || number(&fields[3])? != 255 {
        return Err(format!("not an 8-bit binary PPM: {fields:?}"));
    }
    let (width, height) = (number(&fields[1])?, number(&fields[2])?);
    let pixels = &bytes[(at + 1).min(bytes.len())..];
    let len = 3 * width as usize * height as usize;
    if pixels.len() < len {
        return Err(format!(
            "PPM has {} bytes of pixels, needs {len}",
            pixels.len()
        ));
    }
    Ok(Image {
        width,
        height,
        rgb: pixels[..len].to_vec(),
    })
}

pub fn encode_png(image: &Image) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("PNG header to a Vec");
        writer
            .write_image_data(&image.rgb)
            .expect("PNG data to a Vec");
    }
    out
}

/// How different two renderings of the same picture may be. See the module doc.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Shape test: the largest 3 × 3 mean of the out-of-range distance.
    pub shape: u8,
    /// Colour test: a pixel is flat when its 3 × 3 neighbourhood spans at most this much
    /// in every channel ...
    pub flat: u8,
    /// ... and flat pixels of the two images may differ by at most this much.
    pub colour: u8,
    /// Largest share of differing pixels in the whole image.
    pub max_share: f64,
    /// Side of the square in which differing pixels are counted.
    pub window: u32,
    /// Largest number of differing pixels in any window.
    pub max_in_window: usize,
}

/// The limits, tuned on the golden inputs (`tests/same_picture.rs`): matching renderings
/// score at most 18 differing pixels in a window and 0.0015 % of the image; the weakest
/// real change there (a key label moved 3 pt) scores 130 in a window.
pub const TOLERANCE: Tolerance = Tolerance {
    shape: 40,
    flat: 6,
    colour: 12,
    max_share: 0.0005,
    window: 24,
    max_in_window: 40,
};

/// The outcome of a comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub width: u32,
    pub height: u32,
    /// Pixels that differ (either way), row-major.
    pub mask: Vec<bool>,
    pub differing: usize,
    /// Of those, how many differ in shape and how many in the colour of a flat area.
    pub shape_differing: usize,
    pub colour_differing: usize,
    /// The most differing pixels in one window, and that window's top-left corner.
    pub densest: usize,
    pub densest_at: (u32, u32),
    pub tolerance: Tolerance,
}

impl Comparison {
    pub fn share(&self) -> f64 {
        self.differing as f64 / (self.width as f64 * self.height as f64).max(1.0)
    }

    pub fn same_picture(&self) -> bool {
        self.share() <= self.tolerance.max_share && self.densest <= self.tolerance.max_in_window
    }

    pub fn summary(&self) -> String {
        format!(
            "{} differing pixels ({} shape, {} colour; {:.4}%, limit {:.2}%), \
             densest {}×{} window {} at {:?} (limit {})",
            self.differing,
            self.shape_differing,
            self.colour_differing,
            100.0 * self.share(),
            100.0 * self.tolerance.max_share,
            self.tolerance.window,
            self.tolerance.window,
            self.densest,
            self.densest_at,
            self.tolerance.max_in_window
        )
    }

    /// A picture of the differences: A faded, differing pixels in red.
    pub fn diff_image(&self, a: &Image) -> Image {
        let mut rgb = Vec::with_capacity(a.rgb.len());
        for (p, &bad) in a.rgb.chunks_exact(3).zip(&self.mask) {
            if bad {
                rgb.extend_from_slice(&[255, 0, 0]);
            } else {
                rgb.extend(p.iter().map(|&c| 192 + c / 4));
            }
        }
        Image {
            width: a.width,
            height: a.height,
            rgb,
        }
    }
}

/// Channel differences up to this are rounding, not a difference.
const NEAR: u8 = 2;

/// Compares two renderings of the same size with the default [`TOLERANCE`].
pub fn compare(a: &Image, b: &Image) -> Result<Comparison, String> {
    compare_with(a, b, TOLERANCE)
}

pub fn compare_with(a: &Image, b: &Image, tolerance: Tolerance) -> Result<Comparison, String> {
    if (a.width, a.height) != (b.width, b.height) {
        return Err(format!(
            "sizes differ: {}×{} vs {}×{}",
            a.width, a.height, b.width, b.height
        ));
    }
    let (w, h) = (a.width as usize, a.height as usize);
    // A pixel equal in both images lies inside the other's neighbourhood range and has no
    // colour difference, so only the pixels that differ need the neighbourhood work (this
    // keeps the comparison fast in unoptimised test builds). Differences of a level or
    // two (how a renderer rounds 0.3 × 255) count as equal: they are far below both
    // limits.
    let mut distance: Vec<(usize, u8)> = Vec::new();
    let mut colour_bad: Vec<usize> = Vec::new();
    let row = 3 * w;
    for y in 0..h {
        let (ra, rb) = (
            &a.rgb[y * row..(y + 1) * row],
            &b.rgb[y * row..(y + 1) * row],
        );
        if ra == rb {
            continue;
        }
        for x in 0..w {
            let (pa, pb) = (&ra[3 * x..3 * x + 3], &rb[3 * x..3 * x + 3]);
            let near = |c: usize| pa[c].abs_diff(pb[c]) <= NEAR;
            if near(0) && near(1) && near(2) {
                continue;
            }
            let (na, nb) = (range_at(a, x, y), range_at(b, x, y));
            let d = beyond(pa, nb).max(beyond(pb, na));
            if d > 0 {
                distance.push((y * w + x, d));
            }
            let off_colour = (0..3).any(|c| pa[c].abs_diff(pb[c]) > tolerance.colour);
            if off_colour && flat(na, tolerance.flat) && flat(nb, tolerance.flat) {
                colour_bad.push(y * w + x);
            }
        }
    }
    let shape_bad = mean_above(&distance, w, h, tolerance.shape);
    let mut mask = vec![false; w * h];
    let mut bad = Vec::with_capacity(shape_bad.len() + colour_bad.len());
    for &i in shape_bad.iter().chain(&colour_bad) {
        if !mask[i] {
            mask[i] = true;
            bad.push(i);
        }
    }
    let (densest, densest_at) = densest_window(&bad, w, h, tolerance.window as usize);
    Ok(Comparison {
        width: a.width,
        height: a.height,
        mask,
        differing: bad.len(),
        shape_differing: shape_bad.len(),
        colour_differing: colour_bad.len(),
        densest,
        densest_at,
        tolerance,
    })
}

/// Per channel, the (min, max) over the 3 × 3 neighbourhood of (x, y), clipped at the
/// image's edges.
fn range_at(img: &Image, x: usize, y: usize) -> ([u8; 3], [u8; 3]) {
    let w = img.width as usize;
    let (x0, x1) = (x.saturating_sub(1), (x + 1).min(w - 1));
    let (y0, y1) = (y.saturating_sub(1), (y + 1).min(img.height as usize - 1));
    let (mut lo, mut hi) = ([255u8; 3], [0u8; 3]);
    for yy in y0..=y1 {
        for p in img.rgb[3 * (yy * w + x0)..3 * (yy * w + x1 + 1)].chunks_exact(3) {
            for c in 0..3 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
    }
    (lo, hi)
}

/// How far, in the worst channel, a pixel lies outside a neighbourhood's range.
fn beyond(p: &[u8], (lo, hi): ([u8; 3], [u8; 3])) -> u8 {
    (0..3)
        .map(|c| lo[c].saturating_sub(p[c]).max(p[c].saturating_sub(hi[c])))
        .max()
        .unwrap_or(0)
}

/// A neighbourhood is flat when it spans at most `limit` in every channel.
fn flat((lo, hi): ([u8; 3], [u8; 3]), limit: u8) -> bool {
    (0..3).all(|c| hi[c] - lo[c] <= limit)
}

/// The pixels where the mean of the distances over the 3 × 3 neighbourhood (zero
/// elsewhere and outside the image) exceeds `limit`: isolated outliers (a stem drawn
/// darker, one edge pixel) fade, clusters stay. The sums are spread from the few
/// non-zero distances.
fn mean_above(distance: &[(usize, u8)], w: usize, h: usize, limit: u8) -> Vec<usize> {
    let limit = 9 * u32::from(limit);
    let mut sums = vec![0u32; w * h];
    let mut above = Vec::new();
    for &(i, d) in distance {
        let (x, y) = (i % w, i / w);
        for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
            for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                let j = yy * w + xx;
                let before = sums[j];
                sums[j] += u32::from(d);
                // Sums only grow: each pixel crosses the limit once.
                if before <= limit && sums[j] > limit {
                    above.push(j);
                }
            }
        }
    }
    above
}

/// The largest count of the given pixels in any `side` × `side` square inside the
/// image, and that square's top-left corner. Counts are spread from the pixels.
fn densest_window(pixels: &[usize], w: usize, h: usize, side: usize) -> (usize, (u32, u32)) {
    let (sx, sy) = (side.min(w), side.min(h));
    let (cols, rows) = (w - sx + 1, h - sy + 1);
    let mut counts = vec![0u32; cols * rows];
    let mut best = (0, (0, 0));
    for &i in pixels {
        let (x, y) = (i % w, i / w);
        for wy in (y + 1).saturating_sub(sy)..=y.min(rows - 1) {
            for wx in (x + 1).saturating_sub(sx)..=x.min(cols - 1) {
                let c = &mut counts[wy * cols + wx];
                *c += 1;
                if *c as usize > best.0 {
                    best = (*c as usize, (wx as u32, wy as u32));
                }
            }
        }
    }
    best
}

// ---------------------------------------------------------------------------------------
// Tools

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
