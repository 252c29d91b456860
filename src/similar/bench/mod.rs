//! Generators for measuring `similar`: disguised copies, generated programs and classes, the quality figures.

pub mod disguise;
pub mod generate;
pub mod quality;
