//! The conformance harness: suites of cases -> runs -> comparison -> results -> reports.
//!
//! So far it holds what the reference needs to check itself: the course's own test-case layouts
//! ([`suite::course`]), the official files compiled into the binary ([`suite::builtin`]), and the line comparison
//! ([`compare`]). The process runner and the renderers build on these.

pub mod cause;
pub mod compare;
pub mod grade;
pub mod model;
pub mod outcome;
pub mod points;
pub mod render;
pub mod runner;
pub mod suite;
