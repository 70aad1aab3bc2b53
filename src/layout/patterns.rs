//! Print patterns (`--pattern`): hatches and dots in black over light greys, so that
//! neighbouring bands stay apart on a black-and-white printer.
//!
//! A pattern is only described here (its background grey, its line sets, its dots); the
//! painters draw it ([`crate::layout::chart::Fill::Pattern`]) through the same generator, so
//! every format shows the same lines. Patterns alternate between a lighter and a darker
//! mean grey, and each differs from its neighbours in kind or angle too.

/// One set of parallel lines.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Hatch {
    /// Direction of the lines, in degrees anticlockwise from the x axis.
    pub angle: f64,
    /// Distance between neighbouring lines, in points.
    pub spacing: f64,
    /// Line width, in points.
    pub width: f64,
}

/// A grid of square dots.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Dots {
    /// Distance between neighbouring dots, in points (rows are staggered by half).
    pub spacing: f64,
    /// Side of a dot, in points.
    pub side: f64,
}

/// A print pattern: a grey background with black lines or dots on it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Pattern {
    /// The background grey (1 is white).
    pub background: f64,
    /// Line sets drawn over the background (two make a cross-hatch).
    pub hatches: &'static [Hatch],
    /// Dots drawn over the background.
    pub dots: Option<Dots>,
}

const fn lines(angle: f64, spacing: f64, width: f64) -> Hatch {
    Hatch {
        angle,
        spacing,
        width,
    }
}

const fn hatched(background: f64, hatches: &'static [Hatch]) -> Pattern {
    Pattern {
        background,
        hatches,
        dots: None,
    }
}

const fn dotted(background: f64, spacing: f64, side: f64) -> Pattern {
    Pattern {
        background,
        hatches: &[],
        dots: Some(Dots { spacing, side }),
    }
}

/// The patterns, handed out in this order and cycled: even ones light, odd ones darker.
pub(crate) const PATTERNS: [Pattern; 12] = [
    hatched(1.0, &[lines(45.0, 4.0, 0.6)]),
    hatched(0.7, &[lines(0.0, 3.0, 0.8)]),
    dotted(0.95, 4.0, 1.4),
    hatched(0.7, &[lines(45.0, 4.0, 0.5), lines(-45.0, 4.0, 0.5)]),
    hatched(1.0, &[lines(-45.0, 4.0, 0.6)]),
    dotted(0.75, 3.0, 1.5),
    hatched(0.95, &[lines(90.0, 4.0, 0.6)]),
    hatched(0.7, &[lines(0.0, 4.0, 0.6), lines(90.0, 4.0, 0.6)]),
    hatched(1.0, &[lines(0.0, 5.0, 0.5)]),
    hatched(0.75, &[lines(45.0, 2.5, 0.6)]),
    hatched(0.9, &[lines(0.0, 6.0, 0.4), lines(90.0, 6.0, 0.4)]),
    hatched(0.7, &[lines(-45.0, 2.5, 0.6)]),
];

/// The pattern of slot `slot` (the band's place in its palette, as for colours).
pub(crate) fn pattern(slot: usize) -> Pattern {
    PATTERNS[slot % PATTERNS.len()]
}

impl Pattern {
    /// The share of the area the ink covers, roughly (overlaps of crossing lines are
    /// counted once).
    pub fn coverage(&self) -> f64 {
        let mut clear = 1.0;
        for h in self.hatches {
            clear *= 1.0 - (h.width / h.spacing).min(1.0);
        }
        if let Some(d) = self.dots {
            clear *= 1.0 - (d.side * d.side / (d.spacing * d.spacing)).min(1.0);
        }
        1.0 - clear
    }

    /// The mean grey the pattern prints as (1 is white).
    pub fn mean_grey(&self) -> f64 {
        self.background * (1.0 - self.coverage())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_patterns_print_as_different_greys() {
        let n = PATTERNS.len();
        for i in 0..n {
            let (a, b) = (pattern(i).mean_grey(), pattern(i + 1).mean_grey());
            assert!((a - b).abs() > 0.15, "patterns {i} and {}: {a} {b}", i + 1);
        }
    }

    #[test]
    fn backgrounds_are_light_greys() {
        for p in PATTERNS {
            assert!((0.7..=1.0).contains(&p.background));
            assert!(p.coverage() > 0.05 && p.coverage() < 0.35);
        }
    }
}
