//! The page's frame: the spaces around the title and the graph, the graph's origin, and
//! hp2ps's 1-2-5 step of the ticks of either axis.

use super::chart::BORDER_WIDTH;

pub(super) const BORDER_SPACE: f64 = 5.0;
pub(super) const TITLE_INSET: f64 = 6.0;
pub(super) const TITLE_WIDTH: f64 = BORDER_WIDTH - 2.0 * BORDER_SPACE;
/// Space for the y labels left of the graph, and for the x labels below it.
const Y_LABEL_SPACE: f64 = 35.0;
const X_LABEL_SPACE: f64 = 10.0;
pub(super) const LEGEND_CLEARANCE: f64 = 15.0;
pub(super) const TARGET_TICKS: f64 = 7.0;

/// The graph origin.
pub(super) const X0: f64 = Y_LABEL_SPACE + 2.0 * BORDER_SPACE;
pub(super) const Y0: f64 = X_LABEL_SPACE + 2.0 * BORDER_SPACE;

/// hp2ps's "1-2-5" rounding of a tick step. Exact powers of ten round down to half
/// (Round(10) = 5), as in hp2ps.
pub(crate) fn round_step(y: f64) -> f64 {
    if !(y.is_finite() && y > 0.0) {
        return y;
    }
    let mut m = y;
    let mut up = 0;
    let mut down = 0;
    if m > 10.0 {
        while m > 10.0 {
            m /= 10.0;
            up += 1;
        }
    } else if m < 1.0 {
        while m < 1.0 {
            m *= 10.0;
            down += 1;
        }
    }
    let mut r = if m > 4.0 {
        5.0
    } else if m > 1.0 {
        2.0
    } else {
        1.0
    };
    for _ in 0..up {
        r *= 10.0;
    }
    for _ in 0..down {
        r /= 10.0;
    }
    r
}
