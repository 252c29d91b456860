//! Answer keys for the written problems: each command reads a small text input, solves it exactly, and prints the
//! tables a key needs (as terminal text or as markdown to paste into a key).
//!
//! - [`tree`]: game trees (`referee tree`); [`hillclimb`]: hill-climbing on a tour (`referee hillclimb`).
//! - [`csp`]: constraint problems (forward checking, heuristics, backtracking).
//! - [`mdp`]: MDPs (exact policy evaluation, value and policy iteration).
//! - [`number`]: exact rationals (`14/3` and its decimal).
//! - [`table`]: the tables every key prints, in both formats.
//! - [`source`]: reading an input file or stdin, and errors that point at a line and column.

pub mod csp;
pub mod hillclimb;
pub mod mdp;
pub mod number;
pub mod source;
pub mod table;
pub mod tree;
