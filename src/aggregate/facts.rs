//! What the page of a long profile read in parts (`crate::profile::keep`) is given
//! instead of the points of the bands it does not draw: aggregation takes these where
//! it would work them out from every point.

use crate::profile::BandNumbers;

/// What the page of a long profile read in parts (`crate::profile::keep`) needs of every
/// band that the drawn bands' points cannot give: every band's numbers for its table,
/// and the stack of every band at each sample.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PageFacts {
    /// Every band's numbers, biggest area first, as `every_band` (`numbers.rs`) makes them.
    pub(crate) table: Vec<BandNumbers>,
    /// The height of every band stacked at each sample, as
    /// [`crate::profile::stack_heights`] gives it.
    pub(crate) heights: Vec<f64>,
}
