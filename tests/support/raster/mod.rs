//! Rasterising the painters' outputs with external programs (ghostscript for EPS,
//! rsvg-convert for SVG, pdftocairo for PDF, chromium in `tests/browser.rs`) and deciding
//! whether two renderings are the same picture.
//!
//! `support::raster`; its own tests (of the comparison) are in `tests/raster_self_tests.rs`.
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

// The parts: comparing two renderings, and rendering with the external programs.
mod comparison;
mod render;

// Each test binary uses a different part of these.
#[allow(unused_imports)]
pub use comparison::{compare, compare_with, Comparison, Tolerance, TOLERANCE};
#[allow(unused_imports)]
pub use render::{
    eps_to_pngs, eps_to_pngs_on, failure_dir, pdf_to_pngs, run, save_images, svg_to_png,
    svg_to_png_at, PageGeometry, BORDER_PAGE,
};

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
