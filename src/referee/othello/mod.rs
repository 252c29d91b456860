//! Othello under the referee: students' agents are Python programs importing `othello_shared.py` (the project's
//! copy is in `python/`).
//!
//! - [`play`]: games between agents speaking the course's game-manager protocol.
//! - [`conformance`]: calls a student's search functions on fixed and random boards and compares them with the
//!   reference.

pub mod conformance;
pub mod play;
