//! Telling a student *which* bug their output shows, and the smallest input that shows it.
//!
//! Per game: [`takestones`]; for any program that never got as far as printing: [`startup`]. Built on the reference (what is right) and the harness runner (what the submission
//! prints); the `referee check` command drives it.

pub mod startup;
pub mod takestones;
