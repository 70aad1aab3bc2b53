//! The frames' colours. A cost centre's frame takes its module's colour: one lightness
//! and chroma in Oklab, a hue from the module's name alone (FNV-1a, as `--colour-by
//! name`), so that a module has one colour in every picture and page, and black labels
//! read on all of them (at least 7:1). The runtime's own cost centres (`MAIN`, `SYSTEM`,
//! `GC`, `IDLE`, `OVERHEAD_of`, `PINNED`, `DONT_CARE`) are grey. A differential flame
//! graph's frame is red where its stack's own share grew, blue where it shrank, the
//! stronger the more, white where it did not change.

use crate::calltree::CostCentre;
use crate::layout::palettes::{oklch, slot_for_name};

/// The modules the runtime's own cost centres are in.
const RUNTIME: [&str; 7] = [
    "MAIN",
    "SYSTEM",
    "GC",
    "IDLE",
    "OVERHEAD_of",
    "PINNED",
    "DONT_CARE",
];

/// The grey of the runtime's own cost centres.
const RUNTIME_GREY: [u8; 3] = [0xd4, 0xd6, 0xda];

/// How many hues the modules are spread over.
const HUES: usize = 36;

/// The fill of a frame of cost centre `cc`: its module's hue, a little lighter or
/// darker by its label (so that neighbours of one module tell apart).
pub(crate) fn module_fill(cc: CostCentre<'_>) -> [u8; 3] {
    if RUNTIME.contains(&cc.module) {
        return RUNTIME_GREY;
    }
    let shade = slot_for_name(cc.label.as_bytes(), 5) as f32;
    oklch(0.83 + 0.02 * shade, 0.075, module_hue(cc.module))
}

/// A module's hue, in degrees: from its name alone.
pub(crate) fn module_hue(module: &str) -> f32 {
    (slot_for_name(module.as_bytes(), HUES) * 360 / HUES) as f32
}

/// The fill of a differential frame whose own share changed by `change` (percentage
/// points), `most` the largest change of any: white to red (more) or blue (less).
pub(crate) fn change_fill(change: f64, most: f64) -> [u8; 3] {
    let t = if most > 0.0 && change.is_finite() {
        (change.abs() / most).clamp(0.0, 1.0)
    } else {
        0.0
    };
    // Lightness down and chroma up with the change: pale for a small one.
    let (l, c) = (0.97 - 0.25 * t as f32, 0.16 * t as f32);
    let hue = if change > 0.0 { 25.0 } else { 255.0 };
    oklch(l, c, hue)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::palettes::contrast;

    #[test]
    fn every_module_colour_reads_black_labels() {
        for slot in 0..HUES {
            for shade in 0..5 {
                let c = oklch(
                    0.83 + 0.02 * shade as f32,
                    0.075,
                    (slot * 360 / HUES) as f32,
                );
                assert!(contrast(c, [0, 0, 0]) >= 7.0, "{c:?}");
            }
        }
        for change in [-3.0, -1.0, 0.0, 0.5, 3.0] {
            assert!(contrast(change_fill(change, 3.0), [0, 0, 0]) >= 7.0);
        }
    }

    #[test]
    fn a_module_has_one_colour_and_the_runtime_is_grey() {
        let cc = |module| CostCentre {
            label: "f",
            module,
            src: "",
            is_caf: false,
        };
        assert_eq!(module_fill(cc("Data.Map")), module_fill(cc("Data.Map")));
        assert_eq!(module_fill(cc("GC")), RUNTIME_GREY);
        let (more, less) = (change_fill(2.0, 2.0), change_fill(-2.0, 2.0));
        assert!(more[0] > more[2] && less[2] > less[0], "{more:?} {less:?}");
        assert_eq!(change_fill(0.0, 0.0), change_fill(0.0, 5.0));
    }
}
