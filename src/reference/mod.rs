//! Reference implementations of the course programs, exact to the byte where the course fixes the output.
//!
//! Kept apart from `game/` (rules only) and `search/` (algorithms only): a reference program is rules + search +
//! the course's evaluation constants + its output format, and it is what every submission is graded against.
//!
//! - [`takestones`]: the Take-Stones solver, both editions (`takestones` binary, `referee takestones`).
//! - [`number`]: Java-compatible number formatting (`String.format("%.1f")`, `DecimalFormat`).

pub mod number;
pub mod takestones;
