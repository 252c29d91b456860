//! The numeric values a search compares.

use std::fmt::Debug;

/// A search value: totally ordered in practice (no NaN ever reaches the search), with a worst value for each side.
pub trait Value: Copy + PartialOrd + Debug {
    /// Lower than any value Max can get: the starting `v` of a Max node.
    const MIN_BOUND: Self;
    /// Higher than any value Min can get: the starting `v` of a Min node.
    const MAX_BOUND: Self;
}

impl Value for f64 {
    const MIN_BOUND: Self = f64::NEG_INFINITY;
    const MAX_BOUND: Self = f64::INFINITY;
}

impl Value for i32 {
    const MIN_BOUND: Self = i32::MIN;
    const MAX_BOUND: Self = i32::MAX;
}

impl Value for i64 {
    const MIN_BOUND: Self = i64::MIN;
    const MAX_BOUND: Self = i64::MAX;
}
