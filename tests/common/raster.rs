//! Rasterising the painters' outputs with external programs (ghostscript for EPS,
//! rsvg-convert for SVG, pdftoppm for PDF, chromium in `tests/browser.rs`) and deciding
//! whether two renderings are the same picture.
//!
//! Include with `#[path = "common/raster.rs"] mod raster;`.
//!
//! # The comparison
//!
//! The renderers differ in anti-aliasing and fonts (ghostscript draws Helvetica with
//! Nimbus Sans, the others with whatever fontconfig picks), so a pixel-exact comparison
//! is useless, while a blurred one hides moved text. [`compare`] is a tolerant
//! pixel comparison:
//!
//! 1. A pixel of A *matches* B when each of its channels lies within the channel range
//!    (min … max) of B's 3 × 3 neighbourhood around the same place, give or take
//!    [`Tolerance::channel`]. This absorbs anti-aliasing and a one-pixel shift of an edge
//!    (at 100 dpi a pixel is 0.72 pt), but not a colour change or a move of a few points.
//! 2. The test runs both ways (A against B, B against A), so something missing from
//!    either side counts.
//! 3. Two numbers decide: the share of differing pixels in the whole image, and the
//!    largest number of differing pixels in any [`Tolerance::window`]-sized square.
//!    Font differences give a sprinkling of isolated pixels along glyph edges; a moved
//!    label or a changed fill gives a dense cluster, which the window count catches even
//!    when the whole-image share stays tiny.

#![allow(dead_code)]

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Resolution of every rendering: 648 × 432 pt becomes 900 × 600 pixels.
pub const DPI: u32 = 100;
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
    /// Slack, per channel, outside the neighbourhood's range.
    pub channel: u8,
    /// Largest share of differing pixels in the whole image.
    pub max_share: f64,
    /// Side of the square in which differing pixels are counted.
    pub window: u32,
    /// Largest number of differing pixels in any window.
    pub max_in_window: usize,
}

/// Tuned on the golden inputs (see the report in `tests/same_picture.rs`).
pub const TOLERANCE: Tolerance = Tolerance {
    channel: 64,
    max_share: 0.002,
    window: 16,
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
            "{} differing pixels ({:.4}%, limit {:.2}%), densest {}×{} window {} at {:?} (limit {})",
            self.differing,
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
    let (a_min, a_max) = neighbourhood_range(a);
    let (b_min, b_max) = neighbourhood_range(b);
    let slack = i16::from(tolerance.channel);
    let outside = |v: u8, lo: u8, hi: u8| {
        let v = i16::from(v);
        v < i16::from(lo) - slack || v > i16::from(hi) + slack
    };
    let mut mask = vec![false; w * h];
    for (i, m) in mask.iter_mut().enumerate() {
        *m = (3 * i..3 * i + 3).any(|c| {
            outside(a.rgb[c], b_min[c], b_max[c]) || outside(b.rgb[c], a_min[c], a_max[c])
        });
    }
    let differing = mask.iter().filter(|&&m| m).count();
    let (densest, densest_at) = densest_window(&mask, w, h, tolerance.window as usize);
    Ok(Comparison {
        width: a.width,
        height: a.height,
        mask,
        differing,
        densest,
        densest_at,
        tolerance,
    })
}

/// Per channel, the min and max over each pixel's 3 × 3 neighbourhood (clipped at the
/// edges), computed separably: rows first, then columns.
fn neighbourhood_range(img: &Image) -> (Vec<u8>, Vec<u8>) {
    let (w, h) = (img.width as usize, img.height as usize);
    let pass = |src: &[u8], pick: fn(u8, u8) -> u8, horizontal: bool| {
        let mut dst = src.to_vec();
        let step = if horizontal { 3 } else { 3 * w };
        let len = if horizontal { w } else { h };
        for (i, d) in dst.iter_mut().enumerate() {
            let pos = if horizontal { (i / 3) % w } else { i / (3 * w) };
            let mut v = src[i];
            if pos > 0 {
                v = pick(v, src[i - step]);
            }
            if pos + 1 < len {
                v = pick(v, src[i + step]);
            }
            *d = v;
        }
        dst
    };
    let min_rows = pass(&img.rgb, u8::min, true);
    let max_rows = pass(&img.rgb, u8::max, true);
    (
        pass(&min_rows, u8::min, false),
        pass(&max_rows, u8::max, false),
    )
}

