//! Othello as the course's Python framework runs it: students' agents are Python modules importing
//! `othello_shared.py` (the project's copy is in `python/`).
//!
//! - [`conformance`]: calls a student's search functions on fixed and random boards and compares them with the
//!   reference.

pub mod conformance;