/// The largest count of set pixels in any `side` × `side` square, via a summed-area
/// table, and where it is.
fn densest_window(mask: &[bool], w: usize, h: usize, side: usize) -> (usize, (u32, u32)) {
    let mut sum = vec![0usize; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0;
        for x in 0..w {
            row += usize::from(mask[y * w + x]);
            sum[(y + 1) * (w + 1) + x + 1] = sum[y * (w + 1) + x + 1] + row;
        }
    }
    let side_x = side.min(w);
    let side_y = side.min(h);
    let mut best = (0, (0, 0));
    for y in 0..=h - side_y {
        for x in 0..=w - side_x {
            let at = |yy: usize, xx: usize| sum[yy * (w + 1) + xx];
            let count =
                at(y + side_y, x + side_x) + at(y, x) - at(y, x + side_x) - at(y + side_y, x);
            if count > best.0 {
                best = (count, (x as u32, y as u32));
            }
        }
    }
    best
}

// ---------------------------------------------------------------------------------------
// Tools

/// CI installs every tool, so there a missing one fails instead of skipping.
pub fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(v) => !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false")),
        Err(_) => false,
    }
}

/// Finds a program on `PATH`.
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Whether every tool is there; if not, prints a loud skip message, or panics under CI.
pub fn require_tools(names: &[&str], install_hint: &str) -> bool {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| find_tool(n).is_none())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let message = format!("SKIPPED: {} not found ({install_hint})", missing.join(", "));
    assert!(
        !in_ci(),
        "{message}; CI is set, so a missing tool fails the test"
    );
    eprintln!("\n*** {message} ***\n");
    false
}

/// A fresh directory under the system temp dir, removed on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir =
                std::env::temp_dir().join(format!("hp2ps-raster-{}-{tag}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Scratch(dir),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", dir.display()),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        path
    }

    /// The PNG files in the directory whose names start with `prefix`, in name order
    /// (the page numbers that renderers append are zero-padded to equal width).
    pub fn pngs(&self, prefix: &str) -> Result<Vec<Image>, String> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.0)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                name.is_some_and(|n| n.starts_with(prefix) && n.ends_with(".png"))
            })
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| {
                let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                decode_png(&bytes).map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs a command in its own process group with stdout/stderr in files of `dir`, and
/// kills that group (by our child's id) if it outlives `timeout`. Returns its stderr
/// on failure.
pub fn run(mut cmd: Command, dir: &Path, timeout: Duration) -> Result<(), String> {
    let program = format!("{:?}", cmd.get_program());
    let log = |name: &str| std::fs::File::create(dir.join(name)).map_err(|e| e.to_string());
    cmd.stdin(Stdio::null())
        .stdout(log("stdout.log")?)
        .stderr(log("stderr.log")?);
    // Its own group: chromium forks helpers, which must die with it.
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > timeout {
            let group = child.id() as i32;
            // SAFETY: plain kill(2) of the process group we created for our child.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
            let _ = child.wait();
            return Err(format!("{program} timed out after {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if status.success() {
        Ok(())
    } else {
        let stderr = std::fs::read(dir.join("stderr.log")).unwrap_or_default();
        Err(format!(
            "{program} failed ({status}): {}",
            String::from_utf8_lossy(&stderr)
        ))
    }
}

const TOOL_TIMEOUT: Duration = Duration::from_secs(60);

/// Renders an EPS (one image per page) with ghostscript on a 648 × 432 pt page: the EPS
/// draws its border box from the origin, and its bounding box is slightly larger than
/// the border box, so EPSCrop would misalign it.
pub fn eps_to_pngs(eps: &[u8]) -> Result<Vec<Image>, String> {
    let dir = Scratch::new("gs");
    let input = dir.write("in.eps", eps);
    let mut cmd = Command::new("gs");
    cmd.args([
        "-q",
        "-dSAFER",
        "-dBATCH",
        "-dNOPAUSE",
        "-sDEVICE=png16m",
        &format!("-r{DPI}"),
        "-dDEVICEWIDTHPOINTS=648",
        "-dDEVICEHEIGHTPOINTS=432",
        "-dFIXEDMEDIA",
        "-dTextAlphaBits=4",
        "-dGraphicsAlphaBits=4",
    ])
    .arg(format!(
        "-sOutputFile={}",
        dir.path().join("page-%04d.png").display()
    ))
    .arg(&input);
    run(cmd, dir.path(), TOOL_TIMEOUT)?;
    dir.pngs("page-")
}

/// Renders an SVG with rsvg-convert at [`DPI`] (its size is in pt).
pub fn svg_to_png(svg: &[u8]) -> Result<Image, String> {
    let dir = Scratch::new("rsvg");
    let input = dir.write("in.svg", svg);
    let mut cmd = Command::new("rsvg-convert");
    cmd.args(["--dpi-x", &DPI.to_string(), "--dpi-y", &DPI.to_string()])
        .args(["-f", "png", "-o"])
        .arg(dir.path().join("out.png"))
        .arg(&input);
    run(cmd, dir.path(), TOOL_TIMEOUT)?;
    let mut pages = dir.pngs("out")?;
    pages
        .pop()
        .ok_or_else(|| "rsvg-convert wrote no PNG".to_string())
}

/// Renders a PDF (one image per page) with pdftoppm at [`DPI`].
pub fn pdf_to_pngs(pdf: &[u8]) -> Result<Vec<Image>, String> {
    let dir = Scratch::new("pdftoppm");
    let input = dir.write("in.pdf", pdf);
    let mut cmd = Command::new("pdftoppm");
    cmd.args(["-r", &DPI.to_string(), "-png"])
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

#[cfg(test)]
mod self_tests {
    use super::*;

    fn blank(w: u32, h: u32) -> Image {
        Image {
            width: w,
            height: h,
            rgb: vec![255; (3 * w * h) as usize],
        }
    }

    fn paint(img: &mut Image, x0: u32, y0: u32, w: u32, h: u32, c: [u8; 3]) {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                let i = 3 * (y * img.width + x) as usize;
                img.rgb[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    #[test]
    fn one_pixel_shift_passes_and_a_moved_block_fails() {
        let mut a = blank(100, 60);
        paint(&mut a, 20, 20, 10, 10, [0, 0, 0]);
        let mut shifted = blank(100, 60);
        paint(&mut shifted, 21, 20, 10, 10, [0, 0, 0]);
        assert!(compare(&a, &shifted).expect("same size").same_picture());
        let mut moved = blank(100, 60);
        paint(&mut moved, 24, 20, 10, 10, [0, 0, 0]);
        let c = compare(&a, &moved).expect("same size");
        assert!(!c.same_picture(), "{}", c.summary());
    }

    #[test]
    fn png_round_trip_and_alpha_over_white() {
        let mut a = blank(4, 3);
        paint(&mut a, 1, 1, 2, 1, [10, 20, 30]);
        assert_eq!(decode_png(&encode_png(&a)).expect("decode"), a);
        let mut rgba = Vec::new();
        {
            let mut e = png::Encoder::new(&mut rgba, 1, 1);
            e.set_color(png::ColorType::Rgba);
            e.set_depth(png::BitDepth::Eight);
            let mut w = e.write_header().expect("header");
            w.write_image_data(&[0, 0, 0, 0]).expect("data");
        }
        assert_eq!(decode_png(&rgba).expect("decode").rgb, vec![255, 255, 255]);
    }
}
